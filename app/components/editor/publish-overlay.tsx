import { useId } from "react";
import { useTranslation } from "react-i18next";
import { ModalDialog } from "~/components/modal-dialog";
import type { PublishView } from "~/editor/publish-progress";
import { errorMessageKey } from "~/lib/errors";

/**
 * The publish progress overlay (spec, "Publish"): a percent, the message and, when an item failed,
 * the queue with each item's own error; regions the page did not have are listed with 'Failed to
 * locate content region.'. It can be closed once the publish is complete.
 */
export function PublishOverlay({ view, onClose }: { view: PublishView | null; onClose(): void }) {
  const { t } = useTranslation(["editor", "errors"]);
  const statusId = useId();
  if (!view) return <ModalDialog open={false} title="" onClose={onClose}>{null}</ModalDialog>;
  const message = (() => {
    switch (view.message.key) {
      case "connecting":
        return t("publish.connecting");
      case "progress":
        return t("publish.progress", { processed: view.message.processed, total: view.message.total });
      case "finished":
        return t("publish.finished");
      case "finishedWithErrors":
        return t("publish.finishedWithErrors");
      case "error":
        return t(errorMessageKey(view.message.code));
    }
  })();
  const failed = view.message.key === "error" || view.message.key === "finishedWithErrors";
  return (
    <ModalDialog open title={t("publish.title")} describedBy={statusId} className="publish-overlay" onClose={() => view.complete && onClose()}>
      <div className={failed ? "progress progress--failed" : "progress"} role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={view.percent} aria-labelledby={statusId}>
        <div className="progress__bar" style={{ width: `${view.percent}%` }} />
      </div>
      <p id={statusId} className="publish-overlay__message" role="status" aria-live="polite">
        <span className="publish-overlay__percent">{view.percent}%</span> {message}
      </p>
      {view.showQueue && (
        <section aria-label={t("publish.queue")}>
          <ul className="publish-queue">
            {view.queue.map((item) => (
              <li key={item.id} className={item.errorCode ? "publish-queue__item publish-queue__item--error" : "publish-queue__item"}>
                <strong>{item.name}</strong> <code>{item.path}</code>
                <span className="publish-queue__state">
                  {item.errorCode ? t(errorMessageKey(item.errorCode)) : item.isProcessed ? t("publish.itemDone") : t("publish.itemPending")}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {view.unpublishedRegions.length > 0 && (
        <section aria-label={t("publish.unpublished")}>
          <h3 className="publish-overlay__subtitle">{t("publish.unpublished")}</h3>
          <ul className="publish-queue">
            {view.unpublishedRegions.map((id) => (
              <li key={id} className="publish-queue__item publish-queue__item--error"><code>#{id}</code> <span>{t("publish.regionNotFound")}</span></li>
            ))}
          </ul>
        </section>
      )}
      {view.complete && (
        <div className="button-row modal__actions">
          <button type="button" className="button button--primary" data-autofocus onClick={onClose}>{t("publish.close")}</button>
        </div>
      )}
    </ModalDialog>
  );
}
