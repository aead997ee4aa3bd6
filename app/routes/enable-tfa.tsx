import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, redirect, useFetcher, useNavigate } from "react-router";
import type { Route } from "./+types/enable-tfa";
import { LanguageSwitcher } from "~/components/language-switcher";
import { useNotifications } from "~/components/notifications";
import { AppError } from "~/lib/errors";
import { safeRedirect } from "~/lib/safe-redirect";
import { TfaEnableBody, type TfaSetup } from "~/lib/schemas/tfa";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { requireRouteContext } from "~/services/route-context.server";
import { enableTfa, prepareTfa } from "~/services/tfa.server";

/** The spec's EnableTfa: signed in (bypassing the two-factor check) and two-factor not yet enabled. */
export function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireActor(context, request, { bypassTfa: true });
  if (actor.user.tfaEnabled) throw redirect("/");
  return { accountRequiresTfa: actor.account.requiresTfa, to: safeRedirect(new URL(request.url).searchParams.get("to")) };
}

type ActionResult =
  | { intent: "prepare"; ok: true; setup: TfaSetup }
  | { intent: "enable"; ok: true }
  | { intent: "prepare" | "enable"; ok: false; status: number; code: string; invalid: string[] };

/** Two steps on one route, told apart by `intent`: prepare (new key and recovery code), then enable (first code). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = requireActor(context, request, { bypassTfa: true });
  const ctx = requireRouteContext(context);
  const form = await request.formData();
  const intent = form.get("intent") === "enable" ? "enable" : "prepare";
  try {
    if (intent === "prepare") return { intent, ok: true, setup: await prepareTfa(ctx, actor.user.id) } satisfies ActionResult;
    const parsed = TfaEnableBody.safeParse({ token: form.get("token") ?? "" });
    if (!parsed.success) throw new AppError("INVALID_TFA_TOKEN", { invalid: ["token"] });
    await enableTfa(ctx, actor.user.id, parsed.data);
    return { intent, ok: true } satisfies ActionResult;
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      return data({ intent, ok: false, status: error.status, code: error.code, invalid: error.invalid } satisfies ActionResult, error.status);
    }
    throw error;
  }
}

// Enabling makes this loader redirect (two-factor is then on); the recovery code must stay on screen
// until the user confirms it is stored, so this route's data is never reloaded after its actions.
export const shouldRevalidate = () => false;

/** The base32 key in groups of four, easier to read and type. */
function groupKey(key: string) {
  return key.match(/.{1,4}/g)?.join(" ") ?? key;
}

export default function EnableTfa({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("tfa");
  const { notifyError } = useNotifications();
  const navigate = useNavigate();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const prepare = useFetcher<ActionResult>();
  const enable = useFetcher<ActionResult>();
  const [stored, setStored] = useState(false);
  const started = useRef(false);

  // Preparing creates a new secret, so it is a POST, sent once when the screen opens.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void prepare.submit({ intent: "prepare" }, { method: "post" });
  }, [prepare]);

  const setup = prepare.data?.intent === "prepare" && prepare.data.ok ? prepare.data.setup : null;
  const failure = enable.data && !enable.data.ok ? enable.data : null;
  const enabled = enable.data?.ok === true;
  const invalid = new Set(failure?.invalid ?? []);

  useEffect(() => {
    if (prepare.data && !prepare.data.ok) notifyError(prepare.data.code);
  }, [prepare.data, notifyError]);
  useEffect(() => {
    // Spec section 8: a 400 shows the code's message with the field marked; anything else the generic one.
    if (enable.data && !enable.data.ok) notifyError(enable.data.status === 400 ? enable.data.code : null);
  }, [enable.data, notifyError]);

  return (
    <main className="auth-page">
      <title>{`${t("enable.title")} | ${appName}`}</title>
      <div className="auth-card">
        <p className="auth-card__brand">{appName}</p>
        <h1>{t("enable.heading")}</h1>
        {loaderData.accountRequiresTfa && !enabled && <p className="callout">{t("enable.required")}</p>}

        {!setup && (
          prepare.state !== "idle" || !prepare.data ? (
            <p className="muted" role="status">{t("enable.preparing")}</p>
          ) : (
            <button type="button" className="button" onClick={() => void prepare.submit({ intent: "prepare" }, { method: "post" })}>
              {t("enable.retry")}
            </button>
          )
        )}

        {setup && !enabled && (
          <>
            <p>{t("enable.step1")}</p>
            <p>
              <span className="muted">{t("enable.keyLabel")}: </span>
              <code className="secret" data-testid="tfa-key">{groupKey(setup.keyBase32)}</code>
            </p>
            <p><a href={setup.authUrl}>{t("enable.openApp")}</a></p>
            <p>{t("enable.step2")}</p>
            <enable.Form method="post" className={failure ? "form form--shake" : "form"} key={enable.state === "idle" ? String(failure?.code) : "pending"} noValidate>
              <input type="hidden" name="intent" value="enable" />
              <label className="field">
                <span>{t("enable.code")}</span>
                <input name="token" type="text" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9 ]*" maxLength={9} required autoFocus aria-invalid={invalid.has("token") || undefined} />
              </label>
              <button type="submit" className="button button--primary button--block" disabled={enable.state !== "idle"}>
                {enable.state !== "idle" ? t("enable.submitting") : t("enable.submit")}
              </button>
            </enable.Form>
          </>
        )}

        {setup && enabled && (
          <div className="form">
            <p className="callout" role="status">{t("enable.enabled")}</p>
            <h2>{t("enable.recoveryHeading")}</h2>
            <p>{t("enable.recoveryText")}</p>
            <p><code className="secret" data-testid="tfa-recovery-code">{setup.recoveryToken}</code></p>
            <label className="checkbox">
              <input type="checkbox" checked={stored} onChange={(event) => setStored(event.currentTarget.checked)} />
              <span>{t("enable.stored")}</span>
            </label>
            <button type="button" className="button button--primary button--block" disabled={!stored} onClick={() => navigate(loaderData.to)}>
              {t("enable.continue")}
            </button>
          </div>
        )}

        {/* Switching the language reloads the page, which would lose the recovery code on screen. */}
        {!enabled && (
          <div className="auth-card__footer">
            <LanguageSwitcher />
          </div>
        )}
      </div>
    </main>
  );
}
