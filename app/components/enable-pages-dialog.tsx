import { useState } from "react";
import { useTranslation } from "react-i18next";
import { apiJson, failureCode } from "~/lib/api-client";
import { errorMessageKey } from "~/lib/errors";
import { isEnableable, isUnderFolder, parentFolder } from "~/lib/site-form";
import { ModalDialog } from "./modal-dialog";
import { useNotifications } from "./notifications";
import { useListing } from "./use-listing";

interface Entry {
  name: string;
  path: string;
  type: "file" | "folder";
  isEnabled?: boolean;
}

/**
 * Enable Pages: browses the site's home folder through its connection (`showEnabled` marks files
 * that already are pages) and enables the chosen files. Only the spec's extensions can be chosen;
 * an index or default file becomes a pinned page named Homepage. A failure is a warning notice.
 */
export function EnablePagesDialog(props: {
  open: boolean;
  siteId: string;
  homeFolder: string;
  onClose(): void;
  onEnabled(count: number): void;
}) {
  const { t } = useTranslation("sites");
  return (
    <ModalDialog open={props.open} title={t("enable.title")} onClose={props.onClose} className="modal--wide">
      <EnablePages {...props} />
    </ModalDialog>
  );
}

function EnablePages({ siteId, homeFolder, onClose, onEnabled }: { siteId: string; homeFolder: string; onClose(): void; onEnabled(count: number): void }) {
  const { t } = useTranslation(["sites", "errors"]);
  const { notify, notifyError } = useNotifications();
  const [folder, setFolder] = useState(homeFolder);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [reload, setReload] = useState(0);
  const entries = useListing(
    `${folder}#${reload}`,
    async () => (await apiJson<{ files: Entry[] }>(`/sites/${siteId}/files?${new URLSearchParams({ path: folder, showEnabled: "true" })}`)).files,
    (error) => notifyError(failureCode(error)),
  );

  const toggle = (path: string, on: boolean) =>
    setChosen((all) => {
      const next = new Set(all);
      if (on) next.add(path);
      else next.delete(path);
      return next;
    });

  const enable = async () => {
    setBusy(true);
    let enabled = 0;
    for (const path of chosen) {
      const name = path.slice(path.lastIndexOf("/") + 1);
      try {
        await apiJson(`/sites/${siteId}/pages`, {
          method: "POST",
          // The server names the page from its file and pins the home folder's index file as Homepage.
          body: { path, createOnServer: false },
        });
        enabled += 1;
      } catch (error) {
        notify({ kind: "warning", title: t("enable.failedTitle", { name }), message: t(errorMessageKey(failureCode(error))) });
      }
    }
    setBusy(false);
    setChosen(new Set());
    setReload((n) => n + 1);
    if (enabled > 0) onEnabled(enabled);
  };

  const canGoUp = folder !== homeFolder && isUnderFolder(parentFolder(folder), homeFolder);
  return (
    <>
      <p className="folder-browser__path"><span className="muted">{t("browser.current")}</span> <code>{folder}</code></p>
      <ul className="file-list" aria-busy={entries === null} aria-label={t("enable.files")}>
        {canGoUp && (
          <li><button type="button" className="file-list__item file-list__item--folder" onClick={() => setFolder(parentFolder(folder))}>..</button></li>
        )}
        {entries?.map((entry) =>
          entry.type === "folder" ? (
            <li key={entry.path}>
              <button type="button" className="file-list__item file-list__item--folder" onClick={() => setFolder(entry.path)}>{entry.name}</button>
            </li>
          ) : (
            <li key={entry.path}>
              <label className={`file-list__item checkbox${isEnableable(entry.name) ? "" : " file-list__item--disabled"}`}>
                <input type="checkbox" disabled={entry.isEnabled || !isEnableable(entry.name) || busy} checked={entry.isEnabled || chosen.has(entry.path)}
                  onChange={(e) => toggle(entry.path, e.target.checked)} />
                <span>{entry.name}</span>
                {entry.isEnabled && <span className="badge">{t("enable.enabled")}</span>}
              </label>
            </li>
          ),
        )}
        {entries === null && <li className="muted" role="status">{t("browser.loading")}</li>}
        {entries?.length === 0 && <li className="muted">{t("enable.emptyFolder")}</li>}
      </ul>
      <p className="muted">{t("enable.hint")}</p>
      <div className="button-row modal__actions">
        <button type="button" className="button" onClick={onClose}>{t("actions.close")}</button>
        <button type="button" className="button button--primary" disabled={chosen.size === 0 || busy} aria-busy={busy} onClick={() => void enable()}>
          {chosen.size === 0 ? t("enable.title") : t("enable.submit", { count: chosen.size })}
        </button>
      </div>
    </>
  );
}
