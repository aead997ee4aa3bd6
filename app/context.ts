import { createContext } from "react-router";
import type { Actor } from "~/services/actor.server";

/** The Worker's bindings and execution context, set once per request by workers/app.ts. */
export const cloudflareContext = createContext<{ env: Env; ctx: ExecutionContext }>();

/** Who is asking, resolved once per request by the root middleware (null when signed out). */
export const actorContext = createContext<Actor | null>(null);
