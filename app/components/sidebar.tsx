import { useTranslation } from "react-i18next";
import { Link, NavLink } from "react-router";
import type { SessionMetadata, UserView as SessionUser } from "~/lib/schemas/session";
import { LanguageSwitcher } from "./language-switcher";

/** The spec's sidebar: every item's visibility follows "Sidebar and user menu". */
export function Sidebar({ user, metadata }: { user: SessionUser; metadata: SessionMetadata }) {
  const { t } = useTranslation();
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
