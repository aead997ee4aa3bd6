import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import type { SessionMetadata, UserView as SessionUser } from "~/lib/schemas/session";
import { apiJson } from "~/lib/api-client";
import { FAVORITES_CHANGED } from "~/lib/favorites-events";
import { LanguageSwitcher } from "./language-switcher";

/**
 * The user's favorite sites by name (GET /api/users/{id}/favorites), loaded in the browser and
 * again whenever a screen adds or removes one. A failed load leaves the list as it was.
 */
function useFavorites(userId: string): { id: string; name: string }[] {
  const [favorites, setFavorites] = useState<{ id: string; name: string }[]>([]);
  useEffect(() => {
    let current = true;
    const load = () =>
      apiJson<{ favorites: { site: { id: string; name: string } }[] }>(`/users/${userId}/favorites?sortBy=name`).then(
        (list) => current && setFavorites(list.favorites.map(({ site }) => ({ id: site.id, name: site.name }))),
        () => undefined,
      );
    void load();
    window.addEventListener(FAVORITES_CHANGED, load);
    return () => {
      current = false;
      window.removeEventListener(FAVORITES_CHANGED, load);
    };
  }, [userId]);
  return favorites;
}

/** The spec's sidebar: every item's visibility follows "Sidebar and user menu". */
export function Sidebar({ user, metadata }: { user: SessionUser; metadata: SessionMetadata }) {
  const { t } = useTranslation(["common", "sites"]);
  const favorites = useFavorites(user.id);
  const plan = user.account.plan;
  const externalSupport = !user.isAdmin && plan === "agency" && metadata.supportUrl ? metadata.supportUrl : null;
  return (
    <nav className="sidebar" aria-label={t("nav.main")}>
      <Link to="/sites" className="sidebar__brand">
        {metadata.logoDark ? <img src={metadata.logoDark} alt={metadata.appName} height={32} /> : metadata.appName}
      </Link>
      <ul className="sidebar__nav">
        <li><NavLink to="/sites">{t("nav.sites")}</NavLink></li>
        {user.isAdmin && <li><NavLink to="/users">{t("nav.users")}</NavLink></li>}
        <li>
          {externalSupport ? (
            <a href={externalSupport} target="_blank" rel="noreferrer noopener">{t("nav.support")}</a>
          ) : (
            <NavLink to="/support">{t("nav.support")}</NavLink>
          )}
        </li>
        {user.canManageBilling && <li><NavLink to="/billing">{t("nav.billing")}</NavLink></li>}
        {user.canManageSettings && <li><NavLink to="/settings">{t("nav.settings")}</NavLink></li>}
      </ul>
      {favorites.length > 0 && (
        <section className="sidebar__favorites" aria-labelledby="sidebar-favorites">
          <h2 id="sidebar-favorites" className="sidebar__heading">{t("sites:favorites.heading")}</h2>
          <ul className="sidebar__nav">
            {favorites.map((site) => <li key={site.id}><NavLink to={`/sites/${site.id}`} end>{site.name}</NavLink></li>)}
          </ul>
        </section>
      )}
      {plan === "personal" && user.canManageBilling && (
        <div className="upgrade-banner">
          <p>{t("upgradeBanner.text")}</p>
          <Link to="/billing" className="button button--primary button--small">{t("upgradeBanner.action")}</Link>
        </div>
      )}
      <div className="sidebar__footer">
        <LanguageSwitcher />
      </div>
    </nav>
  );
}
