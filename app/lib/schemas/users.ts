import { z } from "zod";
import { EmailMessage } from "./recovery";
import { PersonCore } from "./session";

/** Ids in paths and bodies: the `newId()` alphabet, bounded. */
const id = z.string().min(1).max(64);

export const USERS_PAGE_SIZE = 50;
export const MAX_AVATAR_BYTES = 2 * 1024 * 1024;
/** The avatar value an uploaded picture gets: served back by `GET /users/{userId}/avatar`. */
export const UPLOADED_AVATAR = /^\/api\/users\/[A-Za-z0-9_-]{1,64}\/avatar\?v=[0-9a-f]{1,64}$/;

/**
 * One site grant (spec section 3, Permission). `pages: null` means every page of the site;
 * otherwise the list of page ids the client user may edit.
 */
export const PermissionInput = z.object({
  siteId: id,
  pages: z.array(id).max(1000).nullable(),
});
export type PermissionInput = z.infer<typeof PermissionInput>;
export const PermissionsBody = z.object({ permissions: z.array(PermissionInput).max(500) });
export type PermissionsBody = z.infer<typeof PermissionsBody>;

export const PermissionView = z.object({
  id: z.string(),
  userId: z.string(),
  siteId: z.string(),
  site: z.object({ id: z.string(), name: z.string(), url: z.string() }),
  pages: z.array(z.string()).nullable(),
});
export type PermissionView = z.infer<typeof PermissionView>;

/** A person of the account as the Users, User and EditUser screens show them. */
export const PersonView = PersonCore.extend({
  tfaEnabled: z.boolean(),
  canManageBilling: z.boolean(),
  canManageSettings: z.boolean(),
  canManageSites: z.boolean(),
  canManageUsers: z.boolean(),
  accountId: z.string(),
  createdAt: z.string(),
  /** False until the welcome link was used. */
  isConfirmed: z.boolean(),
});
export type PersonView = z.infer<typeof PersonView>;

export const UserDetail = PersonView.extend({ permissions: z.array(PermissionView).nullable() });
export type UserDetail = z.infer<typeof UserDetail>;

export const UserList = z.object({ users: z.array(PersonView), count: z.number(), offset: z.number(), limit: z.number() });
export type UserList = z.infer<typeof UserList>;

export const UserListQuery = z.object({
  search: z.string().trim().max(320).default(""),
  limit: z.coerce.number().int().min(1).max(USERS_PAGE_SIZE).default(USERS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  sortBy: z.enum(["role"]).default("role"),
});
export type UserListQuery = z.infer<typeof UserListQuery>;

const name = z.string().trim().min(1).max(100);
const email = z.string().trim().toLowerCase().max(320).email();
const bio = z.string().trim().max(1000).nullable();
/** Only null (back to Gravatar) or the current uploaded picture: pictures arrive through the upload call. */
const avatar = z.string().regex(UPLOADED_AVATAR).nullable();

const adminFlags = {
  isAdmin: z.boolean(),
  canManageBilling: z.boolean(),
  canManageSettings: z.boolean(),
  canManageSites: z.boolean(),
  canManageUsers: z.boolean(),
};

/** `POST /users` (spec section 7). */
export const CreateUserBody = z.object({
  name,
  email,
  avatar: avatar.optional(),
  bio: bio.optional(),
  isAdmin: adminFlags.isAdmin.default(false),
  canManageBilling: adminFlags.canManageBilling.default(false),
  canManageSettings: adminFlags.canManageSettings.default(false),
  canManageSites: adminFlags.canManageSites.default(false),
  canManageUsers: adminFlags.canManageUsers.default(false),
  permissions: z.array(PermissionInput).max(500).default([]),
  message: EmailMessage.optional(),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

/**
 * `PUT /users/{userId}`: profile fields (name, email, avatar, bio, password with currentPassword)
 * or, for those who manage users, the admin flags and permissions. What a caller may change is the
 * policy's allowlist; anything else in the body is ignored.
 */
export const UpdateUserBody = z.object({
  name: name.optional(),
  email: email.optional(),
  avatar: avatar.optional(),
  bio: bio.optional(),
  password: z.string().max(1024).optional(),
  currentPassword: z.string().max(1024).optional(),
  isAdmin: adminFlags.isAdmin.optional(),
  canManageBilling: adminFlags.canManageBilling.optional(),
  canManageSettings: adminFlags.canManageSettings.optional(),
  canManageSites: adminFlags.canManageSites.optional(),
  canManageUsers: adminFlags.canManageUsers.optional(),
  permissions: z.array(PermissionInput).max(500).optional(),
});
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** Spec section 3, Revision in activity lists. */
export const ActivityRevision = z.object({
  id: z.string(),
  createdAt: z.string(),
  isDraft: z.boolean(),
  user: z.object({ id: z.string(), name: z.string(), avatar: z.string().nullable() }).nullable(),
  site: z.object({ id: z.string(), name: z.string() }),
  page: z.object({ id: z.string(), name: z.string() }),
});
export type ActivityRevision = z.infer<typeof ActivityRevision>;
export const ActivityList = z.object({ revisions: z.array(ActivityRevision), count: z.number(), offset: z.number(), limit: z.number() });
export type ActivityList = z.infer<typeof ActivityList>;

export const FavoriteView = z.object({ siteId: z.string(), createdAt: z.string(), site: z.object({ id: z.string(), name: z.string(), url: z.string() }) });
export const FavoriteList = z.object({ favorites: z.array(FavoriteView) });
export type FavoriteList = z.infer<typeof FavoriteList>;

/** A site with its pages, for the permissions editor's site list and page picker. */
export const GrantableSite = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  pages: z.array(z.object({ id: z.string(), name: z.string(), path: z.string() })),
});
export type GrantableSite = z.infer<typeof GrantableSite>;
