import { useId, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation, useSubmit } from "react-router";
import type { GrantableSite, PermissionInput } from "~/lib/schemas/users";
import { AvatarField, type AvatarChange } from "./avatar-field";
import { PermissionsEditor } from "./permissions-editor";
import { useUnsavedChanges } from "./unsaved-changes";

export type UserFormSection = "general" | "admin" | "permissions";

export interface UserFormValues {
  name: string;
  email: string;
  bio: string;
  isAdmin: boolean;
  canManageBilling: boolean;
  canManageSettings: boolean;
  canManageSites: boolean;
  canManageUsers: boolean;
  permissions: PermissionInput[];
}

const SUB_PRIVILEGES = ["canManageSites", "canManageUsers", "canManageBilling", "canManageSettings"] as const;

/**
 * The user form of NewUser, EditUser (one section per tab) and EditProfile's General tab. It
 * tracks its clean state (the Unsaved Changes dialog guards leaving it dirty), posts only its
 * sections' fields as multipart form data (the cropped avatar as the file `avatarFile`), marks the
 * fields a 400 answer names and shakes.
 */
export function UserForm({ sections, initial, avatarUser, sites = [], grantable = [], invalid, failure, saved, submitLabel, intent, children }: {
  sections: UserFormSection[];
  initial: UserFormValues;
  avatarUser: { name: string; email: string; avatar: string | null };
  sites?: GrantableSite[];
  /** Sub-privileges the signed-in user may hand out. */
  grantable?: readonly string[];
  invalid: string[];
  /** Changes with every failed answer, so the form shakes again. */
  failure: unknown;
  /** Changes with every successful save: the current values become the clean state. */
  saved: unknown;
  submitLabel: string;
  intent: string;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation("users");
  const submit = useSubmit();
  const navigation = useNavigation();
  const [values, setValues] = useState(initial);
  const [clean, setClean] = useState(initial);
  const [avatar, setAvatar] = useState<AvatarChange>({ kind: "keep" });
  const formRef = useRef<HTMLFormElement>(null);
  const dirty = useMemo(() => JSON.stringify(values) !== JSON.stringify(clean) || avatar.kind !== "keep", [values, clean, avatar]);
  const unsaved = useUnsavedChanges(dirty);
  const busy = navigation.state !== "idle";
  const bad = new Set(invalid);
  const ids = { name: useId(), email: useId(), bio: useId() };

  // Derived from new answers while rendering (React's "adjust state when a prop changes").
  const [shakes, setShakes] = useState(0);
  const [lastFailure, setLastFailure] = useState(failure);
  if (failure !== lastFailure) {
    setLastFailure(failure);
    if (failure) setShakes(shakes + 1);
  }
  const [lastSaved, setLastSaved] = useState(saved);
  if (saved !== lastSaved) {
    setLastSaved(saved);
    if (saved) {
      setClean(values);
      setAvatar({ kind: "keep" });
    }
  }

  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) => setValues((v) => ({ ...v, [key]: value }));

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData();
    data.set("intent", intent);
    if (sections.includes("general")) {
      data.set("name", values.name);
      data.set("email", values.email);
      data.set("bio", values.bio);
      if (avatar.kind === "upload") data.set("avatarFile", avatar.blob, "avatar.png");
      if (avatar.kind === "remove") data.set("avatarRemove", "1");
    }
    if (sections.includes("admin")) {
      data.set("isAdmin", String(values.isAdmin));
      for (const flag of SUB_PRIVILEGES) data.set(flag, String(values.isAdmin && values[flag]));
    }
    if (sections.includes("permissions")) data.set("permissions", JSON.stringify(values.permissions));
    unsaved.allowLeave();
    void submit(data, { method: "post", encType: "multipart/form-data" });
  };

  return (
    <Form ref={formRef} method="post" onSubmit={onSubmit} noValidate key={shakes}
      className={shakes ? "form user-form form--shake" : "form user-form"}>
      {sections.includes("general") && (
        <>
          <AvatarField user={{ ...avatarUser, name: values.name || avatarUser.name, email: values.email || avatarUser.email }} change={avatar} onChange={setAvatar} />
          <div className="field">
            <label htmlFor={ids.name}>{t("fields.name")}</label>
            <input id={ids.name} name="name" value={values.name} onChange={(e) => set("name", e.target.value)} required maxLength={100} autoComplete="name" aria-invalid={bad.has("name") || undefined} />
          </div>
          <div className="field">
            <label htmlFor={ids.email}>{t("fields.email")}</label>
            <input id={ids.email} name="email" type="email" value={values.email} onChange={(e) => set("email", e.target.value)} required maxLength={320} autoComplete="email" aria-invalid={bad.has("email") || undefined} />
          </div>
          <div className="field">
            <label htmlFor={ids.bio}>{t("fields.bio")}</label>
            <textarea id={ids.bio} name="bio" value={values.bio} rows={3} maxLength={1000} onChange={(e) => set("bio", e.target.value)} aria-invalid={bad.has("bio") || undefined} />
          </div>
        </>
      )}
      {sections.includes("admin") && (
        <fieldset className="fieldset">
          <legend>{t("fields.adminLegend")}</legend>
          <label className="checkbox">
            <input type="checkbox" name="isAdmin" checked={values.isAdmin} onChange={(e) => setValues((v) => ({
              ...v,
              isAdmin: e.target.checked,
              // The spec: admin-only permissions are cleared when admin is turned off.
              ...(e.target.checked ? {} : { canManageBilling: false, canManageSettings: false, canManageSites: false, canManageUsers: false }),
            }))} />
            <span>{t("fields.isAdmin")}</span>
          </label>
          <p className="muted">{t("fields.isAdminHint")}</p>
          <div className="sub-privileges">
            {SUB_PRIVILEGES.map((flag) => (
              <label key={flag} className="checkbox">
                <input type="checkbox" name={flag} checked={values.isAdmin && values[flag]} disabled={!values.isAdmin || !grantable.includes(flag)}
                  onChange={(e) => set(flag, e.target.checked)} aria-invalid={bad.has(flag) || undefined} />
                <span>{t(`fields.${flag}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      {sections.includes("permissions") && (
        <section aria-labelledby="permissions-heading">
          <h3 id="permissions-heading">{t("permissions.heading")}</h3>
          {values.isAdmin ? (
            <p className="muted">{t("permissions.adminHasAll")}</p>
          ) : (
            <PermissionsEditor sites={sites} value={values.permissions} onChange={(permissions) => set("permissions", permissions)} invalid={invalid} />
          )}
        </section>
      )}
      <div className="button-row">
        <button type="submit" className="button button--primary" disabled={busy}>{submitLabel}</button>
        {children}
      </div>
      {unsaved.dialog}
    </Form>
  );
}
