import { createRoute } from "@hono/zod-openapi";
import { ApiTokenStatus, NewApiToken, UserIdParams } from "~/lib/schemas/api-token";
import { createApiToken, getApiToken, revokeApiToken } from "~/services/api-tokens.server";
import { createApi, errorResponses, jsonResponse, signedIn } from "./openapi";

const path = "/users/{userId}/api-token";
const tags = ["API token"];

const getToken = createRoute({
  method: "get", path, tags, security: signedIn, summary: "Whether the user has an API token (never the token itself)",
  request: { params: UserIdParams },
  responses: { 200: jsonResponse(ApiTokenStatus, "The token's prefix and dates, or null"), ...errorResponses(401, 403, 404) },
});

const postToken = createRoute({
  method: "post", path, tags, security: signedIn, summary: "Enable or regenerate the API token; the old one stops working",
  request: { params: UserIdParams },
  responses: { 200: jsonResponse(NewApiToken, "The new token, shown once"), ...errorResponses(401, 403, 404) },
});

const deleteToken = createRoute({
  method: "delete", path, tags, security: signedIn, summary: "Disable API access",
  request: { params: UserIdParams },
  responses: { 204: { description: "Disabled" }, ...errorResponses(401, 403, 404) },
});

export const apiTokensApi = createApi()
  .openapi(getToken, async (c) => c.json(await getApiToken(c.var.ctx, c.req.valid("param").userId), 200))
  .openapi(postToken, async (c) => c.json(await createApiToken(c.var.ctx, c.req.valid("param").userId), 200))
  .openapi(deleteToken, async (c) => {
    await revokeApiToken(c.var.ctx, c.req.valid("param").userId);
    return c.body(null, 204);
  });
