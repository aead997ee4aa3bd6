import { eq } from "drizzle-orm";
import { sessions, users, type User } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { LoginBody } from "~/lib/schemas/session";
import { randomToken, sha256Hex } from "~/lib/tokens";
import { SESSION_ABSOLUTE_MS } from "./actor.server";
import type { ServiceContext } from "./context.server";
import { hashPassword, needsRehash, verifyAgainstDummy, verifyPassword } from "./passwords.server";
import { guardAttempt, recordFailure, recordSuccess } from "./rate-limit.server";
import { isTrustedDevice } from "./trusted-devices.server";

/**
 * Signs a user in with email and password and opens a new session (a fresh id every time, so a
 * planted cookie is never adopted). Unknown emails cost the same hashing time and give the same
 * answer as a wrong password. Rate-limited before hashing (RATE_LIMITED, ACCOUNT_LOCKED), an
 * unknown email counted under its own name exactly like an account.
 *
 * A user with two-factor gets a session still waiting for the code (`tfaVerified: false`), unless
 * `trustedDeviceToken` (the trusted-device cookie) names a live trusted device of that user.
 *
 * @example const { sessionToken, tfaVerified } = await login(ctx, { email, password, isTrusted: false }, readTrustedDeviceToken(request));
 */
export async function login(
  ctx: ServiceContext,
  input: LoginBody,
  trustedDeviceToken?: string | null,
): Promise<{ sessionToken: string; userId: string; tfaVerified: boolean }> {
  const email = input.email.trim().toLowerCase();
  const user = await ctx.db.select().from(users).where(eq(users.email, email)).get();
  const attempt = await guardAttempt(ctx, { kind: "login", account: user?.id ?? email, ip: ctx.request.ip });
  const ok = user?.passwordHash ? await verifyPassword(input.password, user.passwordHash) : await verifyAgainstDummy(input.password);
  if (!user || !ok) {
    await recordFailure(ctx, attempt);
    throw new AppError("INCORRECT_PASSWORD", { invalid: ["email", "password"] });
  }
  await recordSuccess(ctx, attempt);

  const tfaVerified = !user.tfaEnabled || (await isTrustedDevice(ctx.db, user.id, trustedDeviceToken));
  const sessionToken = await createSession(ctx, user, { tfaVerified });
  if (needsRehash(user.passwordHash!)) {
    await ctx.db.update(users).set({ passwordHash: await hashPassword(input.password) }).where(eq(users.id, user.id));
  }
  return { sessionToken, userId: user.id, tfaVerified };
}

const SUDO_MAX_MS = 60 * 60 * 1000;

/**
 * Opens a new session for a user and answers its cookie token (only the token's hash is stored).
 * Every sign-in, password reset and welcome gets a fresh one, so a planted cookie is never adopted.
 */
export async function createSession(
  ctx: ServiceContext,
  user: Pick<User, "id">,
  options: { tfaVerified: boolean; sudoUserId?: string | null },
): Promise<string> {
  const sessionToken = randomToken(32);
  const now = new Date();
  await ctx.db.batch([
    ctx.db.insert(sessions).values({
      id: await sha256Hex(sessionToken),
      userId: user.id,
      sudoUserId: options.sudoUserId ?? null,
      createdAt: now,
      lastSeenAt: now,
      // Sudo is time-boxed to an hour (SECURITY.md 12).
      expiresAt: new Date(now.getTime() + (options.sudoUserId ? SUDO_MAX_MS : SESSION_ABSOLUTE_MS)),
      tfaVerified: options.tfaVerified,
      userAgent: ctx.request.userAgent?.slice(0, 300) ?? null,
      ip: ctx.request.ip,
    }),
    ctx.db.update(users).set({ lastSeenAt: now }).where(eq(users.id, user.id)),
  ]);
  return sessionToken;
}

/** Ends the session of this cookie token, if any; safe to repeat. */
export async function logout(ctx: ServiceContext, sessionToken: string | null): Promise<void> {
  if (!sessionToken) return;
  await ctx.db.delete(sessions).where(eq(sessions.id, await sha256Hex(sessionToken)));
}
