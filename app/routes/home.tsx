import { redirect } from "react-router";
import type { Route } from "./+types/home";
import { requireActor } from "~/middleware/actor";

/** Home forwards at once to Sites (spec, route table); signed-out visitors go to the login. */
export function loader({ context, request }: Route.LoaderArgs) {
  requireActor(context, request);
  return redirect("/sites");
}
