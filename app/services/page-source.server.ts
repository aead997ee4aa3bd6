/**
 * A page's raw source (spec: EditSource, `GET` and `PUT /sites/{siteId}/pages/{pageId}/source`):
 * the only editor for .css, .js, .json and .txt pages, and for admins the raw HTML of any page.
 *
 * Saving writes the file on the server at once (atomically, through the site's RemoteFs), under
 * the same rules as a publish: not in lockdown, the plan allows the site, no publish of the page
 * running, and never over a file that changed since it was opened (PAGE_CHANGED_ON_SERVER).
 */
import type { Page, Site } from "../../db/schema";
import { AppError } from "~/lib/errors";
import { extensionOf } from "~/lib/page-url";
import { decodePageSource, encodePageSource } from "~/lib/regions";
import type { PageSourceBody } from "~/lib/schemas/page-source";
import { sha256Hex } from "~/lib/tokens";
import { auditStatement } from "./audit.server";
import type { Actor } from "./actor.server";
import type { ServiceContext } from "./context.server";
import { isAccountAdmin, requireSignedIn } from "./policy";
import { assertNotPublishing, assertPublishable, findEditablePage } from "./publish.server";
import { readPageSource } from "./page-file.server";
import { findAccessibleSite, pinObservedKeys, siteRemoteFs } from "./site-files.server";

/** The spec's source-only file types: their source is their only editor, for everyone who may edit them. */
export const SOURCE_ONLY_EXTENSIONS = new Set(["css", "js", "json", "txt"]);

/** Admins edit any page's source; others only the source-only files (HTML is edited by region). */
export function mayEditSource(actor: Actor, page: Pick<Page, "path">): boolean {
  return isAccountAdmin(actor.user) || SOURCE_ONLY_EXTENSIONS.has(extensionOf(page.path));
}

async function openSourcePage(ctx: ServiceContext, siteId: string, pageId: string): Promise<{ site: Site; page: Page }> {
  const site = await findAccessibleSite(ctx, siteId);
  return { site, page: await findEditablePage(ctx, site, pageId) };
}

/**
 * The source of a page the actor may edit (found by the caller): its text and its hash, the base
 * to save against. FORBIDDEN for a client user and an HTML page.
 * @example const { source, baseHash } = await readSourceOf(ctx, site, page);
 */
export async function readSourceOf(ctx: ServiceContext, site: Site, page: Page): Promise<{ source: string; baseHash: string }> {
  if (!mayEditSource(requireSignedIn(ctx), page)) throw new AppError("FORBIDDEN");
  const file = await readPageSource(ctx.env, ctx.db, site, page);
  return { source: file.text, baseHash: file.hash };
}

/**
 * `GET /sites/{siteId}/pages/{pageId}/source`: the file's text and its hash (the base to save against).
 * @example const { source, baseHash } = await getPageSource(ctx, siteId, pageId);
 */
export async function getPageSource(ctx: ServiceContext, siteId: string, pageId: string): Promise<{ source: string; baseHash: string }> {
  const { site, page } = await openSourcePage(ctx, siteId, pageId);
  return readSourceOf(ctx, site, page);
}

/**
 * `PUT /sites/{siteId}/pages/{pageId}/source`: writes the source to the server, in the file's own
 * encoding; answers the source and the file's new hash.
 *
 * @example await putPageSource(ctx, siteId, pageId, { source: "body { color: red }", baseHash });
 */
export async function putPageSource(ctx: ServiceContext, siteId: string, pageId: string, body: PageSourceBody): Promise<{ source: string; baseHash: string }> {
  const { site, page } = await openSourcePage(ctx, siteId, pageId);
  if (!mayEditSource(requireSignedIn(ctx), page)) throw new AppError("FORBIDDEN");
  assertPublishable(ctx, site);
  await assertNotPublishing(ctx, page.id);

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
