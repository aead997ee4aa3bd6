import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigate, useNavigation, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/login-reset";
import { LanguageSwitcher } from "~/components/language-switcher";
import { useNotifications } from "~/components/notifications";
import { PasswordField } from "~/components/password-field";
import { AppError } from "~/lib/errors";
import { ResetPasswordBody } from "~/lib/schemas/recovery";
import { getActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { resetPassword } from "~/services/recovery.server";
import { requireRouteContext } from "~/services/route-context.server";
import { sessionCookie } from "~/services/session-cookie.server";

/** How long the expired-link message stays before the user is sent to RecoverPassword. */
const EXPIRED_REDIRECT_MS = 5000;

/** The spec's ResetPassword (logged out only; the token comes in the query). */
export function loader({ context }: Route.LoaderArgs) {
  if (getActor(context)) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const parsed = ResetPasswordBody.safeParse({ token: form.get("token") ?? "", password: form.get("password") ?? "" });
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((i) => String(i.path[0])));
    const code = fields.has("token") ? "INVALID_RECOVERY_TOKEN" : "VALIDATION_ERROR";
    return data({ ok: false, status: 400, code, invalid: [...fields] }, 400);
  }
  try {
    const { sessionToken } = await resetPassword(requireRouteContext(context), parsed.data);
    // Not a redirect: the page shows 'Your password has been updated.' itself, then goes Home.
    return data({ ok: true, status: 200, code: null, invalid: [] as string[] }, { headers: { "Set-Cookie": sessionCookie(request, sessionToken) } });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      return data({ ok: false, status: error.status, code: error.code, invalid: error.invalid }, error.status);
    }
    throw error;
  }
}

/** After a successful reset the user is signed in: this page's logged-out guard must not bounce them first. */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if ((actionResult as { ok?: boolean } | undefined)?.ok) return false;
  return defaultShouldRevalidate;
}

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation(["recovery", "notify"]);
  const { notify, notifyError } = useNotifications();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const busy = navigation.state === "submitting";
  const invalid = new Set(actionData?.invalid ?? []);
  const handled = useRef<unknown>(null);
  const expired = actionData?.code === "INVALID_RECOVERY_TOKEN";

  useEffect(() => {
    if (!actionData || handled.current === actionData) return;
    handled.current = actionData;
    if (actionData.ok) {
      // The notifications live in the root layout, so this one stays up after the move Home.
      notify({ kind: "success", title: t("successTitle"), message: t("notify:passwordUpdated") });
      navigate("/", { replace: true });
    } else {
      notifyError(actionData.status === 400 ? actionData.code : null);
    }
  }, [actionData, notify, notifyError, navigate, t]);

  // The spec: an expired or used link sends the user to RecoverPassword once the message closes.
  useEffect(() => {
    if (!expired) return;
    const timer = setTimeout(() => navigate("/login/recover"), EXPIRED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [expired, actionData, navigate]);

  return (
    <main className="auth-page">
      <title>{`${t("reset.title")} | ${appName}`}</title>
      {/* The token is in this page's address: do not pass it on to other sites. */}
      <meta name="referrer" content="no-referrer" />
      <div className="auth-card">
        <p className="auth-card__brand">{appName}</p>
        <h1>{t("reset.heading")}</h1>
        {actionData?.ok ? (
          <>
            <p className="callout" role="status">{t("notify:passwordUpdated")}</p>
            <Link to="/" className="button button--primary button--block">{t("reset.home")}</Link>
          </>
        ) : (
          <Form method="post" className={actionData ? "form form--shake" : "form"} key={navigation.state === "idle" ? String(actionData?.code) : "pending"} noValidate>
            <input type="hidden" name="token" value={params.get("token") ?? ""} />
            <PasswordField label={t("reset.password")} invalid={invalid.has("password")} />
            <button type="submit" className="button button--primary button--block" disabled={busy}>
              {busy ? t("reset.submitting") : t("reset.submit")}
            </button>
            {expired && <Link to="/login/recover" className="button button--block">{t("reset.requestNew")}</Link>}
          </Form>
        )}
        <div className="auth-card__footer">
          <LanguageSwitcher />
        </div>
      </div>
    </main>
  );
}
