import type { Locale } from "~/lib/locale";
import type { Actor } from "./actor.server";
import type { Db } from "./db.server";

/**
 * What every domain operation receives, built once per request by each transport
 * (the root middleware for pages, a Hono middleware for `/api`).
 */
export interface ServiceContext {
  db: Db;
  env: Env;
  actor: Actor | null;
  locale: Locale;
  request: { url: URL; ip: string | null; userAgent: string | null };
}

export function describeRequest(request: Request): ServiceContext["request"] {
  return {
    url: new URL(request.url),
    ip: request.headers.get("CF-Connecting-IP"),
    userAgent: request.headers.get("User-Agent"),
  };
}
