import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { logout } from "~/services/auth.server";
import { requireRouteContext } from "~/services/route-context.server";
import { clearSessionCookie, readSessionToken } from "~/services/session-cookie.server";

async function endSession({ request, context }: Route.ActionArgs | Route.LoaderArgs) {
  const ctx = requireRouteContext(context);
  await logout(ctx, readSessionToken(request));
  return redirect("/login", { headers: { "Set-Cookie": clearSessionCookie(request) } });
}

// A GET logs out too: the spec's Logout is a route, and ending a session is safe to repeat.
export const loader = endSession;
export const action = endSession;
