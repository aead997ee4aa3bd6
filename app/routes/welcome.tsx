import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useNavigate, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/welcome";
import { LanguageSwitcher } from "~/components/language-switcher";
import { useNotifications } from "~/components/notifications";
import { PasswordField } from "~/components/password-field";
import { AppError } from "~/lib/errors";
import { ConfirmWelcomeBody } from "~/lib/schemas/recovery";
import { getActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { confirmWelcome } from "~/services/recovery.server";
import { requireRouteContext } from "~/services/route-context.server";
import { sessionCookie } from "~/services/session-cookie.server";

/** How long the expired-link message stays before the user is sent to the login. */
const EXPIRED_REDIRECT_MS = 5000;

/** The spec's Welcome (logged out only): a new user confirms the account by choosing a password. */
export function loader({ context }: Route.LoaderArgs) {
  if (getActor(context)) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const parsed = ConfirmWelcomeBody.safeParse({ token: form.get("token") ?? "", password: form.get("password") ?? "" });
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((i) => String(i.path[0])));
    const code = fields.has("token") ? "INVALID_RECOVERY_TOKEN" : "VALIDATION_ERROR";
    return data({ status: 400, code, invalid: [...fields] }, 400);
  }
  try {
    const { sessionToken } = await confirmWelcome(requireRouteContext(context), parsed.data);
    return redirect("/", { headers: { "Set-Cookie": sessionCookie(request, sessionToken) } });
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      return data({ status: error.status, code: error.code, invalid: error.invalid }, error.status);
    }
    throw error;
  }
}

export default function Welcome({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation("recovery");
  const { notifyError } = useNotifications();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const busy = navigation.state !== "idle";
  const invalid = new Set(actionData?.invalid ?? []);
  const handled = useRef<unknown>(null);
  const expired = actionData?.code === "INVALID_RECOVERY_TOKEN";

  useEffect(() => {
    if (!actionData || handled.current === actionData) return;
    handled.current = actionData;
    notifyError(actionData.status === 400 ? actionData.code : null);
  }, [actionData, notifyError]);

  // The spec: an expired or used welcome link sends the user to the login once the message closes.
  useEffect(() => {
    if (!expired) return;
    const timer = setTimeout(() => navigate("/login"), EXPIRED_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [expired, actionData, navigate]);

  return (
    <main className="auth-page">
      <title>{`${t("welcome.title")} | ${appName}`}</title>
      {/* The token is in this page's address: do not pass it on to other sites. */}
      <meta name="referrer" content="no-referrer" />
      <div className="auth-card">
        <p className="auth-card__brand">{appName}</p>
        <h1>{t("welcome.heading")}</h1>
        <Form method="post" className={actionData ? "form form--shake" : "form"} key={navigation.state === "idle" ? String(actionData?.code) : "pending"} noValidate>
          <input type="hidden" name="token" value={params.get("token") ?? ""} />
          <PasswordField label={t("welcome.password")} invalid={invalid.has("password")} />
          <button type="submit" className="button button--primary button--block" disabled={busy}>
            {busy ? t("welcome.submitting") : t("welcome.submit")}
          </button>
          {expired && <Link to="/login" className="button button--block">{t("welcome.login")}</Link>}
        </Form>
        <div className="auth-card__footer">
          <LanguageSwitcher />
        </div>
      </div>
    </main>
  );
}
