import { redirect } from "react-router";
import type { Actor } from "~/services/actor.server";
import { effectiveFlags } from "~/services/policy";

/** The NewSite and EditSite guard: can manage sites, else back to /. */
export function requireSiteManager(actor: Actor): Actor {
  if (!effectiveFlags(actor.user).canManageSites) throw redirect("/");
  return actor;
}
