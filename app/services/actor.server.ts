import { and, eq, gt } from "drizzle-orm";
import { accounts, sessions, users, type Account, type Session, type User } from "../../db/schema";
import { sha256Hex } from "~/lib/tokens";
import type { Db } from "./db.server";

/** Who is making a request: the user, their account, and how they proved it. */
export interface Actor {
  user: User;
  account: Account;
  session: Session | null;
  via: "session" | "token";
}

/** Sessions die after 30 idle minutes or 12 hours in all (SECURITY.md, Goals). */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
const LAST_SEEN_GRANULARITY_MS = 60 * 1000; // write lastSeen at most once a minute per session

/**
 * Resolves the actor of a cookie session token (only its hash is stored), or null.
 *
 * @example const actor = await resolveActor(db, readSessionToken(request));
 */
export async function resolveActor(db: Db, sessionToken: string | null): Promise<Actor | null> {
  if (!sessionToken || sessionToken.length > 200) return null;
  const id = await sha256Hex(sessionToken);
  const now = Date.now();
  const row = await db
    .select({ session: sessions, user: users, account: accounts })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date(now))))
    .get();
  if (!row) return null;
  if (now - row.session.lastSeenAt.getTime() > SESSION_IDLE_MS) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  if (now - row.session.lastSeenAt.getTime() > LAST_SEEN_GRANULARITY_MS) {
    const seen = new Date(now);
    await db.batch([
      db.update(sessions).set({ lastSeenAt: seen }).where(eq(sessions.id, id)),
      db.update(users).set({ lastSeenAt: seen }).where(eq(users.id, row.user.id)),
    ]);
  }
  return { user: row.user, account: row.account, session: row.session, via: "session" };
}
