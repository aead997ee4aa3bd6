import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/users-edit";
import { ModalDialog } from "~/components/modal-dialog";
import { useNotifications } from "~/components/notifications";
import { UserForm, type UserFormSection } from "~/components/user-form";
import { UpdateUserBody } from "~/lib/schemas/users";
import { requireActor } from "~/middleware/actor";
import { useRootData } from "~/root";
import { effectiveFlags } from "~/services/policy";
import { requireRouteContext, runOperation } from "~/services/route-context.server";
import { deleteUser, getUser, listGrantableSites, updateUser } from "~/services/users.server";
import { actionFailure, applyAvatar, readUserForm, validationFailure } from "./users-form.server";

const TABS = ["general", "permissions", "advanced"] as const;
type Tab = (typeof TABS)[number];
const SECTIONS: Record<Tab, UserFormSection[]> = { general: ["general"], permissions: ["permissions"], advanced: ["admin"] };

function requireManager(context: Route.LoaderArgs["context"], request: Request) {
  const actor = requireActor(context, request);
  if (!effectiveFlags(actor.user).canManageUsers) throw redirect("/");
  return actor;
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const actor = requireManager(context, request);
  // The spec: visiting one's own id goes to EditProfile.
  if (params.userId === actor.user.id) throw redirect("/profile");
  const ctx = requireRouteContext(context);
  const [user, sites] = await runOperation(() => Promise.all([getUser(ctx, params.userId), listGrantableSites(ctx)]));
  const flags = effectiveFlags(actor.user);
  return {
    user,
    sites,
    grantable: Object.entries(flags).filter(([, on]) => on).map(([flag]) => flag),
    canDelete: !user.isOwner || actor.user.isOwner,
  };
}

export async function action({ context, request, params }: Route.ActionArgs) {
  requireManager(context, request);
  const ctx = requireRouteContext(context);
  const form = await request.formData();
  try {
    if (form.get("intent") === "delete") {
      await deleteUser(ctx, params.userId);
      return redirect("/users");
    }
    const { fields, avatarFile, removeAvatar } = readUserForm(form);
    const parsed = UpdateUserBody.safeParse(fields);
    if (!parsed.success) return validationFailure(parsed.error.issues);
    await updateUser(ctx, params.userId, parsed.data);
    await applyAvatar(ctx, params.userId, { avatarFile, removeAvatar });
    return { ok: true as const, code: null, invalid: [] as string[], at: Date.now() };
  } catch (error) {
    return actionFailure(error);
  }
}

/** EditUser: tabs General, Permissions and Advanced (`?tab=`), each its own form; delete the user. */
export default function EditUser({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation(["users", "notify", "common"]);
  const { notify, notifyError } = useNotifications();
  const [params] = useSearchParams();
  const appName = useRootData()?.session.metadata.appName ?? "";
  const tab: Tab = TABS.find((x) => x === params.get("tab")) ?? "general";
  const { user } = loaderData;
  const savedText = t("notify:saved");

  useEffect(() => {
    if (!actionData) return;
    if (actionData.ok) notify({ kind: "success", title: savedText, message: "" });
    else notifyError(actionData.code);
  }, [actionData, notify, notifyError, savedText]);

  const initial = {
    name: user.name, email: user.email, bio: user.bio ?? "",
    isAdmin: user.isAdmin, canManageBilling: user.canManageBilling, canManageSettings: user.canManageSettings,
    canManageSites: user.canManageSites, canManageUsers: user.canManageUsers,
    permissions: (user.permissions ?? []).map((p) => ({ siteId: p.siteId, pages: p.pages })),
  };
  const failed = actionData && !actionData.ok ? actionData : null;
  return (
    <>
      <title>{`${t("edit.title")} | ${appName}`}</title>
      <nav className="breadcrumb" aria-label={t("common:breadcrumb")}>
        <Link to="/users">{t("list.title")}</Link> › <Link to={`/users/${user.id}`}>{user.name}</Link> › <span aria-current="page">{t("edit.title")}</span>
      </nav>
      <h1>{t("edit.heading", { name: user.name })}</h1>
      <nav className="tabs" aria-label={t("edit.tabs")}>
        {TABS.map((name) => (
          <Link key={name} to={`?tab=${name}`} className="tabs__tab" aria-current={tab === name ? "page" : undefined}>
            {t(`tabs.${name}`)}
          </Link>
        ))}
      </nav>
      <div className="panel">
        {user.isOwner && tab !== "general" ? (
          <p className="muted">{t("edit.ownerHasAll")}</p>
        ) : (
          <UserForm key={tab} sections={SECTIONS[tab]} intent="save" initial={initial} avatarUser={user} sites={loaderData.sites} grantable={loaderData.grantable}
            invalid={failed?.invalid ?? []} failure={failed} saved={actionData?.ok ? actionData : null} submitLabel={t("actions.save")} />
        )}
        {tab === "advanced" && loaderData.canDelete && <DeleteUser name={user.name} />}
      </div>
    </>
  );
}

function DeleteUser({ name }: { name: string }) {
  const { t } = useTranslation("users");
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  return (
    <section className="danger-zone" aria-labelledby="delete-heading">
      <h2 id="delete-heading">{t("delete.heading")}</h2>
      <p className="muted">{t("delete.text")}</p>
      <button type="button" className="button button--danger" onClick={() => setOpen(true)}>{t("delete.button")}</button>
      <ModalDialog open={open} title={t("delete.title")} onClose={() => setOpen(false)}>
        <p>{t("delete.confirm", { name })}</p>
        <Form method="post" className="button-row modal__actions">
          <button type="button" className="button" data-autofocus onClick={() => setOpen(false)}>{t("actions.cancel")}</button>
          <button type="submit" name="intent" value="delete" className="button button--danger" disabled={navigation.state !== "idle"}>{t("delete.button")}</button>
        </Form>
      </ModalDialog>
    </section>
  );
}
