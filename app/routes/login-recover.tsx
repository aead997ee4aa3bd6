import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/login-recover";
import { LanguageSwitcher } from "~/components/language-switcher";
import { useNotifications } from "~/components/notifications";
import { AppError } from "~/lib/errors";
import { RecoverPasswordBody } from "~/lib/schemas/recovery";
import { getActor } from "~/middleware/actor";
import { getInstance } from "~/middleware/i18next";
import { useRootData } from "~/root";
import { requestPasswordReset } from "~/services/recovery.server";
import { requireRouteContext } from "~/services/route-context.server";

/** The spec's RecoverPassword (logged out only). */
export function loader({ context }: Route.LoaderArgs) {
  if (getActor(context)) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const email = String(form.get("email") ?? "");
  // The email's texts in the user's language, as the spec's client sends them (section 7).
  const i18n = getInstance(context);
  const message = {
    subject: i18n.t("recovery:resetEmail.subject"),
    intro: i18n.t("recovery:resetEmail.intro"),
    callToAction: i18n.t("recovery:resetEmail.callToAction"),
    outro: i18n.t("recovery:resetEmail.outro"),
  };
  const parsed = RecoverPasswordBody.safeParse({ email, message });
  if (!parsed.success) return data({ ok: false, status: 400, code: "VALIDATION_ERROR", invalid: ["email"], email }, 400);
  try {
    await requestPasswordReset(requireRouteContext(context), parsed.data);
    return { ok: true, status: 200, code: null, invalid: [] as string[], email };
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      return data({ ok: false, status: error.status, code: error.code, invalid: error.invalid, email }, error.status);
    }
    throw error;
  }
}

export default function RecoverPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation(["recovery", "notify"]);
  const { notify, notifyError } = useNotifications();
  const navigation = useNavigation();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const busy = navigation.state === "submitting";
  const invalid = new Set(actionData?.invalid ?? []);
  const handled = useRef<unknown>(null);

  useEffect(() => {
    if (!actionData || handled.current === actionData) return;
    handled.current = actionData;
    if (actionData.ok) notify({ kind: "success", title: t("successTitle"), message: t("notify:checkEmail") });
    // The spec: a 400 shows the code's message (fields highlighted), anything else the generic one.
    else notifyError(actionData.status === 400 ? actionData.code : null);
  }, [actionData, notify, notifyError, t]);

  return (
    <main className="auth-page">
      <title>{`${t("recover.title")} | ${appName}`}</title>
      <div className="auth-card">
        <p className="auth-card__brand">{appName}</p>
        <h1>{t("recover.heading")}</h1>
        {actionData?.ok ? (
          <p className="callout" role="status">{t("notify:checkEmail")}</p>
        ) : (
          <p className="muted">{t("recover.text")}</p>
        )}
        <Form method="post" className={actionData && !actionData.ok ? "form form--shake" : "form"} key={navigation.state === "idle" ? String(actionData?.code) : "pending"} noValidate>
          <label className="field">
            <span>{t("recover.email")}</span>
            <input name="email" type="email" autoComplete="username" required autoFocus defaultValue={actionData?.email ?? ""} aria-invalid={invalid.has("email") || undefined} />
          </label>
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? t("recover.submitting") : t("recover.submit")}
          </button>
          <Link to="/login" className="button button--block">{t("recover.cancel")}</Link>
        </Form>
        <div className="auth-card__footer">
          <LanguageSwitcher />
        </div>
      </div>
    </main>
  );
}
