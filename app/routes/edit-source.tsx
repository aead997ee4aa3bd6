import { useId, useMemo, useState, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { Link, redirect, useNavigate } from "react-router";
import type { Route } from "./+types/edit-source";
import { CodeEditor } from "~/components/code-editor";
import { useUnsavedChanges } from "~/components/unsaved-changes";
import { useLater } from "~/components/use-later";
import { useSaveShortcut } from "~/editor/use-save-shortcut";
import { apiJson, failureCode } from "~/lib/api-client";
import { errorMessageKey } from "~/lib/errors";
import { extensionOf } from "~/lib/page-url";
import { detectIndentation, sourceMode } from "~/lib/source-editing";
import { authenticatedGuard } from "~/middleware/actor";
import { useRootData } from "~/root";
import { mayEditSource, readSourceOf, SOURCE_ONLY_EXTENSIONS } from "~/services/page-source.server";
import { runOperation } from "~/services/route-context.server";
import { openEditablePage } from "./editors.server";

/** The line-wrapping preference is kept for the browser session (spec). */
const WRAP_KEY = "sitecraft.source.wrap";
const SAVED_HIDE_MS = 1000;
const FAILED_HIDE_MS = 3000;

export const middleware: Route.MiddlewareFunction[] = [authenticatedGuard];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { actor, ctx, site, page } = await openEditablePage(context, request, params);
  const extension = extensionOf(page.path);
  const sourceOnly = SOURCE_ONLY_EXTENSIONS.has(extension);
  // Clients edit HTML by region: their way back is the visual editor.
  if (!mayEditSource(actor, page)) throw redirect(`/sites/${site.id}/pages/${page.id}`);
  const { source, baseHash } = await runOperation(() => readSourceOf(ctx, site, page));
  return {
    site: { id: site.id, name: site.name },
    page: { id: page.id, name: page.name, path: page.path },
    source, baseHash, sourceOnly, mode: sourceMode(extension),
  };
}

type Status = { kind: "saving" } | { kind: "saved" } | { kind: "error"; code: string | null } | null;

const subscribeToNothing = () => () => {};

/**
 * EditSource (spec, "Source editor"): the page's raw source in CodeMirror with its mode by
 * extension, line wrapping kept for the session, indentation auto-detected (Tab indents; Escape,
 * then Tab, leaves the editor). Saving writes the file on the server.
 */
export default function EditSource({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation(["editor", "common", "sites", "errors"]);
  const navigate = useNavigate();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const { site, page, mode, sourceOnly } = loaderData;
  const [source, setSource] = useState(loaderData.source);
  const [clean, setClean] = useState({ source: loaderData.source, baseHash: loaderData.baseHash });
  const [status, setStatus] = useState<Status>(null);
  const storedWrap = useSyncExternalStore(subscribeToNothing, () => sessionStorage.getItem(WRAP_KEY), () => null);
  const [wrapChoice, setWrapChoice] = useState<boolean | null>(null);
  const wrap = wrapChoice ?? storedWrap !== "false";
  const indentation = useMemo(() => detectIndentation(loaderData.source), [loaderData.source]);
  const hintId = useId();
  const dirty = source !== clean.source;
  const unsaved = useUnsavedChanges(dirty);
  const later = useLater();
  const show = (next: Status, hideAfter: number) => {
    setStatus(next);
    later(() => setStatus((current) => (current === next ? null : current)), hideAfter);
  };

  const save = async (): Promise<boolean> => {
    if (status?.kind === "saving") return false;
    setStatus({ kind: "saving" });
    try {
      const saved = await apiJson<{ source: string; baseHash: string }>(`/sites/${site.id}/pages/${page.id}/source`, { method: "PUT", body: { source, baseHash: clean.baseHash } });
      setClean({ source: saved.source, baseHash: saved.baseHash });
      show({ kind: "saved" }, SAVED_HIDE_MS);
      return true;
    } catch (error) {
      show({ kind: "error", code: failureCode(error) }, FAILED_HIDE_MS);
      return false;
    }
  };

  useSaveShortcut(() => void save());

  const back = sourceOnly ? `/sites/${site.id}` : `/sites/${site.id}/pages/${page.id}`;
  return (
    <div className="source-editor">
      <title>{`${t("source.title", { name: page.name })} | ${appName}`}</title>
      <header className="source-editor__header">
        <nav className="breadcrumb" aria-label={t("common:breadcrumb")}>
          <Link to="/sites">{t("sites:list.title")}</Link> › <Link to={`/sites/${site.id}`}>{site.name}</Link> › <span aria-current="page">{page.name}</span>
        </nav>
        <h1>{t("source.title", { name: page.name })}</h1>
        <p className="muted"><code>{page.path}</code> · {t("source.mode", { mode: t(`source.modes.${mode}`) })} · {indentation.unit === "\t" ? t("source.tabs") : t("source.spaces", { count: indentation.unit.length })}</p>
        <div className="button-row">
          <label className="field--checkbox">
            <input type="checkbox" checked={wrap} onChange={(event) => {
              setWrapChoice(event.target.checked);
              sessionStorage.setItem(WRAP_KEY, String(event.target.checked));
            }} />
            <span>{t("source.wrap")}</span>
          </label>
          <span className="source-editor__status" role="status" aria-live="polite">
            {status?.kind === "saving" ? t("status.saving") : status?.kind === "saved" ? t("status.saved") : status?.kind === "error" ? <span className="editor__save-error">{t(errorMessageKey(status.code))}</span> : null}
          </span>
          <span className="modal__spacer" />
          {!sourceOnly && <Link className="button" to={`/sites/${site.id}/pages/${page.id}`}>{t("source.visual")}</Link>}
          <button type="button" className="button button--primary" disabled={!dirty || status?.kind === "saving"} onClick={() => void save()}>{t("source.save")}</button>
          <button type="button" className="button" onClick={() => void navigate(back)}>{t("sidebar.done")}</button>
        </div>
      </header>
      <div className="source-editor__text" aria-describedby={hintId}>
        <CodeEditor value={source} mode={mode} label={t("source.label", { name: page.name })} onChange={setSource} height="100%" wrap={wrap} indent={indentation} />
      </div>
      <p id={hintId} className="muted source-editor__hint">{t("source.hint")}</p>
      {unsaved.dialog}
    </div>
  );
}
