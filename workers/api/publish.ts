import { createRoute } from "@hono/zod-openapi";
import { PageParams, PublishBody, PublishParams, PublishStarted, PublishStatusBody } from "~/lib/schemas/publish";
import { getPublishStatus, rollbackPublish, startPublish } from "~/services/publish.server";
import { createApi, errorResponses, jsonBody, jsonResponse, signedIn } from "./openapi";

const tags = ["Publishing"];

const postPublish = createRoute({
  method: "post", path: "/sites/{siteId}/pages/{pageId}/publish", tags, security: signedIn,
  description: "403 UPGRADE_REQUIRED for a commercial site on the personal plan (the draft is kept), 403 SITE_IS_LOCKED in lockdown, 409 PUBLISH_IN_PROGRESS while the page is being published.",
  summary: "Publish regions and metadata into the page's file on the server (and every page sharing an edited global region); answers the statusId to poll",
  request: { params: PageParams, body: jsonBody(PublishBody) },
  responses: {
    200: jsonResponse(PublishStarted, "The publish is queued"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

const getStatus = createRoute({
  method: "get", path: "/sites/{siteId}/pages/{pageId}/publish/{statusId}", tags, security: signedIn,
  summary: "The publish status: queue, processed of total, unpublished regions, whether it is complete and its error code",
  request: { params: PublishParams },
  responses: { 200: jsonResponse(PublishStatusBody, "The publish status"), ...errorResponses(401, 404) },
});

const postRollback = createRoute({
  method: "post", path: "/sites/{siteId}/pages/{pageId}/publish/{statusId}/rollback", tags, security: signedIn,
  summary: "Admins: put back the previous bytes of every file the publish wrote, where the server still has what it wrote; answers the rollback's statusId",
  request: { params: PublishParams },
  responses: { 200: jsonResponse(PublishStarted, "The rollback is queued"), ...errorResponses(400, 401, 403, 404, 409) },
});

export const publishApi = createApi()
  .openapi(postPublish, async (c) => {
    const { siteId, pageId } = c.req.valid("param");
    return c.json(await startPublish(c.var.ctx, siteId, pageId, c.req.valid("json")), 200);
  })
  .openapi(getStatus, async (c) => {
    const { siteId, pageId, statusId } = c.req.valid("param");
    return c.json(await getPublishStatus(c.var.ctx, siteId, pageId, statusId), 200);
  })
  .openapi(postRollback, async (c) => {
    const { siteId, pageId, statusId } = c.req.valid("param");
    return c.json(await rollbackPublish(c.var.ctx, siteId, pageId, statusId), 200);
  });
