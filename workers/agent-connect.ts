import { STAGED_KEY } from "../agent/src/protocol.ts";
import { authenticateAgent } from "~/services/agent-link.server";
import { openStaged } from "~/services/upload-staging.server";
import { AGENT_HEADER } from "./agent-hub";

/**
 * `/agent/connect`: the connection agent's WebSocket. Only an upgrade is accepted (426 otherwise),
 * and only with `Authorization: Bearer <token>` of the hosted agent or of a registered agent (401
 * otherwise, no upgrade). The token is checked here, before any Durable Object is reached; the
 * AgentHub of that agent then keeps the socket (workers/agent-hub.ts).
 */
function bearerToken(request: Request): string {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1] ?? "";
}

export async function connectAgent(request: Request, env: Env): Promise<Response> {
  if (request.method !== "GET" || request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return new Response("Expected a WebSocket upgrade", { status: 426, headers: { Upgrade: "websocket" } });
  }
  const token = bearerToken(request);
  const agent = token ? await authenticateAgent(env, token) : null;
  if (!agent) return new Response("Unauthorized", { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  const headers = new Headers(request.headers);
  headers.delete("Authorization");
  headers.set(AGENT_HEADER, agent.hub);
  const hub = env.AGENT_HUB.get(env.AGENT_HUB.idFromName(agent.hub));
  return hub.fetch(new Request(request.url, { method: "GET", headers }));
}

/** The path prefix of staged uploads an agent downloads (`writeStaged`). */
export const STAGED_PATH = "/agent/staged/";

/**
 * `GET /agent/staged/<hub>/<id>`: a staged upload, for the agent of that hub only (401 without a
 * valid agent token, 404 for another hub's key or a removed one). Never cached.
 */
export async function serveStaged(request: Request, env: Env): Promise<Response> {
  if (request.method !== "GET") return new Response("Method Not Allowed", { status: 405, headers: { Allow: "GET" } });
  const token = bearerToken(request);
  const agent = token ? await authenticateAgent(env, token) : null;
  if (!agent) return new Response("Unauthorized", { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  const key = decodeURIComponent(new URL(request.url).pathname.slice(STAGED_PATH.length));
  const object = STAGED_KEY.test(key) ? await openStaged(env.UPLOADS, agent.hub, key) : null;
  if (!object) return new Response("Not Found", { status: 404 });
  return new Response(object.body, {
    headers: { "Content-Type": "application/octet-stream", "Content-Length": String(object.size), "Cache-Control": "no-store" },
  });
}
