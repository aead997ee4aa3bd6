import { createRoute, z } from "@hono/zod-openapi";
import { AdminUserSearch, AdminUsers } from "~/lib/schemas/admin";
import { searchAllUsers } from "~/services/admin-users.server";
import { sessionCookie } from "~/services/session-cookie.server";
import { endSudo, startSudo } from "~/services/sudo.server";
import { createApi, errorResponses, jsonResponse, signedIn } from "./openapi";

const tags = ["Admin"];

const getUsers = createRoute({
  method: "get", path: "/admin/users", tags, security: signedIn, summary: "Find users across all accounts (superuser)",
  request: { query: AdminUserSearch },
  responses: { 200: jsonResponse(AdminUsers, "Matching users, owners first"), ...errorResponses(401, 404) },
});

const postSudo = createRoute({
  method: "post", path: "/admin/users/{id}/sudo", tags, security: signedIn, summary: "Sudo Login: act as this user (superuser)",
  request: { params: z.object({ id: z.string().min(1).max(64) }) },
  responses: { 204: { description: "The session now acts as the user; reload at /" }, ...errorResponses(400, 401, 403, 404) },
});

const deleteSudo = createRoute({
  method: "delete", path: "/admin/users/sudo", tags, security: signedIn, summary: "Exit Sudo Mode",
  responses: { 204: { description: "Back to the superuser's own session" }, ...errorResponses(401, 403) },
});

export const adminApi = createApi()
  .openapi(getUsers, async (c) => c.json(await searchAllUsers(c.var.ctx, c.req.valid("query").search), 200))
  .openapi(postSudo, async (c) => {
    const token = await startSudo(c.var.ctx, c.req.valid("param").id, c.var.sessionToken);
    c.header("Set-Cookie", sessionCookie(c.req.raw, token));
    return c.body(null, 204);
  })
  .openapi(deleteSudo, async (c) => {
    const token = await endSudo(c.var.ctx, c.var.sessionToken);
    c.header("Set-Cookie", sessionCookie(c.req.raw, token));
    return c.body(null, 204);
  });
