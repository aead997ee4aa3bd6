import { useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiFailure, apiJson, failureCode } from "~/lib/api-client";
import {
  DEFAULT_PORTS,
  fitUploadFolder,
  isInsecureUrl,
  normalizeSiteUrl,
  normalizeWebdavHost,
  trimFolder,
} from "~/lib/site-form";
import { FolderBrowserDialog, type BrowsedEntry } from "./folder-browser";
import { useNotifications } from "./notifications";
import { useUnsavedChanges } from "./unsaved-changes";

export const SITE_CLASSIFICATIONS = ["personal", "commercial", "educational", "non-profit"] as const;
export const SITE_FORM_PROTOCOLS = ["ftp", "ftps", "sftp", "s3", "webdav"] as const;
export type SiteFormSection = "general" | "services" | "advanced";

/** Every field of the site form (spec page editing section 3, Site). Secrets start empty: write-only. */
export interface SiteFormValues {
  name: string;
  url: string;
  /** Empty: not chosen, the site is classified from its URL and home page when it is created. */
  classification: (typeof SITE_CLASSIFICATIONS)[number] | "";
  protocol: (typeof SITE_FORM_PROTOCOLS)[number];
  host: string;
  port: string;
  username: string;
  password: string;
  privateKey: string;
  s3AccessKey: string;
  s3SecretKey: string;
  s3Region: string;
  s3Bucket: string;
  s3Acl: boolean;
  agentId: string;
  homeFolder: string;
  uploadFolder: string;
  isFavorite: boolean;
  hasChangeNotification: boolean;
  isLocked: boolean;
  canDuplicatePages: boolean;
  canDeletePages: boolean;
}

export const EMPTY_SITE_FORM: SiteFormValues = {
  name: "", url: "", classification: "", protocol: "sftp", host: "", port: "", username: "", password: "", privateKey: "",
  s3AccessKey: "", s3SecretKey: "", s3Region: "", s3Bucket: "", s3Acl: false, agentId: "", homeFolder: "/", uploadFolder: "/",
  isFavorite: false, hasChangeNotification: false, isLocked: false, canDuplicatePages: false, canDeletePages: false,
};

/** Which secrets the saved site holds (never their values): the placeholders say one is stored. */
export interface StoredSecrets {
  password: boolean;
  privateKey: boolean;
  s3SecretKey: boolean;
}

const CONNECTION_FIELDS = ["protocol", "host", "port", "username", "password", "privateKey", "s3AccessKey", "s3SecretKey", "s3Region", "s3Bucket", "s3Acl", "agentId"] as const;

/** The connection part of the form, as the connection test and `Target-Server` take it. */
export function connectionBody(values: SiteFormValues) {
  return {
    protocol: values.protocol,
    host: values.host,
    port: values.port,
    username: values.username,
    password: values.password,
    privateKey: values.privateKey,
    s3AccessKey: values.s3AccessKey,
    s3SecretKey: values.s3SecretKey,
    s3Region: values.s3Region,
    s3Bucket: values.s3Bucket,
    s3Acl: values.s3Acl ? "public-read" : "",
    agentId: values.agentId,
    homeFolder: values.homeFolder || "/",
  };
}

interface AgentOption {
  id: string | null;
  name: string | null;
  isHosted: boolean;
}

/**
 * The site form of NewSite (every section on one page) and EditSite (one section per tab). It
 * normalises fields as they are left (URL, WebDAV host, folders), tests the connection, browses the
 * server for the folders, tracks its clean state, saves every field as JSON through `save`,
 * and marks the fields a 400 answer names and shakes.
 */
export function SiteForm({ sections, initial, siteId, stored, classificationLocked = false, save, onSaved, submitLabel, canChangeNotifications, children }: {
  sections: SiteFormSection[];
  initial: SiteFormValues;
  /** The saved site (EditSite): browsing and testing with its stored secrets when none are typed. */
  siteId?: string;
  stored?: StoredSecrets;
  /** Set by the superuser's reclassification: the owner can no longer change it. */
  classificationLocked?: boolean;
  /** Saves the form's body (POST or PUT /api/sites…); throws an ApiFailure to mark fields. */
  save(body: Record<string, unknown>): Promise<unknown>;
  /** After a save, once the form is clean (so leaving is not blocked): e.g. open the new site. */
  onSaved?(result: unknown): void;
  submitLabel: string;
  /** Change notifications are an agency-plan feature. */
  canChangeNotifications: boolean;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("sites");
  const { notify, notifyError } = useNotifications();
  const [values, setValues] = useState(initial);
  const [clean, setClean] = useState(initial);
  const [credential, setCredential] = useState<"password" | "privateKey">(initial.privateKey || (stored?.privateKey && !stored.password) ? "privateKey" : "password");
  const [pins, setPins] = useState<{ sftpHostKey?: string; ftpsCertFingerprint?: string }>({});
  const [testing, setTesting] = useState(false);
  const [browsing, setBrowsing] = useState<"homeFolder" | "uploadFolder" | null>(null);
  const [agents, setAgents] = useState<AgentOption[]>([]);
  const dirty = useMemo(() => JSON.stringify(values) !== JSON.stringify(clean), [values, clean]);
  const unsaved = useUnsavedChanges(dirty);
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState<string[]>([]);
  const bad = new Set(invalid);
  const id = useId();
  const field = (name: string) => `${id}-${name}`;

  const [shakes, setShakes] = useState(0);

  // The agent choice appears only when the account has agents of its own besides the hosted one.
  const showsServices = sections.includes("services");
  useEffect(() => {
    if (!showsServices) return;
    const controller = new AbortController();
    apiJson<{ agents: AgentOption[] }>("/account/agents", { signal: controller.signal }).then(
      (list) => setAgents(list.agents),
      () => setAgents([]),
    );
    return () => controller.abort();
  }, [showsServices]);

  const set = <K extends keyof SiteFormValues>(key: K, value: SiteFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  /** Whether the typed connection equals the saved one (then the saved secrets may be used). */
  const usesSavedConnection = siteId !== undefined && CONNECTION_FIELDS.every((name) => values[name] === clean[name]);

  const browse = async (path: string): Promise<BrowsedEntry[]> => {
    if (usesSavedConnection && siteId) {
      const { files } = await apiJson<{ files: BrowsedEntry[] }>(`/sites/${siteId}/files?${new URLSearchParams({ path })}`);
      return files;
    }
    const { files } = await apiJson<{ files: BrowsedEntry[] }>(`/utilities/files?${new URLSearchParams({ path })}`, {
      headers: { "Target-Server": JSON.stringify(connectionBody(values)) },
    });
    return files;
  };

  const testConnection = async () => {
    setTesting(true);
    try {
      if (usesSavedConnection && siteId) {
        await apiJson(`/sites/${siteId}/files?${new URLSearchParams({ path: values.homeFolder || "/" })}`);
      } else {
        const result = await apiJson<{ ok: true; pins: { sftpHostKey?: string; ftpsCertFingerprint?: string } }>("/utilities/test-connection", {
          method: "POST",
          body: connectionBody(values),
        });
        setPins(result.pins ?? {});
      }
      notify({ kind: "success", title: t("form.testConnection"), message: t("form.connectionSuccessful") });
    } catch (error) {
      notifyError(failureCode(error), t("form.testConnection"));
    } finally {
      setTesting(false);
    }
  };

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const home = trimFolder(values.homeFolder) || "/";
    const body = {
      ...values,
      url: normalizeSiteUrl(values.url),
      host: values.protocol === "webdav" ? normalizeWebdavHost(values.host) : values.host.trim(),
      homeFolder: home,
      uploadFolder: fitUploadFolder(values.uploadFolder, home),
      s3Acl: values.s3Acl ? "public-read" : null,
      port: values.port.trim() === "" ? null : Number(values.port),
      agentId: values.agentId || null,
      // Empty secrets are left out: the saved ones stay.
      password: credential === "password" && values.password ? values.password : undefined,
      privateKey: credential === "privateKey" && values.privateKey ? values.privateKey : undefined,
      s3SecretKey: values.s3SecretKey || undefined,
      ...pins,
    };
    setBusy(true);
    try {
      const result = await save(JSON.parse(JSON.stringify(body)) as Record<string, unknown>);
      // Saved: the secrets typed are stored now and the field starts empty again.
      const kept = { ...values, url: body.url, host: body.host, homeFolder: body.homeFolder, uploadFolder: body.uploadFolder, password: "", privateKey: "", s3SecretKey: "" };
      setInvalid([]);
      setValues(kept);
      setClean(kept);
      // Saved: the next step (e.g. opening the new site) leaves without asking, whether or not
      // React has rendered the clean state yet.
      unsaved.allowLeave();
      onSaved?.(result);
    } catch (error) {
      setInvalid(error instanceof ApiFailure ? error.invalid : []);
      setShakes((n) => n + 1);
      notifyError(failureCode(error));
    } finally {
      setBusy(false);
    }
  };

  const invalidProps = (name: string) => ({ "aria-invalid": bad.has(name) || undefined });
  const secretPlaceholder = (kind: keyof StoredSecrets) => (stored?.[kind] ? t("form.secretStored") : "");
  const ownAgents = agents.filter((agent) => !agent.isHosted);
  const isS3 = values.protocol === "s3";

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate key={shakes} className={shakes ? "form site-form form--shake" : "form site-form"}>
      {sections.includes("general") && (
        <fieldset className="fieldset">
          <legend>{t("form.siteLegend")}</legend>
          <div className="field">
            <label htmlFor={field("name")}>{t("form.name")}</label>
            <input id={field("name")} value={values.name} onChange={(e) => set("name", e.target.value)} required maxLength={200} {...invalidProps("name")} />
          </div>
          <div className="field">
            <label htmlFor={field("url")}>{t("form.url")}</label>
            <input id={field("url")} type="url" inputMode="url" value={values.url} placeholder="https://www.example.com" onChange={(e) => set("url", e.target.value)}
              onBlur={() => set("url", normalizeSiteUrl(values.url))} required maxLength={2048} aria-describedby={`${field("url")}-warning`} {...invalidProps("url")} />
            {isInsecureUrl(values.url) && <small id={`${field("url")}-warning`} className="field__warning" role="status">{t("form.mixedContentWarning")}</small>}
          </div>
          <div className="field">
            <label htmlFor={field("classification")}>{t("form.classification")}</label>
            <select id={field("classification")} value={values.classification} disabled={classificationLocked}
              onChange={(e) => set("classification", e.target.value as SiteFormValues["classification"])} {...invalidProps("classification")}>
              {!siteId && <option value="">{t("classification.detect")}</option>}
              {SITE_CLASSIFICATIONS.map((c) => <option key={c} value={c}>{t(`classification.${c}`)}</option>)}
            </select>
          </div>
          <label className="checkbox">
            <input type="checkbox" checked={values.isFavorite} onChange={(e) => set("isFavorite", e.target.checked)} />
            <span>{t("form.isFavorite")}</span>
          </label>
          {canChangeNotifications && (
            <label className="checkbox">
              <input type="checkbox" checked={values.hasChangeNotification} onChange={(e) => set("hasChangeNotification", e.target.checked)} />
              <span>{t("form.hasChangeNotification")}</span>
            </label>
          )}
        </fieldset>
      )}
      {showsServices && (
        <fieldset className="fieldset">
          <legend>{t("form.connectionLegend")}</legend>
          <div className="field">
            <label htmlFor={field("protocol")}>{t("form.protocol")}</label>
            <select id={field("protocol")} value={values.protocol} onChange={(e) => set("protocol", e.target.value as SiteFormValues["protocol"])} {...invalidProps("protocol")}>
              {SITE_FORM_PROTOCOLS.map((p) => <option key={p} value={p}>{t(`protocol.${p}`)}</option>)}
            </select>
          </div>
          {isS3 ? (
            <>
              <div className="field">
                <label htmlFor={field("s3AccessKey")}>{t("form.s3AccessKey")}</label>
                <input id={field("s3AccessKey")} value={values.s3AccessKey} autoComplete="off" onChange={(e) => set("s3AccessKey", e.target.value)} {...invalidProps("s3AccessKey")} />
              </div>
              <div className="field">
                <label htmlFor={field("s3SecretKey")}>{t("form.s3SecretKey")}</label>
                <input id={field("s3SecretKey")} type="password" value={values.s3SecretKey} autoComplete="new-password" placeholder={secretPlaceholder("s3SecretKey")}
                  onChange={(e) => set("s3SecretKey", e.target.value)} {...invalidProps("s3SecretKey")} />
              </div>
              <div className="field">
                <label htmlFor={field("s3Region")}>{t("form.s3Region")}</label>
                <input id={field("s3Region")} value={values.s3Region} placeholder="us-east-1" onChange={(e) => set("s3Region", e.target.value)} {...invalidProps("s3Region")} />
              </div>
              <div className="field">
                <label htmlFor={field("s3Bucket")}>{t("form.s3Bucket")}</label>
                <input id={field("s3Bucket")} value={values.s3Bucket} onChange={(e) => set("s3Bucket", e.target.value)} {...invalidProps("s3Bucket")} />
              </div>
              <label className="checkbox">
                <input type="checkbox" checked={values.s3Acl} onChange={(e) => set("s3Acl", e.target.checked)} />
                <span>{t("form.s3Acl")}</span>
              </label>
            </>
          ) : (
            <>
              <div className="field-row">
                <div className="field field--grow">
                  <label htmlFor={field("host")}>{t("form.host")}</label>
                  <input id={field("host")} value={values.host} autoComplete="off" placeholder={values.protocol === "webdav" ? "https://dav.example.com" : "ftp.example.com"}
                    onChange={(e) => set("host", e.target.value)} onBlur={() => values.protocol === "webdav" && set("host", normalizeWebdavHost(values.host))} {...invalidProps("host")} />
                </div>
                <div className="field field--port">
                  <label htmlFor={field("port")}>{t("form.port")}</label>
                  <input id={field("port")} inputMode="numeric" value={values.port} placeholder={DEFAULT_PORTS[values.protocol]?.toString() ?? ""}
                    onChange={(e) => set("port", e.target.value.replace(/\D/g, ""))} {...invalidProps("port")} />
                </div>
              </div>
              <div className="field">
                <label htmlFor={field("username")}>{t("form.username")}</label>
                <input id={field("username")} value={values.username} autoComplete="off" onChange={(e) => set("username", e.target.value)} {...invalidProps("username")} />
              </div>
              {values.protocol === "sftp" && (
                <div className="radio-row" role="radiogroup" aria-label={t("form.credential")}>
                  <label className="checkbox"><input type="radio" name={field("credential")} checked={credential === "password"} onChange={() => setCredential("password")} /><span>{t("form.usePassword")}</span></label>
                  <label className="checkbox"><input type="radio" name={field("credential")} checked={credential === "privateKey"} onChange={() => setCredential("privateKey")} /><span>{t("form.usePrivateKey")}</span></label>
                </div>
              )}
              {values.protocol === "sftp" && credential === "privateKey" ? (
                <div className="field">
                  <label htmlFor={field("privateKey")}>{t("form.privateKey")}</label>
                  <textarea id={field("privateKey")} value={values.privateKey} rows={4} spellCheck={false} placeholder={secretPlaceholder("privateKey")}
                    onChange={(e) => set("privateKey", e.target.value)} {...invalidProps("privateKey")} />
                </div>
              ) : (
                <div className="field">
                  <label htmlFor={field("password")}>{t("form.password")}</label>
                  <input id={field("password")} type="password" value={values.password} autoComplete="new-password" placeholder={secretPlaceholder("password")}
                    onChange={(e) => set("password", e.target.value)} {...invalidProps("password")} />
                </div>
              )}
            </>
          )}
          {ownAgents.length > 0 && (
            <div className="field">
              <label htmlFor={field("agentId")}>{t("form.agent")}</label>
              <select id={field("agentId")} value={values.agentId} onChange={(e) => set("agentId", e.target.value)} {...invalidProps("agentId")}>
                <option value="">{t("form.hostedAgent")}</option>
                {ownAgents.map((agent) => <option key={agent.id} value={agent.id ?? ""}>{agent.name}</option>)}
              </select>
            </div>
          )}
          <FolderField label={t("form.homeFolder")} id={field("homeFolder")} value={values.homeFolder} invalid={bad.has("homeFolder")}
            onChange={(v) => set("homeFolder", v)} onBlur={() => setValues((v) => {
              const home = trimFolder(v.homeFolder) || "/";
              return { ...v, homeFolder: home, uploadFolder: fitUploadFolder(v.uploadFolder, home) };
            })} onBrowse={() => setBrowsing("homeFolder")} />
          <FolderField label={t("form.uploadFolder")} id={field("uploadFolder")} value={values.uploadFolder} invalid={bad.has("uploadFolder")}
            onChange={(v) => set("uploadFolder", v)} onBlur={() => setValues((v) => ({ ...v, uploadFolder: fitUploadFolder(v.uploadFolder, trimFolder(v.homeFolder) || "/") }))}
            onBrowse={() => setBrowsing("uploadFolder")} />
          <p className="muted">{t("form.uploadFolderHint")}</p>
          <div className="button-row">
            <button type="button" className="button" onClick={() => void testConnection()} disabled={testing} aria-busy={testing}>
              {testing ? t("form.testing") : t("form.testConnection")}
            </button>
          </div>
          <FolderBrowserDialog open={browsing !== null} title={browsing === "uploadFolder" ? t("form.chooseUploadFolder") : t("form.chooseHomeFolder")}
            start={browsing === "uploadFolder" ? values.uploadFolder || values.homeFolder : values.homeFolder || "/"}
            root={browsing === "uploadFolder" ? trimFolder(values.homeFolder) || "/" : "/"}
            browse={browse} onClose={() => setBrowsing(null)}
            onChoose={(path) => {
              const target = browsing;
              setBrowsing(null);
              setValues((v) => {
                if (target === "homeFolder") return { ...v, homeFolder: path, uploadFolder: fitUploadFolder(v.uploadFolder, path) };
                return { ...v, uploadFolder: fitUploadFolder(path, trimFolder(v.homeFolder) || "/") };
              });
            }} />
        </fieldset>
      )}
      {sections.includes("advanced") && (
        <fieldset className="fieldset">
          <legend>{t("form.advancedLegend")}</legend>
          <label className="checkbox">
            <input type="checkbox" checked={values.isLocked} onChange={(e) => set("isLocked", e.target.checked)} />
            <span>{t("form.isLocked")}</span>
          </label>
          <p className="muted">{t("form.isLockedHint")}</p>
          <label className="checkbox">
            <input type="checkbox" checked={values.canDuplicatePages} onChange={(e) => set("canDuplicatePages", e.target.checked)} />
            <span>{t("form.canDuplicatePages")}</span>
          </label>
          <label className="checkbox">
            <input type="checkbox" checked={values.canDeletePages} onChange={(e) => set("canDeletePages", e.target.checked)} />
            <span>{t("form.canDeletePages")}</span>
          </label>
          <p className="muted">{t("form.pagePermissionsHint")}</p>
        </fieldset>
      )}
      <div className="button-row">
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>{submitLabel}</button>
        {children}
      </div>
      {unsaved.dialog}
    </form>
  );
}

function FolderField({ label, id, value, invalid, onChange, onBlur, onBrowse }: {
  label: string;
  id: string;
  value: string;
  invalid: boolean;
  onChange(value: string): void;
  onBlur(): void;
  onBrowse(): void;
}) {
  const { t } = useTranslation("sites");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-button">
        <input id={id} value={value} spellCheck={false} onChange={(e) => onChange(e.target.value)} onBlur={onBlur} aria-invalid={invalid || undefined} />
        <button type="button" className="button" onClick={onBrowse} aria-label={t("form.browseFor", { label })}>{t("form.browse")}</button>
      </div>
    </div>
  );
}
