/**
 * A page's file as it is on the server now, read through the site's RemoteFs (the agent, or the
 * demo store), parsed into regions and metadata, with the hash a draft records as its base.
 */
import type { Page, Site } from "../../db/schema";
import { decodePageSource, parsePage, regionsPayload, type ParsedPage, type RegionsPayload, type SourceEncoding } from "~/lib/regions";
import { extensionOf } from "~/lib/page-url";
import { sha256Hex } from "~/lib/tokens";
import type { ServiceContext } from "./context.server";
import { findEditablePage } from "./publish.server";
import { findAccessibleSite, pinObservedKeys, siteRemoteFs } from "./site-files.server";
import type { Db } from "./db.server";

export interface PageSource {
  bytes: Uint8Array;
  /** sha256 of the bytes: what a draft made from this file records as `baseHash`. */
  hash: string;
  /** The bytes decoded (a legacy encoding byte for byte, so it encodes back unchanged). */
  text: string;
  encoding: SourceEncoding;
}

export interface PageFile extends PageSource {
  parsed: ParsedPage;
}

/**
 * Reads the page's file (at most 5 MB, DECISIONS.md) as it is on the server now. Agent failures
 * come through as their CONNECTION_AGENT_* codes.
 *
 * @example const { text, hash } = await readPageSource(env, db, site, page);
 */
export async function readPageSource(env: Env, db: Db, site: Site, page: Pick<Page, "path">): Promise<PageSource> {
  const fs = await siteRemoteFs(env, site);
  const bytes = new Uint8Array(await fs.read(page.path));
  await pinObservedKeys(db, site, fs);
  const { text, encoding } = decodePageSource(bytes);
  return { bytes, hash: await sha256Hex(bytes), text, encoding };
}

/**
 * The page's file, read and parsed into regions and metadata.
 * @example const { parsed, hash } = await readPageFile(env, db, site, page);
 */
export async function readPageFile(env: Env, db: Db, site: Site, page: Pick<Page, "path">): Promise<PageFile> {
  const file = await readPageSource(env, db, site, page);
  return { ...file, parsed: parsePage(file.text, extensionOf(page.path)) };
}

/**
 * `GET /sites/{siteId}/pages/{pageId}/regions` (EDITING-MODEL.md, last section): what the editor
 * would find in the page's current file, and the file's hash, so a script can change one region
 * and publish it (`baseHash`) without a browser.
 *
 * @example const { regions, baseHash } = await getPageRegions(ctx, siteId, pageId);
 */
export async function getPageRegions(ctx: ServiceContext, siteId: string, pageId: string): Promise<RegionsPayload & { baseHash: string }> {
  const site = await findAccessibleSite(ctx, siteId);
  const page = await findEditablePage(ctx, site, pageId);
  const file = await readPageFile(ctx.env, ctx.db, site, page);
  return { ...regionsPayload(file.parsed), baseHash: file.hash };
}
