import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/profile";
import { useNotifications } from "~/components/notifications";
import { AppError } from "~/lib/errors";
import { formatDate } from "~/lib/format";
import { isLocale } from "~/lib/locale";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { createApiToken, getApiToken, revokeApiToken, type ApiTokenStatus } from "~/services/api-tokens.server";
import { effectiveFlags } from "~/services/policy";
import { requireRouteContext } from "~/services/route-context.server";
import { disableTfa } from "~/services/tfa.server";

type ApiAccess = { state: "available"; status: ApiTokenStatus } | { state: "upgrade"; canManageBilling: boolean } | { state: "admins-only" };

export async function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const ctx = requireRouteContext(context);
  let api: ApiAccess;
  try {
    api = { state: "available", status: await getApiToken(ctx, actor.user.id) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    api = error.code === "UPGRADE_REQUIRED" ? { state: "upgrade", canManageBilling: effectiveFlags(actor.user).canManageBilling } : { state: "admins-only" };
  }
  return { tfaEnabled: actor.user.tfaEnabled, accountRequiresTfa: actor.account.requiresTfa, api };
}

export async function action({ context, request }: Route.ActionArgs) {
  const actor = requireActor(context, request);
  const ctx = requireRouteContext(context);
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    if (intent === "tfa-disable") {
      await disableTfa(ctx, actor.user.id, { password: String(form.get("password") ?? "") });
      return { newToken: null, tfaDisabled: true };
    }
    if (intent === "api-enable") return { newToken: (await createApiToken(ctx, actor.user.id)).apiToken };
    if (intent === "api-disable") {
      await revokeApiToken(ctx, actor.user.id);
      return { newToken: null };
    }
  } catch (error) {
    if (error instanceof AppError && error.status < 500) return data({ code: error.code, invalid: error.invalid, intent: String(intent), newToken: null }, error.status);
    throw error;
  }
  return data({ code: "VALIDATION_ERROR", invalid: ["intent"], intent: String(intent), newToken: null }, 400);
}

/** Edit Profile; its General and Change Password tabs come with the users issue. */
export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["profile", "common"]);
  const { notify } = useNotifications();
  const disabledNotice = t("tfa.disabledNotice");
  useEffect(() => {
    if (actionData && "tfaDisabled" in actionData) notify({ kind: "success", title: disabledNotice, message: "" });
  }, [actionData, notify, disabledNotice]);
  const appName = useRootData()?.session.metadata.appName ?? "";
  return (
    <>
      <title>{`${t("title")} | ${appName}`}</title>
      <h1>{t("title")}</h1>
      <div role="tablist" className="tabs">
        <span role="tab" aria-selected="true" className="tabs__tab">{t("tabs.authentication")}</span>
      </div>
      <section className="panel" aria-labelledby="tfa-heading">
        <h2 id="tfa-heading">{t("tfa.heading")}</h2>
        <p>{loaderData.tfaEnabled ? t("tfa.enabled") : t("tfa.disabled")}</p>
        {!loaderData.tfaEnabled && <Link className="button button--primary" to="/tfa?to=/profile">{t("tfa.enable")}</Link>}
        {loaderData.tfaEnabled && loaderData.accountRequiresTfa && <p className="muted">{t("tfa.required")}</p>}
        {loaderData.tfaEnabled && !loaderData.accountRequiresTfa && (
          <DisableTfaForm invalid={actionData && "intent" in actionData && actionData.intent === "tfa-disable" ? actionData.invalid : []} />
        )}
      </section>
      <ApiAccessPanel access={loaderData.api} newToken={actionData?.newToken ?? null} errorCode={actionData && "code" in actionData ? actionData.code : null} locale={isLocale(i18n.language) ? i18n.language : "en"} />
    </>
  );
}

function DisableTfaForm({ invalid }: { invalid: string[] }) {
  const { t } = useTranslation("profile");
  const navigation = useNavigation();
  return (
    <Form method="post" className={invalid.length ? "form form--shake" : "form"} key={invalid.join()} aria-label={t("tfa.disable")}>
      <label className="field">
        <span>{t("tfa.password")}</span>
        <input type="password" name="password" autoComplete="current-password" required aria-invalid={invalid.includes("password") || undefined} />
      </label>
      <div className="button-row">
        <button type="submit" name="intent" value="tfa-disable" className="button button--danger" disabled={navigation.state !== "idle"}>{t("tfa.disable")}</button>
      </div>
    </Form>
  );
}

function ApiAccessPanel({ access, newToken, errorCode, locale }: { access: ApiAccess; newToken: string | null; errorCode: string | null; locale: "en" | "de" | "fr" }) {
  const { t } = useTranslation("profile");
  const { notifyError } = useNotifications();
  const navigation = useNavigation();
  const [copied, setCopied] = useState(false);
  const busy = navigation.state !== "idle";
  useEffect(() => {
    if (errorCode) notifyError(errorCode);
  }, [errorCode, notifyError]);

  if (access.state === "admins-only") return null;
  if (access.state === "upgrade") {
    return (
      <section className="panel" aria-labelledby="api-heading">
        <h2 id="api-heading">{t("api.heading")} <span className="badge">{t("api.upgradeTag")}</span></h2>
        <p>{t("api.upgradeText")}</p>
        {access.canManageBilling && <Link to="/billing">{t("api.upgradeLink")}</Link>}
      </section>
    );
  }
  const token = access.status.apiToken;
  const confirmFirst = (message: string) => (event: React.MouseEvent) => {
    if (!window.confirm(message)) event.preventDefault();
  };
  return (
    <section className="panel" aria-labelledby="api-heading">
      <h2 id="api-heading">{t("api.heading")}</h2>
      <p className="muted">{t("api.intro")}</p>
      {newToken && (
        <div className="callout" role="status">
          <p>{t("api.newToken")}</p>
          <code className="secret" data-testid="new-api-token">{newToken}</code>{" "}
          <button type="button" className="button button--small" onClick={() => void navigator.clipboard?.writeText(newToken).then(() => setCopied(true))}>
            {copied ? t("api.copied") : t("api.copy")}
          </button>
        </div>
      )}
      {token ? (
        <p>
          {t("api.active", { prefix: token.prefix, date: formatDate(token.createdAt, locale, "medium") })}{" "}
          {token.lastUsedAt ? t("api.lastUsed", { date: formatDate(token.lastUsedAt, locale, "medium") }) : t("api.neverUsed")}
        </p>
      ) : (
        <p>{t("api.none")}</p>
      )}
      <Form method="post" className="button-row">
        {token ? (
          <>
            <button className="button" name="intent" value="api-enable" disabled={busy} onClick={confirmFirst(t("api.confirmRegenerate"))}>{t("api.regenerate")}</button>
            <button className="button button--danger" name="intent" value="api-disable" disabled={busy} onClick={confirmFirst(t("api.confirmDisable"))}>{t("api.disable")}</button>
          </>
        ) : (
          <button className="button button--primary" name="intent" value="api-enable" disabled={busy}>{t("api.enable")}</button>
        )}
      </Form>
    </section>
  );
}
