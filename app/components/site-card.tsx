import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { apiJson } from "~/lib/api-client";

export interface SiteCardSite {
  id: string;
  name: string;
  url: string;
  isDemo: boolean;
  isLocked: boolean;
  isFavorite?: boolean;
  screenshot?: string | null;
}

/** The spec: a missing screenshot is polled after 5 s, at most 3 retries, then polling stops. */
export const SCREENSHOT_POLL_MS = 5000;
export const SCREENSHOT_RETRIES = 3;

/**
 * Polls a site until it has a screenshot: every 5 s, at most 3 times. `onFound` receives the site
 * with its screenshot. Failed polls count as tries and are not reported (the placeholder stays).
 */
export function useScreenshotPoll(site: { id: string; screenshot?: string | null }, onFound: (site: SiteCardSite) => void) {
  const missing = !site.screenshot;
  useEffect(() => {
    if (!missing) return;
    let tries = 0;
    let timer: ReturnType<typeof setTimeout>;
    const controller = new AbortController();
    const poll = async () => {
      tries += 1;
      try {
        const { site: fresh } = await apiJson<{ site: SiteCardSite }>(`/sites/${site.id}`, { signal: controller.signal });
        if (fresh.screenshot) return onFound(fresh);
      } catch {
        if (controller.signal.aborted) return;
      }
      if (tries < SCREENSHOT_RETRIES) timer = setTimeout(() => void poll(), SCREENSHOT_POLL_MS);
    };
    timer = setTimeout(() => void poll(), SCREENSHOT_POLL_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [site.id, missing]);
}

/** One card of the Sites grid: screenshot (or a placeholder), name, URL, favorite toggle and settings. */
export function SiteCard({ site, canManageSites, onFavorite, onDelete, onScreenshot }: {
  site: SiteCardSite;
  canManageSites: boolean;
  onFavorite(): void;
  onDelete(): void;
  onScreenshot(site: SiteCardSite): void;
}) {
  const { t } = useTranslation("sites");
  useScreenshotPoll(site, onScreenshot);
  return (
    <li className="site-card" data-testid="site-card">
      <Link to={`/sites/${site.id}`} className="site-card__shot" tabIndex={-1} aria-hidden="true">
        {site.screenshot ? (
          <img src={site.screenshot} alt="" loading="lazy" width={480} height={300} />
        ) : (
          <span className="site-card__placeholder">{site.name.slice(0, 1).toUpperCase()}</span>
        )}
      </Link>
      <div className="site-card__body">
        <h2 className="site-card__name"><Link to={`/sites/${site.id}`}>{site.name}</Link></h2>
        <p className="site-card__url">{site.url}</p>
        <p className="site-card__badges">
          {site.isDemo && <span className="badge">{t("card.demo")}</span>}
          {site.isLocked && <span className="badge badge--warning">{t("card.locked")}</span>}
        </p>
      </div>
      <div className="site-card__actions">
        <button type="button" className="icon-button site-card__favorite" aria-pressed={Boolean(site.isFavorite)}
          aria-label={site.isFavorite ? t("card.unfavorite", { name: site.name }) : t("card.favorite", { name: site.name })}
          title={site.isFavorite ? t("card.unfavorite", { name: site.name }) : t("card.favorite", { name: site.name })} onClick={onFavorite}>
          {site.isFavorite ? "★" : "☆"}
        </button>
        {canManageSites && (site.isDemo ? (
          <button type="button" className="button button--small" onClick={onDelete} aria-label={t("card.deleteSite", { name: site.name })}>{t("card.delete")}</button>
        ) : (
          <Link to={`/sites/${site.id}/edit`} className="button button--small" aria-label={t("card.settingsOf", { name: site.name })}>{t("card.settings")}</Link>
        ))}
      </div>
    </li>
  );
}
