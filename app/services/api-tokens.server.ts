import { and, eq, isNull } from "drizzle-orm";
import { accounts, apiTokens, users } from "../../db/schema";
import { AppError } from "~/lib/errors";
import { randomToken, sha256Hex } from "~/lib/tokens";
import type { Actor } from "./actor.server";
import type { ServiceContext } from "./context.server";
import type { Db } from "./db.server";
import { assertNotSudo, isAccountAdmin, requireSelf } from "./policy";

/** Tokens start with this, so secret scanners and people can recognise them. */
export const API_TOKEN_PREFIX = "sct_";
const LAST_USED_GRANULARITY_MS = 60 * 1000;

/** API access is an agency-plan feature for admins (spec section 6). */
function assertMayUseApi(actor: Pick<Actor, "user" | "account">): void {
  if (actor.account.plan !== "agency") throw new AppError("UPGRADE_REQUIRED");
  if (!isAccountAdmin(actor.user)) throw new AppError("FORBIDDEN");
}

export interface ApiTokenStatus {
  apiToken: { prefix: string; createdAt: string; lastUsedAt: string | null } | null;
}

/** `GET /users/{userId}/api-token`: whether the user has a token, never the token itself. */
export async function getApiToken(ctx: ServiceContext, userId: string): Promise<ApiTokenStatus> {
  const actor = requireSelf(ctx, userId);
  assertMayUseApi(actor);
  const row = await ctx.db.select().from(apiTokens).where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt))).get();
  return {
    apiToken: row ? { prefix: row.prefix, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null } : null,
  };
}

/**
 * `POST /users/{userId}/api-token`: enables or regenerates the user's token. The previous one stops
 * working in the same batch; the new token is answered once and only its hash is kept.
 *
 * @example const { apiToken } = await createApiToken(ctx, ctx.actor.user.id); // "sct_…"
 */
export async function createApiToken(ctx: ServiceContext, userId: string): Promise<{ apiToken: string }> {
  const actor = requireSelf(ctx, userId);
  assertMayUseApi(actor);
  assertNotSudo(ctx);
  const token = API_TOKEN_PREFIX + randomToken(32);
  const now = new Date();
  await ctx.db.batch([
    ctx.db.update(apiTokens).set({ revokedAt: now }).where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt))),
    ctx.db.insert(apiTokens).values({ userId, tokenHash: await sha256Hex(token), prefix: token.slice(0, API_TOKEN_PREFIX.length + 6), createdAt: now }),
  ]);
  return { apiToken: token };
}

/** `DELETE /users/{userId}/api-token`: disables API access for the user. */
export async function revokeApiToken(ctx: ServiceContext, userId: string): Promise<void> {
  const actor = requireSelf(ctx, userId);
  assertMayUseApi(actor);
  await ctx.db.update(apiTokens).set({ revokedAt: new Date() }).where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
}

/**
 * The actor of a bearer token: its user, with the same policy as a cookie session. A revoked token,
 * a user who is no longer an admin, or an account that left the agency plan gets nothing.
 */
export async function resolveApiToken(db: Db, token: string): Promise<Actor | null> {
  if (!token.startsWith(API_TOKEN_PREFIX) || token.length > 200) return null;
  const row = await db
    .select({ token: apiTokens, user: users, account: accounts })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(and(eq(apiTokens.tokenHash, await sha256Hex(token)), isNull(apiTokens.revokedAt)))
    .get();
  if (!row) return null;
  try {
    assertMayUseApi(row);
  } catch {
    return null;
  }
  const now = Date.now();
  if (!row.token.lastUsedAt || now - row.token.lastUsedAt.getTime() > LAST_USED_GRANULARITY_MS) {
    await db.update(apiTokens).set({ lastUsedAt: new Date(now) }).where(eq(apiTokens.id, row.token.id));
  }
  return { user: row.user, account: row.account, session: null, via: "token" };
}
