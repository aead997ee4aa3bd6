/**
 * A page's raw source (spec: EditSource, `GET` and `PUT /sites/{siteId}/pages/{pageId}/source`):
 * the only editor for .css, .js, .json and .txt pages, and for admins the raw HTML of any page.
 *
 * Saving writes the file on the server at once (atomically, through the site's RemoteFs), under
 * the same rules as a publish: not in lockdown, the plan allows the site, no publish of the page
 * running, and never over a file that changed since it was opened (PAGE_CHANGED_ON_SERVER).
 */
import { and, eq, gt, inArray } from "drizzle-orm";
import { publishJobs, type Page, type Site } from "../../db/schema";
import { AppError } from "~/lib/errors";
import { extensionOf } from "~/lib/page-url";
import { decodePageSource, encodePageSource } from "~/lib/regions";
import type { PageSourceBody } from "~/lib/schemas/page-source";
import { sha256Hex } from "~/lib/tokens";
import { auditStatement } from "./audit.server";
import type { ServiceContext } from "./context.server";
import { isAccountAdmin, requireSignedIn } from "./policy";
import { findEditablePage } from "./publish.server";
import { findAccessibleSite, pinObservedKeys, siteRemoteFs } from "./site-files.server";

/** The spec's source-only file types: their source is their only editor, for everyone who may edit them. */
export const SOURCE_ONLY_EXTENSIONS = new Set(["css", "js", "json", "txt"]);

/** Admins edit any page's source; others only the source-only files (HTML is edited by region). */
async function openSourcePage(ctx: ServiceContext, siteId: string, pageId: string): Promise<{ site: Site; page: Page }> {
  const actor = requireSignedIn(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  const page = await findEditablePage(ctx, site, pageId);
  if (!isAccountAdmin(actor.user) && !SOURCE_ONLY_EXTENSIONS.has(extensionOf(page.path))) throw new AppError("FORBIDDEN");
  return { site, page };
}

/**
 * `GET /sites/{siteId}/pages/{pageId}/source`: the file's text and its hash (the base to save against).
 * @example const { source, baseHash } = await getPageSource(ctx, siteId, pageId);
 */
export async function getPageSource(ctx: ServiceContext, siteId: string, pageId: string): Promise<{ source: string; baseHash: string }> {
  const { site, page } = await openSourcePage(ctx, siteId, pageId);
  const fs = await siteRemoteFs(ctx.env, site);
  const bytes = new Uint8Array(await fs.read(page.path));
  await pinObservedKeys(ctx.db, site, fs);
  return { source: decodePageSource(bytes).text, baseHash: await sha256Hex(bytes) };
}

/**
 * `PUT /sites/{siteId}/pages/{pageId}/source`: writes the source to the server, in the file's own
 * encoding; answers the source and the file's new hash.
 *
 * @example await putPageSource(ctx, siteId, pageId, { source: "body { color: red }", baseHash });
 */
export async function putPageSource(ctx: ServiceContext, siteId: string, pageId: string, body: PageSourceBody): Promise<{ source: string; baseHash: string }> {
  const actor = requireSignedIn(ctx);
  const { site, page } = await openSourcePage(ctx, siteId, pageId);
  if (site.isLocked) throw new AppError("SITE_IS_LOCKED");
  if (site.classification === "commercial" && actor.account.plan === "personal") throw new AppError("UPGRADE_REQUIRED");
  const running = await ctx.db
    .select({ id: publishJobs.id })
    .from(publishJobs)
    .where(and(eq(publishJobs.pageId, page.id), inArray(publishJobs.status, ["queued", "running"]), gt(publishJobs.createdAt, new Date(Date.now() - 15 * 60 * 1000))))
    .get();
  if (running) throw new AppError("PUBLISH_IN_PROGRESS");

  const fs = await siteRemoteFs(ctx.env, site);
  const current = new Uint8Array(await fs.read(page.path));
  if (body.baseHash && (await sha256Hex(current)) !== body.baseHash) throw new AppError("PAGE_CHANGED_ON_SERVER");
  const { encoding } = decodePageSource(current);
  let bytes: Uint8Array;
  try {
    bytes = encodePageSource(body.source, encoding);
  } catch {
    // A page kept in a legacy encoding cannot take characters outside it.
    throw new AppError("VALIDATION_ERROR", { invalid: ["source"] });
  }
  await fs.writeAtomic(page.path, bytes);
  await pinObservedKeys(ctx.db, site, fs);
  await ctx.db.batch([auditStatement(ctx, { action: "page.source.update", entity: "page", entityId: page.id, details: { siteId: site.id, bytes: bytes.byteLength } })]);
  return { source: body.source, baseHash: await sha256Hex(bytes) };
}
