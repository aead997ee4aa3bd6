import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/recover-tfa";
import { LanguageSwitcher } from "~/components/language-switcher";
import { useNotifications } from "~/components/notifications";
import { AppError } from "~/lib/errors";
import { safeRedirect } from "~/lib/safe-redirect";
import { TfaRecoverBody } from "~/lib/schemas/tfa";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { requireRouteContext } from "~/services/route-context.server";
import { sessionCookie } from "~/services/session-cookie.server";
import { recoverTfa } from "~/services/tfa.server";

/** `?to=` carried from page to page of the sign-in. */
function withTo(path: string, to: string | null) {
  return to && to !== "/" ? `${path}?to=${encodeURIComponent(to)}` : path;
}

/** The spec's RecoverTfa: signed in, bypassing the two-factor check. */
export function loader({ context, request }: Route.LoaderArgs) {
  requireActor(context, request, { bypassTfa: true });
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  requireActor(context, request, { bypassTfa: true });
  const to = safeRedirect(new URL(request.url).searchParams.get("to"));
  const form = await request.formData();
  const parsed = TfaRecoverBody.safeParse({ token: form.get("token") ?? "" });
  if (!parsed.success) return data({ status: 400, code: "INVALID_TFA_TOKEN", invalid: ["token"] }, 400);
  try {
    const { sessionToken } = await recoverTfa(requireRouteContext(context), parsed.data);
    // Spec screen 3: two-factor is reset; the user sets it up again on EnableTfa.
    return redirect(withTo("/tfa", to), { headers: { "Set-Cookie": sessionCookie(request, sessionToken) } });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      return data({ status: error.status, code: error.code, invalid: error.invalid }, error.status);
    }
    throw error;
  }
}

export default function RecoverTfa({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation("tfa");
  const { notifyError } = useNotifications();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const busy = navigation.state === "submitting";
  const invalid = new Set(actionData?.invalid ?? []);
  const to = params.get("to");

  useEffect(() => {
    // Spec section 8: the recovery code is handled like the two-factor code.
    if (actionData?.code) notifyError(actionData.status === 400 ? actionData.code : null);
  }, [actionData, notifyError]);

  return (
    <main className="auth-page">
      <title>{`${t("recover.title")} | ${appName}`}</title>
      <div className="auth-card">
        <p className="auth-card__brand">{appName}</p>
        <h1>{t("recover.heading")}</h1>
        <p className="muted">{t("recover.text")}</p>
        <Form method="post" action={withTo("/login/recover/tfa", to)} className={actionData ? "form form--shake" : "form"} key={navigation.state === "idle" ? String(actionData?.code) : "pending"} noValidate>
          <label className="field">
            <span>{t("recover.code")}</span>
            <input
              name="token"
              type="text"
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={64}
              required
              autoFocus
              aria-invalid={invalid.has("token") || undefined}
            />
          </label>
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? t("recover.submitting") : t("recover.submit")}
          </button>
        </Form>
        <p><Link to={withTo("/login/tfa", to)}>{t("recover.back")}</Link></p>
        <div className="auth-card__footer">
          <LanguageSwitcher />
        </div>
      </div>
    </main>
  );
}
