import { redirectDocument } from "react-router";
import type { Route } from "./+types/admin-sudo-exit";
import { requireActor } from "~/middleware/actor";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { readSessionToken, sessionCookie } from "~/services/session-cookie.server";
import { endSudo } from "~/services/sudo.server";

/** The user menu's Exit Sudo Mode: back to the superuser's own session, then to /admin (spec section 4). */
export async function action({ context, request }: Route.ActionArgs) {
  requireActor(context, request);
  const ctx = requireRouteContext(context);
  const token = await runOperation(() => endSudo(ctx, readSessionToken(request)));
  return redirectDocument("/admin", { headers: { "Set-Cookie": sessionCookie(request, token) } });
}
