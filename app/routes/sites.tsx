import { useTranslation } from "react-i18next";
import type { Route } from "./+types/sites";
import { useRootData } from "~/root";
import { listSites } from "~/services/sites.server";
import { requireRouteContext, runOperation } from "~/services/route-context.server";

export async function loader({ context }: Route.LoaderArgs) {
  const ctx = requireRouteContext(context);
  return runOperation(() => listSites(ctx, { limit: 50, offset: 0 }));
}

/** The sites list; the full card grid with search, favorites and infinite scroll comes with the sites issue. */
export default function Sites({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const { sites } = loaderData;
  return (
    <>
      <title>{`${t("sites.title")} | ${appName}`}</title>
      <h1>{t("sites.title")}</h1>
      {sites.length === 0 ? (
        <div className="empty-state">
          <h2>{t("sites.empty")}</h2>
          <p>{t("sites.emptyText")}</p>
        </div>
      ) : (
        <ul className="site-grid">
          {sites.map((site) => (
            <li key={site.id} className="site-card">
              <h2 className="site-card__name">{site.name}</h2>
              <p className="site-card__url">{site.url}</p>
              <p className="site-card__badges">
                {site.isDemo && <span className="badge">{t("sites.demo")}</span>}
                {site.isLocked && <span className="badge badge--warning">{t("sites.locked")}</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
