import type { User } from "../../db/schema";

/**
 * The capability flags a user actually has: an owner has every flag, an admin the sub-privileges
 * granted to them, a client user none. The one place this rule lives; the UI reads the result.
 */
export function effectiveFlags(user: Pick<User, "isOwner" | "isAdmin" | "canManageBilling" | "canManageSettings" | "canManageSites" | "canManageUsers">) {
  if (user.isOwner) return { canManageBilling: true, canManageSettings: true, canManageSites: true, canManageUsers: true };
  const admin = user.isAdmin;
  return {
    canManageBilling: admin && user.canManageBilling,
    canManageSettings: admin && user.canManageSettings,
    canManageSites: admin && user.canManageSites,
    canManageUsers: admin && user.canManageUsers,
  };
}

/** Admins and owners reach every site of their account; client users only the granted ones. */
export function isAccountAdmin(user: Pick<User, "isOwner" | "isAdmin">): boolean {
  return user.isOwner || user.isAdmin;
}
