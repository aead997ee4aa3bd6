import { createRoute } from "@hono/zod-openapi";
import { DeletePagesAnswer, DeletePagesBody, NewPageBody, PageAnswer, PageList, PageListQuery, PageParams, UpdatePageBody } from "~/lib/schemas/pages";
import { SiteParams } from "~/lib/schemas/sites";
import { PageRegionsAnswer } from "~/lib/schemas/page-content";
import { PageSourceAnswer, PageSourceBody } from "~/lib/schemas/page-source";
import { getPageRegions } from "~/services/page-file.server";
import { getPageSource, putPageSource } from "~/services/page-source.server";
import { createPage, getPage, listPages, removePages, updatePage } from "~/services/pages.server";
import { createApi, errorResponses, jsonBody, jsonResponse, signedIn } from "./openapi";

const tags = ["Pages"];

const agentFailures = {
  502: { description: "The site's server refused or failed (a CONNECTION_AGENT_* code)" },
  503: { description: "The site's connection agent is offline (CONNECTION_AGENT_OFFLINE)" },
  504: { description: "The site's server did not answer in time (CONNECTION_AGENT_TIMEOUT)" },
} as const;

const list = createRoute({
  method: "get", path: "/sites/{siteId}/pages", tags, security: signedIn,
  summary: "The site's pages the user may reach; sortBy=pinned puts pinned pages first, then by name; limit 0 answers the count only",
  request: { params: SiteParams, query: PageListQuery },
  responses: { 200: jsonResponse(PageList, "pages, count, offset, limit"), ...errorResponses(400, 401, 404) },
});

const create = createRoute({
  method: "post", path: "/sites/{siteId}/pages", tags, security: signedIn,
  summary: "A new page from a template (templateId), a duplicate of a page (pageId: the file is copied on the server), or an existing file enabled (createOnServer)",
  request: { params: SiteParams, body: jsonBody(NewPageBody) },
  responses: { 200: jsonResponse(PageAnswer, "The page"), ...errorResponses(400, 401, 403, 404, 409), ...agentFailures },
});

const read = createRoute({
  method: "get", path: "/sites/{siteId}/pages/{pageId}", tags, security: signedIn, summary: "A page the user may edit",
  request: { params: PageParams },
  responses: { 200: jsonResponse(PageAnswer, "page"), ...errorResponses(401, 404) },
});

const regions = createRoute({
  method: "get", path: "/sites/{siteId}/pages/{pageId}/regions", tags, security: signedIn,
  summary: "What the editor would find in the page's current file: metadata, regions by id (type, global, fields), problems, and the file's sha256 (baseHash) to publish against",
  request: { params: PageParams },
  responses: { 200: jsonResponse(PageRegionsAnswer, "metadata, regions, problems, baseHash"), ...errorResponses(401, 404), ...agentFailures },
});

const readSource = createRoute({
  method: "get", path: "/sites/{siteId}/pages/{pageId}/source", tags, security: signedIn,
  summary: "The page's raw source as it is on the server, and its sha256 (baseHash); admins for any page, others for .css/.js/.json/.txt pages",
  request: { params: PageParams },
  responses: { 200: jsonResponse(PageSourceAnswer, "source, baseHash"), ...errorResponses(401, 403, 404), ...agentFailures },
});

const writeSource = createRoute({
  method: "put", path: "/sites/{siteId}/pages/{pageId}/source", tags, security: signedIn,
  summary: "Write the page's raw source to the server (atomically); with baseHash, 409 PAGE_CHANGED_ON_SERVER when the file changed since",
  description: "403 SITE_IS_LOCKED in lockdown, 403 UPGRADE_REQUIRED for a commercial site on the personal plan, 409 PUBLISH_IN_PROGRESS while the page is being published.",
  request: { params: PageParams, body: jsonBody(PageSourceBody) },
  responses: { 200: jsonResponse(PageSourceAnswer, "source and the file's new baseHash"), ...errorResponses(400, 401, 403, 404, 409), ...agentFailures },
});

const update = createRoute({
  method: "put", path: "/sites/{siteId}/pages/{pageId}", tags, security: signedIn,
  summary: "Rename a page (name and path: the file moves on the server too) or pin it (admins)",
  request: { params: PageParams, body: jsonBody(UpdatePageBody) },
  responses: { 200: jsonResponse(PageAnswer, "The changed page"), ...errorResponses(400, 401, 403, 404, 409), ...agentFailures },
});

const remove = createRoute({
  method: "post", path: "/sites/{siteId}/pages/delete", tags, security: signedIn,
  summary: "Disable pages (deleteFromServer false: the files stay) or delete them from the server too",
  request: { params: SiteParams, body: jsonBody(DeletePagesBody) },
  responses: { 200: jsonResponse(DeletePagesAnswer, "succeeded and failed, each with the page id"), ...errorResponses(400, 401, 403, 404), ...agentFailures },
});

export const pagesApi = createApi()
  .openapi(list, async (c) => c.json(await listPages(c.var.ctx, c.req.valid("param").siteId, c.req.valid("query")), 200))
  .openapi(create, async (c) => c.json(await createPage(c.var.ctx, c.req.valid("param").siteId, c.req.valid("json")), 200))
  .openapi(read, async (c) => {
    const { siteId, pageId } = c.req.valid("param");
    return c.json(await getPage(c.var.ctx, siteId, pageId), 200);
  })
  .openapi(regions, async (c) => {
    const { siteId, pageId } = c.req.valid("param");
    return c.json(await getPageRegions(c.var.ctx, siteId, pageId), 200);
  })
  .openapi(readSource, async (c) => {
    const { siteId, pageId } = c.req.valid("param");
    return c.json(await getPageSource(c.var.ctx, siteId, pageId), 200);
  })
  .openapi(writeSource, async (c) => {
    const { siteId, pageId } = c.req.valid("param");
    return c.json(await putPageSource(c.var.ctx, siteId, pageId, c.req.valid("json")), 200);
  })
  .openapi(update, async (c) => {
    const { siteId, pageId } = c.req.valid("param");
    return c.json(await updatePage(c.var.ctx, siteId, pageId, c.req.valid("json")), 200);
  })
  .openapi(remove, async (c) => c.json(await removePages(c.var.ctx, c.req.valid("param").siteId, c.req.valid("json")), 200));
