import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiFailure, apiJson, failureCode } from "~/lib/api-client";
import { formatDate } from "~/lib/format";
import { isLocale } from "~/lib/locale";
import { Avatar } from "./avatar";
import { ModalDialog } from "./modal-dialog";
import { useNotifications } from "./notifications";
import { useListing } from "./use-listing";

export interface PageItem {
  id: string;
  siteId: string;
  name: string;
  path: string;
  isPinned: boolean;
}

/**
 * Rename or Duplicate: a name and a path. Rename sends `PUT …/pages/{id}` with name and path;
 * duplicate `POST …/pages` with name, path and pageId. Errors are titled as the dialog.
 */
export function PageNameDialog(props: {
  mode: "rename" | "duplicate";
  page: PageItem | null;
  siteId: string;
  onClose(): void;
  onDone(page: PageItem): void;
}) {
  const { t } = useTranslation("sites");
  const title = props.mode === "rename" ? t("pages.renameTitle") : t("pages.duplicateTitle");
  return (
    <ModalDialog open={props.page !== null} title={title} onClose={props.onClose}>
      {props.page && <PageNameForm {...props} page={props.page} title={title} />}
    </ModalDialog>
  );
}

function PageNameForm({ mode, page, siteId, title, onClose, onDone }: { mode: "rename" | "duplicate"; page: PageItem; siteId: string; title: string; onClose(): void; onDone(page: PageItem): void }) {
  const { t } = useTranslation("sites");
  const { notifyError } = useNotifications();
  const [name, setName] = useState(mode === "rename" ? page.name : t("pages.copyName", { name: page.name }));
  const [path, setPath] = useState(mode === "rename" ? page.path : page.path.replace(/(\.[^./]+)?$/, (ext) => `-copy${ext}`));
  const [invalid, setInvalid] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const { page: result } = mode === "rename"
        ? await apiJson<{ page: PageItem }>(`/sites/${siteId}/pages/${page.id}`, { method: "PUT", body: { name: name.trim(), path: path.trim() } })
        : await apiJson<{ page: PageItem }>(`/sites/${siteId}/pages`, { method: "POST", body: { name: name.trim(), path: path.trim(), pageId: page.id } });
      onDone(result);
    } catch (error) {
      setInvalid(error instanceof ApiFailure ? error.invalid : []);
      notifyError(failureCode(error), title);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t("pages.name")}</label>
          <input id={`${id}-name`} value={name} data-autofocus required maxLength={200} onChange={(e) => setName(e.target.value)} aria-invalid={invalid.includes("name") || undefined} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-path`}>{t("pages.path")}</label>
          <input id={`${id}-path`} value={path} required spellCheck={false} onChange={(e) => setPath(e.target.value)} aria-invalid={invalid.includes("path") || undefined} />
        </div>
        {mode === "rename" && path !== page.path && <p className="field__warning">{t("pages.renameWarning")}</p>}
        <div className="button-row modal__actions">
          <button type="button" className="button" onClick={onClose}>{t("actions.cancel")}</button>
          <button type="submit" className="button button--primary" disabled={busy || !name.trim() || !path.trim()}>{mode === "rename" ? t("pages.rename") : t("pages.duplicate")}</button>
        </div>
    </form>
  );
}

/**
 * Delete or Disable: confirms, then `POST …/pages/delete` with the ids and deleteFromServer.
 * Disable removes the pages from the product only; delete also removes their files.
 */
export function RemovePagesDialog({ mode, pages, siteId, onClose, onDone }: {
  mode: "delete" | "disable";
  pages: PageItem[];
  siteId: string;
  onClose(): void;
  onDone(removed: string[]): void;
}) {
  const { t } = useTranslation("sites");
  const { notifyError } = useNotifications();
  const [busy, setBusy] = useState(false);
  const title = mode === "delete" ? t("pages.deleteTitle") : t("pages.disableTitle");
  const remove = async () => {
    setBusy(true);
    try {
      const { succeeded } = await apiJson<{ succeeded: { id: string }[] }>(`/sites/${siteId}/pages/delete`, {
        method: "POST",
        body: { pageIds: pages.map((p) => p.id), deleteFromServer: mode === "delete" },
      });
      onDone(succeeded.map((s) => s.id));
      if (succeeded.length < pages.length) notifyError(null, title);
    } catch (error) {
      notifyError(failureCode(error), title);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ModalDialog open={pages.length > 0} title={title} onClose={onClose}>
      <p>{t("pages.confirm")}</p>
      <p className="muted">{mode === "delete" ? t("pages.deleteText", { count: pages.length }) : t("pages.disableText", { count: pages.length })}</p>
      <ul className="compact-list">{pages.slice(0, 10).map((p) => <li key={p.id}>{p.name} <code>{p.path}</code></li>)}</ul>
      <div className="button-row modal__actions">
        <button type="button" className="button" data-autofocus onClick={onClose}>{t("actions.cancel")}</button>
        <button type="button" className="button button--danger" disabled={busy} aria-busy={busy} onClick={() => void remove()}>
          {mode === "delete" ? t("pages.delete") : t("pages.disable")}
        </button>
      </div>
    </ModalDialog>
  );
}

interface Revision {
  id: string;
  createdAt: string;
  isDraft: boolean;
  user: { id: string; name: string; avatar: string | null; email?: string } | null;
  page: { id: string; name: string } | null;
}

/** Recent Activity of a site: its latest drafts and publishes (`GET /sites/{id}/revisions`). */
export function ActivityDialog({ open, siteId, onClose }: { open: boolean; siteId: string; onClose(): void }) {
  const { t } = useTranslation("sites");
  return (
    <ModalDialog open={open} title={t("activity.title")} onClose={onClose} className="modal--wide">
      <Activity siteId={siteId} onClose={onClose} />
    </ModalDialog>
  );
}

function Activity({ siteId, onClose }: { siteId: string; onClose(): void }) {
  const { t, i18n } = useTranslation("sites");
  // A failed listing is an empty list (page editing section 7).
  const revisions = useListing(siteId, async () => (await apiJson<{ revisions: Revision[] }>(`/sites/${siteId}/revisions?limit=50`)).revisions);
  return (
    <>
      {revisions === null ? (
        <p className="muted" role="status">{t("browser.loading")}</p>
      ) : revisions.length === 0 ? (
        <p className="muted">{t("activity.empty")}</p>
      ) : (
        <ol className="timeline">
          {revisions.map((revision) => (
            <li key={revision.id} className="timeline__item">
              {revision.user && <Avatar user={{ name: revision.user.name, email: revision.user.email ?? "", avatar: revision.user.avatar }} size={32} />}
              <span>
                {t(revision.isDraft ? "activity.draft" : "activity.published", { user: revision.user?.name ?? t("activity.someone"), page: revision.page?.name ?? "" })}
                <br />
                <time className="muted" dateTime={revision.createdAt}>{formatDate(revision.createdAt, isLocale(i18n.language) ? i18n.language : "en", "medium")}</time>
              </span>
            </li>
          ))}
        </ol>
      )}
      <div className="button-row modal__actions">
        <button type="button" className="button" data-autofocus onClick={onClose}>{t("actions.close")}</button>
      </div>
    </>
  );
}
