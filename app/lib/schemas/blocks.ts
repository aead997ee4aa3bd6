import { z } from "zod";

/** The spec: the editor loads up to 1000 blocks, by name. */
export const MAX_BLOCKS_PER_PAGE = 1000;

export const BlockParams = z.object({ siteId: z.string().min(1).max(64), blockId: z.string().min(1).max(64) });

export const BlockListQuery = z.object({
  search: z.string().trim().max(200).default(""),
  limit: z.coerce.number().int().min(0).max(MAX_BLOCKS_PER_PAGE).default(MAX_BLOCKS_PER_PAGE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  sortBy: z.enum(["name"]).default("name"),
});
export type BlockListQuery = z.infer<typeof BlockListQuery>;

/** Spec section 3, Block. */
export const BlockView = z.object({ id: z.string(), siteId: z.string(), name: z.string(), description: z.string(), source: z.string() });
export type BlockView = z.infer<typeof BlockView>;

export const BlockList = z.object({ blocks: z.array(BlockView), count: z.number(), offset: z.number(), limit: z.number() });
export type BlockList = z.infer<typeof BlockList>;
export const BlockAnswer = z.object({ block: BlockView });
