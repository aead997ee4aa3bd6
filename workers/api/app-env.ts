import type { ServiceContext } from "~/services/context.server";

/** Hono's typing for every sub-app: the Worker bindings and the per-request service context. */
export interface AppEnv {
  Bindings: Env;
  Variables: { ctx: ServiceContext; sessionToken: string | null };
}
