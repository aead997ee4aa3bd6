import { data } from "react-router";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/services/context.server";
import { updateUser, uploadAvatar } from "~/services/users.server";

/** What a failed form action answers: the code, the fields to mark, and the status. */
export function actionFailure(error: unknown) {
  if (error instanceof AppError && error.status < 500) return data({ ok: false as const, code: error.code as string, invalid: error.invalid }, error.status);
  throw error;
}

export function validationFailure(issues: { path: PropertyKey[] }[]) {
  return data({ ok: false as const, code: "VALIDATION_ERROR", invalid: [...new Set(issues.map((i) => i.path.map(String).join(".")))] }, 400);
}

/**
 * The fields a user form posted (only its sections' fields are present), as the shape of
 * `CreateUserBody`/`UpdateUserBody`, plus the cropped avatar.
 */
export function readUserForm(form: FormData) {
  const fields: Record<string, unknown> = {};
  for (const key of ["name", "email"] as const) if (form.has(key)) fields[key] = String(form.get(key));
  if (form.has("bio")) fields.bio = String(form.get("bio")).trim() || null;
  for (const key of ["isAdmin", "canManageBilling", "canManageSettings", "canManageSites", "canManageUsers"] as const) {
    if (form.has(key)) fields[key] = form.get(key) === "true";
  }
  if (form.has("permissions")) {
    try {
      fields.permissions = JSON.parse(String(form.get("permissions")));
    } catch {
      fields.permissions = "invalid";
    }
  }
  const file = form.get("avatarFile");
  return { fields, avatarFile: file instanceof File ? file : null, removeAvatar: form.get("avatarRemove") === "1" };
}

/** Applies the avatar part of a saved form: the new picture, or back to Gravatar. */
export async function applyAvatar(ctx: ServiceContext, userId: string, avatar: { avatarFile: File | null; removeAvatar: boolean }) {
  if (avatar.avatarFile) await uploadAvatar(ctx, userId, await avatar.avatarFile.arrayBuffer());
  else if (avatar.removeAvatar) await updateUser(ctx, userId, { avatar: null });
}
