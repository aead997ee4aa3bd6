import { createRoute, z } from "@hono/zod-openapi";
import { LoginBody, SessionView, UserView } from "~/lib/schemas/session";
import { resolveActor } from "~/services/actor.server";
import { login, logout } from "~/services/auth.server";
import { getSessionView } from "~/services/session-view.server";
import { clearSessionCookie } from "~/services/session-cookie.server";
import { readTrustedDeviceToken, signInCookies } from "~/services/trusted-devices.server";
import { createApi, errorResponses, jsonBody, jsonResponse, publicRoute } from "./openapi";

const getSession = createRoute({
  method: "get",
  path: "/auth/session",
  tags: ["Auth"],
  summary: "The page metadata and the signed-in user (null when signed out)",
  security: publicRoute,
  responses: { 200: jsonResponse(SessionView, "Metadata and user") },
});

const postLogin = createRoute({
  method: "post",
  path: "/auth/login",
  tags: ["Auth"],
  summary: "Sign in with email and password; sets the session cookie",
  security: publicRoute,
  request: { body: jsonBody(LoginBody) },
  responses: { 200: jsonResponse(z.object({ user: UserView }), "The signed-in user"), ...errorResponses(400, 403, 429) },
});

const postLogout = createRoute({
  method: "post",
  path: "/auth/logout",
  tags: ["Auth"],
  summary: "End the current session",
  security: publicRoute,
  responses: { 204: { description: "Signed out" } },
});

export const authApi = createApi()
  .openapi(getSession, async (c) => c.json(await getSessionView(c.var.ctx), 200))
  .openapi(postLogin, async (c) => {
    const ctx = c.var.ctx;
    const body = c.req.valid("json");
    const result = await login(ctx, body, readTrustedDeviceToken(c.req.raw));
    // The session, and for a sign-in still waiting for two-factor the "trust this device" request.
    for (const cookie of await signInCookies(c.req.raw, result, body.isTrusted)) c.header("Set-Cookie", cookie, { append: true });
    const { user } = await getSessionView(ctx, await resolveActor(ctx.db, result.sessionToken));
    return c.json({ user: user! }, 200);
  })
  .openapi(postLogout, async (c) => {
    await logout(c.var.ctx, c.var.sessionToken);
    c.header("Set-Cookie", clearSessionCookie(c.req.raw));
    return c.body(null, 204);
  });
