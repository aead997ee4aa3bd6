import { OpenAPIHono } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { AppError, errorBody } from "~/lib/errors";
import { localeFromRequest } from "~/lib/locale";
import { resolveActor } from "~/services/actor.server";
import { auditSudoRequest } from "~/services/audit.server";
import { describeRequest } from "~/services/context.server";
import { assertSameOrigin } from "~/services/csrf.server";
import { getDb, type Db } from "~/services/db.server";
import { resolveApiToken } from "~/services/api-tokens.server";
import { readSessionToken } from "~/services/session-cookie.server";
import type { AppEnv } from "./app-env";
import { adminApi } from "./admin";
import { agentsApi } from "./agents";
import { apiTokensApi } from "./api-tokens";
import { authApi } from "./auth";
import { blocksApi } from "./blocks";
import { editorApi } from "./editor";
import { mapApiError } from "./error-mapper";
import { utilitiesApi } from "./utilities";
import { recoveryApi } from "./recovery";
import { renderApi } from "./render";
import { revisionsApi } from "./revisions";
import { pagesApi } from "./pages";
import { publishApi } from "./publish";
import { siteFilesApi } from "./site-files";
import { sitesApi } from "./sites";
import { tfaApi } from "./tfa";
import { usersApi } from "./users";

/** Authenticate once per request and build the service context every handler uses. */
const serviceContext = createMiddleware<AppEnv>(async (c, next) => {
  const db = getDb(c.env);
  const { actor, sessionToken } = await authenticate(db, c.req.raw);
  c.set("sessionToken", sessionToken);
  const ctx = { db, env: c.env, actor, locale: localeFromRequest(c.req.raw), request: describeRequest(c.req.raw) };
  c.set("ctx", ctx);
  await next();
  await auditSudoRequest(ctx, c.req.method, c.res.status);
});

/**
 * A bearer token, when the request has one, is the only credential: cookies are ignored, and a bad
 * token is a 401 rather than an anonymous request. Otherwise the cookie session, which as an
 * ambient credential must not be used cross-site.
 */
async function authenticate(db: Db, request: Request) {
  const authorization = request.headers.get("Authorization");
  if (authorization !== null) {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
    const actor = token ? await resolveApiToken(db, token) : null;
    if (!actor) throw new AppError("UNAUTHORIZED");
    return { actor, sessionToken: null };
  }
  const sessionToken = readSessionToken(request);
  if (sessionToken) assertSameOrigin(request);
  return { actor: await resolveActor(db, sessionToken), sessionToken };
}

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
api.route("/", apiTokensApi);
api.route("/", adminApi);
api.route("/", utilitiesApi);
api.route("/", recoveryApi);
api.route("/", tfaApi);
api.route("/", siteFilesApi);
api.route("/", sitesApi);
api.route("/", pagesApi);
api.route("/", publishApi);
api.route("/", revisionsApi);
api.route("/", renderApi);
api.route("/", blocksApi);
api.route("/", agentsApi);
api.route("/", editorApi);
api.route("/", usersApi);

api.notFound((c) => c.json(errorBody("NOT_FOUND"), 404));
api.onError(mapApiError);

export type Api = typeof api;
