import { OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { errorBody } from "~/lib/errors";
import { localeFromRequest } from "~/lib/locale";
import { resolveActor } from "~/services/actor.server";
import { describeRequest } from "~/services/context.server";
import { assertSameOrigin } from "~/services/csrf.server";
import { getDb } from "~/services/db.server";
import { readSessionToken } from "~/services/session-cookie.server";
import type { AppEnv } from "./app-env";
import { authApi } from "./auth";
import { mapApiError } from "./error-mapper";

/** Authenticate once per request and build the service context every handler uses. */
const serviceContext = createMiddleware<AppEnv>(async (c, next) => {
  const db = getDb(c.env);
  const sessionToken = readSessionToken(c.req.raw);
  if (sessionToken) assertSameOrigin(c.req.raw); // cookies are ambient credentials: refuse cross-site use
  const actor = await resolveActor(db, sessionToken);
  c.set("sessionToken", sessionToken);
  c.set("ctx", { db, env: c.env, actor, locale: localeFromRequest(c.req.raw), request: describeRequest(c.req.raw) });
  await next();
});

/** Every `/api` resource, one sub-app each; the registry of their routes is the OpenAPI document. */
export const api = new OpenAPIHono<AppEnv>().basePath("/api");

api.openAPIRegistry.registerComponent("securitySchemes", "cookieAuth", { type: "apiKey", in: "cookie", name: "__Host-sid" });
api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", { type: "http", scheme: "bearer", description: "A personal API token" });

api.doc31("/openapi.json", {
  openapi: "3.1.0",
  info: {
    title: "Sitecraft API",
    version: "1.0.0",
    description: "The JSON API behind the app. Errors answer `{ code, invalid }`; sign in with a cookie session or `Authorization: Bearer <API token>`.",
  },
  servers: [{ url: "/" }],
});

api.use("*", serviceContext);
api.route("/", authApi);

api.notFound((c) => c.json(errorBody("NOT_FOUND"), 404));
api.onError(mapApiError);

export type Api = typeof api;
