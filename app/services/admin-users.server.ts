import { asc, desc, eq, like, or, sql } from "drizzle-orm";
import { accounts, users } from "../../db/schema";
import { normaliseAdminSearch, type AdminUserRow } from "~/lib/schemas/admin";
import type { ServiceContext } from "./context.server";
import { requireSuperuser } from "./policy";

const RESULT_LIMIT = 50;

/** Escapes LIKE wildcards so a search for `100%` finds that text. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The admin panel's user lookup across every account (superuser only): owners first, then admins,
 * then clients. An empty search answers no rows, as the spec's Users tab expects.
 */
export async function searchAllUsers(ctx: ServiceContext, rawSearch: string): Promise<{ users: AdminUserRow[] }> {
  requireSuperuser(ctx);
  const search = normaliseAdminSearch(rawSearch);
  if (!search) return { users: [] };
  const pattern = likePattern(search.toLowerCase());
  const rows = await ctx.db
    .select({ user: users, plan: accounts.plan, customer: accounts.stripeCustomerId })
    .from(users)
    .innerJoin(accounts, eq(accounts.id, users.accountId))
    .where(or(sql`lower(${users.name}) like ${pattern} escape '\\'`, like(users.email, sql`${pattern} escape '\\'`)))
    .orderBy(desc(users.isOwner), desc(users.isAdmin), asc(users.name))
    .limit(RESULT_LIMIT);
  return {
    users: rows.map(({ user, plan, customer }) => ({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.isOwner ? "owner" : user.isAdmin ? "admin" : "client",
      plan,
      accountId: user.accountId,
      createdAt: user.createdAt.toISOString(),
      hasPaymentCustomer: Boolean(customer),
      isSuperuser: user.isSuperuser,
    })),
  };
}
