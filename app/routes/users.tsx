import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/users";
import { Avatar } from "~/components/avatar";
import { useNotifications } from "~/components/notifications";
import { parseErrorBody } from "~/lib/errors";
import { USERS_PAGE_SIZE, type PersonView, type UserList } from "~/lib/schemas/users";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { effectiveFlags, isAccountAdmin } from "~/services/policy";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { listUsers } from "~/services/users.server";

/** The spec's search debounce for people lists. */
const SEARCH_DEBOUNCE_MS = 250;

export async function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireActor(context, request);
  if (!isAccountAdmin(actor.user)) throw redirect("/");
  const search = new URL(request.url).searchParams.get("search") ?? "";
  const list = await runOperation(() => listUsers(requireRouteContext(context), { search, limit: USERS_PAGE_SIZE, offset: 0 }));
  return { list, search, selfId: actor.user.id, canManageUsers: effectiveFlags(actor.user).canManageUsers };
}

function roleOf(user: Pick<PersonView, "isOwner" | "isAdmin">): "owner" | "admin" | "client" {
  return user.isOwner ? "owner" : user.isAdmin ? "admin" : "client";
}

/** Users (admins): cards with role and 2FA badge, search, 50 at a time with infinite scroll. */
export default function Users({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("users");
  const { notifyError } = useNotifications();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const [search, setSearch] = useState(loaderData.search);
  const [list, setList] = useState<UserList>(loaderData.list);
  const [loading, setLoading] = useState(false);
  const [activeQuery, setActiveQuery] = useState(loaderData.search);
  const query = useRef(loaderData.search);
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
      const params = new URLSearchParams({ search: term, limit: String(USERS_PAGE_SIZE), offset: String(offset), sortBy: "role" });
      const response = await fetch(`/api/users?${params}`, { credentials: "same-origin" });
      if (!response.ok) throw parseErrorBody(await response.json().catch(() => null)).code;
      const page = (await response.json()) as UserList;
      if (id !== request.current) return;
      setList((current) => (offset === 0 ? page : { ...page, users: [...current.users, ...page.users] }));
    } catch (code) {
      if (id === request.current) notifyError(code);
    } finally {
      if (id === request.current) setLoading(false);
    }
  };

  // Search: trimmed, a leading mailto: dropped, debounced 250 ms; the address keeps the term.
  useEffect(() => {
    const term = search.trim().replace(/^mailto:/i, "");
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

  // Infinite scroll: the next 50 when the end of the list comes within four screen heights.
  const hasMore = list.users.length < list.count;
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasMore || loading) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void load(query.current, list.users.length);
    }, { rootMargin: `0px 0px ${4 * window.innerHeight}px 0px` });
    observer.observe(target);
    return () => observer.disconnect();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hasMore, loading, list.users.length]);

  return (
    <>
      <title>{`${t("list.title")} | ${appName}`}</title>
      <div className="page-header">
        <h1>{t("list.title")}</h1>
        {loaderData.canManageUsers && <Link to="/users/new" className="button button--primary">{t("list.newUser")}</Link>}
      </div>
      <div className="toolbar">
        <label className="field search-field">
          <span className="visually-hidden">{t("list.search")}</span>
          <input type="search" placeholder={t("list.search")} aria-label={t("list.search")} value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
      </div>
      {list.users.length === 0 ? (
        <div className="empty-state" role="status">
          <h2>{activeQuery ? t("list.noResults") : t("list.empty")}</h2>
          <p>{activeQuery ? t("list.noResultsText") : t("list.emptyText")}</p>
        </div>
      ) : (
        <ul className="user-grid" aria-busy={loading}>
          {list.users.map((user) => (
            <UserCard key={user.id} user={user} selfId={loaderData.selfId} canManageUsers={loaderData.canManageUsers} />
          ))}
        </ul>
      )}
      <div ref={sentinel} aria-hidden="true" />
      {loading && <p className="muted" role="status">{t("list.loading")}</p>}
    </>
  );
}

function UserCard({ user, selfId, canManageUsers }: { user: PersonView; selfId: string; canManageUsers: boolean }) {
  const { t } = useTranslation("users");
  const role = roleOf(user);
  const editTo = user.id === selfId ? "/profile" : canManageUsers ? `/users/${user.id}/edit` : null;
  return (
    <li className="user-card" data-testid="user-card">
      <Avatar user={user} size={48} />
      <div className="user-card__body">
        <h2 className="user-card__name"><Link to={`/users/${user.id}`}>{user.name}</Link></h2>
        <p className="user-card__email">{user.email}</p>
        <p className="site-card__badges">
          <span className={`badge badge--${role}`}>{t(`roles.${role}`)}</span>
          {user.tfaEnabled && <span className="badge badge--tfa" title={t("list.tfaTitle")}>{t("list.tfa")}</span>}
          {!user.isConfirmed && <span className="badge badge--warning">{t("list.invited")}</span>}
        </p>
      </div>
      {editTo && (
        <Link to={editTo} className="button button--small user-card__edit" aria-label={t("list.editUser", { name: user.name })}>{t("list.edit")}</Link>
      )}
    </li>
  );
}
