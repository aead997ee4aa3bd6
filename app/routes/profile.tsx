import { useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/profile";
import { useNotifications } from "~/components/notifications";
import { useUnsavedChanges } from "~/components/unsaved-changes";
import { UserForm } from "~/components/user-form";
import { AppError } from "~/lib/errors";
import { UpdateUserBody } from "~/lib/schemas/users";
import { formatDate } from "~/lib/format";
import { isLocale } from "~/lib/locale";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { createApiToken, getApiToken, revokeApiToken, type ApiTokenStatus } from "~/services/api-tokens.server";
import { effectiveFlags } from "~/services/policy";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { sessionCookie } from "~/services/session-cookie.server";
import { disableTfa } from "~/services/tfa.server";
import { getUser, updateUser } from "~/services/users.server";
import { applyAvatar, readUserForm } from "./users-form.server";

const TABS = ["general", "password", "authentication"] as const;
type Tab = (typeof TABS)[number];

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
  const user = await runOperation(() => getUser(ctx, actor.user.id));
  return { tfaEnabled: actor.user.tfaEnabled, accountRequiresTfa: actor.account.requiresTfa, api, user };
}

export async function action({ context, request }: Route.ActionArgs) {
  const actor = requireActor(context, request);
  const ctx = requireRouteContext(context);
  const form = await request.formData();
  const intent = form.get("intent");
  try {
    if (intent === "save") {
      const { fields, avatarFile, removeAvatar } = readUserForm(form);
      const parsed = UpdateUserBody.safeParse(fields);
      if (!parsed.success) {
        return data({ code: "VALIDATION_ERROR", invalid: parsed.error.issues.map((i) => i.path.map(String).join(".")), intent: "save", newToken: null }, 400);
      }
      await updateUser(ctx, actor.user.id, parsed.data);
      await applyAvatar(ctx, actor.user.id, { avatarFile, removeAvatar });
      return { newToken: null, saved: Date.now() };
    }
    if (intent === "password") {
      const { sessionToken } = await updateUser(ctx, actor.user.id, {
        currentPassword: String(form.get("currentPassword") ?? ""),
        password: String(form.get("password") ?? ""),
      });
      // Every other session of the user ended; this browser continues on a new session id.
      const headers = sessionToken ? { "Set-Cookie": sessionCookie(request, sessionToken) } : undefined;
      return data({ newToken: null, passwordChanged: Date.now() }, { headers });
    }
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

/** Edit Profile: tabs General, Change Password and Authentication (`?tab=`). */
export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["profile", "common", "notify", "users"]);
  const { notify, notifyError } = useNotifications();
  const [params] = useSearchParams();
  const tab: Tab = TABS.find((x) => x === params.get("tab")) ?? "general";
  const disabledNotice = t("tfa.disabledNotice");
  const savedText = t("notify:saved");
  const passwordText = t("notify:passwordUpdated");
  useEffect(() => {
    if (!actionData) return;
    if ("tfaDisabled" in actionData) notify({ kind: "success", title: disabledNotice, message: "" });
    if ("saved" in actionData) notify({ kind: "success", title: savedText, message: "" });
    if ("passwordChanged" in actionData) notify({ kind: "success", title: passwordText, message: "" });
    if ("code" in actionData && (actionData.intent === "save" || actionData.intent === "password")) notifyError(actionData.code);
  }, [actionData, notify, notifyError, disabledNotice, savedText, passwordText]);
  const appName = useRootData()?.session.metadata.appName ?? "";
  const failed = actionData && "code" in actionData ? actionData : null;
  const { user } = loaderData;
  return (
    <>
      <title>{`${t("title")} | ${appName}`}</title>
      <h1>{t("title")}</h1>
      <nav className="tabs" aria-label={t("users:edit.tabs")}>
        {TABS.map((name) => (
          <Link key={name} to={`?tab=${name}`} className="tabs__tab" aria-current={tab === name ? "page" : undefined}>
            {t(`tabs.${name}`)}
          </Link>
        ))}
      </nav>
      {tab === "general" && (
        <div className="panel">
          <UserForm sections={["general"]} intent="save" avatarUser={user}
            initial={{ name: user.name, email: user.email, bio: user.bio ?? "", isAdmin: user.isAdmin, canManageBilling: user.canManageBilling, canManageSettings: user.canManageSettings, canManageSites: user.canManageSites, canManageUsers: user.canManageUsers, permissions: [] }}
            invalid={failed?.intent === "save" ? failed.invalid : []} failure={failed?.intent === "save" ? failed : null}
            saved={actionData && "saved" in actionData ? actionData.saved : null} submitLabel={t("users:actions.save")} />
        </div>
      )}
      {tab === "password" && (
        <ChangePasswordForm failure={failed?.intent === "password" ? failed : null} done={actionData && "passwordChanged" in actionData ? actionData.passwordChanged : null} />
      )}
      {tab === "authentication" && <>
      <section className="panel" aria-labelledby="tfa-heading">
        <h2 id="tfa-heading">{t("tfa.heading")}</h2>
        <p>{loaderData.tfaEnabled ? t("tfa.enabled") : t("tfa.disabled")}</p>
        {!loaderData.tfaEnabled && <Link className="button button--primary" to="/tfa?to=%2Fprofile%3Ftab%3Dauthentication">{t("tfa.enable")}</Link>}
        {loaderData.tfaEnabled && loaderData.accountRequiresTfa && <p className="muted">{t("tfa.required")}</p>}
        {loaderData.tfaEnabled && !loaderData.accountRequiresTfa && (
          <DisableTfaForm invalid={actionData && "intent" in actionData && actionData.intent === "tfa-disable" ? actionData.invalid : []} />
        )}
      </section>
      <ApiAccessPanel access={loaderData.api} newToken={actionData?.newToken ?? null}
        errorCode={failed && failed.intent !== "save" && failed.intent !== "password" ? failed.code : null} locale={isLocale(i18n.language) ? i18n.language : "en"} />
      </>}
    </>
  );
}

/** Change Password: the current password is checked first (INCORRECT_PASSWORD marks it). */
function ChangePasswordForm({ failure, done }: { failure: { code: string; invalid: string[] } | null; done: number | null }) {
  const { t } = useTranslation("users");
  const navigation = useNavigation();
  const [values, setValues] = useState({ currentPassword: "", password: "" });
  const dirty = useMemo(() => values.currentPassword !== "" || values.password !== "", [values]);
  const unsaved = useUnsavedChanges(dirty);
  const [shakes, setShakes] = useState(0);
  const ids = { current: useId(), next: useId(), hint: useId() };
  const [seen, setSeen] = useState({ failure, done });
  if (failure !== seen.failure || done !== seen.done) {
    setSeen({ failure, done });
    if (failure && failure !== seen.failure) setShakes(shakes + 1);
    if (done && done !== seen.done) setValues({ currentPassword: "", password: "" });
  }
  const invalid = new Set(failure?.invalid ?? []);
  return (
    <div className="panel">
      <Form method="post" key={shakes} className={shakes ? "form form--shake" : "form"} noValidate onSubmit={() => unsaved.allowLeave()}>
        <div className="field">
          <label htmlFor={ids.current}>{t("password.current")}</label>
          <input id={ids.current} name="currentPassword" type="password" autoComplete="current-password" required value={values.currentPassword}
            onChange={(e) => setValues((v) => ({ ...v, currentPassword: e.target.value }))} aria-invalid={invalid.has("currentPassword") || undefined} />
        </div>
        <div className="field">
          <label htmlFor={ids.next}>{t("password.new")}</label>
          <input id={ids.next} name="password" type="password" autoComplete="new-password" required minLength={8} value={values.password} aria-describedby={ids.hint}
            onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))} aria-invalid={invalid.has("password") || undefined} />
          <small id={ids.hint} className="muted">{t("password.hint")}</small>
        </div>
        <div className="button-row">
          <button type="submit" name="intent" value="password" className="button button--primary" disabled={navigation.state !== "idle"}>{t("password.submit")}</button>
        </div>
      </Form>
      {unsaved.dialog}
    </div>
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
