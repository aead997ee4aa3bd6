import { useCallback, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { ModalDialog } from "~/components/modal-dialog";
import { useNotifications } from "~/components/notifications";
import { followPublish } from "~/editor/follow-publish";
import { apiJson, failureCode } from "~/lib/api-client";
import { formatDateTime } from "~/lib/format";
import type { RevisionList, RevisionSummary } from "~/lib/schemas/revisions";
import { SidePanel } from "./side-panel";

/** The spec: revisions load 100 at a time; deletes run up to 10 at once. */
const PAGE_SIZE = 100;
const DELETE_CONCURRENCY = 10;
const EMPTY: RevisionList = { revisions: [], count: 0, drafts: 0, offset: 0, limit: PAGE_SIZE };

type Confirm = { kind: "delete" } | { kind: "rollback"; revision: RevisionSummary } | null;

/**
 * Drafts & Revisions (spec): the page's revisions, drafts first, 100 a load; open one (EditRevision),
 * delete several (up to 10 at once), and for admins the rollback of a publish. A failed listing
 * shows an empty list.
 */
export function RevisionsPanel({ open, siteId, pageId, currentRevisionId, isAdmin, onClose, onOpen, onChanged, onRolledBack }: {
  open: boolean;
  siteId: string;
  pageId: string;
  currentRevisionId: string | null;
  isAdmin: boolean;
  onClose(): void;
  onOpen(revisionId: string): void;
  /** Revisions were deleted: the page's draft count now. */
  onChanged(drafts: number): void;
  /** A publish was rolled back: the page's file changed on the server. */
  onRolledBack(): void;
}) {
  const { t, i18n } = useTranslation("editor");
  const { notify, notifyError } = useNotifications();
  // null while the first load of an opening is on its way.
  const [list, setList] = useState<RevisionList | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirm, setConfirm] = useState<Confirm>(null);
  const [busy, setBusy] = useState(false);
  const confirmText = useId();
  const base = `/sites/${siteId}/pages/${pageId}`;

  /** One load of revisions; a failed listing is an empty list (spec). */
  const fetchPage = useCallback(async (offset: number): Promise<RevisionList> => {
    try {
      return await apiJson<RevisionList>(`${base}/revisions?limit=${PAGE_SIZE}&offset=${offset}&sortBy=isDraft`);
    } catch {
      return { ...EMPTY, offset };
    }
  }, [base]);

  // Opening shows the list afresh, nothing selected.
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    setSelected(new Set());
    setList(null);
  }
  useEffect(() => {
    if (!open) return;
    let live = true;
    void fetchPage(0).then((page) => {
      if (live) setList(page);
    });
    return () => {
      live = false;
    };
  }, [open, fetchPage]);

  /** Loads the list again from the top; answers the page's draft count then. */
  const reload = async (): Promise<number> => {
    const page = await fetchPage(0);
    setList(page);
    return page.drafts;
  };

  const loadMore = async () => {
    if (!list) return;
    setLoadingMore(true);
    const page = await fetchPage(list.revisions.length);
    setList((current) => (current ? { ...page, revisions: [...current.revisions, ...page.revisions] } : page));
    setLoadingMore(false);
  };

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const removeSelected = async () => {
    setBusy(true);
    const ids = [...selected];
    let removed = 0;
    let failure: unknown = null;
    for (let i = 0; i < ids.length; i += DELETE_CONCURRENCY) {
      const results = await Promise.allSettled(ids.slice(i, i + DELETE_CONCURRENCY).map((id) => apiJson(`${base}/revisions/${id}`, { method: "DELETE" })));
      for (const result of results) {
        if (result.status === "fulfilled") removed++;
        else failure ??= result.reason;
      }
    }
    setBusy(false);
    setConfirm(null);
    setSelected(new Set());
    if (failure) notifyError(failureCode(failure), t("revisions.deleteTitle"));
    if (removed) notify({ kind: "success", title: t("revisions.deleted", { count: removed }), message: "" });
    onChanged(await reload());
  };

  const rollback = async (revision: RevisionSummary) => {
    if (!revision.publishStatusId) return;
    setBusy(true);
    try {
      const { statusId } = await apiJson<{ statusId: string }>(`${base}/publish/${revision.publishStatusId}/rollback`, { method: "POST" });
      const status = await followPublish(base, statusId);
      if (status.errorCode) notifyError(status.errorCode, t("revisions.rollbackTitle"));
      else notify({ kind: "success", title: t("revisions.rolledBackDone"), message: "" });
      onRolledBack();
    } catch (error) {
      notifyError(failureCode(error), t("revisions.rollbackTitle"));
    } finally {
      setBusy(false);
      setConfirm(null);
      await reload();
    }
  };

  const loading = list === null || loadingMore;
  const revisions = list?.revisions ?? [];
  const hasMore = list !== null && revisions.length < list.count;
  return (
    <SidePanel open={open} title={t("revisions.title")} size="md" onClose={onClose} closeOnOverlay={!busy}
      footer={
        <div className="button-row">
          <button type="button" className="button button--danger" disabled={selected.size === 0 || busy} onClick={() => setConfirm({ kind: "delete" })}>{t("revisions.delete")}</button>
          <button type="button" className="button" onClick={onClose}>{t("panel.close")}</button>
        </div>
      }>
      {revisions.length === 0 && !loading ? (
        <p className="empty-state" role="status">{t("revisions.empty")}</p>
      ) : (
        <ul className="revision-list" aria-busy={loading}>
          {revisions.map((revision) => {
            const date = formatDateTime(revision.createdAt, i18n.language);
            const canDelete = revision.isDraft || isAdmin;
            return (
              <li key={revision.id} className="revision-list__item" data-testid="revision">
                {canDelete && (
                  <input type="checkbox" checked={selected.has(revision.id)} aria-label={t("revisions.select", { date })}
                    onChange={(event) => toggle(revision.id, event.target.checked)} />
                )}
                <div className="revision-list__text">
                  <span className={revision.isDraft ? "badge badge--draft" : "badge badge--published"}>
                    {revision.isDraft ? t("revisions.draft") : revision.isRolledBack ? t("revisions.rolledBack") : t("revisions.published")}
                  </span>{" "}
                  <time dateTime={revision.createdAt}>{date}</time>{" "}
                  <span className="muted">{t("revisions.by", { name: revision.user?.name ?? t("revisions.someone") })}</span>
                </div>
                <div className="button-row">
                  {revision.id === currentRevisionId ? (
                    <span className="muted">{t("revisions.current")}</span>
                  ) : (
                    <button type="button" className="button button--small" onClick={() => onOpen(revision.id)}>{t("revisions.open")}</button>
                  )}
                  {isAdmin && !revision.isDraft && revision.publishStatusId && !revision.isRolledBack && (
                    <button type="button" className="button button--small" disabled={busy} onClick={() => setConfirm({ kind: "rollback", revision })}>{t("revisions.rollback")}</button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {hasMore && (
        <button type="button" className="button button--small" disabled={loading} onClick={() => void loadMore()}>
          {loading ? t("revisions.loading") : t("revisions.loadMore")}
        </button>
      )}
      <ModalDialog open={confirm !== null} title={confirm?.kind === "rollback" ? t("revisions.rollbackTitle") : t("revisions.deleteTitle")} describedBy={confirmText}
        onClose={() => !busy && setConfirm(null)}>
        <p id={confirmText}>{confirm?.kind === "rollback" ? t("revisions.rollbackText") : t("revisions.deleteText", { count: selected.size })}</p>
        <div className="button-row modal__actions">
          <button type="button" className="button" data-autofocus disabled={busy} onClick={() => setConfirm(null)}>{t("panel.cancel")}</button>
          <button type="button" className={confirm?.kind === "rollback" ? "button button--primary" : "button button--danger"} disabled={busy}
            onClick={() => void (confirm?.kind === "rollback" ? rollback(confirm.revision) : removeSelected())}>
            {busy && confirm?.kind === "rollback" ? t("revisions.rollingBack") : confirm?.kind === "rollback" ? t("revisions.rollback") : t("revisions.delete")}
          </button>
        </div>
      </ModalDialog>
    </SidePanel>
  );
}
