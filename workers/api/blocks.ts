import { createRoute } from "@hono/zod-openapi";
import { BlockAnswer, BlockList, BlockListQuery, BlockParams } from "~/lib/schemas/blocks";
import { SiteParams } from "~/lib/schemas/sites";
import { getBlock, listBlocks } from "~/services/blocks.server";
import { createApi, errorResponses, jsonResponse, signedIn } from "./openapi";

const tags = ["Blocks"];

const list = createRoute({
  method: "get", path: "/sites/{siteId}/blocks", tags, security: signedIn,
  summary: "The site's blocks by name (up to 1000 at once; limit 0 answers the count only)",
  request: { params: SiteParams, query: BlockListQuery },
  responses: { 200: jsonResponse(BlockList, "blocks, count, offset, limit"), ...errorResponses(400, 401, 404) },
});

const read = createRoute({
  method: "get", path: "/sites/{siteId}/blocks/{blockId}", tags, security: signedIn,
  summary: "One block: name, description and source",
  request: { params: BlockParams },
  responses: { 200: jsonResponse(BlockAnswer, "block"), ...errorResponses(401, 404) },
});

export const blocksApi = createApi()
  .openapi(list, async (c) => c.json(await listBlocks(c.var.ctx, c.req.valid("param").siteId, c.req.valid("query")), 200))
  .openapi(read, async (c) => {
    const { siteId, blockId } = c.req.valid("param");
    return c.json(await getBlock(c.var.ctx, siteId, blockId), 200);
  });
