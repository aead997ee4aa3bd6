import { createRoute, z } from "@hono/zod-openapi";
import { PageParams } from "~/lib/schemas/publish";
import { RevisionAnswer, RevisionBody, RevisionList, RevisionListQuery, RevisionParams, RevisionSummaryAnswer } from "~/lib/schemas/revisions";
import { createRevision, deleteRevision, getRevision, listRevisions, updateRevision } from "~/services/revisions.server";
import { createApi, errorResponses, jsonBody, jsonResponse, signedIn } from "./openapi";

const tags = ["Revisions"];

const list = createRoute({
  method: "get", path: "/sites/{siteId}/pages/{pageId}/revisions", tags, security: signedIn,
  summary: "The page's drafts (first) and published revisions, newest first; 100 a load by default, limit 0 answers the count only",
  request: { params: PageParams, query: RevisionListQuery },
  responses: { 200: jsonResponse(RevisionList, "revisions, count, offset, limit"), ...errorResponses(400, 401, 404) },
});

const read = createRoute({
  method: "get", path: "/sites/{siteId}/pages/{pageId}/revisions/{revisionId}", tags, security: signedIn,
  summary: "A revision with its metadata and regions (the region payload of EDITING-MODEL.md)",
  request: { params: RevisionParams },
  responses: { 200: jsonResponse(RevisionAnswer, "revision"), ...errorResponses(401, 404) },
});

const create = createRoute({
  method: "post", path: "/sites/{siteId}/pages/{pageId}/revisions", tags, security: signedIn,
  summary: "Save a new draft: metadata, regions, and the sha256 of the server file it was made from (baseHash)",
  description: "403 SITE_IS_LOCKED in lockdown. Published revisions are recorded by the publish itself (isDraft must be true).",
  request: { params: PageParams, body: jsonBody(RevisionBody) },
  responses: { 200: jsonResponse(RevisionAnswer, "The new draft"), ...errorResponses(400, 401, 403, 404) },
});

const update = createRoute({
  method: "put", path: "/sites/{siteId}/pages/{pageId}/revisions/{revisionId}", tags, security: signedIn,
  summary: "Save over a draft; with the version the edit started from (body `version` or If-Match), 409 REVISION_CONFLICT when someone saved it first",
  request: { params: RevisionParams, body: jsonBody(RevisionBody), headers: z.object({ "if-match": z.string().max(40).optional() }) },
  responses: { 200: jsonResponse(RevisionAnswer, "The saved draft, with its new version"), ...errorResponses(400, 401, 403, 404, 409) },
});

const remove = createRoute({
  method: "delete", path: "/sites/{siteId}/pages/{pageId}/revisions/{revisionId}", tags, security: signedIn,
  summary: "Delete a draft (anyone who may edit the page) or a published revision (admins)",
  request: { params: RevisionParams },
  responses: { 200: jsonResponse(RevisionSummaryAnswer, "The deleted revision"), ...errorResponses(401, 403, 404) },
});

/** `If-Match: 3`, `"3"` or `W/"3"`: the draft version an edit started from. */
function versionOf(ifMatch: string | undefined): number | undefined {
  const match = ifMatch?.match(/^(?:W\/)?"?(\d{1,9})"?$/);
  return match ? Number(match[1]) : undefined;
}

export const revisionsApi = createApi()
  .openapi(list, async (c) => {
    const { siteId, pageId } = c.req.valid("param");
    return c.json(await listRevisions(c.var.ctx, siteId, pageId, c.req.valid("query")), 200);
  })
  .openapi(read, async (c) => {
    const { siteId, pageId, revisionId } = c.req.valid("param");
    return c.json(await getRevision(c.var.ctx, siteId, pageId, revisionId), 200);
  })
  .openapi(create, async (c) => {
    const { siteId, pageId } = c.req.valid("param");
    return c.json(await createRevision(c.var.ctx, siteId, pageId, c.req.valid("json")), 200);
  })
  .openapi(update, async (c) => {
    const { siteId, pageId, revisionId } = c.req.valid("param");
    return c.json(await updateRevision(c.var.ctx, siteId, pageId, revisionId, c.req.valid("json"), versionOf(c.req.valid("header")["if-match"])), 200);
  })
  .openapi(remove, async (c) => {
    const { siteId, pageId, revisionId } = c.req.valid("param");
    return c.json(await deleteRevision(c.var.ctx, siteId, pageId, revisionId), 200);
  });
