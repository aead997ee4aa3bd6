import { createRoute } from "@hono/zod-openapi";
import {
  ChangedFiles,
  DeleteFilesBody,
  FileList,
  NewFolderBody,
  RenameFilesBody,
  SiteFilesQuery,
  SiteIdParams,
  Thumbnails,
  ThumbnailsBody,
  UploadFormDoc,
} from "~/lib/schemas/site-files";
import { createSiteFolder, deleteSiteFiles, renameSiteFiles, uploadSiteFiles } from "~/services/site-file-changes.server";
import { listSiteFiles } from "~/services/site-files.server";
import { createThumbnails } from "~/services/thumbnails.server";
import { errorBody } from "~/lib/errors";
import { invalidFields } from "./error-mapper";
import { createApi, errorResponses, jsonBody, jsonResponse, signedIn } from "./openapi";

const tags = ["Files"];

const agentFailures = {
  502: { description: "The site's server refused or failed (a CONNECTION_AGENT_* code)" },
  503: { description: "The site's connection agent is offline (CONNECTION_AGENT_OFFLINE)" },
  504: { description: "The site's server did not answer in time (CONNECTION_AGENT_TIMEOUT)" },
} as const;

const getFiles = createRoute({
  method: "get", path: "/sites/{siteId}/files", tags, security: signedIn,
  summary: "List a folder of the site's server (default: the home folder); showEnabled marks files that are enabled pages",
  request: { params: SiteIdParams, query: SiteFilesQuery },
  responses: { 200: jsonResponse(FileList, "The folder's files and folders, folders first"), ...errorResponses(400, 401, 403, 404), ...agentFailures },
});

const postFiles = createRoute({
  method: "post", path: "/sites/{siteId}/files", tags, security: signedIn,
  summary: "Create a folder (JSON body with path) or upload files (multipart body with path, then files) inside the upload folder",
  request: {
    params: SiteIdParams,
    // The multipart schema is a plain OpenAPI object, so the router leaves that body unread: the
    // service parses it as a stream instead of buffering up to 100 MB.
    body: { content: { "application/json": { schema: NewFolderBody }, "multipart/form-data": { schema: UploadFormDoc } }, required: false },
  },
  responses: { 200: jsonResponse(ChangedFiles, "The folder or the uploaded files"), ...errorResponses(400, 401, 403, 404, 409), 413: { description: "FILE_TOO_LARGE: over 25 MB per file or 100 MB per request" }, ...agentFailures },
});

const putFiles = createRoute({
  method: "put", path: "/sites/{siteId}/files", tags, security: signedIn,
  summary: "Rename or move files and folders inside the upload folder",
  request: { params: SiteIdParams, body: jsonBody(RenameFilesBody) },
  responses: { 200: jsonResponse(ChangedFiles, "The files at their new paths"), ...errorResponses(400, 401, 403, 404, 409), ...agentFailures },
});

const deleteFiles = createRoute({
  method: "delete", path: "/sites/{siteId}/files", tags, security: signedIn,
  summary: "Delete files and folders (with their contents) inside the upload folder",
  request: { params: SiteIdParams, body: jsonBody(DeleteFilesBody) },
  responses: { 200: jsonResponse(ChangedFiles, "The removed files"), ...errorResponses(400, 401, 403, 404), ...agentFailures },
});

const postThumbnails = createRoute({
  method: "post", path: "/sites/{siteId}/files/thumbnails", tags, security: signedIn,
  summary: "Make gallery thumbnails of images of the site (by their URLs on the page at path) into the upload folder's thumbnails folder; an SVG is its own thumbnail",
  request: { params: SiteIdParams, body: jsonBody(ThumbnailsBody) },
  responses: {
    200: jsonResponse(Thumbnails, "Each thumbnail's path on the server and the URL it was made from, in the order of urls"),
    ...errorResponses(400, 401, 403, 404, 409),
    413: { description: "FILE_TOO_LARGE: a source over 25 MB or 12 megapixels" },
    ...agentFailures,
  },
});

export const siteFilesApi = createApi()
  .openapi(getFiles, async (c) => {
    const { siteId } = c.req.valid("param");
    return c.json(await listSiteFiles(c.var.ctx, siteId, c.req.valid("query")), 200);
  })
  .openapi(postFiles, async (c) => {
    const { siteId } = c.req.valid("param");
    if (/^multipart\/form-data/i.test(c.req.header("content-type") ?? "")) return c.json(await uploadSiteFiles(c.var.ctx, siteId, c.req.raw), 200);
    const body = NewFolderBody.safeParse(await c.req.json().catch(() => null));
    if (!body.success) return c.json(errorBody("VALIDATION_ERROR", invalidFields(body.error)), 400);
    return c.json(await createSiteFolder(c.var.ctx, siteId, body.data), 200);
  })
  .openapi(putFiles, async (c) => c.json(await renameSiteFiles(c.var.ctx, c.req.valid("param").siteId, c.req.valid("json")), 200))
  .openapi(deleteFiles, async (c) => c.json(await deleteSiteFiles(c.var.ctx, c.req.valid("param").siteId, c.req.valid("json")), 200))
  .openapi(postThumbnails, async (c) => c.json(await createThumbnails(c.var.ctx, c.req.valid("param").siteId, c.req.valid("json")), 200));
