import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import type { Route } from "./+types/sites-new";
import { EMPTY_SITE_FORM, SiteForm } from "~/components/site-form";
import { apiJson } from "~/lib/api-client";
import { notifyFavoritesChanged } from "~/lib/favorites-events";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { requireSiteManager } from "./sites-form.server";

export function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireSiteManager(requireActor(context, request));
  // Change notifications are an agency-plan feature.
  return { userId: actor.user.id, canChangeNotifications: actor.account.plan === "agency" };
}

/**
 * NewSite: saves the site (POST /api/sites), then adds the favorite and the change notification
 * when chosen — their failures are ignored, as the spec says — then opens the site.
 */
export default function NewSite({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation(["sites", "common"]);
  const navigate = useNavigate();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const save = async (body: Record<string, unknown>) => {
    const { isFavorite, hasChangeNotification, ...site } = body;
    const { site: created } = await apiJson<{ site: { id: string } }>("/sites", { method: "POST", body: site });
    const ignore = () => undefined;
    if (isFavorite === true) {
      await apiJson(`/users/${loaderData.userId}/favorites/${created.id}`, { method: "POST" }).then(notifyFavoritesChanged, ignore);
    }
    if (hasChangeNotification === true) await apiJson(`/users/${loaderData.userId}/change-notifications/${created.id}`, { method: "POST" }).catch(ignore);
    return created;
  };
  return (
    <>
      <title>{`${t("new.title")} | ${appName}`}</title>
      <nav className="breadcrumb" aria-label={t("common:breadcrumb")}>
        <Link to="/sites">{t("list.title")}</Link> › <span aria-current="page">{t("new.title")}</span>
      </nav>
      <h1>{t("new.title")}</h1>
      <div className="panel panel--wide">
        <p className="muted">{t("new.intro")}</p>
        <SiteForm sections={["general", "services", "advanced"]} initial={EMPTY_SITE_FORM} save={save}
          onSaved={(created) => void navigate(`/sites/${(created as { id: string }).id}`)}
          submitLabel={t("new.submit")} canChangeNotifications={loaderData.canChangeNotifications}>
          <Link to="/sites" className="button">{t("actions.cancel")}</Link>
        </SiteForm>
      </div>
    </>
  );
}
