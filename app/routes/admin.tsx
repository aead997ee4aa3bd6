import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, redirect, redirectDocument, useSearchParams, useSubmit } from "react-router";
import type { Route } from "./+types/admin";
import { AppError } from "~/lib/errors";
import { formatDate } from "~/lib/format";
import { isLocale } from "~/lib/locale";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { searchAllUsers } from "~/services/admin-users.server";
import { requireSuperuser } from "~/services/policy";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { sessionCookie, readSessionToken } from "~/services/session-cookie.server";
import { startSudo } from "~/services/sudo.server";

const SEARCH_DEBOUNCE_MS = 250;

/** The spec's Admin guard: superusers only; everyone else goes to /. */
function requireAdminPanel(context: Route.LoaderArgs["context"], request: Request) {
  requireActor(context, request);
  try {
    return requireSuperuser(requireRouteContext(context));
  } catch (error) {
    if (error instanceof AppError) throw redirect("/");
    throw error;
  }
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireAdminPanel(context, request);
  const url = new URL(request.url);
  const tab = url.searchParams.get("tab") === "users" ? "users" : "overview";
  const search = url.searchParams.get("search") ?? "";
  const ctx = requireRouteContext(context);
  const { users } = tab === "users" ? await runOperation(() => searchAllUsers(ctx, search)) : { users: [] };
  return { tab, search, users, currentUserId: actor.user.id };
}

export async function action({ context, request }: Route.ActionArgs) {
  requireAdminPanel(context, request);
  const form = await request.formData();
  if (form.get("intent") !== "sudo") throw new Response(null, { status: 400 });
  const ctx = requireRouteContext(context);
  const token = await runOperation(() => startSudo(ctx, String(form.get("userId") ?? ""), readSessionToken(request)));
  // The spec: after Sudo Login the page reloads at /.
  return redirectDocument("/", { headers: { "Set-Cookie": sessionCookie(request, token) } });
}

export default function Admin({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["admin", "common"]);
  const appName = useRootData()?.session.metadata.appName ?? "";
  const [params] = useSearchParams();
  const submit = useSubmit();
  const [search, setSearch] = useState(loaderData.search);
  const searchInput = useRef<HTMLInputElement>(null);
  const locale = isLocale(i18n.language) ? i18n.language : "en";

  useEffect(() => {
    if (loaderData.tab === "users") searchInput.current?.focus();
  }, [loaderData.tab]);

  useEffect(() => {
    if (loaderData.tab !== "users" || search === loaderData.search) return;
    const timer = setTimeout(() => submit({ tab: "users", search: search.trim() }, { replace: true }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, loaderData.search, loaderData.tab, submit]);

  const tabLink = (tab: "overview" | "users") => {
    const next = new URLSearchParams(params);
    next.set("tab", tab);
    return `?${next.toString()}`;
  };

  return (
    <>
      <title>{`${t("title")} | ${appName}`}</title>
      <nav aria-label={t("common:breadcrumb")} className="breadcrumb"><span>{t("title")}</span></nav>
      <div role="tablist" className="tabs">
        {(["overview", "users"] as const).map((tab) => (
          <a key={tab} role="tab" aria-selected={loaderData.tab === tab} className="tabs__tab" href={tabLink(tab)}>
            {t(`tabs.${tab}`)}
          </a>
        ))}
      </div>
      {loaderData.tab === "overview" ? (
        <p className="muted">{t("overviewPending")}</p>
      ) : (
        <section>
          <label className="field">
            <span>{t("search.label")}</span>
            <input ref={searchInput} type="search" value={search} placeholder={t("search.placeholder")} onChange={(e) => setSearch(e.target.value)} />
          </label>
          {loaderData.search.trim() === "" ? (
            <p className="muted">{t("emptySearch")}</p>
          ) : loaderData.users.length === 0 ? (
            <div className="empty-state"><h2>{t("noResults")}</h2></div>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">{t("columns.role")}</th>
                  <th scope="col">{t("columns.user")}</th>
                  <th scope="col">{t("columns.joined")}</th>
                  <th scope="col">{t("columns.options")}</th>
                </tr>
              </thead>
              <tbody>
                {loaderData.users.map((user) => (
                  <tr key={user.id}>
                    <td>{t(`roles.${user.role}`)}</td>
                    <td>
                      <strong>{user.name}</strong> <span className="badge">{t(`common:plan.${user.plan}`)}</span>
                      <br />
                      <a href={`mailto:${user.email}`}>{user.email}</a>
                      <br />
                      <small className="muted">{t("account", { id: user.accountId })}</small>
                    </td>
                    <td>{formatDate(user.createdAt, locale, "medium")}</td>
                    <td>
                      <Form method="post" aria-label={t("options.menu", { name: user.name })}>
                        <input type="hidden" name="userId" value={user.id} />
                        <button type="submit" name="intent" value="sudo" className="button button--small"
                          disabled={user.id === loaderData.currentUserId || user.isSuperuser}>
                          {t("options.sudo")}
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      )}
    </>
  );
}
