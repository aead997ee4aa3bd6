import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, redirect, useNavigate } from "react-router";
import type { Route } from "./+types/edit-page";
import { EditorToolbar } from "~/components/editor/editor-toolbar";
import { ElementPanels, type PanelRequest } from "~/components/editor/element-panels";
import { MetadataPanel } from "~/components/editor/metadata-panel";
import { PublishOverlay } from "~/components/editor/publish-overlay";
import { RevisionsPanel } from "~/components/editor/revisions-panel";
import { UpgradeDialog } from "~/components/editor/upgrade-dialog";
import { ManageFilesDialog } from "~/components/manage-files-dialog";
import { ModalDialog } from "~/components/modal-dialog";
import { useUnsavedChanges } from "~/components/unsaved-changes";
import { useLater } from "~/components/use-later";
import { draftPayload, type EditorBase, isMetadataIncomplete, snapshotKey } from "~/editor/draft-payload";
import type { FrameMessage, FrameRegion, SelectionState, TextCommand } from "~/editor/protocol";
import { followPublish } from "~/editor/follow-publish";
import { CONNECTING, failedView, publishView, UPGRADE_DIALOG_DELAY_MS, type PublishView } from "~/editor/publish-progress";
import { type EditorSite } from "~/editor/upload-image";
import { useEditorFrame } from "~/editor/use-editor-frame";
import { useSaveShortcut } from "~/editor/use-save-shortcut";
import { apiJson, failureCode } from "~/lib/api-client";
import { errorMessageKey } from "~/lib/errors";
import { formatDate } from "~/lib/format";
import type { Locale } from "~/lib/locale";
import { extensionOf, livePageUrl } from "~/lib/page-url";
import type { PageMetadata, RegionUpdates } from "~/lib/regions/types";
import type { RevisionDetail } from "~/lib/schemas/revisions";
import { authenticatedGuard } from "~/middleware/actor";
import { useRootData } from "~/root";
import { effectiveFlags, isAccountAdmin } from "~/services/policy";
import { previewOrigin, siteLiveUrl } from "~/services/preview-origin.server";
import { SOURCE_ONLY_EXTENSIONS } from "~/services/page-source.server";
import { countDrafts, revisionOfPage } from "~/services/revisions.server";
import { runOperation } from "~/services/route-context.server";
import { openEditablePage } from "./editors.server";

/** The spec's timings. */
const FINISHED_HIDE_MS = 1000;
const FAILED_HIDE_MS = 3000;
const NO_REGIONS_WARNING_MS = 5000;
const REDIRECT_AFTER_SAVE_MS = 750;
/** A frame that has not said ready by then could not start its editor. */
const READY_TIMEOUT_MS = 30_000;

/** The Authenticated guard of the spec (the editor has no app shell around it). */
export const middleware: Route.MiddlewareFunction[] = [authenticatedGuard];

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { actor, ctx, site, page } = await openEditablePage(context, request, params);
  // The spec: source-only files open in EditSource.
  if (SOURCE_ONLY_EXTENSIONS.has(extensionOf(page.path))) throw redirect(`/sites/${site.id}/pages/${page.id}/source`);
  const revisionId = "revisionId" in params && typeof params.revisionId === "string" ? params.revisionId : null;
  const revision = revisionId ? await runOperation(() => revisionOfPage(ctx, page, revisionId)) : null;
  const siteUrl = siteLiveUrl(site, previewOrigin(ctx.env, new URL(request.url)));
  return {
    site: { id: site.id, name: site.name, url: site.url, homeFolder: site.homeFolder, uploadFolder: site.uploadFolder, isDemo: site.isDemo },
    page: { id: page.id, name: page.name, path: page.path },
    revision,
    liveUrl: livePageUrl(siteUrl, site.homeFolder, page.path) ?? siteUrl,
    siteLiveUrl: siteUrl,
    frameSrc: `/api/sites/${site.id}/pages/${page.id}${revision ? `/revisions/${revision.id}` : ""}/render`,
    draftCount: await countDrafts(ctx, page),
    isAdmin: isAccountAdmin(actor.user),
    canManageBilling: effectiveFlags(actor.user).canManageBilling,
  };
}

type Phase = { kind: "loading" } | { kind: "ready" } | { kind: "failed"; code: string | null };
type SaveStatus = { kind: "saving" } | { kind: "finished" } | { kind: "error"; code: string | null } | null;
/** The sidebar's panels; the element panels the frame asks for are `PanelRequest`s. */
type Panel = { kind: "metadata" } | { kind: "revisions" } | { kind: "files" } | { kind: "element"; request: PanelRequest } | null;
interface CurrentRevision {
  id: string;
  isDraft: boolean;
  version: number;
  createdAt: string;
}

const EMPTY_METADATA: PageMetadata = { title: "", description: "", image: "", robots: false, type: "", url: "" };

/**
 * EditPage and EditRevision (spec, "Page editor"): the page in a sandboxed frame on the preview
 * origin, edited in place by the in-frame editor; the sidebar with the admin and actions groups,
 * Save Draft / Publish and Done; drafts saved as revisions, publishing with live progress.
 */
export default function EditPage({ loaderData }: Route.ComponentProps) {
  // Another page or revision is another editing session: a fresh editor, frame and history.
  return <PageEditor key={`${loaderData.page.id}:${loaderData.revision?.id ?? ""}`} loaderData={loaderData} />;
}

function PageEditor({ loaderData }: { loaderData: Route.ComponentProps["loaderData"] }) {
  const { t, i18n } = useTranslation(["editor", "errors", "common", "sites"]);
  const navigate = useNavigate();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const { site, page, liveUrl, frameSrc, isAdmin, canManageBilling } = loaderData;
  const pageUrl = `/sites/${site.id}/pages/${page.id}`;

  const [phase, setPhase] = useState<Phase>({ kind: "loading" });
  const [regions, setRegions] = useState<FrameRegion[]>([]);
  const [base, setBase] = useState<EditorBase>({ revisionRegions: loaderData.revision?.regions ?? {}, revisionMetadata: loaderData.revision?.metadata ?? {}, initialContent: {} });
  const [fileMetadata, setFileMetadata] = useState<PageMetadata>(EMPTY_METADATA);
  const [metadataChanges, setMetadataChanges] = useState<Partial<PageMetadata>>({});
  const [content, setContent] = useState<RegionUpdates>({});
  const [cleanKey, setCleanKey] = useState<string | null>(null);
  const [baseHash, setBaseHash] = useState<string | null>(null);
  const [revision, setRevision] = useState<CurrentRevision | null>(loaderData.revision
    ? { id: loaderData.revision.id, isDraft: loaderData.revision.isDraft, version: loaderData.revision.version, createdAt: loaderData.revision.createdAt }
    : null);
  const [busy, setBusy] = useState<"save" | "publish" | null>(null);
  const [saveStatus, setSaveStatus] = useState<SaveStatus>(null);
  const [publish, setPublish] = useState<PublishView | null>(null);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const [confirmPublish, setConfirmPublish] = useState(false);
  const [panel, setPanel] = useState<Panel>(null);
  const [selection, setSelection] = useState<SelectionState | null>(null);
  const [draftCount, setDraftCount] = useState(loaderData.draftCount);
  const [noRegionsWarning, setNoRegionsWarning] = useState(false);
  const [frameKey, setFrameKey] = useState(0);
  const [menuOpen, setMenuOpen] = useState(false);
  const later = useLater();

  const metadata = useMemo(() => ({ ...fileMetadata, ...metadataChanges }), [fileMetadata, metadataChanges]);
  const payload = useMemo(() => draftPayload(base, content, metadataChanges), [base, content, metadataChanges]);
  const dirty = phase.kind === "ready" && cleanKey !== null && snapshotKey(payload) !== cleanKey;
  const unsaved = useUnsavedChanges(dirty);
  const ready = phase.kind === "ready";

  // ── the frame ────────────────────────────────────────────────────────────────────────────────

  const strings = useMemo(() => ({ regionLabel: t("frame.regionLabel") }), [t]);
  const onFrameMessage = (message: FrameMessage) => {
    switch (message.type) {
      case "ready": {
        setRegions(message.regions);
        setContent(message.content);
        const nextBase = { ...base, initialContent: message.content };
        setBase(nextBase);
        setFileMetadata(message.page.metadata);
        setBaseHash(message.page.baseHash);
        setCleanKey(snapshotKey(draftPayload(nextBase, message.content, metadataChanges)));
        setPhase({ kind: "ready" });
        if (!message.regions.some((region) => region.problem === null && region.type !== "unsupported")) {
          setNoRegionsWarning(true);
          later(() => setNoRegionsWarning(false), NO_REGIONS_WARNING_MS);
        }
        return;
      }
      case "failed":
        return setPhase({ kind: "failed", code: message.code });
      case "changed":
        return setContent(message.regions);
      case "selection":
        return setSelection(message.state);
      case "shortcut":
        if (message.name === "save") void save();
        else if (ready && !busy) setConfirmPublish(true);
        return;
      case "openPanel":
        return setPanel({ kind: "element", request: { panel: message.panel, target: message.target, values: message.values } });
    }
  };
  const frame = useEditorFrame({ locale: i18n.language, strings, onMessage: onFrameMessage });
  const { frameRef, onLoad: onFrameLoad } = frame;

  useEffect(() => {
    if (phase.kind !== "loading") return;
    const timer = window.setTimeout(() => setPhase((current) => (current.kind === "loading" ? { kind: "failed", code: null } : current)), READY_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [phase.kind, frameKey]);

  const reloadFrame = () => {
    frame.reset();
    setPhase({ kind: "loading" });
    setSelection(null);
    setFrameKey((key) => key + 1);
  };

  // ── saving ───────────────────────────────────────────────────────────────────────────────────

  const showSaveStatus = (status: SaveStatus, hideAfter: number) => {
    setSaveStatus(status);
    later(() => setSaveStatus((current) => (current === status ? null : current)), hideAfter);
  };

  /** Saves a draft (spec, "Saving a draft"): the open draft is updated, otherwise a new one is made. */
  async function save(): Promise<boolean> {
    if (!ready || busy) return false;
    setBusy("save");
    setSaveStatus({ kind: "saving" });
    try {
      const now = await frame.serialize();
      if (!now) throw new Error("The frame did not answer");
      const body = draftPayload(base, now, metadataChanges);
      const saved = revision?.isDraft
        ? await apiJson<{ revision: RevisionDetail }>(`${pageUrl}/revisions/${revision.id}`, { method: "PUT", body: { isDraft: true, ...body, version: revision.version } })
        : await apiJson<{ revision: RevisionDetail }>(`${pageUrl}/revisions`, { method: "POST", body: { isDraft: true, ...body, baseHash } });
      const next = saved.revision;
      if (!revision?.isDraft) setDraftCount((n) => n + 1);
      setRevision({ id: next.id, isDraft: true, version: next.version, createdAt: next.createdAt });
      setContent(now);
      setCleanKey(snapshotKey(body));
      frame.send({ type: "clean" });
      // The address becomes the revision's, without reloading the editor.
      window.history.replaceState(window.history.state, "", `${pageUrl}/revisions/${next.id}`);
      showSaveStatus({ kind: "finished" }, FINISHED_HIDE_MS);
      return true;
    } catch (error) {
      showSaveStatus({ kind: "error", code: failureCode(error) }, FAILED_HIDE_MS);
      return false;
    } finally {
      setBusy(null);
    }
  }

  // ── publishing ───────────────────────────────────────────────────────────────────────────────

  async function startPublish(): Promise<void> {
    if (!ready || busy) return;
    setConfirmPublish(false);
    setMenuOpen(false);
    setBusy("publish");
    setPublish(CONNECTING);
    try {
      const now = await frame.serialize();
      if (!now) throw new Error("The frame did not answer");
      const body = draftPayload(base, now, metadataChanges);
      let statusId: string;
      try {
        ({ statusId } = await apiJson<{ statusId: string }>(`${pageUrl}/publish`, {
          method: "POST",
          body: { ...body, ...(revision?.isDraft ? { revisionId: revision.id } : {}), ...(baseHash ? { baseHash } : {}) },
        }));
      } catch (error) {
        const code = failureCode(error);
        setPublish(failedView(code));
        if (code === "UPGRADE_REQUIRED" && canManageBilling) later(() => setUpgradeOpen(true), UPGRADE_DIALOG_DELAY_MS);
        return;
      }
      const status = await followPublish(pageUrl, statusId, (update) => setPublish(publishView(update)));
      const view = publishView(status);
      if (view.succeeded) {
        // The page now holds what was published: a fresh start from it (spec: the address
        // returns to the page's, the clean snapshot resets, the draft is gone).
        const nextBase: EditorBase = { revisionRegions: {}, revisionMetadata: {}, initialContent: now };
        setBase(nextBase);
        setFileMetadata((current) => ({ ...current, ...body.metadata }));
        setMetadataChanges({});
        setContent(now);
        setCleanKey(snapshotKey(draftPayload(nextBase, now, {})));
        if (status.pageHash) setBaseHash(status.pageHash);
        if (revision?.isDraft) setDraftCount((n) => Math.max(0, n - 1));
        setRevision(null);
        frame.send({ type: "clean" });
        window.history.replaceState(window.history.state, "", pageUrl);
        later(() => setPublish((current) => (current?.succeeded ? null : current)), 2000);
      }
    } catch (error) {
      setPublish(failedView(failureCode(error)));
    } finally {
      setBusy(null);
    }
  }

  const saveAndUpgrade = async () => {
    if (!(await save())) return;
    unsaved.allowLeave();
    later(() => void navigate("/billing"), REDIRECT_AFTER_SAVE_MS);
  };

  // Ctrl/Cmd+S saves a draft, Ctrl/Cmd+Shift+S publishes (with the focus in the parent).
  useSaveShortcut(() => void save(), () => void startPublish());

  // ── panels ───────────────────────────────────────────────────────────────────────────────────

  const command = (name: TextCommand) => frame.send({ type: "command", command: name });
  const editorSite: EditorSite = useMemo(() => ({ siteId: site.id, uploadFolder: site.uploadFolder, pagePath: page.path, liveUrl }), [site.id, site.uploadFolder, page.path, liveUrl]);
  const closePanel = () => setPanel(null);
  const problems = regions.filter((region) => region.problem !== null);
  const editableCount = regions.filter((region) => region.problem === null && region.type !== "unsupported").length;
  const incomplete = ready && isMetadataIncomplete(metadata);
  const saveLabel = saveStatus?.kind === "saving" ? t("status.saving") : saveStatus?.kind === "finished" ? t("status.finished") : null;

  return (
    <div className="editor">
      <title>{`${t("title", { name: page.name })} | ${appName}`}</title>
      <aside className="editor__sidebar" aria-label={t("sidebar.label")}>
        <nav className="breadcrumb" aria-label={t("common:breadcrumb")}>
          <Link to="/sites">{t("sites:list.title")}</Link> › <Link to={`/sites/${site.id}`}>{site.name}</Link>
        </nav>
        <h1 className="editor__title">{page.name}</h1>
        <p className="editor__path"><code>{page.path}</code></p>
        {revision && (
          <p className="editor__revision" role="status">
            {t(revision.isDraft ? "sidebar.editingDraft" : "sidebar.editingRevision", { date: formatDate(revision.createdAt, i18n.language as Locale) })}
          </p>
        )}
        {isAdmin && (
          <section className="editor__group" aria-label={t("sidebar.admin")}>
            <h2 className="editor__group-title">{t("sidebar.admin")}</h2>
            <Link className="editor__action" to={`/sites/${site.id}/pages/${page.id}/source`}>{t("sidebar.editSource")}</Link>
          </section>
        )}
        <section className="editor__group" aria-label={t("sidebar.actions")}>
          <h2 className="editor__group-title">{t("sidebar.actions")}</h2>
          <button type="button" className="editor__action" disabled={!ready} onClick={() => setPanel({ kind: "metadata" })}>
            {t("sidebar.editMetadata")}
            {incomplete && <span className="badge badge--warning" title={t("sidebar.metadataIncomplete")} aria-label={t("sidebar.metadataIncomplete")}>!</span>}
          </button>
          <button type="button" className="editor__action" onClick={() => setPanel({ kind: "revisions" })}>
            {t("sidebar.revisions")}
            {draftCount > 0 && <span className="badge" aria-label={t("sidebar.draftCount", { count: draftCount })}>{draftCount}</span>}
          </button>
          <button type="button" className="editor__action" onClick={() => setPanel({ kind: "files" })}>{t("sidebar.manageFiles")}</button>
          <a className="editor__action" href={liveUrl} target="_blank" rel="noopener noreferrer">{t("sidebar.viewWebpage")}</a>
        </section>
        {ready && (
          <p className="muted editor__regions">{t("sidebar.regions", { count: editableCount })}</p>
        )}
        {problems.length > 0 && (
          <section className="editor__group editor__problems" aria-label={t("sidebar.problems")}>
            <h2 className="editor__group-title">{t("sidebar.problems")}</h2>
            <ul>
              {problems.map((region, index) => {
                const problem = t(`sidebar.problem.${region.problem!}`);
                return (
                  <li key={index} data-testid="region-problem">
                    {region.id ? t("sidebar.problemOnId", { problem, element: region.element, id: region.id }) : t("sidebar.problemOn", { problem, element: region.element })}
                  </li>
                );
              })}
            </ul>
          </section>
        )}
        <div className="editor__save">
          <div className="split-button">
            <button type="button" className="button button--primary" disabled={!ready || busy !== null} onClick={() => void save()}>{t("sidebar.saveDraft")}</button>
            <button type="button" className="button button--primary split-button__toggle" aria-haspopup="menu" aria-expanded={menuOpen} aria-label={t("sidebar.saveOptions")}
              disabled={!ready || busy !== null} onClick={() => setMenuOpen((open) => !open)}>▾</button>
            {menuOpen && (
              <ul role="menu" className="split-button__menu" onKeyDown={(event) => event.key === "Escape" && setMenuOpen(false)}>
                <li role="none"><button type="button" role="menuitem" autoFocus onClick={() => { setMenuOpen(false); void save(); }}>{t("sidebar.saveDraft")}</button></li>
                <li role="none"><button type="button" role="menuitem" onClick={() => void startPublish()}>{t("sidebar.publish")}</button></li>
              </ul>
            )}
          </div>
          <button type="button" className="button" onClick={() => void navigate(`/sites/${site.id}`)}>{t("sidebar.done")}</button>
        </div>
        <p className="muted editor__shortcuts">{t("sidebar.shortcuts")}</p>
        <div className="editor__save-status" role="status" aria-live="polite">
          {saveLabel}
          {saveStatus?.kind === "error" && <span className="editor__save-error">{t(errorMessageKey(saveStatus.code))}</span>}
        </div>
      </aside>
      <div className="editor__main">
        <EditorToolbar selection={selection} onCommand={command} />
        {noRegionsWarning && <div className="notice notice--warning" role="status">{t("noRegions")}</div>}
        {phase.kind === "failed" && (
          <div className="notice notice--error" role="alert">
            <p>{phase.code ? t(errorMessageKey(phase.code)) : t("initFailed")}</p>
            <button type="button" className="button" onClick={reloadFrame}>{t("reload")}</button>
          </div>
        )}
        {phase.kind === "loading" && <p className="editor__loading muted" role="status">{t("loading")}</p>}
        {/* In the server render, so the page loads while the app hydrates; its editor keeps saying
            hello until this side, hydrated, answers with init. */}
        <iframe key={frameKey} ref={frameRef} className="editor__frame" title={t("frameTitle", { name: page.name })} src={frameSrc}
          sandbox="allow-scripts" referrerPolicy="no-referrer" onLoad={onFrameLoad} />
      </div>

      <MetadataPanel open={panel?.kind === "metadata"} metadata={metadata} onClose={closePanel}
        onApply={(changes) => {
          setMetadataChanges((current) => ({ ...current, ...changes }));
          closePanel();
        }} />
      <RevisionsPanel open={panel?.kind === "revisions"} siteId={site.id} pageId={page.id} currentRevisionId={revision?.id ?? null} isAdmin={isAdmin}
        onClose={closePanel}
        onOpen={(id) => void navigate(`${pageUrl}/revisions/${id}`)}
        onChanged={(drafts) => setDraftCount(drafts)}
        onRolledBack={() => {
          closePanel();
          reloadFrame();
        }} />
      <ElementPanels request={panel?.kind === "element" ? panel.request : null} site={editorSite} send={frame.send} onClose={closePanel} />
      <ManageFilesDialog open={panel?.kind === "files"} siteId={site.id} siteUrl={loaderData.siteLiveUrl} homeFolder={site.homeFolder} uploadFolder={site.uploadFolder} onClose={closePanel} />
      <PublishOverlay view={publish} onClose={() => setPublish(null)} />
      <UpgradeDialog open={upgradeOpen} busy={busy !== null} onClose={() => setUpgradeOpen(false)} onSaveAndUpgrade={() => void saveAndUpgrade()} />
      <ModalDialog open={confirmPublish} title={t("publish.confirmTitle")} onClose={() => setConfirmPublish(false)}>
        <p>{t("publish.confirmText")}</p>
        <div className="button-row modal__actions">
          <button type="button" className="button" onClick={() => setConfirmPublish(false)}>{t("publish.cancel")}</button>
          <button type="button" className="button button--primary" data-autofocus onClick={() => void startPublish()}>{t("publish.confirm")}</button>
        </div>
      </ModalDialog>
      {unsaved.dialog}
    </div>
  );
}

