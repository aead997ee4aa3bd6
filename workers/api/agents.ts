import { createRoute } from "@hono/zod-openapi";
import { AgentIdParams, AgentList, NewAgent, NewAgentBody } from "~/lib/schemas/agents";
import { createAgent, deleteAgent, listAgents } from "~/services/agents.server";
import { createApi, errorResponses, jsonBody, jsonResponse, signedIn } from "./openapi";

const tags = ["Connection agents"];

const getAgents = createRoute({
  method: "get", path: "/account/agents", tags, security: signedIn,
  summary: "The account's connection agents, the hosted agent first (owner or admin with canManageSettings)",
  responses: { 200: jsonResponse(AgentList, "The hosted agent and the account's own agents"), ...errorResponses(401, 403) },
});

const postAgent = createRoute({
  method: "post", path: "/account/agents", tags, security: signedIn,
  summary: "Register a connection agent; its token is answered once",
  request: { body: jsonBody(NewAgentBody) },
  responses: { 200: jsonResponse(NewAgent, "The agent and its token, shown once"), ...errorResponses(400, 401, 403) },
});

const deleteAgentRoute = createRoute({
  method: "delete", path: "/account/agents/{agentId}", tags, security: signedIn,
  summary: "Remove a connection agent; its sites fall back to the hosted agent",
  request: { params: AgentIdParams },
  responses: { 204: { description: "Removed" }, ...errorResponses(401, 403, 404) },
});

export const agentsApi = createApi()
  .openapi(getAgents, async (c) => c.json(await listAgents(c.var.ctx), 200))
  .openapi(postAgent, async (c) => c.json(await createAgent(c.var.ctx, c.req.valid("json")), 200))
  .openapi(deleteAgentRoute, async (c) => {
    await deleteAgent(c.var.ctx, c.req.valid("param").agentId);
    return c.body(null, 204);
  });
