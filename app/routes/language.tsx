import { redirect } from "react-router";
import type { Route } from "./+types/language";
import { isLocale } from "~/lib/locale";
import { safeRedirect } from "~/lib/safe-redirect";
import { localeCookie } from "~/middleware/i18next";

export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData();
  const lng = form.get("lng");
  const to = safeRedirect(form.get("redirectTo"));
  if (!isLocale(lng)) return redirect(to);
  return redirect(to, { headers: { "Set-Cookie": await localeCookie.serialize(lng) } });
}

export function loader() {
  return redirect("/");
}
