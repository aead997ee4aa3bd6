import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  ClassifiedSite,
  ClassifyBody,
  RevisionListQuery,
  ScreenshotRequested,
  SiteAnswer,
  SiteBody,
  SiteList,
  SiteListQuery,
  SiteParams,
} from "~/lib/schemas/sites";
import { ActivityList } from "~/lib/schemas/users";
import { listSiteRevisions } from "~/services/pages.server";
import {
  createSite,
  deleteSite,
  getSite,
  listSites,
  readScreenshot,
  reclassifySite,
  requestScreenshot,
  updateSite,
  type Defer,
} from "~/services/sites.server";
import type { AppEnv } from "./app-env";
import { createApi, errorResponses, jsonBody, jsonResponse, signedIn } from "./openapi";

const tags = ["Sites"];

const agentFailures = {
  502: { description: "The site's server refused or failed the connection test (a CONNECTION_AGENT_* code, e.g. CONNECTION_AGENT_AUTH)" },
  503: { description: "The site's connection agent is offline (CONNECTION_AGENT_OFFLINE)" },
  504: { description: "The site's server did not answer in time (CONNECTION_AGENT_TIMEOUT)" },
} as const;

/** Work that may finish after the answer (a screenshot capture). */
const deferTo = (c: Context<AppEnv>): Defer => (work) => c.executionCtx.waitUntil(work);

const list = createRoute({
  method: "get", path: "/sites", tags, security: signedIn,
  summary: "The sites the user may see, by name; search by name or URL; limit 0 answers the count only",
  request: { query: SiteListQuery },
  responses: { 200: jsonResponse(SiteList, "sites, count, offset, limit"), ...errorResponses(400, 401) },
});

const create = createRoute({
  method: "post", path: "/sites", tags, security: signedIn,
  summary: "Create a site from the site form; the connection is tested through the agent before anything is saved (can manage sites)",
  request: { body: jsonBody(SiteBody) },
  responses: { 200: jsonResponse(SiteAnswer, "The new site (never its secrets)"), ...errorResponses(400, 401, 403), ...agentFailures },
});

const read = createRoute({
  method: "get", path: "/sites/{siteId}", tags, security: signedIn,
  summary: "A site; the connection (without secrets: storedSecrets says which are stored) for those who can manage sites",
  request: { params: SiteParams },
  responses: { 200: jsonResponse(SiteAnswer, "site"), ...errorResponses(401, 404) },
});

const update = createRoute({
  method: "put", path: "/sites/{siteId}", tags, security: signedIn,
  summary: "Change a site; empty or missing secrets keep the stored ones; a changed connection is tested first (can manage sites)",
  request: { params: SiteParams, body: jsonBody(SiteBody) },
  responses: { 200: jsonResponse(SiteAnswer, "The changed site"), ...errorResponses(400, 401, 403, 404), ...agentFailures },
});

const remove = createRoute({
  method: "delete", path: "/sites/{siteId}", tags, security: signedIn,
  summary: "Delete a site from the product with its pages and history; the server is not touched (can manage sites)",
  request: { params: SiteParams },
  responses: { 204: { description: "Deleted" }, ...errorResponses(401, 403, 404) },
});

const putScreenshot = createRoute({
  method: "put", path: "/sites/{siteId}/screenshot", tags, security: signedIn,
  summary: "Ask for a new screenshot of the site's home page, taken after the answer (can manage sites)",
  request: { params: SiteParams },
  responses: { 202: jsonResponse(ScreenshotRequested, "A new screenshot is being generated."), ...errorResponses(401, 403, 404) },
});

const getScreenshot = createRoute({
  method: "get", path: "/sites/{siteId}/screenshot", tags, security: signedIn,
  summary: "The site's stored screenshot (PNG); the site's `screenshot` URL names its version",
  request: { params: SiteParams, query: z.object({ v: z.string().max(64).optional() }) },
  responses: { 200: { description: "The picture", content: { "image/png": { schema: z.string().openapi({ format: "binary" }) } } }, ...errorResponses(401, 404) },
});

const revisions = createRoute({
  method: "get", path: "/sites/{siteId}/revisions", tags, security: signedIn,
  summary: "The site's recent activity: drafts and published revisions, newest first",
  request: { params: SiteParams, query: RevisionListQuery },
  responses: { 200: jsonResponse(ActivityList, "revisions, count, offset, limit"), ...errorResponses(400, 401, 404) },
});

const classify = createRoute({
  method: "put", path: "/admin/sites/{siteId}/classify", tags: ["Admin"], security: signedIn,
  summary: "Reclassify a site of any account and lock the classification against its owner (superuser)",
  request: { params: SiteParams, body: jsonBody(ClassifyBody) },
  responses: { 200: jsonResponse(ClassifiedSite, "The site's classification"), ...errorResponses(400, 401, 404) },
});

export const sitesApi = createApi()
  .openapi(list, async (c) => c.json(await listSites(c.var.ctx, c.req.valid("query")), 200))
  .openapi(create, async (c) => c.json(await createSite(c.var.ctx, c.req.valid("json"), { defer: deferTo(c) }), 200))
  .openapi(read, async (c) => c.json(await getSite(c.var.ctx, c.req.valid("param").siteId), 200))
  .openapi(update, async (c) => c.json(await updateSite(c.var.ctx, c.req.valid("param").siteId, c.req.valid("json")), 200))
  .openapi(remove, async (c) => {
    await deleteSite(c.var.ctx, c.req.valid("param").siteId);
    return c.body(null, 204);
  })
  .openapi(putScreenshot, async (c) => c.json(await requestScreenshot(c.var.ctx, c.req.valid("param").siteId, { defer: deferTo(c) }), 202))
  .openapi(getScreenshot, async (c) => {
    const { body, contentType } = await readScreenshot(c.var.ctx, c.req.valid("param").siteId);
    return c.body(body, 200, {
      "Content-Type": contentType,
      // The URL carries the version, so the picture never changes under it.
      "Cache-Control": "private, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
  })
  .openapi(revisions, async (c) => c.json(await listSiteRevisions(c.var.ctx, c.req.valid("param").siteId, c.req.valid("query")), 200))
  .openapi(classify, async (c) => c.json(await reclassifySite(c.var.ctx, c.req.valid("param").siteId, c.req.valid("json").classification), 200));
