import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/users-new";
import { useNotifications } from "~/components/notifications";
import { UserForm } from "~/components/user-form";
import { CreateUserBody } from "~/lib/schemas/users";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { resources } from "~/locales";
import { effectiveFlags } from "~/services/policy";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { createUser, listGrantableSites } from "~/services/users.server";
import { actionFailure, applyAvatar, readUserForm, validationFailure } from "./users-form.server";

function requireManager(context: Route.LoaderArgs["context"], request: Request) {
  const actor = requireActor(context, request);
  if (!effectiveFlags(actor.user).canManageUsers) throw redirect("/");
  return actor;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const actor = requireManager(context, request);
  const sites = await runOperation(() => listGrantableSites(requireRouteContext(context)));
  const flags = effectiveFlags(actor.user);
  return { sites, grantable: Object.entries(flags).filter(([, on]) => on).map(([flag]) => flag) };
}

/** NewUser: creates the user (welcome email through the outbox), sets permissions, then opens the user. */
export async function action({ context, request }: Route.ActionArgs) {
  requireManager(context, request);
  const ctx = requireRouteContext(context);
  const { fields, avatarFile, removeAvatar } = readUserForm(await request.formData());
  const parsed = CreateUserBody.safeParse(fields);
  if (!parsed.success) return validationFailure(parsed.error.issues);
  try {
    const user = await createUser(ctx, { ...parsed.data, message: resources[ctx.locale].recovery.welcomeEmail });
    await applyAvatar(ctx, user.id, { avatarFile, removeAvatar });
    return redirect(`/users/${user.id}`);
  } catch (error) {
    return actionFailure(error);
  }
}

export default function NewUser({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(["users", "common"]);
  const { notifyError } = useNotifications();
  const appName = useRootData()?.session.metadata.appName ?? "";
  useEffect(() => {
    if (actionData && !actionData.ok) notifyError(actionData.code);
  }, [actionData, notifyError]);
  return (
    <>
      <title>{`${t("new.title")} | ${appName}`}</title>
      <nav className="breadcrumb" aria-label={t("common:breadcrumb")}>
        <Link to="/users">{t("list.title")}</Link> › <span aria-current="page">{t("new.title")}</span>
      </nav>
      <h1>{t("new.title")}</h1>
      <div className="panel">
        <p className="muted">{t("new.intro")}</p>
        <UserForm sections={["general", "admin", "permissions"]} intent="create"
          initial={{ name: "", email: "", bio: "", isAdmin: false, canManageBilling: false, canManageSettings: false, canManageSites: false, canManageUsers: false, permissions: [] }}
          avatarUser={{ name: "", email: "", avatar: null }} sites={loaderData.sites} grantable={loaderData.grantable}
          invalid={actionData && !actionData.ok ? actionData.invalid : []} failure={actionData && !actionData.ok ? actionData : null} saved={null}
          submitLabel={t("new.submit")}>
          <Link to="/users" className="button">{t("actions.cancel")}</Link>
        </UserForm>
      </div>
    </>
  );
}
