import { useTranslation } from "react-i18next";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/users-view";
import { Avatar } from "~/components/avatar";
import { formatDate } from "~/lib/format";
import { isLocale } from "~/lib/locale";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { effectiveFlags, isAccountAdmin } from "~/services/policy";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { getUser, listUserRevisions } from "~/services/users.server";

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  if (!isAccountAdmin(actor.user)) throw redirect("/");
  const ctx = requireRouteContext(context);
  const [user, activity] = await runOperation(() => Promise.all([getUser(ctx, params.userId), listUserRevisions(ctx, params.userId)]));
  const editTo = user.id === actor.user.id ? "/profile" : effectiveFlags(actor.user).canManageUsers ? `/users/${user.id}/edit` : null;
  return { user, activity, editTo };
}

/** User (admins): the profile header and the activity timeline of drafts and published revisions. */
export default function UserView({ loaderData: { user, activity, editTo } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["users", "common"]);
  const appName = useRootData()?.session.metadata.appName ?? "";
  const locale = isLocale(i18n.language) ? i18n.language : "en";
  const role = user.isOwner ? "owner" : user.isAdmin ? "admin" : "client";
  return (
    <>
      <title>{`${user.name} | ${appName}`}</title>
      <nav className="breadcrumb" aria-label={t("common:breadcrumb")}>
        <Link to="/users">{t("list.title")}</Link> › <span aria-current="page">{user.name}</span>
      </nav>
      <header className="profile-header">
        <Avatar user={user} size={96} />
        <div>
          <h1>{user.name}</h1>
          <p><a href={`mailto:${user.email}`}>{user.email}</a></p>
          <p className="site-card__badges">
            <span className={`badge badge--${role}`}>{t(`roles.${role}`)}</span>
            {user.tfaEnabled && <span className="badge badge--tfa">{t("list.tfa")}</span>}
          </p>
          <p className="muted" data-testid="last-seen">
            {user.lastSeen ? t("view.lastSeen", { date: formatDate(user.lastSeen, locale, "medium") }) : t("view.neverLoggedIn")}
          </p>
          {user.bio && <p className="profile-header__bio">{user.bio}</p>}
        </div>
        {editTo && <Link to={editTo} className="button profile-header__edit">{t("list.edit")}</Link>}
      </header>
      <section className="panel" aria-labelledby="activity-heading">
        <h2 id="activity-heading">{t("view.activity")}</h2>
        {activity.revisions.length === 0 ? (
          <div className="empty-state">
            <p>{t("view.noActivity")}</p>
          </div>
        ) : (
          <ol className="timeline">
            {activity.revisions.map((revision) => (
              <li key={revision.id} className="timeline__item">
                <span className={`badge${revision.isDraft ? " badge--warning" : ""}`}>{revision.isDraft ? t("view.draft") : t("view.published")}</span>{" "}
                <Link to={`/sites/${revision.site.id}/pages/${revision.page.id}/revisions/${revision.id}`}>{revision.page.name}</Link>
                {" · "}
                <Link to={`/sites/${revision.site.id}`}>{revision.site.name}</Link>
                {" · "}
                <time dateTime={revision.createdAt} className="muted">{formatDate(revision.createdAt, locale, "medium")}</time>
              </li>
            ))}
          </ol>
        )}
      </section>
    </>
  );
}
