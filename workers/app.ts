import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { connectAgent, serveStaged, STAGED_PATH } from "./agent-connect";
import { api } from "./api";
import { serveDemoSite } from "~/services/demo-site.server";
import { RENDER_PATH } from "~/services/page-render.server";
import { DEMO_SITE_PATH, isPreviewRequest } from "~/services/preview-origin.server";
import { keepHostedAgentsRunning } from "./hosted-agent";

export { RateLimiter } from "./rate-limiter";
export { AgentHub } from "./agent-hub";
export { HostedAgent } from "./hosted-agent";
export { SitePublisher } from "./site-publisher";

const requestHandler = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const { pathname } = url;
    // The preview origin serves customer content only: page renders and demo sites (SECURITY.md 6).
    if (isPreviewRequest(env, url) && !pathname.startsWith(RENDER_PATH) && !pathname.startsWith(DEMO_SITE_PATH)) {
      return new Response("Not Found", { status: 404 });
    }
    if (pathname.startsWith(DEMO_SITE_PATH)) return serveDemoSite(request, env);
    if (pathname === "/api" || pathname.startsWith("/api/")) return api.fetch(request, env, ctx);
    if (pathname === "/agent/connect") return connectAgent(request, env);
    if (pathname.startsWith(STAGED_PATH)) return serveStaged(request, env);
    const context = new RouterContextProvider();
    context.set(cloudflareContext, { env, ctx });
    return requestHandler(request, context);
  },
  scheduled(_controller, env, ctx) {
    ctx.waitUntil(keepHostedAgentsRunning(env));
  },
} satisfies ExportedHandler<Env>;
