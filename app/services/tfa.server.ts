/**
 * Two-factor authentication: TOTP set-up, sign-in verification, the recovery code, trusted devices.
 *
 * Rules (spec sections 2, 4 and 7; SECURITY.md 10, 14, 15):
 * - The TOTP secret is stored AES-256-GCM encrypted (`secret-box`), AAD
 *   `accountId|userId|tfa|keyVersion`; set-up stays unconfirmed until the first code is verified.
 * - Each code is usable once: a code is accepted only by the conditional update
 *   `SET last_used_step = step WHERE last_used_step < step`, so a replay (even a parallel one) and any
 *   older code fail.
 * - The one recovery code (120 bits) is stored as SHA-256 and consumed by
 *   `UPDATE … WHERE used_at IS NULL`; using it switches two-factor off for the user, who then sets
 *   it up again (spec screen 3).
 * - A new session id after the two-factor step and after recovery (SECURITY.md 10).
 * - Sign-in codes and recovery codes are rate-limited like passwords (`tfa:` and `recovery:`
 *   counters of rate-limit.server, DECISIONS.md), counted before the code is checked.
 * - Where the account requires two-factor, users cannot switch it off; an administrator can require
 *   it for everyone only with their own two-factor enabled (`assertMayRequireTfa`).
 * - `users.tfaEnabled` is "a confirmed TOTP secret exists"; `users.requiresTfa` (the spec's
 *   User.requiresTfa, "sign-in needs the two-factor step") is kept equal to it.
 */
import { and, eq, exists, isNotNull, isNull, lt } from "drizzle-orm";
import { recoveryCodes, sessions, tfaSecrets, trustedDevices, users, type User } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { TfaLoginBody, TfaRecoverBody, TfaSetup, TfaStatus } from "~/lib/schemas/tfa";
import { sha256Hex } from "~/lib/tokens";
import { base32Encode, generateSecret, otpauthUrl, verifyTotp } from "~/lib/totp";
import type { Actor } from "./actor.server";
import { auditStatement } from "./audit.server";
import { createSession } from "./auth.server";
import type { ServiceContext } from "./context.server";
import type { Db } from "./db.server";
import { verifyPassword } from "./passwords.server";
import { assertNotSudo, isAccountAdmin, requireSelf, requireSignedIn } from "./policy";
import { guardAttempt, recordFailure, recordSuccess } from "./rate-limit.server";
import { openSecret, sealSecret, type SecretBoxEnv } from "./secret-box.server";
import { isTrustRequestFor, issueTrustedDevice } from "./trusted-devices.server";

/** 15 random bytes: 120 bits, above the 112 SECURITY.md 15 asks of recovery codes. */
const RECOVERY_CODE_BYTES = 15;

const invalidToken = () => new AppError("INVALID_TFA_TOKEN", { invalid: ["token"] });

/** The AAD of a user's TOTP secret: the ciphertext only opens in this user's row of this account. */
export function tfaSecretAad(accountId: string, userId: string) {
  return (keyVersion: number) => `${accountId}|${userId}|tfa|${keyVersion}`;
}

/** Seals a TOTP secret for a user's row (also used by the seed). */
export async function sealTfaSecret(env: SecretBoxEnv, user: Pick<User, "id" | "accountId">, secret: Uint8Array) {
  const sealed = await sealSecret(env, secret, tfaSecretAad(user.accountId, user.id));
  return { secretCiphertext: sealed.ciphertext, secretIv: sealed.iv, keyVersion: sealed.keyVersion };
}

/** A new recovery code as shown to the user: base32 in groups of four, e.g. `K3TA-…` (24 characters). */
export function newRecoveryCode(): string {
  const code = base32Encode(crypto.getRandomValues(new Uint8Array(RECOVERY_CODE_BYTES)), { padding: false });
  return code.match(/.{1,4}/g)!.join("-");
}

/** What is hashed: the code without case, spaces or hyphens, so it can be typed as people do. */
export function recoveryCodeHash(code: string): Promise<string> {
  return sha256Hex(code.toUpperCase().replace(/[^A-Z0-9]/g, ""));
}

/**
 * The settings screen's rule: an administrator may require two-factor for every user of the
 * account only with their own two-factor enabled (so they cannot lock themselves out).
 *
 * @example assertMayRequireTfa(requireSignedIn(ctx)); // FORBIDDEN unless admin with two-factor on
 */
export function assertMayRequireTfa(actor: Pick<Actor, "user">): void {
  if (!isAccountAdmin(actor.user) || !actor.user.tfaEnabled) throw new AppError("FORBIDDEN");
}

/**
 * `GET /users/{userId}/tfa`: the user's own two-factor state.
 *
 * @example const { tfaEnabled } = await getTfaStatus(ctx, ctx.actor.user.id);
 */
export async function getTfaStatus(ctx: ServiceContext, userId: string): Promise<TfaStatus> {
  const actor = requireSelf(ctx, userId);
  const row = await ctx.db.select({ confirmedAt: tfaSecrets.confirmedAt }).from(tfaSecrets).where(eq(tfaSecrets.userId, userId)).get();
  return { tfaEnabled: actor.user.tfaEnabled, isPending: Boolean(row && !row.confirmedAt), accountRequiresTfa: actor.account.requiresTfa };
}

/**
 * `POST /users/{userId}/tfa`: a new secret (stored encrypted, not yet confirmed) and a new recovery
 * code, replacing any earlier unconfirmed set-up. Refused while two-factor is on: a signed-in
 * session alone must not be able to replace the second factor.
 *
 * @example const { keyBase32, authUrl, recoveryToken } = await prepareTfa(ctx, ctx.actor.user.id);
 */
export async function prepareTfa(ctx: ServiceContext, userId: string): Promise<TfaSetup> {
  const actor = requireSelf(ctx, userId);
  assertNotSudo(ctx);
  if (actor.user.tfaEnabled) throw new AppError("FORBIDDEN");

  const secret = generateSecret();
  const sealed = await sealTfaSecret(ctx.env, actor.user, secret);
  const recoveryToken = newRecoveryCode();
  const now = new Date();
  await ctx.db.batch([
    ctx.db
      .insert(tfaSecrets)
      .values({ userId, ...sealed, lastUsedStep: 0, createdAt: now, confirmedAt: null })
      .onConflictDoUpdate({ target: tfaSecrets.userId, set: { ...sealed, lastUsedStep: 0, createdAt: now, confirmedAt: null } }),
    ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    ctx.db.insert(recoveryCodes).values({ userId, codeHash: await recoveryCodeHash(recoveryToken), createdAt: now }),
  ]);
  const issuer = actor.account.appName ?? ctx.env.APP_NAME;
  return {
    key: [...secret].map((b) => b.toString(16).padStart(2, "0")).join(""),
    keyBase32: base32Encode(secret, { padding: false }),
    recoveryToken,
    authUrl: otpauthUrl(secret, { issuer, account: actor.user.email }),
  };
}

/**
 * `PUT /users/{userId}/tfa`: the first code from the authenticator confirms the prepared secret and
 * switches two-factor on. The code's step is recorded, so it cannot also sign in.
 *
 * @example await enableTfa(ctx, userId, { token: "492039" });
 */
export async function enableTfa(ctx: ServiceContext, userId: string, input: { token: string }): Promise<TfaStatus> {
  const actor = requireSelf(ctx, userId);
  assertNotSudo(ctx);
  if (actor.user.tfaEnabled) throw new AppError("FORBIDDEN");
  const row = await ctx.db.select().from(tfaSecrets).where(and(eq(tfaSecrets.userId, userId), isNull(tfaSecrets.confirmedAt))).get();
  if (!row) throw invalidToken();
  const step = await verifyTotp(await openTfaSecret(ctx.env, actor.user, row), input.token, Date.now());
  if (step === null) throw invalidToken();

  const now = new Date();
  const [confirmed] = await ctx.db.batch([
    ctx.db
      .update(tfaSecrets)
      .set({ lastUsedStep: step, confirmedAt: now })
      .where(and(eq(tfaSecrets.userId, userId), isNull(tfaSecrets.confirmedAt), lt(tfaSecrets.lastUsedStep, step))),
    // Only when the update above confirmed the secret (same transaction).
    ctx.db
      .update(users)
      .set({ tfaEnabled: true, requiresTfa: true })
      .where(and(eq(users.id, userId), exists(confirmedSecret(ctx.db, userId, step)))),
    auditStatement(ctx, { action: "user.tfa.enable", entity: "user", entityId: userId }),
  ]);
  if (confirmed.meta.changes !== 1) throw invalidToken();
  return { tfaEnabled: true, isPending: false, accountRequiresTfa: actor.account.requiresTfa };
}

function confirmedSecret(db: Db, userId: string, step: number) {
  return db
    .select({ userId: tfaSecrets.userId })
    .from(tfaSecrets)
    .where(and(eq(tfaSecrets.userId, userId), isNotNull(tfaSecrets.confirmedAt), eq(tfaSecrets.lastUsedStep, step)));
}

/**
 * `DELETE /users/{userId}/tfa`: switches two-factor off, with the password. Refused (FORBIDDEN)
 * where the account requires two-factor. Trusted devices and the recovery code go with it.
 *
 * @example await disableTfa(ctx, userId, { password });
 */
export async function disableTfa(ctx: ServiceContext, userId: string, input: { password: string }): Promise<void> {
  const actor = requireSelf(ctx, userId);
  assertNotSudo(ctx);
  if (actor.account.requiresTfa) throw new AppError("FORBIDDEN");
  const ok = actor.user.passwordHash ? await verifyPassword(input.password, actor.user.passwordHash) : false;
  if (!ok) throw new AppError("INCORRECT_PASSWORD", { invalid: ["password"] });
  await ctx.db.batch([
    ...switchOffStatements(ctx.db, userId),
    auditStatement(ctx, { action: "user.tfa.disable", entity: "user", entityId: userId }),
  ]);
}

/** Everything two-factor leaves behind for a user, removed together. */
function switchOffStatements(db: Db, userId: string) {
  return [
    db.delete(tfaSecrets).where(eq(tfaSecrets.userId, userId)),
    db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)),
    db.delete(trustedDevices).where(eq(trustedDevices.userId, userId)),
    db.update(users).set({ tfaEnabled: false, requiresTfa: false }).where(eq(users.id, userId)),
  ] as const;
}

/**
 * `POST /auth/tfa`: the second step of a sign-in. A valid, unused code replaces the pending
 * session by a new, verified one (new id); when the sign-in asked to trust this device, a
 * trusted-device token is issued too (only its hash is stored).
 *
 * @example const { sessionToken, trustedDeviceToken } = await verifyTfaLogin(ctx, body, { sessionToken, trustRequest });
 */
export async function verifyTfaLogin(
  ctx: ServiceContext,
  input: TfaLoginBody,
  cookies: { sessionToken: string | null; trustRequest: string | null },
): Promise<{ sessionToken: string; trustedDeviceToken: string | null }> {
  const actor = requireSessionActor(ctx);
  if (input.userId !== actor.user.id) throw new AppError("NOT_FOUND");
  const attempt = await guardAttempt(ctx, { kind: "tfa", account: actor.user.id, ip: ctx.request.ip });
  const step = await acceptTotp(ctx, actor, input.token);
  if (step === null) {
    await recordFailure(ctx, attempt);
    throw invalidToken();
  }
  await recordSuccess(ctx, attempt);

  const trustRequested = await isTrustRequestFor(cookies.sessionToken, cookies.trustRequest);
  const sessionToken = await rotateSession(ctx, actor);
  const trustedDeviceToken = trustRequested ? await issueTrustedDevice(ctx.db, actor.user.id) : null;
  return { sessionToken, trustedDeviceToken };
}

/**
 * Checks a sign-in code and consumes its step: the answer is null for a wrong code, for a user
 * without confirmed two-factor, and for a step at or below the last one accepted (a replay, also
 * when two requests race: only one conditional update changes the row).
 */
async function acceptTotp(ctx: ServiceContext, actor: Actor, token: string): Promise<number | null> {
  const userId = actor.user.id;
  const row = actor.user.tfaEnabled
    ? await ctx.db.select().from(tfaSecrets).where(and(eq(tfaSecrets.userId, userId), isNotNull(tfaSecrets.confirmedAt))).get()
    : undefined;
  if (!row) return null;
  const step = await verifyTotp(await openTfaSecret(ctx.env, actor.user, row), token, Date.now());
  if (step === null) return null;
  const used = await ctx.db
    .update(tfaSecrets)
    .set({ lastUsedStep: step })
    .where(and(eq(tfaSecrets.userId, userId), isNotNull(tfaSecrets.confirmedAt), lt(tfaSecrets.lastUsedStep, step)))
    .run();
  return used.meta.changes === 1 ? step : null;
}

/**
 * `POST /auth/tfa/recover`: the recovery code, once. Two-factor is switched off for the user
 * (secret, recovery code and trusted devices removed, requiresTfa cleared), the session becomes
 * verified under a new id, and the user sets two-factor up again (spec screen 3).
 *
 * @example const { sessionToken } = await recoverTfa(ctx, { token: "K3TA-…" });
 */
export async function recoverTfa(ctx: ServiceContext, input: TfaRecoverBody): Promise<{ sessionToken: string }> {
  const actor = requireSessionActor(ctx);
  const attempt = await guardAttempt(ctx, { kind: "recovery", account: actor.user.id, ip: ctx.request.ip });
  const consumed = await ctx.db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, actor.user.id), eq(recoveryCodes.codeHash, await recoveryCodeHash(input.token)), isNull(recoveryCodes.usedAt)))
    .run();
  if (consumed.meta.changes !== 1) {
    await recordFailure(ctx, attempt);
    throw invalidToken();
  }
  await recordSuccess(ctx, attempt);
  await ctx.db.batch([
    ...switchOffStatements(ctx.db, actor.user.id),
    auditStatement(ctx, { action: "user.tfa.recover", entity: "user", entityId: actor.user.id }),
  ]);
  return { sessionToken: await rotateSession(ctx, actor) };
}

/** The two-factor calls work on the cookie session itself, pending or not; API tokens cannot sign in. */
function requireSessionActor(ctx: ServiceContext): Actor & { session: NonNullable<Actor["session"]> } {
  const actor = requireSignedIn(ctx, { allowPendingTfa: true });
  if (!actor.session || actor.via !== "session" || actor.session.sudoUserId) throw new AppError("FORBIDDEN");
  return actor as Actor & { session: NonNullable<Actor["session"]> };
}

/** A new, verified session in place of the current one (SECURITY.md 10: a new id after two-factor). */
async function rotateSession(ctx: ServiceContext, actor: Actor & { session: NonNullable<Actor["session"]> }): Promise<string> {
  const sessionToken = await createSession(ctx, actor.user, { tfaVerified: true });
  await ctx.db.delete(sessions).where(eq(sessions.id, actor.session.id));
  return sessionToken;
}

function openTfaSecret(env: SecretBoxEnv, user: Pick<User, "id" | "accountId">, row: { secretCiphertext: string; secretIv: string; keyVersion: number }) {
  return openSecret(env, { ciphertext: row.secretCiphertext, iv: row.secretIv, keyVersion: row.keyVersion }, tfaSecretAad(user.accountId, user.id));
}
