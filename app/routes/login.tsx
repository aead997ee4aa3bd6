import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { LanguageSwitcher } from "~/components/language-switcher";
import { useNotifications } from "~/components/notifications";
import { AppError } from "~/lib/errors";
import { LoginBody } from "~/lib/schemas/session";
import { safeRedirect } from "~/lib/safe-redirect";
import { useRootData } from "~/root";
import { getActor } from "~/middleware/actor";
import { login } from "~/services/auth.server";
import { requireRouteContext } from "~/services/route-context.server";
import { readTrustedDeviceToken, setCookieHeaders, signInCookies } from "~/services/trusted-devices.server";

export function loader({ context }: Route.LoaderArgs) {
  if (getActor(context)) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const to = safeRedirect(new URL(request.url).searchParams.get("to"));
  const email = String(form.get("email") ?? "");
  const parsed = LoginBody.safeParse({
    email,
    password: form.get("password") ?? "",
    isTrusted: form.get("isTrusted") === "on",
  });
  if (!parsed.success) {
    return data({ code: "VALIDATION_ERROR", invalid: parsed.error.issues.map((i) => String(i.path[0])), email }, 400);
  }
  try {
    const result = await login(requireRouteContext(context), parsed.data, readTrustedDeviceToken(request));
    const headers = setCookieHeaders(await signInCookies(request, result, parsed.data.isTrusted));
    // Spec screen 1: a user who needs two-factor goes to LoginTfa first, keeping the target.
    if (!result.tfaVerified) return redirect(to === "/" ? "/login/tfa" : `/login/tfa?to=${encodeURIComponent(to)}`, { headers });
    return redirect(to, { headers });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      return data({ code: error.code, invalid: error.invalid, email }, error.status);
    }
    throw error;
  }
}

export default function Login({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { notifyError } = useNotifications();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const busy = navigation.state === "submitting";
  const invalid = new Set(actionData?.invalid ?? []);

  useEffect(() => {
    if (actionData?.code) notifyError(actionData.code);
  }, [actionData, notifyError]);

  const action = params.get("to") ? `/login?to=${encodeURIComponent(params.get("to") ?? "/")}` : "/login";
  return (
    <main className="auth-page">
      <title>{`${t("login.title")} | ${appName}`}</title>
      <div className="auth-card">
        <p className="auth-card__brand">{appName}</p>
        <h1>{t("login.heading")}</h1>
        {/* The key re-mounts the form after each failure so the shake animation plays again. */}
        <Form method="post" action={action} className={actionData ? "form form--shake" : "form"} key={navigation.state === "idle" ? String(actionData?.code) : "pending"} noValidate>
          <label className="field">
            <span>{t("login.email")}</span>
            <input name="email" type="email" autoComplete="username" required autoFocus defaultValue={actionData?.email ?? ""} aria-invalid={invalid.has("email") || undefined} />
          </label>
          <label className="field">
            <span>{t("login.password")}</span>
            <input name="password" type="password" autoComplete="current-password" required aria-invalid={invalid.has("password") || undefined} />
          </label>
          <label className="checkbox">
            <input name="isTrusted" type="checkbox" />
            <span>{t("login.trusted")}</span>
          </label>
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? t("login.submitting") : t("login.submit")}
          </button>
        </Form>
        <p><a href="/login/recover">{t("login.forgot")}</a></p>
        <div className="auth-card__footer">
          <LanguageSwitcher />
        </div>
      </div>
    </main>
  );
}
