/**
 * A site's blocks (EDITING-MODEL.md, "Global regions and blocks"): reusable snippets an editor
 * inserts into a block region between `<!-- cms-include "Name" -->` comments. Anyone who reaches the
 * site may read them (the editor's Blocks panel); managing them is for admins (the Blocks screens).
 */
import { and, asc, count, eq, or, sql } from "drizzle-orm";
import { blocks, type Block } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { BlockList, BlockListQuery, BlockView } from "~/lib/schemas/blocks";
import type { ServiceContext } from "./context.server";
import { findAccessibleSite } from "./site-files.server";
import { likePattern } from "./sites.server";

function toBlockView(block: Block): BlockView {
  return { id: block.id, siteId: block.siteId, name: block.name, description: block.description ?? "", source: block.source };
}

/**
 * `GET /sites/{siteId}/blocks`: the site's blocks by name (case-insensitively), searched by name or
 * description; up to 1000 at once, `limit` 0 answers the count only.
 *
 * @example const { blocks } = await listBlocks(ctx, siteId, { search: "", limit: 1000, offset: 0, sortBy: "name" });
 */
export async function listBlocks(ctx: ServiceContext, siteId: string, query: BlockListQuery): Promise<BlockList> {
  const site = await findAccessibleSite(ctx, siteId);
  const scope = [eq(blocks.siteId, site.id), eq(blocks.accountId, site.accountId)];
  if (query.search) {
    const pattern = likePattern(query.search);
    scope.push(or(sql`lower(${blocks.name}) like ${pattern} escape '\\'`, sql`lower(coalesce(${blocks.description}, '')) like ${pattern} escape '\\'`)!);
  }
  const where = and(...scope);
  const total = ctx.db.select({ n: count() }).from(blocks).where(where);
  if (query.limit === 0) return { blocks: [], count: (await total)[0]?.n ?? 0, offset: query.offset, limit: 0 };
  const [rows, counted] = await ctx.db.batch([
    ctx.db.select().from(blocks).where(where).orderBy(asc(sql`lower(${blocks.name})`), asc(blocks.id)).limit(query.limit).offset(query.offset),
    total,
  ]);
  return { blocks: rows.map(toBlockView), count: counted[0]?.n ?? 0, offset: query.offset, limit: query.limit };
}

/** `GET /sites/{siteId}/blocks/{blockId}`: one block of a site the actor reaches. */
export async function getBlock(ctx: ServiceContext, siteId: string, blockId: string): Promise<{ block: BlockView }> {
  const site = await findAccessibleSite(ctx, siteId);
  const block = await ctx.db.select().from(blocks).where(and(eq(blocks.id, blockId), eq(blocks.siteId, site.id), eq(blocks.accountId, site.accountId))).get();
  if (!block) throw new AppError("NOT_FOUND");
  return { block: toBlockView(block) };
}
