import { useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { livePageUrl } from "~/lib/page-url";
import { apiJson, failureCode } from "~/lib/api-client";
import { isUnderFolder, joinPath, normalizeFileName, parentFolder } from "~/lib/site-form";
import { ModalDialog } from "./modal-dialog";
import { useNotifications } from "./notifications";
import { useListing } from "./use-listing";

interface Entry {
  name: string;
  path: string;
  type: "file" | "folder";
  size: number;
}

type Prompt = { kind: "folder" } | { kind: "rename"; entry: Entry } | { kind: "delete"; entries: Entry[] } | null;

/**
 * Manage Files (the Uploads tab of the file browser): the site's upload folder with breadcrumbs,
 * upload, new folder, rename, open in a new window and delete. Rename and open need exactly one
 * selected entry, delete at least one; names are normalised (page editing section 5).
 */
export function ManageFilesDialog(props: {
  open: boolean;
  siteId: string;
  siteUrl: string;
  homeFolder: string;
  uploadFolder: string;
  onClose(): void;
}) {
  const { t } = useTranslation("sites");
  // The body mounts on each opening: opening resets the lists and the selections.
  return (
    <ModalDialog open={props.open} title={t("files.title")} onClose={props.onClose} className="modal--wide">
      <ManageFiles {...props} />
    </ModalDialog>
  );
}

function ManageFiles({ siteId, siteUrl, homeFolder, uploadFolder, onClose }: { siteId: string; siteUrl: string; homeFolder: string; uploadFolder: string; onClose(): void }) {
  const { t } = useTranslation("sites");
  const { notifyError } = useNotifications();
  const [folder, setFolder] = useState(uploadFolder);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [prompt, setPrompt] = useState<Prompt>(null);
  const [busy, setBusy] = useState(false);
  const [reload, setReload] = useState(0);
  const upload = useRef<HTMLInputElement>(null);
  const entries = useListing(
    `${folder}#${reload}`,
    async () => (await apiJson<{ files: Entry[] }>(`/sites/${siteId}/files?${new URLSearchParams({ path: folder })}`)).files,
    (error) => notifyError(failureCode(error)),
  );

  const refresh = () => {
    setSelected(new Set());
    setReload((n) => n + 1);
  };
  const run = async (work: () => Promise<unknown>, title?: string) => {
    setBusy(true);
    try {
      await work();
      setPrompt(null);
      refresh();
    } catch (error) {
      notifyError(failureCode(error), title);
    } finally {
      setBusy(false);
    }
  };

  const chosen = entries?.filter((entry) => selected.has(entry.path)) ?? [];
  const toggle = (path: string, on: boolean) =>
    setSelected((all) => {
      const next = new Set(all);
      if (on) next.add(path);
      else next.delete(path);
      return next;
    });

  const onUpload = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const body = new FormData();
    body.set("path", folder);
    for (const file of files) body.append("files", file, file.name);
    void run(() => apiJson(`/sites/${siteId}/files`, { method: "POST", body }));
    if (upload.current) upload.current.value = "";
  };

  const publicUrl = (path: string) => livePageUrl(siteUrl, homeFolder, path) ?? siteUrl;

  const crumbs = breadcrumbs(uploadFolder, folder);
  return (
    <>
      <nav className="breadcrumb" aria-label={t("files.location")}>
        {crumbs.map((crumb, i) => (
          <span key={crumb.path}>
            {i > 0 && " › "}
            {crumb.path === folder ? <span aria-current="page">{crumb.name}</span> : (
              <button type="button" className="link-button" onClick={() => setFolder(crumb.path)}>{crumb.name}</button>
            )}
          </span>
        ))}
      </nav>
      <div className="button-row files-toolbar">
        <button type="button" className="button button--small" onClick={() => upload.current?.click()} disabled={busy}>{t("files.upload")}</button>
        <input ref={upload} type="file" multiple hidden aria-label={t("files.upload")} onChange={(e) => onUpload(e.target.files)} />
        <button type="button" className="button button--small" onClick={() => setPrompt({ kind: "folder" })} disabled={busy}>{t("files.newFolder")}</button>
        <button type="button" className="button button--small" disabled={busy || chosen.length !== 1} onClick={() => setPrompt({ kind: "rename", entry: chosen[0] })}>{t("files.rename")}</button>
        <button type="button" className="button button--small" disabled={chosen.length !== 1}
          onClick={() => window.open(publicUrl(chosen[0].path), "_blank", "noopener,noreferrer")}>{t("files.open")}</button>
        <button type="button" className="button button--small button--danger" disabled={busy || chosen.length < 1} onClick={() => setPrompt({ kind: "delete", entries: chosen })}>{t("files.delete")}</button>
      </div>
      <ul className="file-list" aria-busy={entries === null || busy} aria-label={t("files.list")}>
        {folder !== uploadFolder && isUnderFolder(parentFolder(folder), uploadFolder) && (
          <li><button type="button" className="file-list__item file-list__item--folder" onClick={() => setFolder(parentFolder(folder))}>..</button></li>
        )}
        {entries?.map((entry) => (
          <li key={entry.path} className="file-list__row">
            <input type="checkbox" aria-label={t("files.select", { name: entry.name })} checked={selected.has(entry.path)} onChange={(e) => toggle(entry.path, e.target.checked)} />
            {entry.type === "folder" ? (
              <button type="button" className="file-list__item file-list__item--folder" onClick={() => setFolder(entry.path)}>{entry.name}</button>
            ) : (
              <span className="file-list__item">{entry.name}</span>
            )}
          </li>
        ))}
        {entries === null && <li className="muted" role="status">{t("browser.loading")}</li>}
        {entries?.length === 0 && <li className="muted">{t("files.empty")}</li>}
      </ul>
      <div className="button-row modal__actions">
        <button type="button" className="button" onClick={onClose}>{t("actions.close")}</button>
      </div>
      <NamePrompt open={prompt?.kind === "folder"} title={t("files.newFolder")} label={t("files.folderName")} initial="" submitLabel={t("files.create")} busy={busy}
        onClose={() => setPrompt(null)} onSubmit={(name) => {
          // A folder that already exists is selected instead of created.
          const existing = entries?.find((entry) => entry.type === "folder" && entry.name === name);
          if (existing) {
            setPrompt(null);
            setSelected(new Set([existing.path]));
            return;
          }
          void run(() => apiJson(`/sites/${siteId}/files`, { method: "POST", body: { path: joinPath(folder, name) } }), t("files.newFolder"));
        }} />
      <NamePrompt open={prompt?.kind === "rename"} title={t("files.rename")} label={t("files.newName")} initial={prompt?.kind === "rename" ? prompt.entry.name : ""}
        hint={t("files.renameWarning")} submitLabel={t("files.rename")} busy={busy} onClose={() => setPrompt(null)}
        onSubmit={(name) => {
          if (prompt?.kind !== "rename") return;
          const { entry } = prompt;
          void run(() => apiJson(`/sites/${siteId}/files`, { method: "PUT", body: { files: [{ path: entry.path, newPath: joinPath(parentFolder(entry.path), name) }] } }), t("files.rename"));
        }} />
      <ModalDialog open={prompt?.kind === "delete"} title={t("files.delete")} onClose={() => setPrompt(null)}>
        <p>{t("files.deleteConfirm", { count: prompt?.kind === "delete" ? prompt.entries.length : 0 })}</p>
        <p className="muted">{t("files.deleteText")}</p>
        <div className="button-row modal__actions">
          <button type="button" className="button" data-autofocus onClick={() => setPrompt(null)}>{t("actions.cancel")}</button>
          <button type="button" className="button button--danger" disabled={busy} onClick={() => {
            if (prompt?.kind !== "delete") return;
            const paths = prompt.entries.map((entry) => entry.path);
            void run(() => apiJson(`/sites/${siteId}/files`, { method: "DELETE", body: { paths } }), t("files.delete"));
          }}>{t("files.delete")}</button>
        </div>
      </ModalDialog>
    </>
  );
}

function breadcrumbs(root: string, folder: string): { name: string; path: string }[] {
  const crumbs = [{ name: root.slice(root.lastIndexOf("/") + 1) || "/", path: root }];
  const rest = folder.slice(root === "/" ? 1 : root.length + 1);
  let path = root;
  for (const part of rest.split("/").filter(Boolean)) {
    path = joinPath(path, part);
    crumbs.push({ name: part, path });
  }
  return crumbs;
}

/** A one-field dialog for a file or folder name; the name is normalised before it is used. */
function NamePrompt(props: {
  open: boolean;
  title: string;
  label: string;
  initial: string;
  hint?: string;
  submitLabel: string;
  busy: boolean;
  onClose(): void;
  onSubmit(name: string): void;
}) {
  return (
    <ModalDialog open={props.open} title={props.title} onClose={props.onClose}>
      <NameForm {...props} />
    </ModalDialog>
  );
}

function NameForm({ label, initial, hint, submitLabel, busy, onClose, onSubmit }: { label: string; initial: string; hint?: string; submitLabel: string; busy: boolean; onClose(): void; onSubmit(name: string): void }) {
  const { t } = useTranslation("sites");
  const [value, setValue] = useState(initial);
  const id = useId();
  const name = normalizeFileName(value);
  return (
    <form className="form" onSubmit={(e) => {
      e.preventDefault();
      if (name) onSubmit(name);
    }}>
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input id={id} value={value} data-autofocus onChange={(e) => setValue(e.target.value)} onBlur={() => setValue(name)} />
      </div>
      {hint && <p className="field__warning">{hint}</p>}
      <div className="button-row modal__actions">
        <button type="button" className="button" onClick={onClose}>{t("actions.cancel")}</button>
        <button type="submit" className="button button--primary" disabled={!name || busy}>{submitLabel}</button>
      </div>
    </form>
  );
}
