import { createContext, data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/context";
import { AppError, errorBody } from "~/lib/errors";
import { DEFAULT_LOCALE, isLocale, type Locale } from "~/lib/locale";
import { resolveActor, type Actor } from "~/services/actor.server";
import { auditSudoRequest } from "~/services/audit.server";
import { describeRequest, type ServiceContext } from "~/services/context.server";
import { assertSameOrigin } from "~/services/csrf.server";
import { getDb } from "~/services/db.server";
import { readSessionToken } from "~/services/session-cookie.server";
import { getLocale } from "./i18next";

export const serviceContextKey = createContext<ServiceContext>();

/** Pages' half of "authenticate once per transport": refuses cross-site posts, resolves the actor. */
export const actorMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  try {
    assertSameOrigin(request);
  } catch (error) {
    if (error instanceof AppError) throw data(errorBody(error.code), { status: error.status });
    throw error;
  }
  const { env } = context.get(cloudflareContext);
  const db = getDb(env);
  const actor = await resolveActor(db, readSessionToken(request));
  const ctx: ServiceContext = { db, env, actor, locale: isLocale(getLocale(context)) ? (getLocale(context) as Locale) : DEFAULT_LOCALE, request: describeRequest(request) };
  context.set(serviceContextKey, ctx);
  const response = await next();
  await auditSudoRequest(ctx, request.method, response.status);
  return response;
};

export function getActor(context: Readonly<RouterContextProvider>): Actor | null {
  return context.get(serviceContextKey).actor;
}

/** The spec's Authenticated guard: signed-out visitors go to /login, with `?to=` unless they asked for /. */
export function requireActor(context: Readonly<RouterContextProvider>, request: Request): Actor {
  const actor = getActor(context);
  if (actor) return actor;
  const url = new URL(request.url);
  const to = url.pathname + url.search;
  throw redirect(to === "/" ? "/login" : `/login?to=${encodeURIComponent(to)}`);
}
