import type { User } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { Actor } from "./actor.server";

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

/**
 * The signed-in actor of a service call, or UNAUTHORIZED. Operations call this first; a bypass for
 * system work is an explicit, greppable `asSystem(ctx)` (none exists yet). A session still waiting
 * for its two-factor code is not signed in yet (UNAUTHORIZED), except for the two-factor calls
 * themselves, which pass `allowPendingTfa`.
 *
 * @example const actor = requireSignedIn(ctx);
 * @example const actor = requireSignedIn(ctx, { allowPendingTfa: true }); // POST /auth/tfa
 */
export function requireSignedIn(ctx: { actor: Actor | null }, options: { allowPendingTfa?: boolean } = {}): Actor {
  if (!ctx.actor) throw new AppError("UNAUTHORIZED");
  if (ctx.actor.session && !ctx.actor.session.tfaVerified && !options.allowPendingTfa) throw new AppError("UNAUTHORIZED");
  return ctx.actor;
}

/**
 * Only the user themself may act on their own credentials (password, two-factor, API token);
 * another user's id answers NOT_FOUND so ids of other accounts reveal nothing.
 */
export function requireSelf(ctx: { actor: Actor | null }, userId: string): Actor {
  const actor = requireSignedIn(ctx);
  if (actor.user.id !== userId) throw new AppError("NOT_FOUND");
  return actor;
}

/**
 * Sudo sessions may look and change content, but never credentials or payment methods
 * (SECURITY.md 12): those operations call this first.
 */
export function assertNotSudo(ctx: { actor: Actor | null }): void {
  if (ctx.actor?.session?.sudoUserId) throw new AppError("FORBIDDEN");
}

/** The platform operator's own powers: a superuser acting as themself, never from inside sudo. */
export function requireSuperuser(ctx: { actor: Actor | null }): Actor {
  const actor = requireSignedIn(ctx);
  if (!actor.user.isSuperuser || actor.session?.sudoUserId || actor.via !== "session") throw new AppError("NOT_FOUND");
  return actor;
}

/** What anyone may change about themself. */
export const PROFILE_FIELDS = ["name", "email", "avatar", "bio", "password"] as const;
/** What only someone who can manage users may change, and never on themself or an owner. */
export const ADMIN_FIELDS = ["isAdmin", "canManageBilling", "canManageSettings", "canManageSites", "canManageUsers", "permissions"] as const;
export type WritableUserField = (typeof PROFILE_FIELDS)[number] | (typeof ADMIN_FIELDS)[number];

/**
 * The per-role allowlist of writable user fields (SECURITY.md 2): `isOwner`, `isSuperuser`,
 * `accountId` and `requiresTfa` are never writable through a user form, an admin cannot raise their
 * own privileges, and nobody edits an owner's flags. Operations keep only what this allows.
 *
 * @example const changes = pickWritable(body, writableUserFields(actor, target));
 */
export function writableUserFields(
  actor: Pick<Actor, "user">,
  target: Pick<User, "id" | "accountId" | "isOwner">,
): ReadonlySet<WritableUserField> {
  const allowed = new Set<WritableUserField>();
  const self = actor.user.id === target.id;
  if (self) PROFILE_FIELDS.forEach((field) => allowed.add(field));
  const managesUsers = effectiveFlags(actor.user).canManageUsers && actor.user.accountId === target.accountId;
  if (managesUsers && !self) {
    ["name", "email", "avatar", "bio"].forEach((field) => allowed.add(field as WritableUserField));
    if (!target.isOwner) ADMIN_FIELDS.forEach((field) => allowed.add(field));
  }
  return allowed;
}

/** Drops every key the allowlist does not name. */
export function pickWritable<T extends Record<string, unknown>>(input: T, allowed: ReadonlySet<string>): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([key]) => allowed.has(key))) as Partial<T>;
}

/** The spec: admin-only permissions are cleared when admin is turned off. */
export function clearAdminOnlyFlags<T extends { isAdmin?: boolean; canManageBilling?: boolean; canManageSettings?: boolean; canManageSites?: boolean; canManageUsers?: boolean }>(changes: T): T {
  if (changes.isAdmin !== false) return changes;
  return { ...changes, canManageBilling: false, canManageSettings: false, canManageSites: false, canManageUsers: false };
}
