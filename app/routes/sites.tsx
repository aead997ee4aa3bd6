import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/sites";
import { ModalDialog } from "~/components/modal-dialog";
import { useNotifications } from "~/components/notifications";
import { SiteCard, type SiteCardSite } from "~/components/site-card";
import { apiJson, failureCode } from "~/lib/api-client";
import { notifyFavoritesChanged } from "~/lib/favorites-events";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { effectiveFlags, isAccountAdmin } from "~/services/policy";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { listSites } from "~/services/sites.server";

/** The spec: 50 sites a page, search debounced 250 ms. */
const PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 250;

interface SitePage {
  sites: SiteCardSite[];
  count: number;
  offset: number;
  limit: number;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  const search = new URL(request.url).searchParams.get("search")?.trim() ?? "";
  // The first page without a search comes with the screen; a search loads through /api (below).
  const list: SitePage = await runOperation(() => listSites(requireRouteContext(context), { limit: PAGE_SIZE, offset: 0 }));
  return { list, search, userId: actor.user.id, canManageSites: effectiveFlags(actor.user).canManageSites, isAdmin: isAccountAdmin(actor.user) };
}

/** Sites: the card grid with search, favorites (in the sidebar), infinite scroll and New Site. */
export default function Sites({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("sites");
  const { notifyError, notify } = useNotifications();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const [search, setSearch] = useState(loaderData.search);
  const [list, setList] = useState<SitePage>(loaderData.list);
  const [loading, setLoading] = useState(false);
  const [activeQuery, setActiveQuery] = useState("");
  const [deleting, setDeleting] = useState<SiteCardSite | null>(null);
  // A search in the address is loaded once the screen is up (the loader lists without one).
  const query = useRef("");
  const request = useRef(0);
  const sentinel = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState(loaderData.list);
  if (loaded !== loaderData.list) {
    setLoaded(loaderData.list);
    setList(loaderData.list);
  }

  const load = async (term: string, offset: number) => {
    const id = ++request.current;
    setLoading(true);
    try {
      const params = new URLSearchParams({ search: term, limit: String(PAGE_SIZE), offset: String(offset), sortBy: "name" });
      const page = await apiJson<SitePage>(`/sites?${params}`);
      if (id !== request.current) return;
      setList((current) => (offset === 0 ? page : { ...page, sites: dedupe([...current.sites, ...page.sites]) }));
    } catch (error) {
      if (id === request.current) notifyError(failureCode(error));
    } finally {
      if (id === request.current) setLoading(false);
    }
  };

  useEffect(() => {
    const term = search.trim();
    if (term === query.current) return;
    const timer = setTimeout(() => {
      query.current = term;
      setActiveQuery(term);
      const url = new URL(window.location.href);
      if (term) url.searchParams.set("search", term);
      else url.searchParams.delete("search");
      window.history.replaceState(window.history.state, "", url);
      void load(term, 0);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search]);

  // Infinite scroll: the next 50 once the end of the grid is within four screen heights.
  const hasMore = list.sites.length < list.count;
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasMore || loading) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void load(query.current, list.sites.length);
    }, { rootMargin: `0px 0px ${4 * window.innerHeight}px 0px` });
    observer.observe(target);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hasMore, loading, list.sites.length]);

  const replaceSite = (site: SiteCardSite) => setList((current) => ({ ...current, sites: current.sites.map((s) => (s.id === site.id ? { ...s, ...site } : s)) }));

  const toggleFavorite = async (site: SiteCardSite) => {
    try {
      await apiJson(`/users/${loaderData.userId}/favorites/${site.id}`, { method: site.isFavorite ? "DELETE" : "POST" });
      replaceSite({ ...site, isFavorite: !site.isFavorite });
      notifyFavoritesChanged();
    } catch (error) {
      notifyError(failureCode(error));
    }
  };

  const deleteSite = async (site: SiteCardSite) => {
    try {
      await apiJson(`/sites/${site.id}`, { method: "DELETE" });
      setDeleting(null);
      setList((current) => ({ ...current, count: current.count - 1, sites: current.sites.filter((s) => s.id !== site.id) }));
      notify({ kind: "success", title: t("delete.done", { name: site.name }), message: "" });
      notifyFavoritesChanged();
    } catch (error) {
      notifyError(failureCode(error), t("delete.title"));
    }
  };

  return (
    <>
      <title>{`${t("list.title")} | ${appName}`}</title>
      <div className="page-header">
        <h1>{t("list.title")}</h1>
        {loaderData.canManageSites && <Link to="/sites/new" className="button button--primary">{t("list.newSite")}</Link>}
      </div>
      <div className="toolbar">
        <label className="field search-field">
          <span className="visually-hidden">{t("list.search")}</span>
          <input type="search" placeholder={t("list.search")} aria-label={t("list.search")} value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
      </div>
      {list.sites.length === 0 && !loading ? (
        <div className="empty-state" role="status">
          <h2>{activeQuery ? t("list.noResults") : t("list.empty")}</h2>
          <p>{activeQuery ? t("list.noResultsText") : loaderData.isAdmin ? t("list.emptyText") : t("list.emptyTextNoAccess")}</p>
          {!activeQuery && loaderData.canManageSites && <Link to="/sites/new" className="button button--primary">{t("list.newSite")}</Link>}
        </div>
      ) : (
        <ul className="site-grid" aria-busy={loading}>
          {list.sites.map((site) => (
            <SiteCard key={site.id} site={site} canManageSites={loaderData.canManageSites} onFavorite={() => void toggleFavorite(site)}
              onDelete={() => setDeleting(site)} onScreenshot={replaceSite} />
          ))}
        </ul>
      )}
      <div ref={sentinel} aria-hidden="true" />
      {loading && <p className="muted" role="status">{t("list.loading")}</p>}
      <ModalDialog open={deleting !== null} title={t("delete.title")} onClose={() => setDeleting(null)}>
        <p>{t("delete.confirm")}</p>
        <p className="muted">{t("delete.demoText", { name: deleting?.name ?? "" })}</p>
        <div className="button-row modal__actions">
          <button type="button" className="button" data-autofocus onClick={() => setDeleting(null)}>{t("actions.cancel")}</button>
          <button type="button" className="button button--danger" onClick={() => deleting && void deleteSite(deleting)}>{t("delete.button")}</button>
        </div>
      </ModalDialog>
    </>
  );
}

/** Sites can shift between pages while the list is open; keep each once. */
function dedupe(sites: SiteCardSite[]): SiteCardSite[] {
  const seen = new Set<string>();
  return sites.filter((site) => (seen.has(site.id) ? false : (seen.add(site.id), true)));
}
