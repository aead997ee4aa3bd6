import { redirect, type RouterContextProvider } from "react-router";
import type { Page, Site } from "../../db/schema";
import { requireActor } from "~/middleware/actor";
import type { Actor } from "~/services/actor.server";
import type { ServiceContext } from "~/services/context.server";
import { findEditablePage } from "~/services/publish.server";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { findAccessibleSite } from "~/services/site-files.server";

/**
 * What the page editor and the source editor open with: the signed-in actor (the Authenticated
 * guard), the site and the page they may edit (else the error page of the code), and the spec's
 * rule that a locked site sends both editors to the Site screen.
 *
 * @example const { actor, ctx, site, page } = await openEditablePage(context, request, params);
 */
export async function openEditablePage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  params: { siteId: string; pageId: string },
): Promise<{ actor: Actor; ctx: ServiceContext; site: Site; page: Page }> {
  const actor = requireActor(context, request);
  const ctx = requireRouteContext(context);
  const { site, page } = await runOperation(async () => {
    const site = await findAccessibleSite(ctx, params.siteId);
    return { site, page: await findEditablePage(ctx, site, params.pageId) };
  });
  if (site.isLocked) throw redirect(`/sites/${site.id}`);
  return { actor, ctx, site, page };
}
