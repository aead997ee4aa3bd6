import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/site";
import { EnablePagesDialog } from "~/components/enable-pages-dialog";
import { ManageFilesDialog } from "~/components/manage-files-dialog";
import { useNotifications } from "~/components/notifications";
import { ActivityDialog, PageNameDialog, RemovePagesDialog, type PageItem } from "~/components/page-dialogs";
import { apiJson, failureCode } from "~/lib/api-client";
import { livePageUrl } from "~/lib/page-url";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { effectiveFlags, isAccountAdmin } from "~/services/policy";
import { previewOrigin, siteLiveUrl } from "~/services/preview-origin.server";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { findAccessibleSite } from "~/services/site-files.server";

/** The spec: 50 pages a load, search debounced 250 ms, pin updates 3 at a time. */
const PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 250;
const PIN_CONCURRENCY = 3;
/** The preview frame is for large screens only. */
const PREVIEW_MEDIA = "(min-width: 1200px)";

interface PageList {
  pages: PageItem[];
  count: number;
  offset: number;
  limit: number;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const ctx = requireRouteContext(context);
  const site = await runOperation(() => findAccessibleSite(ctx, params.siteId));
  const search = new URL(request.url).searchParams.get("search")?.trim() ?? "";
  return {
    // Only what the screen shows: never the connection or its secrets.
    site: {
      id: site.id, name: site.name, url: site.url, homeFolder: site.homeFolder, uploadFolder: site.uploadFolder, isLocked: site.isLocked,
      isDemo: site.isDemo, canDuplicatePages: site.canDuplicatePages, canDeletePages: site.canDeletePages,
    },
    // Where the site's pages are on the web: a demo site's are served from R2 on the preview origin.
    liveBase: siteLiveUrl(site, previewOrigin(ctx.env, new URL(request.url))),
    search,
    isAdmin: isAccountAdmin(actor.user),
    canManageSites: effectiveFlags(actor.user).canManageSites,
  };
}

const NO_PAGES: PageList = { pages: [], count: 0, offset: 0, limit: PAGE_SIZE };

/** Ordering of the spec: pinned first, then by name case-insensitively, each page once. */
function orderPages(pages: PageItem[]): PageItem[] {
  const byId = new Map(pages.map((page) => [page.id, page]));
  return [...byId.values()].sort((a, b) => Number(b.isPinned) - Number(a.isPinned) || a.name.localeCompare(b.name, undefined, { sensitivity: "base" }) || a.id.localeCompare(b.id));
}

/** Runs `work` over `items`, at most `limit` at once. */
async function inBatches<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = [];
  for (let i = 0; i < items.length; i += limit) results.push(...(await Promise.allSettled(items.slice(i, i + limit).map(work))));
  return results;
}

type Dialog = "enable" | "activity" | "files" | "rename" | "duplicate" | "delete" | "disable" | null;

/** Site: the page list with search, multi-select, preview and the page actions; the admin sidebar; lockdown. */
export default function Site({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation(["sites", "common"]);
  const { notify, notifyError } = useNotifications();
  const navigate = useNavigate();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const { site, isAdmin, canManageSites } = loaderData;
  const [search, setSearch] = useState(loaderData.search);
  const [list, setList] = useState<PageList>(NO_PAGES);
  // The pages load in the browser (GET /api/sites/{id}/pages), 50 at a time.
  const [loading, setLoading] = useState(true);
  const [activeQuery, setActiveQuery] = useState(loaderData.search);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState(false);
  const [largeScreen, setLargeScreen] = useState(false);
  const query = useRef(loaderData.search);
  const request = useRef(0);
  const sentinel = useRef<HTMLDivElement>(null);
  const anchor = useRef<string | null>(null);

  useEffect(() => {
    const media = window.matchMedia(PREVIEW_MEDIA);
    const update = () => setLargeScreen(media.matches);
    update();
    media.addEventListener("change", update);
    return () => media.removeEventListener("change", update);
  }, []);

  const load = async (term: string, offset: number, limit = PAGE_SIZE) => {
    const id = ++request.current;
    setLoading(true);
    try {
      const params = new URLSearchParams({ search: term, limit: String(limit), offset: String(offset), sortBy: "pinned" });
      const page = await apiJson<PageList>(`/sites/${site.id}/pages?${params}`);
      if (id !== request.current) return;
      setList((current) => (offset === 0 ? page : { ...page, pages: [...current.pages, ...page.pages] }));
    } catch (error) {
      if (id === request.current) notifyError(failureCode(error));
    } finally {
      if (id === request.current) setLoading(false);
    }
  };
  /** After a change: the pages loaded so far, again from the top. */
  const reload = () => load(query.current, 0, Math.max(PAGE_SIZE, list.pages.length));

  useEffect(() => {
    const term = search.trim();
    if (term === query.current) return;
    const timer = setTimeout(() => {
      query.current = term;
      setActiveQuery(term);
      setSelected(new Set());
      const url = new URL(window.location.href);
      if (term) url.searchParams.set("search", term);
      else url.searchParams.delete("search");
      window.history.replaceState(window.history.state, "", url);
      void load(term, 0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  // The first 50 when the site opens (or another site is opened), unless it is on lockdown.
  useEffect(() => {
    if (site.isLocked) return;
    void load(query.current, 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [site.id, site.isLocked]);

  const hasMore = list.pages.length < list.count;
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasMore || loading || site.isLocked) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void load(query.current, list.pages.length);
    }, { rootMargin: `0px 0px ${4 * window.innerHeight}px 0px` });
    observer.observe(target);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hasMore, loading, list.pages.length, site.isLocked]);

  const pages = useMemo(() => orderPages(list.pages), [list.pages]);
  const chosen = pages.filter((page) => selected.has(page.id));
  const single = chosen.length === 1 ? chosen[0] : null;

  /** Click selects one; Ctrl/Cmd adds or removes; Shift selects the range from the last click. */
  const select = (page: PageItem, event: { ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }) => {
    setSelected((current) => {
      if (event.shiftKey && anchor.current) {
        const from = pages.findIndex((p) => p.id === anchor.current);
        const to = pages.findIndex((p) => p.id === page.id);
        if (from >= 0 && to >= 0) {
          const [a, b] = from < to ? [from, to] : [to, from];
          return new Set([...current, ...pages.slice(a, b + 1).map((p) => p.id)]);
        }
      }
      anchor.current = page.id;
      if (event.ctrlKey || event.metaKey) {
        const next = new Set(current);
        if (next.has(page.id)) next.delete(page.id);
        else next.add(page.id);
        return next;
      }
      return current.size === 1 && current.has(page.id) ? new Set() : new Set([page.id]);
    });
  };
  const toggle = (page: PageItem, on: boolean) => {
    anchor.current = page.id;
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(page.id);
      else next.delete(page.id);
      return next;
    });
  };

  const canDuplicate = isAdmin || site.canDuplicatePages;
  const canDelete = isAdmin || site.canDeletePages;

  const pin = async () => {
    const pinning = !chosen.every((page) => page.isPinned);
    setBusy(true);
    const results = await inBatches(chosen, PIN_CONCURRENCY, (page) =>
      apiJson(`/sites/${site.id}/pages/${page.id}`, { method: "PUT", body: { isPinned: pinning } }),
    );
    setBusy(false);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) notifyError(failureCode(failed.reason));
    await reload();
  };

  const afterRemove = (removed: string[]) => {
    setDialog(null);
    setSelected(new Set());
    if (removed.length) notify({ kind: "success", title: t("pages.removed", { count: removed.length }), message: "" });
    void reload();
  };

  return (
    <>
      <title>{`${site.name} | ${appName}`}</title>
      <nav className="breadcrumb" aria-label={t("common:breadcrumb")}>
        <Link to="/sites">{t("list.title")}</Link> › <span aria-current="page">{site.name}</span>
      </nav>
      <div className="page-header">
        <h1>{site.name}</h1>
        {site.isLocked ? (
          <button type="button" className="button button--primary" disabled title={t("lockdown.title")}>{t("pages.newPage")}</button>
        ) : (
          <Link to={`/sites/${site.id}/pages/new`} className="button button--primary">{t("pages.newPage")}</Link>
        )}
      </div>
      <div className={isAdmin ? "site-layout site-layout--admin" : "site-layout"}>
        <div className="site-layout__main">
          {site.isLocked ? (
            <div className="lockdown" role="status">
              <h2>{t("lockdown.title")}</h2>
              <p>{isAdmin ? t("lockdown.adminText") : t("lockdown.userText")}</p>
              {isAdmin && canManageSites && !site.isDemo && <Link to={`/sites/${site.id}/edit?tab=advanced`} className="button">{t("lockdown.disable")}</Link>}
            </div>
          ) : (
            <>
              <div className="page-toolbar" role="toolbar" aria-label={t("pages.toolbar")}>
                <label className="field search-field">
                  <span className="visually-hidden">{t("pages.search")}</span>
                  <input type="search" placeholder={t("pages.search")} aria-label={t("pages.search")} value={search} onChange={(e) => setSearch(e.target.value)} />
                </label>
                {single ? (
                  <Link to={`/sites/${site.id}/pages/${single.id}`} className="button button--small button--primary">{t("pages.edit")}</Link>
                ) : (
                  <button type="button" className="button button--small button--primary" disabled>{t("pages.edit")}</button>
                )}
                {isAdmin && (
                  <button type="button" className="button button--small" disabled={busy || chosen.length === 0} onClick={() => void pin()}>
                    {chosen.length > 0 && chosen.every((p) => p.isPinned) ? t("pages.unpin") : t("pages.pin")}
                  </button>
                )}
                {isAdmin && <button type="button" className="button button--small" disabled={!single} onClick={() => setDialog("rename")}>{t("pages.rename")}</button>}
                {canDuplicate && <button type="button" className="button button--small" disabled={!single} onClick={() => setDialog("duplicate")}>{t("pages.duplicate")}</button>}
                {canDelete && <button type="button" className="button button--small button--danger" disabled={chosen.length === 0} onClick={() => setDialog("delete")}>{t("pages.delete")}</button>}
                {isAdmin && <button type="button" className="button button--small" disabled={chosen.length === 0} onClick={() => setDialog("disable")}>{t("pages.disable")}</button>}
                <button type="button" className="button button--small" onClick={() => setDialog("files")}>{t("pages.manageFiles")}</button>
              </div>
              {chosen.length > 1 && <p className="muted" role="status">{t("pages.selected", { count: chosen.length })}</p>}
              <div className="site-pages">
                {pages.length === 0 && !loading ? (
                  <div className="empty-state" role="status">
                    <h2>{activeQuery ? t("pages.noResults") : t("pages.empty")}</h2>
                    <p>{activeQuery ? t("pages.noResultsText") : isAdmin ? t("pages.emptyTextAdmin") : t("pages.emptyText")}</p>
                    {!activeQuery && isAdmin && <button type="button" className="button button--primary" onClick={() => setDialog("enable")}>{t("sidebar.enablePages")}</button>}
                  </div>
                ) : (
                  <ul className="page-grid" aria-label={t("pages.list")} aria-busy={loading} aria-multiselectable="true">
                    {pages.map((page) => (
                      <li key={page.id} data-testid="page-card" className={selected.has(page.id) ? "page-card page-card--selected" : "page-card"}
                        onClick={(e) => {
                          if ((e.target as HTMLElement).closest("input, a, button")) return;
                          select(page, e);
                        }}
                        onDoubleClick={(e) => {
                          if (!(e.target as HTMLElement).closest("input, a, button")) void navigate(`/sites/${site.id}/pages/${page.id}`);
                        }}>
                        <input type="checkbox" className="page-card__check" checked={selected.has(page.id)} aria-label={t("pages.select", { name: page.name })}
                          onChange={(e) => toggle(page, e.target.checked)} />
                        <div className="page-card__body">
                          <h2 className="page-card__name">
                            <Link to={`/sites/${site.id}/pages/${page.id}`}>{page.name}</Link>
                          </h2>
                          <p className="page-card__path"><code>{page.path}</code></p>
                        </div>
                        {page.isPinned && <span className="badge page-card__pin" title={t("pages.pinned")}>{t("pages.pinned")}</span>}
                      </li>
                    ))}
                  </ul>
                )}
                {largeScreen && single && (
                  <aside className="page-preview" aria-label={t("pages.preview")}>
                    <iframe title={t("pages.previewOf", { name: single.name })} src={livePageUrl(loaderData.liveBase, site.homeFolder, single.path)} sandbox="allow-scripts" loading="lazy" referrerPolicy="no-referrer" />
                  </aside>
                )}
              </div>
              <div ref={sentinel} aria-hidden="true" />
              {loading && <p className="muted" role="status">{t("pages.loading")}</p>}
            </>
          )}
        </div>
        {isAdmin && (
          <aside className="site-sidebar" aria-label={t("sidebar.label")}>
            <ul>
              <li><button type="button" className="link-button" disabled={site.isLocked} onClick={() => setDialog("enable")}>{t("sidebar.enablePages")}</button></li>
              <li><Link to={`/sites/${site.id}/templates`}>{t("sidebar.templates")}</Link></li>
              <li><Link to={`/sites/${site.id}/blocks`}>{t("sidebar.blocks")}</Link></li>
              <li><button type="button" className="link-button" onClick={() => setDialog("activity")}>{t("sidebar.activity")}</button></li>
              {canManageSites && !site.isDemo && <li><Link to={`/sites/${site.id}/edit`}>{t("sidebar.editSite")}</Link></li>}
            </ul>
          </aside>
        )}
      </div>
      <EnablePagesDialog open={dialog === "enable"} siteId={site.id} homeFolder={site.homeFolder} onClose={() => setDialog(null)}
        onEnabled={(count) => {
          notify({ kind: "success", title: t("enable.done", { count }), message: "" });
          void reload();
        }} />
      <ActivityDialog open={dialog === "activity"} siteId={site.id} onClose={() => setDialog(null)} />
      <ManageFilesDialog open={dialog === "files"} siteId={site.id} siteUrl={loaderData.liveBase} homeFolder={site.homeFolder} uploadFolder={site.uploadFolder} onClose={() => setDialog(null)} />
      <PageNameDialog mode={dialog === "duplicate" ? "duplicate" : "rename"} page={(dialog === "rename" || dialog === "duplicate") && single ? single : null} siteId={site.id}
        onClose={() => setDialog(null)} onDone={(page) => {
          setDialog(null);
          setSelected(new Set([page.id]));
          void reload();
        }} />
      <RemovePagesDialog mode={dialog === "disable" ? "disable" : "delete"} pages={dialog === "delete" || dialog === "disable" ? chosen : []} siteId={site.id}
        onClose={() => setDialog(null)} onDone={afterRemove} />
    </>
  );
}
