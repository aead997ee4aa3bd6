import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/login-tfa";
import { LanguageSwitcher } from "~/components/language-switcher";
import { useNotifications } from "~/components/notifications";
import { AppError } from "~/lib/errors";
import { safeRedirect } from "~/lib/safe-redirect";
import { TfaLoginBody } from "~/lib/schemas/tfa";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { requireRouteContext } from "~/services/route-context.server";
import { readSessionToken } from "~/services/session-cookie.server";
import { verifyTfaLogin } from "~/services/tfa.server";
import { readTrustRequest, setCookieHeaders, tfaVerifiedCookies } from "~/services/trusted-devices.server";

/** `?to=` carried from page to page of the sign-in. */
function withTo(path: string, to: string | null) {
  return to && to !== "/" ? `${path}?to=${encodeURIComponent(to)}` : path;
}

/** The spec's LoginTfa: signed in, bypassing the two-factor check; a verified session has nothing to do here. */
export function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireActor(context, request, { bypassTfa: true });
  if (actor.session?.tfaVerified !== false) throw redirect(safeRedirect(new URL(request.url).searchParams.get("to")));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireActor(context, request, { bypassTfa: true });
  const to = safeRedirect(new URL(request.url).searchParams.get("to"));
  const form = await request.formData();
  const parsed = TfaLoginBody.safeParse({ userId: actor.user.id, token: form.get("token") ?? "" });
  if (!parsed.success) return data({ status: 400, code: "INVALID_TFA_TOKEN", invalid: ["token"] }, 400);
  try {
    const result = await verifyTfaLogin(requireRouteContext(context), parsed.data, {
      sessionToken: readSessionToken(request),
      trustRequest: readTrustRequest(request),
    });
    return redirect(to, { headers: setCookieHeaders(tfaVerifiedCookies(request, result)) });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      return data({ status: error.status, code: error.code, invalid: error.invalid }, error.status);
    }
    throw error;
  }
}

export default function LoginTfa({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation("tfa");
  const { notifyError } = useNotifications();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const busy = navigation.state === "submitting";
  const invalid = new Set(actionData?.invalid ?? []);
  const to = params.get("to");

  useEffect(() => {
    // Spec section 8: a 400 shows the code's message with the field marked; anything else the generic one.
    if (actionData?.code) notifyError(actionData.status === 400 ? actionData.code : null);
  }, [actionData, notifyError]);

  return (
    <main className="auth-page">
      <title>{`${t("login.title")} | ${appName}`}</title>
      <div className="auth-card">
        <p className="auth-card__brand">{appName}</p>
        <h1>{t("login.heading")}</h1>
        <p className="muted">{t("login.text")}</p>
        {/* The key re-mounts the form after each failure so the shake animation plays again. */}
        <Form method="post" action={withTo("/login/tfa", to)} className={actionData ? "form form--shake" : "form"} key={navigation.state === "idle" ? String(actionData?.code) : "pending"} noValidate>
          <label className="field">
            <span>{t("login.code")}</span>
            <input
              name="token"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]*"
              maxLength={9}
              required
              autoFocus
              aria-invalid={invalid.has("token") || undefined}
            />
          </label>
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? t("login.submitting") : t("login.submit")}
          </button>
        </Form>
        <p><Link to={withTo("/login/recover/tfa", to)}>{t("login.useRecoveryCode")}</Link></p>
        <p><a href="/logout">{t("login.logout")}</a></p>
        <div className="auth-card__footer">
          <LanguageSwitcher />
        </div>
      </div>
    </main>
  );
}
