import { authenticateAgent } from "~/services/agent-link.server";
import { AGENT_HEADER } from "./agent-hub";

/**
 * `/agent/connect`: the connection agent's WebSocket. Only an upgrade is accepted (426 otherwise),
 * and only with `Authorization: Bearer <token>` of the hosted agent or of a registered agent (401
 * otherwise, no upgrade). The token is checked here, before any Durable Object is reached; the
 * AgentHub of that agent then keeps the socket (workers/agent-hub.ts).
 */
export async function connectAgent(request: Request, env: Env): Promise<Response> {
  if (request.method !== "GET" || request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return new Response("Expected a WebSocket upgrade", { status: 426, headers: { Upgrade: "websocket" } });
  }
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get("Authorization") ?? "")?.[1] ?? "";
  const agent = token ? await authenticateAgent(env, token) : null;
  if (!agent) return new Response("Unauthorized", { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  const headers = new Headers(request.headers);
  headers.delete("Authorization");
  headers.set(AGENT_HEADER, agent.hub);
  const hub = env.AGENT_HUB.get(env.AGENT_HUB.idFromName(agent.hub));
  return hub.fetch(new Request(request.url, { method: "GET", headers }));
}
