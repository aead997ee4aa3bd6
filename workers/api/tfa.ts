import { createRoute, z } from "@hono/zod-openapi";
import { UserIdParams } from "~/lib/schemas/api-token";
import { UserView } from "~/lib/schemas/session";
import { TfaDisableBody, TfaEnableBody, TfaLoginBody, TfaRecoverBody, TfaSetup, TfaStatus } from "~/lib/schemas/tfa";
import { resolveActor } from "~/services/actor.server";
import { getSessionView } from "~/services/session-view.server";
import { sessionCookie } from "~/services/session-cookie.server";
import { disableTfa, enableTfa, getTfaStatus, prepareTfa, recoverTfa, verifyTfaLogin } from "~/services/tfa.server";
import { readTrustRequest, tfaVerifiedCookies } from "~/services/trusted-devices.server";
import { createApi, errorResponses, jsonBody, jsonResponse, signedIn } from "./openapi";

const userPath = "/users/{userId}/tfa";
const userTags = ["Two-factor"];
const SignedInUser = z.object({ user: UserView });

const getStatus = createRoute({
  method: "get", path: userPath, tags: userTags, security: signedIn, summary: "The user's two-factor state",
  request: { params: UserIdParams },
  responses: { 200: jsonResponse(TfaStatus, "Enabled, pending set-up, required by the account"), ...errorResponses(401, 404) },
});

const prepare = createRoute({
  method: "post", path: userPath, tags: userTags, security: signedIn,
  summary: "Prepare two-factor: a new secret (stored encrypted, unconfirmed) and the recovery code, shown once",
  request: { params: UserIdParams },
  responses: { 200: jsonResponse(TfaSetup, "key, keyBase32, recoveryToken, authUrl"), ...errorResponses(401, 403, 404) },
});

const enable = createRoute({
  method: "put", path: userPath, tags: userTags, security: signedIn,
  summary: "Enable two-factor with the first code of the prepared secret",
  request: { params: UserIdParams, body: jsonBody(TfaEnableBody) },
  responses: { 200: jsonResponse(TfaStatus, "Two-factor is on"), ...errorResponses(400, 401, 403, 404) },
});

const disable = createRoute({
  method: "delete", path: userPath, tags: userTags, security: signedIn,
  summary: "Disable two-factor with the password; refused where the account requires it",
  request: { params: UserIdParams, body: jsonBody(TfaDisableBody) },
  responses: { 204: { description: "Two-factor is off" }, ...errorResponses(400, 401, 403, 404) },
});

const verify = createRoute({
  method: "post", path: "/auth/tfa", tags: ["Auth"], security: signedIn,
  summary: "The two-factor step of a sign-in: a new, verified session (and a trusted device when asked for at sign-in)",
  request: { body: jsonBody(TfaLoginBody) },
  responses: { 200: jsonResponse(SignedInUser, "The signed-in user"), ...errorResponses(400, 401, 403, 404, 429) },
});

const recover = createRoute({
  method: "post", path: "/auth/tfa/recover", tags: ["Auth"], security: signedIn,
  summary: "Sign in with the recovery code instead: two-factor is switched off and must be set up again",
  request: { body: jsonBody(TfaRecoverBody) },
  responses: { 200: jsonResponse(SignedInUser, "The signed-in user"), ...errorResponses(400, 401, 403, 429) },
});

/** The user of a new session token, as `POST /auth/login` answers it. */
async function userOf(ctx: Parameters<typeof getSessionView>[0], sessionToken: string) {
  const { user } = await getSessionView(ctx, await resolveActor(ctx.db, sessionToken));
  return { user: user! };
}

export const tfaApi = createApi()
  .openapi(getStatus, async (c) => c.json(await getTfaStatus(c.var.ctx, c.req.valid("param").userId), 200))
  .openapi(prepare, async (c) => c.json(await prepareTfa(c.var.ctx, c.req.valid("param").userId), 200))
  .openapi(enable, async (c) => c.json(await enableTfa(c.var.ctx, c.req.valid("param").userId, c.req.valid("json")), 200))
  .openapi(disable, async (c) => {
    await disableTfa(c.var.ctx, c.req.valid("param").userId, c.req.valid("json"));
    return c.body(null, 204);
  })
  .openapi(verify, async (c) => {
    const result = await verifyTfaLogin(c.var.ctx, c.req.valid("json"), {
      sessionToken: c.var.sessionToken,
      trustRequest: readTrustRequest(c.req.raw),
    });
    for (const cookie of tfaVerifiedCookies(c.req.raw, result)) c.header("Set-Cookie", cookie, { append: true });
    return c.json(await userOf(c.var.ctx, result.sessionToken), 200);
  })
  .openapi(recover, async (c) => {
    const { sessionToken } = await recoverTfa(c.var.ctx, c.req.valid("json"));
    c.header("Set-Cookie", sessionCookie(c.req.raw, sessionToken));
    return c.json(await userOf(c.var.ctx, sessionToken), 200);
  });
