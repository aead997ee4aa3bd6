import { createRoute, z } from "@hono/zod-openapi";
import { PageParams } from "~/lib/schemas/publish";
import { RevisionParams } from "~/lib/schemas/revisions";
import { renderFromToken, renderLocation } from "~/services/page-render.server";
import { createApi, errorResponses, publicRoute, signedIn } from "./openapi";

const tags = ["Editor"];

const redirect = { 302: { description: "To the page on the preview origin, with a render token that works for a few minutes" } } as const;

const renderPage = createRoute({
  method: "get", path: "/sites/{siteId}/pages/{pageId}/render", tags, security: signedIn,
  summary: "The editor frame's source: redirects to the page as it is on the server, prepared for editing, on the preview origin",
  request: { params: PageParams },
  responses: { ...redirect, ...errorResponses(401, 403, 404) },
});

const renderRevision = createRoute({
  method: "get", path: "/sites/{siteId}/pages/{pageId}/revisions/{revisionId}/render", tags, security: signedIn,
  summary: "The editor frame's source with a revision's regions and metadata applied: redirects to the preview origin like the page render",
  request: { params: RevisionParams },
  responses: { ...redirect, ...errorResponses(401, 403, 404) },
});

const renderByToken = createRoute({
  method: "get", path: "/render/{token}", tags, security: publicRoute,
  summary: "The page for the editor frame (preview origin): sandboxed by CSP, framed only by the app; the render token is the credential",
  request: { params: z.object({ token: z.string().min(1).max(4096) }) },
  responses: {
    200: { description: "The page, with a <base> to the live page and the in-frame editor script first", content: { "text/html": { schema: z.string() } } },
    404: { description: "Not a render token of this service" },
    410: { description: "The render token expired (RENDER_EXPIRED); the page answered loads the editor script with that code" },
  },
});

export const renderApi = createApi()
  .openapi(renderPage, async (c) => {
    const { siteId, pageId } = c.req.valid("param");
    return c.redirect(await renderLocation(c.var.ctx, siteId, pageId, null), 302);
  })
  .openapi(renderRevision, async (c) => {
    const { siteId, pageId, revisionId } = c.req.valid("param");
    return c.redirect(await renderLocation(c.var.ctx, siteId, pageId, revisionId), 302);
  })
  .openapi(renderByToken, async (c) => renderFromToken(c.env, c.req.valid("param").token, new URL(c.req.url)) as never);
