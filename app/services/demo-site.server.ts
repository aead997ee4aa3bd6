/**
 * A demo site's live pages (ARCHITECTURE.md, "Embedded defaults"): its files live in R2 and the
 * Worker serves them at `/demo/{siteId}/…`, so publishing to the demo site can be seen on the web
 * like any site. Served sandboxed (CSP `sandbox`), so a page's scripts run in an opaque origin and
 * reach nothing of the app even when the path is opened on the app's own host.
 */
import { and, eq } from "drizzle-orm";
import { sites } from "../../db/schema";
import { AgentError } from "../../agent/src/errors.ts";
import { getDb } from "./db.server";
import { contentTypeOf, createDemoStore } from "./demo-store.server";
import { DEMO_SITE_PATH } from "./preview-origin.server";

const notFound = () => new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * `GET /demo/{siteId}/{path}`: a file of a demo site; a folder answers its index.html.
 * @example return serveDemoSite(request, env);
 */
export async function serveDemoSite(request: Request, env: Env): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "GET, HEAD" } });
  const rest = new URL(request.url).pathname.slice(DEMO_SITE_PATH.length);
  const slash = rest.indexOf("/");
  if (slash < 0) return Response.redirect(new URL(`${DEMO_SITE_PATH}${rest}/`, request.url).href, 301);
  let siteId: string;
  let path: string;
  try {
    siteId = decodeURIComponent(rest.slice(0, slash));
    path = decodeURIComponent(rest.slice(slash));
  } catch {
    return notFound();
  }
  if (path.endsWith("/")) path += "index.html";
  const site = await getDb(env).select({ id: sites.id, homeFolder: sites.homeFolder }).from(sites).where(and(eq(sites.id, siteId), eq(sites.isDemo, true))).get();
  if (!site) return notFound();
  try {
    const store = createDemoStore(env.UPLOADS, site.id, { home: site.homeFolder });
    const bytes = await store.read(path, { maxBytes: 25 * 1024 * 1024 });
    return new Response(request.method === "HEAD" ? null : new Uint8Array(bytes), {
      headers: {
        "Content-Type": contentTypeOf(path),
        "Content-Security-Policy": "sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox",
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        "Cross-Origin-Resource-Policy": "cross-origin",
      },
    });
  } catch (error) {
    if (error instanceof AgentError) return notFound();
    throw error;
  }
}
