import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, redirect, useNavigate, useRevalidator, useSearchParams } from "react-router";
import type { Route } from "./+types/sites-edit";
import { ModalDialog } from "~/components/modal-dialog";
import { useNotifications } from "~/components/notifications";
import { SiteForm, type SiteFormSection, type SiteFormValues } from "~/components/site-form";
import { apiJson, failureCode } from "~/lib/api-client";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { notifyFavoritesChanged } from "~/lib/favorites-events";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { getSite } from "~/services/sites.server";
import { requireSiteManager } from "./sites-form.server";

const TABS = ["general", "services", "advanced"] as const;
type Tab = (typeof TABS)[number];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  requireSiteManager(requireActor(context, request));
  const ctx = requireRouteContext(context);
  // Every field but the secrets; for those only which are stored (the placeholders say so).
  const { site } = await runOperation(() => getSite(ctx, params.siteId));
  // The spec: a demo site has no EditSite; it goes to the Site screen.
  if (site.isDemo) throw redirect(`/sites/${site.id}`);
  return { site };
}

/** The form's values from the saved site; secrets are never sent to the browser, so they start empty. */
function formValues(site: Route.ComponentProps["loaderData"]["site"]): SiteFormValues {
  return {
    name: site.name, url: site.url, classification: site.classification, protocol: !site.protocol || site.protocol === "demo" ? "sftp" : site.protocol,
    host: site.host ?? "", port: site.port ? String(site.port) : "", username: site.username ?? "", password: "", privateKey: "",
    s3AccessKey: site.s3AccessKey ?? "", s3SecretKey: "", s3Region: site.s3Region ?? "", s3Bucket: site.s3Bucket ?? "", s3Acl: site.s3Acl === "public-read",
    agentId: site.agentId ?? "", homeFolder: site.homeFolder, uploadFolder: site.uploadFolder, isFavorite: false,
    hasChangeNotification: false, isLocked: site.isLocked, canDuplicatePages: site.canDuplicatePages, canDeletePages: site.canDeletePages,
  };
}

/**
 * EditSite: tabs General, Services and Advanced (`?tab=`), each saving the whole form
 * (PUT /api/sites/{id}); screenshot and delete under Advanced. Favorites and change notifications
 * are chosen on NewSite and on the site cards, not here (spec: NewSite has those options).
 */
export default function EditSite({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation(["sites", "notify", "common"]);
  const { notify } = useNotifications();
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const tab: Tab = TABS.find((x) => x === params.get("tab")) ?? "general";
  const { site } = loaderData;

  const save = async (body: Record<string, unknown>) => {
    const { isFavorite: _favorite, hasChangeNotification: _notification, ...fields } = body;
    await apiJson(`/sites/${site.id}`, { method: "PUT", body: fields });
  };
  const onSaved = () => {
    notify({ kind: "success", title: t("notify:saved"), message: "" });
    void revalidator.revalidate();
  };

  const sections: SiteFormSection[] = [tab];
  return (
    <>
      <title>{`${t("edit.title")} | ${appName}`}</title>
      <nav className="breadcrumb" aria-label={t("common:breadcrumb")}>
        <Link to="/sites">{t("list.title")}</Link> › <Link to={`/sites/${site.id}`}>{site.name}</Link> › <span aria-current="page">{t("edit.title")}</span>
      </nav>
      <h1>{t("edit.heading", { name: site.name })}</h1>
      <nav className="tabs" aria-label={t("edit.tabs")}>
        {TABS.map((name) => (
          <Link key={name} to={`?tab=${name}`} className="tabs__tab" aria-current={tab === name ? "page" : undefined}>{t(`tabs.${name}`)}</Link>
        ))}
      </nav>
      <div className="panel panel--wide">
        <SiteForm key={tab} sections={sections} initial={formValues(site)} siteId={site.id} classificationLocked={site.classificationLocked}
          stored={site.storedSecrets} save={save} onSaved={onSaved} submitLabel={t("edit.submit")} canChangeNotifications={false} />
        {tab === "advanced" && <Screenshot siteId={site.id} />}
        {tab === "advanced" && <DeleteSite siteId={site.id} name={site.name} />}
      </div>
    </>
  );
}

function Screenshot({ siteId }: { siteId: string }) {
  const { t } = useTranslation("sites");
  const { notifyError } = useNotifications();
  const [requested, setRequested] = useState(false);
  const request = async () => {
    try {
      await apiJson(`/sites/${siteId}/screenshot`, { method: "PUT" });
      setRequested(true);
    } catch (error) {
      notifyError(failureCode(error));
    }
  };
  return (
    <section className="danger-zone" aria-labelledby="screenshot-heading">
      <h2 id="screenshot-heading">{t("screenshot.heading")}</h2>
      {requested ? (
        <p role="status">{t("screenshot.generating")}</p>
      ) : (
        <>
          <p className="muted">{t("screenshot.text")}</p>
          <button type="button" className="button" onClick={() => void request()}>{t("screenshot.button")}</button>
        </>
      )}
    </section>
  );
}

function DeleteSite({ siteId, name }: { siteId: string; name: string }) {
  const { t } = useTranslation("sites");
  const { notify, notifyError } = useNotifications();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await apiJson(`/sites/${siteId}`, { method: "DELETE" });
      notify({ kind: "success", title: t("delete.done", { name }), message: "" });
      notifyFavoritesChanged();
      void navigate("/sites");
    } catch (error) {
      notifyError(failureCode(error), t("delete.title"));
      setBusy(false);
    }
  };
  return (
    <section className="danger-zone" aria-labelledby="delete-site-heading">
      <h2 id="delete-site-heading">{t("delete.heading")}</h2>
      <p className="muted">{t("delete.text")}</p>
      <button type="button" className="button button--danger" onClick={() => setOpen(true)}>{t("delete.button")}</button>
      <ModalDialog open={open} title={t("delete.title")} onClose={() => setOpen(false)}>
        <p>{t("delete.confirm")}</p>
        <p className="muted">{t("delete.siteText", { name })}</p>
        <div className="button-row modal__actions">
          <button type="button" className="button" data-autofocus onClick={() => setOpen(false)}>{t("actions.cancel")}</button>
          <button type="button" className="button button--danger" disabled={busy} aria-busy={busy} onClick={() => void remove()}>{t("delete.button")}</button>
        </div>
      </ModalDialog>
    </section>
  );
}
