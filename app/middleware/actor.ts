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

/**
 * The spec's Authenticated guard. Signed-out visitors go to /login; a session still waiting for its
 * two-factor code goes to /login/tfa; a user whose account requires two-factor but who has not
 * enabled it goes to /tfa (not in sudo). Each keeps `?to=` with the page asked for, unless that was /.
 * `bypassTfa` skips both two-factor checks (the two-factor screens themselves).
 *
 * @example const actor = requireActor(context, request);
 * @example const actor = requireActor(context, request, { bypassTfa: true }); // LoginTfa, RecoverTfa, EnableTfa
 */
export function requireActor(context: Readonly<RouterContextProvider>, request: Request, options: { bypassTfa?: boolean } = {}): Actor {
  const actor = getActor(context);
  const url = new URL(request.url);
  const to = url.pathname + url.search;
  const goTo = (path: string) => redirect(to === "/" ? path : `${path}?to=${encodeURIComponent(to)}`);
  if (!actor) throw goTo("/login");
  if (options.bypassTfa) return actor;
  if (actor.session && !actor.session.tfaVerified) throw goTo("/login/tfa");
  // A superuser in sudo is not the user and may not set up their two-factor (SECURITY.md 12).
  if (actor.account.requiresTfa && !actor.user.tfaEnabled && !actor.session?.sudoUserId) throw goTo("/tfa");
  return actor;
}

/**
 * The spec's Authenticated guard as a route middleware: the app shell's, and the editors' (they
 * are full screen, outside the shell).
 *
 * @example export const middleware: Route.MiddlewareFunction[] = [authenticatedGuard];
 */
export const authenticatedGuard: MiddlewareFunction<Response> = ({ context, request }) => {
  requireActor(context, request);
};
