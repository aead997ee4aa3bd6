import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { accounts, oneTimeTokens, sessions, users, type Account, type OneTimeTokenKind, type User } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { ConfirmWelcomeBody, EmailMessage, RecoverPasswordBody, ResetPasswordBody, VerifyPasswordBody } from "~/lib/schemas/recovery";
import type { UserView } from "~/lib/schemas/session";
import { randomToken, sha256Hex } from "~/lib/tokens";
import { auditStatement } from "./audit.server";
import { createSession } from "./auth.server";
import { clearHardStop } from "./rate-limit.server";
import type { ServiceContext } from "./context.server";
import { emailStrings, enqueueEmail, renderLinkEmail, type MailContext } from "./email.server";
import { assertAcceptablePassword, hashPassword, verifyAgainstDummy, verifyPassword } from "./passwords.server";
import { assertNotSudo, requireSignedIn } from "./policy";
import { toUserView } from "./session-view.server";

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
export const WELCOME_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const LINKS = {
  reset: { path: "/login/reset", ttl: RESET_TOKEN_TTL_MS, footer: "resetExpiry" },
  welcome: { path: "/welcome", ttl: WELCOME_TOKEN_TTL_MS, footer: "welcomeExpiry" },
} as const satisfies Record<OneTimeTokenKind, { path: string; ttl: number; footer: string }>;

const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

/**
 * Where links in an account's emails point: its white-label domain while that is active, else the
 * product's own origin. Always from stored data, never from the request's Host or
 * X-Forwarded-Host (SECURITY.md 11), so a forged header cannot redirect a reset link.
 */
export function accountOrigin(env: MailContext["env"], account: Pick<Account, "customDomain" | "domainDisabledAt">): string {
  const domain = account.customDomain?.toLowerCase();
  if (domain && !account.domainDisabledAt && HOST_NAME.test(domain)) return `https://${domain}`;
  return new URL(env.APP_ORIGIN).origin;
}

/**
 * Issues a single-use link token for a user and queues the email that carries it. Only the
 * token's SHA-256 is stored; the user's older unused tokens of the same kind stop working.
 */
async function sendLinkEmail(ctx: MailContext, kind: OneTimeTokenKind, user: Pick<User, "id" | "email" | "accountId">, account: Pick<Account, "customDomain" | "domainDisabledAt">, message: EmailMessage) {
  const link = LINKS[kind];
  const token = randomToken(32); // 256 bits
  const now = new Date();
  await ctx.db.batch([
    ctx.db.delete(oneTimeTokens).where(and(eq(oneTimeTokens.userId, user.id), eq(oneTimeTokens.kind, kind), isNull(oneTimeTokens.usedAt))),
    ctx.db.insert(oneTimeTokens).values({ tokenHash: await sha256Hex(token), kind, userId: user.id, createdAt: now, expiresAt: new Date(now.getTime() + link.ttl) }),
  ]);
  const url = `${accountOrigin(ctx.env, account)}${link.path}?token=${encodeURIComponent(token)}`;
  // Users have no stored language yet, so the mail is in the language of the request that caused
  // it; the message texts themselves come from the client in the user's language.
  const locale = ctx.locale;
  const rendered = renderLinkEmail(locale, { ...message, url, footer: emailStrings(locale)[link.footer] });
  await enqueueEmail(ctx, { accountId: user.accountId, to: user.email, kind, ...rendered });
}

/**
 * `POST /auth/password/recover`: emails a reset link (valid one hour, single use).
 *
 * Unknown addresses answer 400 EMAIL_NOT_REGISTERED on `email`. This tells anyone whether an
 * address is registered; the spec asks for it (its error handling has RecoverPassword show the
 * code's message on a 400), so it is kept deliberately, and rate limits bound the enumeration.
 */
export async function requestPasswordReset(ctx: ServiceContext, input: RecoverPasswordBody): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const row = await ctx.db
    .select({ user: users, account: accounts })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(and(eq(users.email, email), isNull(accounts.deletedAt)))
    .get();
  if (!row) throw new AppError("EMAIL_NOT_REGISTERED", { invalid: ["email"] });
  await sendLinkEmail(ctx, "reset", row.user, row.account, input.message);
}

/**
 * Queues the welcome email of a new, not yet confirmed user (valid seven days, single use). Used by
 * the NewUser screen and by the seed.
 *
 * @example await createWelcomeToken(ctx, user.id, { subject, intro, callToAction, outro });
 */
export async function createWelcomeToken(ctx: MailContext, userId: string, message: EmailMessage): Promise<void> {
  const row = await ctx.db
    .select({ user: users, account: accounts })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(eq(users.id, userId))
    .get();
  if (!row) throw new AppError("NOT_FOUND");
  await sendLinkEmail(ctx, "welcome", row.user, row.account, message);
}

/**
 * Uses up a link token: one conditional UPDATE, so of two parallel uses exactly one changes the
 * row (RETURNING answers the changed rows) and the other gets INVALID_RECOVERY_TOKEN.
 */
async function consumeToken(ctx: ServiceContext, token: string, kind: OneTimeTokenKind): Promise<string> {
  const now = new Date();
  const changed = await ctx.db
    .update(oneTimeTokens)
    .set({ usedAt: now })
    .where(and(eq(oneTimeTokens.tokenHash, await sha256Hex(token)), eq(oneTimeTokens.kind, kind), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)))
    .returning({ userId: oneTimeTokens.userId });
  if (changed.length !== 1) throw new AppError("INVALID_RECOVERY_TOKEN", { invalid: ["token"] });
  return changed[0].userId;
}

/**
 * Sets a new password after a token was consumed: every session of the user ends (those acting as
 * them and the sudo sessions they opened), the lockout is lifted, and a new session is opened.
 */
async function setPasswordAndSignIn(ctx: ServiceContext, userId: string, passwordHash: string, action: string): Promise<{ sessionToken: string; user: UserView }> {
  const now = new Date();
  const user = await ctx.db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw new AppError("INVALID_RECOVERY_TOKEN", { invalid: ["token"] });
  await ctx.db.batch([
    ctx.db
      .update(users)
      .set({ passwordHash, failedLoginCount: 0, lockedUntilReset: false, confirmedAt: sql`coalesce(${users.confirmedAt}, ${now.getTime()})` })
      .where(eq(users.id, userId)),
    ctx.db.delete(sessions).where(or(eq(sessions.userId, userId), eq(sessions.sudoUserId, userId))),
    auditStatement(ctx, { accountId: user.accountId, actorUserId: userId, sudoUserId: null, action, entity: "user", entityId: userId }),
  ]);
  // The rate limiter's counters are the record of the hard stop; a reset is what lifts it.
  await clearHardStop(ctx, userId);
  const tfaVerified = !user.tfaEnabled;
  const sessionToken = await createSession(ctx, user, { tfaVerified });
  const row = await ctx.db
    .select({ user: users, account: accounts })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(eq(users.id, userId))
    .get();
  return { sessionToken, user: toUserView(row!.user, row!.account, tfaVerified) };
}

/**
 * `POST /auth/password/reset`: the password rules are checked before the token is used, so a
 * too-short password can be corrected with the same link.
 *
 * @example const { sessionToken, user } = await resetPassword(ctx, { token, password });
 */
export async function resetPassword(ctx: ServiceContext, input: ResetPasswordBody): Promise<{ sessionToken: string; user: UserView }> {
  assertAcceptablePassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const userId = await consumeToken(ctx, input.token, "reset");
  return setPasswordAndSignIn(ctx, userId, passwordHash, "user.password.reset");
}

/** `POST /auth/confirm`: a new user chooses a password with the welcome link and is signed in. */
export async function confirmWelcome(ctx: ServiceContext, input: ConfirmWelcomeBody): Promise<{ sessionToken: string; user: UserView }> {
  assertAcceptablePassword(input.password);
  const passwordHash = await hashPassword(input.password);
  const userId = await consumeToken(ctx, input.token, "welcome");
  return setPasswordAndSignIn(ctx, userId, passwordHash, "user.confirm");
}

/**
 * `POST /auth/password/verify`: checks the signed-in user's own password before a sensitive
 * action, without signing in. Another user's email is refused; sudo sessions cannot use it.
 */
export async function verifyOwnPassword(ctx: ServiceContext, input: VerifyPasswordBody): Promise<void> {
  const actor = requireSignedIn(ctx);
  assertNotSudo(ctx);
  if (input.email.trim().toLowerCase() !== actor.user.email) throw new AppError("FORBIDDEN");
  const ok = actor.user.passwordHash ? await verifyPassword(input.password, actor.user.passwordHash) : await verifyAgainstDummy(input.password);
  if (!ok) throw new AppError("INCORRECT_PASSWORD", { invalid: ["password"] });
}
