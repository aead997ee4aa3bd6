import { and, asc, count, eq, inArray, type SQL } from "drizzle-orm";
import { sitePermissions, sites } from "../../db/schema";
import type { ServiceContext } from "./context.server";
import { isAccountAdmin, requireSignedIn } from "./policy";

export interface SiteListItem {
  id: string;
  name: string;
  url: string;
  isDemo: boolean;
  isLocked: boolean;
}

/**
 * The sites the actor may see, by name: every site of the account for admins, the granted ones for
 * client users. (The full list with search, favorites and keyset paging comes with the sites issue.)
 *
 * @example const { sites, count } = await listSites(ctx, { limit: 50, offset: 0 });
 */
export async function listSites(ctx: ServiceContext, page: { limit: number; offset: number }) {
  const actor = requireSignedIn(ctx);
  const scope: SQL[] = [eq(sites.accountId, actor.account.id)];
  if (!isAccountAdmin(actor.user)) {
    const granted = ctx.db.select({ id: sitePermissions.siteId }).from(sitePermissions).where(eq(sitePermissions.userId, actor.user.id));
    scope.push(inArray(sites.id, granted));
  }
  const where = and(...scope);
  const [rows, total] = await Promise.all([
    ctx.db
      .select({ id: sites.id, name: sites.name, url: sites.url, isDemo: sites.isDemo, isLocked: sites.isLocked })
      .from(sites)
      .where(where)
      .orderBy(asc(sites.nameSort), asc(sites.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ n: count() }).from(sites).where(where).get(),
  ]);
  return { sites: rows satisfies SiteListItem[], count: total?.n ?? 0, offset: page.offset, limit: page.limit };
}
