import { useState } from "react";
import { useTranslation } from "react-i18next";
import { failureCode } from "~/lib/api-client";
import { isUnderFolder, parentFolder } from "~/lib/site-form";
import { ModalDialog } from "./modal-dialog";
import { useNotifications } from "./notifications";
import { useListing } from "./use-listing";

export interface BrowsedEntry {
  name: string;
  path: string;
  type: "file" | "folder" | "directory";
}

/**
 * The site form's folder browser: lists the folders of `start` through `browse`, goes into a folder
 * on click and back through "..", and answers the chosen folder. `root` is the highest folder it
 * may go to (the home folder when choosing the upload folder).
 */
export function FolderBrowserDialog(props: {
  open: boolean;
  title: string;
  start: string;
  root: string;
  browse(path: string): Promise<BrowsedEntry[]>;
  onChoose(path: string): void;
  onClose(): void;
}) {
  return (
    <ModalDialog open={props.open} title={props.title} onClose={props.onClose} className="modal--wide">
      <FolderBrowser {...props} />
    </ModalDialog>
  );
}

/** The dialog's body: mounted on each opening, so it starts from `start` every time. */
function FolderBrowser({ start, root, browse, onChoose, onClose }: { start: string; root: string; browse(path: string): Promise<BrowsedEntry[]>; onChoose(path: string): void; onClose(): void }) {
  const { t } = useTranslation("sites");
  const { notifyError } = useNotifications();
  const [folder, setFolder] = useState(isUnderFolder(start, root) ? start : root);
  const listed = useListing(folder, () => browse(folder), (error) => notifyError(failureCode(error)));
  const entries = listed?.filter((entry) => entry.type !== "file") ?? null;

  const canGoUp = folder !== root && folder !== "/";
  return (
    <>
      <p className="folder-browser__path"><span className="muted">{t("browser.current")}</span> <code>{folder}</code></p>
      <ul className="file-list" aria-busy={entries === null} aria-label={t("browser.folders")}>
        {canGoUp && (
          <li><button type="button" className="file-list__item file-list__item--folder" onClick={() => setFolder(parentFolder(folder))}>..</button></li>
        )}
        {entries?.map((entry) => (
          <li key={entry.path}>
            <button type="button" className="file-list__item file-list__item--folder" onClick={() => setFolder(entry.path)}>{entry.name}</button>
          </li>
        ))}
        {entries === null && <li className="muted" role="status">{t("browser.loading")}</li>}
        {entries?.length === 0 && <li className="muted">{t("browser.noFolders")}</li>}
      </ul>
      <div className="button-row modal__actions">
        <button type="button" className="button" onClick={onClose}>{t("actions.cancel")}</button>
        <button type="button" className="button button--primary" data-autofocus onClick={() => onChoose(folder)}>{t("browser.choose")}</button>
      </div>
    </>
  );
}
