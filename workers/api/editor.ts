import { createRoute, z } from "@hono/zod-openapi";
import { code, version } from "virtual:editor-frame";
import { createApi, publicRoute } from "./openapi";

const getFrameScript = createRoute({
  method: "get", path: "/editor/frame.js", tags: ["Editor"], security: publicRoute,
  summary: "The in-frame editor script the page render loads first in the preview frame; `v` names its version",
  request: { query: z.object({ v: z.string().max(64).optional() }) },
  responses: { 200: { description: "The script", content: { "text/javascript": { schema: z.string() } } } },
});

export const editorApi = createApi().openapi(getFrameScript, (c) => {
  const current = c.req.valid("query").v === version;
  return c.body(code, 200, {
    "Content-Type": "text/javascript; charset=utf-8",
    // Only a URL naming this version may be kept for good; any other answer may change with a deploy.
    "Cache-Control": current ? "public, max-age=31536000, immutable" : "public, max-age=300",
    "X-Content-Type-Options": "nosniff",
    // The preview frame is another origin, and sandboxed (an opaque origin).
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Access-Control-Allow-Origin": "*",
    ETag: `"${version}"`,
  });
});
