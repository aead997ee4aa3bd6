import { createRoute, z } from "@hono/zod-openapi";
import { ConfirmWelcomeBody, RecoverPasswordBody, ResetPasswordBody, VerifyPasswordBody } from "~/lib/schemas/recovery";
import { UserView } from "~/lib/schemas/session";
import { confirmWelcome, requestPasswordReset, resetPassword, verifyOwnPassword } from "~/services/recovery.server";
import { sessionCookie } from "~/services/session-cookie.server";
import { createApi, errorResponses, jsonBody, jsonResponse, publicRoute, signedIn } from "./openapi";

const tags = ["Auth"];
const SignedInUser = z.object({ user: UserView });

const postRecover = createRoute({
  method: "post", path: "/auth/password/recover", tags, security: publicRoute,
  summary: "Email a single-use password reset link (valid one hour) to a registered address",
  request: { body: jsonBody(RecoverPasswordBody) },
  responses: { 204: { description: "The email is queued" }, ...errorResponses(400, 429) },
});

const postReset = createRoute({
  method: "post", path: "/auth/password/reset", tags, security: publicRoute,
  summary: "Set a new password with a reset link's token; ends every session of the user and signs in",
  request: { body: jsonBody(ResetPasswordBody) },
  responses: { 200: jsonResponse(SignedInUser, "The signed-in user"), ...errorResponses(400, 429) },
});

const postConfirm = createRoute({
  method: "post", path: "/auth/confirm", tags, security: publicRoute,
  summary: "Confirm a new account with its welcome link's token and a password; signs in",
  request: { body: jsonBody(ConfirmWelcomeBody) },
  responses: { 200: jsonResponse(SignedInUser, "The signed-in user"), ...errorResponses(400, 429) },
});

const postVerify = createRoute({
  method: "post", path: "/auth/password/verify", tags, security: signedIn,
  summary: "Check the signed-in user's own password before a sensitive action, without signing in",
  request: { body: jsonBody(VerifyPasswordBody) },
  responses: { 204: { description: "The password is correct" }, ...errorResponses(400, 401, 403, 429) },
});

export const recoveryApi = createApi()
  .openapi(postRecover, async (c) => {
    await requestPasswordReset(c.var.ctx, c.req.valid("json"));
    return c.body(null, 204);
  })
  .openapi(postReset, async (c) => {
    const { sessionToken, user } = await resetPassword(c.var.ctx, c.req.valid("json"));
    c.header("Set-Cookie", sessionCookie(c.req.raw, sessionToken));
    return c.json({ user }, 200);
  })
  .openapi(postConfirm, async (c) => {
    const { sessionToken, user } = await confirmWelcome(c.var.ctx, c.req.valid("json"));
    c.header("Set-Cookie", sessionCookie(c.req.raw, sessionToken));
    return c.json({ user }, 200);
  })
  .openapi(postVerify, async (c) => {
    await verifyOwnPassword(c.var.ctx, c.req.valid("json"));
    return c.body(null, 204);
  });
