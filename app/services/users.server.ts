import { and, asc, count, desc, eq, inArray, like, or, sql, type SQL } from "drizzle-orm";
import {
  changeNotifications,
  favorites,
  pages,
  permissionPages,
  revisions,
  sessions,
  sitePermissions,
  sites,
  users,
  type User,
} from "../../db/schema";
import { newId } from "../../db/ids";
import { AppError } from "~/lib/errors";
import type { EmailMessage } from "~/lib/schemas/recovery";
import {
  MAX_AVATAR_BYTES,
  USERS_PAGE_SIZE,
  type ActivityList,
  type CreateUserBody,
  type FavoriteList,
  type GrantableSite,
  type PermissionInput,
  type PermissionView,
  type PersonView,
  type UpdateUserBody,
  type UserDetail,
  type UserList,
  type UserListQuery,
} from "~/lib/schemas/users";
import { resources } from "~/locales";
import type { Actor } from "./actor.server";
import { audit, auditStatement } from "./audit.server";
import { createSession } from "./auth.server";
import type { ServiceContext } from "./context.server";
import { assertAcceptablePassword, hashPassword, verifyAgainstDummy, verifyPassword } from "./passwords.server";
import {
  ADMIN_FIELDS,
  assertNotSudo,
  clearAdminOnlyFlags,
  effectiveFlags,
  isAccountAdmin,
  pickWritable,
  requireSignedIn,
  writableUserFields,
} from "./policy";
import { createWelcomeToken } from "./recovery.server";
import { toPersonCore } from "./session-view.server";

const SUB_PRIVILEGES = ["canManageBilling", "canManageSettings", "canManageSites", "canManageUsers"] as const;

export function toPersonView(user: User): PersonView {
  return {
    ...toPersonCore(user),
    tfaEnabled: user.tfaEnabled,
    ...effectiveFlags(user),
    accountId: user.accountId,
    createdAt: user.createdAt.toISOString(),
    isConfirmed: Boolean(user.confirmedAt) || Boolean(user.passwordHash),
  };
}

/** The R2 key of a user's uploaded picture. */
export function avatarKey(user: Pick<User, "accountId" | "id">): string {
  return `avatars/${user.accountId}/${user.id}.png`;
}

/** A user of the actor's own account, or NOT_FOUND: ids of other accounts reveal nothing. */
async function loadTarget(ctx: ServiceContext, actor: Actor, userId: string): Promise<User> {
  const target = await ctx.db.select().from(users).where(and(eq(users.id, userId), eq(users.accountId, actor.account.id))).get();
  if (!target) throw new AppError("NOT_FOUND");
  return target;
}

function managesUsers(actor: Actor): boolean {
  return effectiveFlags(actor.user).canManageUsers;
}

/** Admins see the people of their account; client users see only themselves. */
function assertMaySee(actor: Actor, target: User): void {
  if (actor.user.id === target.id || isAccountAdmin(actor.user)) return;
  throw new AppError("FORBIDDEN");
}

// ---------------------------------------------------------------------------------------------
// Listing and reading

/**
 * `GET /users`: the people of the actor's account, owners first, then admins, then client users,
 * each by name; searched by name or email; 50 per page. Admins only.
 *
 * @example const { users, count } = await listUsers(ctx, { search: "lee", limit: 50, offset: 0, sortBy: "role" });
 */
export async function listUsers(ctx: ServiceContext, query: Partial<UserListQuery> = {}): Promise<UserList> {
  const actor = requireSignedIn(ctx);
  if (!isAccountAdmin(actor.user)) throw new AppError("FORBIDDEN");
  const limit = Math.min(query.limit ?? USERS_PAGE_SIZE, USERS_PAGE_SIZE);
  const offset = query.offset ?? 0;
  const scope: SQL[] = [eq(users.accountId, actor.account.id)];
  const search = (query.search ?? "").trim().replace(/^mailto:/i, "").toLowerCase();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    scope.push(or(sql`lower(${users.name}) like ${pattern} escape '\\'`, like(users.email, sql`${pattern} escape '\\'`))!);
  }
  const where = and(...scope);
  const role = sql`case when ${users.isOwner} then 0 when ${users.isAdmin} then 1 else 2 end`;
  const [rows, total] = await Promise.all([
    ctx.db.select().from(users).where(where).orderBy(role, sql`lower(${users.name})`, asc(users.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(users).where(where).get(),
  ]);
  return { users: rows.map(toPersonView), count: total?.n ?? 0, offset, limit };
}

/**
 * `GET /users/{userId}`: a person of the account, with their permissions for those who manage
 * users (and for themselves). Client users may read only themselves.
 */
export async function getUser(ctx: ServiceContext, userId: string): Promise<UserDetail> {
  const actor = requireSignedIn(ctx);
  const target = await loadTarget(ctx, actor, userId);
  assertMaySee(actor, target);
  const withPermissions = managesUsers(actor) || actor.user.id === target.id;
  return { ...toPersonView(target), permissions: withPermissions ? await readPermissions(ctx, target) : null };
}

/**
 * `GET /users/{userId}/revisions`: what the user drafted and published, newest first, with the page
 * and site of each revision. Fills once publishing exists; until then the list is empty.
 */
export async function listUserRevisions(ctx: ServiceContext, userId: string, page: { limit?: number; offset?: number } = {}): Promise<ActivityList> {
  const actor = requireSignedIn(ctx);
  const target = await loadTarget(ctx, actor, userId);
  assertMaySee(actor, target);
  const limit = Math.min(page.limit ?? USERS_PAGE_SIZE, USERS_PAGE_SIZE);
  const offset = page.offset ?? 0;
  const where = and(eq(revisions.accountId, actor.account.id), eq(revisions.userId, target.id));
  const [rows, total] = await Promise.all([
    ctx.db
      .select({ revision: revisions, page: { id: pages.id, name: pages.name }, site: { id: sites.id, name: sites.name } })
      .from(revisions)
      .innerJoin(pages, eq(pages.id, revisions.pageId))
      .innerJoin(sites, eq(sites.id, revisions.siteId))
      .where(where)
      .orderBy(desc(revisions.createdAt), desc(revisions.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(revisions).where(where).get(),
  ]);
  return {
    revisions: rows.map(({ revision, page: p, site }) => ({
      id: revision.id,
      createdAt: revision.createdAt.toISOString(),
      isDraft: revision.isDraft,
      user: { id: target.id, name: target.name, avatar: target.avatar ?? null },
      site,
      page: p,
    })),
    count: total?.n ?? 0,
    offset,
    limit,
  };
}

// ---------------------------------------------------------------------------------------------
// Creating, changing, deleting

/** Sub-privileges an actor may hand out: an owner every one, an admin only those they hold. */
function assertMayGrant(actor: Actor, changes: Partial<Record<(typeof SUB_PRIVILEGES)[number], boolean>>): void {
  const own = effectiveFlags(actor.user);
  const invalid = SUB_PRIVILEGES.filter((flag) => changes[flag] === true && !own[flag]);
  if (invalid.length) throw new AppError("FORBIDDEN", { invalid });
}

async function assertEmailFree(ctx: ServiceContext, email: string, exceptUserId: string | null): Promise<void> {
  const taken = await ctx.db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  if (taken && taken.id !== exceptUserId) throw new AppError("EMAIL_IN_USE", { invalid: ["email"] });
}

/**
 * `POST /users` (NewUser): creates a person of the actor's account with no password, sets their
 * permissions and queues the welcome email (the link to choose a password) through the outbox.
 * Those who manage users only. EMAIL_IN_USE on an address any account already uses.
 *
 * @example const user = await createUser(ctx, { name: "Pat", email: "pat@example.com", permissions: [{ siteId, pages: null }] });
 */
export async function createUser(ctx: ServiceContext, input: Omit<CreateUserBody, "message"> & { message?: EmailMessage }): Promise<UserDetail> {
  const actor = requireSignedIn(ctx);
  if (!managesUsers(actor)) throw new AppError("FORBIDDEN");
  const email = input.email.trim().toLowerCase();
  await assertEmailFree(ctx, email, null);
  const flags = clearAdminOnlyFlags({
    isAdmin: input.isAdmin ?? false,
    canManageBilling: input.canManageBilling ?? false,
    canManageSettings: input.canManageSettings ?? false,
    canManageSites: input.canManageSites ?? false,
    canManageUsers: input.canManageUsers ?? false,
  });
  assertMayGrant(actor, flags);
  const permissions = await validatePermissions(ctx, actor, input.permissions ?? []);
  const userId = newId();
  const now = new Date();
  try {
    await ctx.db.batch([
      ctx.db.insert(users).values({
        id: userId, accountId: actor.account.id, name: input.name.trim(), email, avatar: null, bio: input.bio?.trim() || null,
        passwordHash: null, createdAt: now, ...flags,
      }),
      auditStatement(ctx, { action: "user.create", entity: "user", entityId: userId, details: { email, isAdmin: flags.isAdmin } }),
    ]);
  } catch (error) {
    // Two invitations of one address at once: the unique index decides.
    if (String((error as Error)?.message ?? error).includes("UNIQUE")) throw new AppError("EMAIL_IN_USE", { invalid: ["email"] });
    throw error;
  }
  const target = (await ctx.db.select().from(users).where(eq(users.id, userId)).get())!;
  await writePermissions(ctx, target, permissions);
  await createWelcomeToken(ctx, userId, input.message ?? resources[ctx.locale].recovery.welcomeEmail);
  return getUser(ctx, userId);
}

/**
 * `PUT /users/{userId}`: profile fields for oneself, or — for those who manage users — another
 * person's profile fields, admin flags and permissions (never an owner's flags, never one's own).
 * Fields the policy does not allow are dropped. Turning admin off clears the sub-privileges.
 * A password change needs the current password first (INCORRECT_PASSWORD on currentPassword),
 * ends every session of the user and answers a new session token for the caller.
 *
 * @example await updateUser(ctx, userId, { name: "New name" });
 * @example const { sessionToken } = await updateUser(ctx, me, { currentPassword, password });
 */
export async function updateUser(ctx: ServiceContext, userId: string, input: UpdateUserBody): Promise<{ user: UserDetail; sessionToken: string | null }> {
  const actor = requireSignedIn(ctx);
  const target = await loadTarget(ctx, actor, userId);
  const allowed = writableUserFields(actor, target);
  if (allowed.size === 0) throw new AppError("FORBIDDEN");
  const changes = pickWritable(input, allowed);
  const set: Partial<typeof users.$inferInsert> = {};

  let passwordHash: string | null = null;
  if (changes.password !== undefined && changes.password !== "") {
    assertNotSudo(ctx);
    const current = input.currentPassword ?? "";
    const ok = target.passwordHash ? await verifyPassword(current, target.passwordHash) : await verifyAgainstDummy(current);
    if (!ok) throw new AppError("INCORRECT_PASSWORD", { invalid: ["currentPassword"] });
    assertAcceptablePassword(changes.password);
    passwordHash = await hashPassword(changes.password);
  }
  if (changes.name !== undefined) set.name = changes.name.trim();
  if (changes.email !== undefined && changes.email !== target.email) {
    await assertEmailFree(ctx, changes.email, target.id);
    set.email = changes.email;
  }
  if (changes.bio !== undefined) set.bio = changes.bio?.trim() || null;
  let removeAvatar = false;
  if (changes.avatar !== undefined && changes.avatar !== target.avatar) {
    // Pictures arrive through the upload call; here an avatar can only be removed (back to Gravatar).
    if (changes.avatar !== null) throw new AppError("VALIDATION_ERROR", { invalid: ["avatar"] });
    set.avatar = null;
    removeAvatar = true;
  }
  const flagChanges = clearAdminOnlyFlags(pickWritable(changes, new Set(ADMIN_FIELDS.filter((f) => f !== "permissions"))) as Partial<Record<"isAdmin" | (typeof SUB_PRIVILEGES)[number], boolean>>);
  if (Object.keys(flagChanges).length) {
    assertMayGrant(actor, flagChanges);
    Object.assign(set, flagChanges);
  }
  const permissions = changes.permissions ? await validatePermissions(ctx, actor, changes.permissions) : null;

  const statements = [];
  if (Object.keys(set).length) statements.push(ctx.db.update(users).set(set).where(eq(users.id, target.id)));
  if (passwordHash) {
    statements.push(
      ctx.db.update(users).set({ passwordHash, failedLoginCount: 0, lockedUntilReset: false }).where(eq(users.id, target.id)),
      ctx.db.delete(sessions).where(or(eq(sessions.userId, target.id), eq(sessions.sudoUserId, target.id))),
    );
  }
  const fields = [...Object.keys(set), ...(passwordHash ? ["password"] : []), ...(permissions ? ["permissions"] : [])];
  if (fields.length) {
    statements.push(auditStatement(ctx, { action: passwordHash ? "user.password.change" : "user.update", entity: "user", entityId: target.id, details: { fields } }));
  }
  try {
    if (statements.length) await ctx.db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  } catch (error) {
    if (String((error as Error)?.message ?? error).includes("UNIQUE")) throw new AppError("EMAIL_IN_USE", { invalid: ["email"] });
    throw error;
  }
  if (permissions) await writePermissions(ctx, target, permissions);
  if (removeAvatar) await ctx.env.UPLOADS.delete(avatarKey(target));
  // A new session id after a password change (SECURITY.md 10); the old ones ended above.
  const sessionToken = passwordHash ? await createSession(ctx, target, { tfaVerified: true }) : null;
  const user = await getUserAfterWrite(ctx, actor, target.id);
  return { user, sessionToken };
}

/** The detail after a write; the actor's session may have ended with a password change. */
async function getUserAfterWrite(ctx: ServiceContext, actor: Actor, userId: string): Promise<UserDetail> {
  const fresh = (await ctx.db.select().from(users).where(eq(users.id, userId)).get())!;
  const withPermissions = managesUsers(actor) || actor.user.id === fresh.id;
  return { ...toPersonView(fresh), permissions: withPermissions ? await readPermissions(ctx, fresh) : null };
}

/**
 * `DELETE /users/{userId}`: those who manage users delete a person of their account. Nobody deletes
 * themselves here, and only an owner may delete an owner. Their revisions stay, without author.
 */
export async function deleteUser(ctx: ServiceContext, userId: string): Promise<void> {
  const actor = requireSignedIn(ctx);
  const target = await loadTarget(ctx, actor, userId);
  if (!managesUsers(actor)) throw new AppError("FORBIDDEN");
  if (target.id === actor.user.id) throw new AppError("FORBIDDEN");
  if (target.isOwner && !actor.user.isOwner) throw new AppError("FORBIDDEN");
  await ctx.db.batch([
    ctx.db.delete(users).where(and(eq(users.id, target.id), eq(users.accountId, actor.account.id))),
    auditStatement(ctx, { action: "user.delete", entity: "user", entityId: target.id, details: { email: target.email } }),
  ]);
  await ctx.env.UPLOADS.delete(avatarKey(target));
}

// ---------------------------------------------------------------------------------------------
// Avatars

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * `PUT /users/{userId}/avatar`: stores the cropped PNG in R2 and points the user's avatar at it
 * (a versioned URL, so browsers fetch the new picture). Whoever may change the avatar field may.
 */
export async function uploadAvatar(ctx: ServiceContext, userId: string, body: ArrayBuffer): Promise<UserDetail> {
  const actor = requireSignedIn(ctx);
  const target = await loadTarget(ctx, actor, userId);
  if (!writableUserFields(actor, target).has("avatar")) throw new AppError("FORBIDDEN");
  const bytes = new Uint8Array(body);
  if (bytes.byteLength > MAX_AVATAR_BYTES || bytes.byteLength < PNG_SIGNATURE.length || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) {
    throw new AppError("VALIDATION_ERROR", { invalid: ["avatar"] });
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const version = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  await ctx.env.UPLOADS.put(avatarKey(target), bytes, { httpMetadata: { contentType: "image/png" } });
  const avatar = `/api/users/${target.id}/avatar?v=${version}`;
  await ctx.db.batch([
    ctx.db.update(users).set({ avatar }).where(eq(users.id, target.id)),
    auditStatement(ctx, { action: "user.update", entity: "user", entityId: target.id, details: { fields: ["avatar"] } }),
  ]);
  return getUserAfterWrite(ctx, actor, target.id);
}

/** `GET /users/{userId}/avatar`: the uploaded picture, to people of the same account. */
export async function readAvatar(ctx: ServiceContext, userId: string): Promise<ReadableStream> {
  const actor = requireSignedIn(ctx);
  const target = await loadTarget(ctx, actor, userId);
  if (!target.avatar) throw new AppError("NOT_FOUND");
  const object = await ctx.env.UPLOADS.get(avatarKey(target));
  if (!object) throw new AppError("NOT_FOUND");
  return object.body;
}

// ---------------------------------------------------------------------------------------------
// Permissions

/**
 * `GET /users/{userId}/permissions`: the person's site grants (`pages: null` = all pages). For
 * those who manage users, and for the person themself.
 */
export async function getPermissions(ctx: ServiceContext, userId: string): Promise<{ permissions: PermissionView[] }> {
  const actor = requireSignedIn(ctx);
  const target = await loadTarget(ctx, actor, userId);
  if (!managesUsers(actor) && actor.user.id !== target.id) throw new AppError("FORBIDDEN");
  return { permissions: await readPermissions(ctx, target) };
}

/**
 * `PUT /users/{userId}/permissions`: replaces the person's grants. Never on oneself or an owner
 * (the policy's admin fields). Every site and page must be the account's; a site at most once.
 *
 * @example await setPermissions(ctx, userId, [{ siteId, pages: null }, { siteId: other, pages: [pageA, pageB] }]);
 */
export async function setPermissions(ctx: ServiceContext, userId: string, input: PermissionInput[]): Promise<{ permissions: PermissionView[] }> {
  const actor = requireSignedIn(ctx);
  const target = await loadTarget(ctx, actor, userId);
  if (!writableUserFields(actor, target).has("permissions")) throw new AppError("FORBIDDEN");
  const permissions = await validatePermissions(ctx, actor, input);
  await writePermissions(ctx, target, permissions);
  await audit(ctx, { action: "user.permissions", entity: "user", entityId: target.id, details: { sites: permissions.map((p) => p.siteId) } });
  return { permissions: await readPermissions(ctx, target) };
}

async function validatePermissions(ctx: ServiceContext, actor: Actor, input: PermissionInput[]): Promise<PermissionInput[]> {
  const invalid: string[] = [];
  const seen = new Set<string>();
  input.forEach((p, i) => {
    if (seen.has(p.siteId)) invalid.push(`permissions.${i}.siteId`);
    seen.add(p.siteId);
  });
  const siteIds = [...seen];
  const known = siteIds.length
    ? new Set((await ctx.db.select({ id: sites.id }).from(sites).where(and(eq(sites.accountId, actor.account.id), inArray(sites.id, siteIds)))).map((s) => s.id))
    : new Set<string>();
  const pageIds = [...new Set(input.flatMap((p) => p.pages ?? []))];
  const pageSite = new Map<string, string>();
  for (let i = 0; i < pageIds.length; i += 90) {
    const rows = await ctx.db
      .select({ id: pages.id, siteId: pages.siteId })
      .from(pages)
      .where(and(eq(pages.accountId, actor.account.id), inArray(pages.id, pageIds.slice(i, i + 90))));
    rows.forEach((row) => pageSite.set(row.id, row.siteId));
  }
  input.forEach((p, i) => {
    if (!known.has(p.siteId)) invalid.push(`permissions.${i}.siteId`);
    if (p.pages && p.pages.some((pageId) => pageSite.get(pageId) !== p.siteId)) invalid.push(`permissions.${i}.pages`);
  });
  if (invalid.length) throw new AppError("VALIDATION_ERROR", { invalid: [...new Set(invalid)] });
  return input.map((p) => ({ siteId: p.siteId, pages: p.pages ? [...new Set(p.pages)] : null }));
}

async function writePermissions(ctx: ServiceContext, target: User, permissions: PermissionInput[]): Promise<void> {
  const existing = ctx.db.select({ id: sitePermissions.id }).from(sitePermissions).where(eq(sitePermissions.userId, target.id));
  const now = new Date();
  const statements = [
    ctx.db.delete(permissionPages).where(inArray(permissionPages.permissionId, existing)),
    ctx.db.delete(sitePermissions).where(eq(sitePermissions.userId, target.id)),
  ];
  for (const p of permissions) {
    const id = newId();
    statements.push(
      ctx.db.insert(sitePermissions).values({ id, accountId: target.accountId, userId: target.id, siteId: p.siteId, allPages: p.pages === null, createdAt: now }) as never,
      ...(p.pages ?? []).map((pageId) => ctx.db.insert(permissionPages).values({ permissionId: id, pageId, accountId: target.accountId }) as never),
    );
  }
  await ctx.db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

async function readPermissions(ctx: ServiceContext, target: User): Promise<PermissionView[]> {
  const rows = await ctx.db
    .select({ permission: sitePermissions, site: { id: sites.id, name: sites.name, url: sites.url } })
    .from(sitePermissions)
    .innerJoin(sites, eq(sites.id, sitePermissions.siteId))
    .where(and(eq(sitePermissions.userId, target.id), eq(sitePermissions.accountId, target.accountId)))
    .orderBy(asc(sites.nameSort), asc(sites.id));
  const limited = rows.filter((r) => !r.permission.allPages).map((r) => r.permission.id);
  const pagesOf = new Map<string, string[]>();
  if (limited.length) {
    const pageRows = await ctx.db
      .select({ permissionId: permissionPages.permissionId, pageId: permissionPages.pageId })
      .from(permissionPages)
      .innerJoin(pages, eq(pages.id, permissionPages.pageId))
      .where(inArray(permissionPages.permissionId, limited))
      .orderBy(asc(pages.nameSort));
    for (const row of pageRows) pagesOf.set(row.permissionId, [...(pagesOf.get(row.permissionId) ?? []), row.pageId]);
  }
  return rows.map(({ permission, site }) => ({
    id: permission.id,
    userId: permission.userId,
    siteId: permission.siteId,
    site,
    pages: permission.allPages ? null : (pagesOf.get(permission.id) ?? []),
  }));
}

/** The account's sites with their pages, for the permissions editor. Those who manage users only. */
export async function listGrantableSites(ctx: ServiceContext): Promise<GrantableSite[]> {
  const actor = requireSignedIn(ctx);
  if (!managesUsers(actor)) throw new AppError("FORBIDDEN");
  const siteRows = await ctx.db
    .select({ id: sites.id, name: sites.name, url: sites.url })
    .from(sites)
    .where(eq(sites.accountId, actor.account.id))
    .orderBy(asc(sites.nameSort), asc(sites.id))
    .limit(1000);
  const pageRows = await ctx.db
    .select({ id: pages.id, siteId: pages.siteId, name: pages.name, path: pages.path })
    .from(pages)
    .where(and(eq(pages.accountId, actor.account.id), eq(pages.isEnabled, true)))
    .orderBy(sql`${pages.isPinned} desc`, asc(pages.nameSort), asc(pages.id))
    .limit(10000);
  return siteRows.map((site) => ({ ...site, pages: pageRows.filter((p) => p.siteId === site.id).map(({ id, name, path }) => ({ id, name, path })) }));
}

// ---------------------------------------------------------------------------------------------
// Favorites and change notifications (per user per site; one's own only)

/** A site the actor may reach: any of the account's for admins, the granted ones for client users. */
async function requireVisibleSite(ctx: ServiceContext, actor: Actor, siteId: string) {
  const site = await ctx.db.select().from(sites).where(and(eq(sites.id, siteId), eq(sites.accountId, actor.account.id))).get();
  if (!site) throw new AppError("NOT_FOUND");
  if (!isAccountAdmin(actor.user)) {
    const grant = await ctx.db.select({ id: sitePermissions.id }).from(sitePermissions)
      .where(and(eq(sitePermissions.userId, actor.user.id), eq(sitePermissions.siteId, siteId))).get();
    if (!grant) throw new AppError("NOT_FOUND");
  }
  return site;
}

function requireOwn(ctx: ServiceContext, userId: string): Actor {
  const actor = requireSignedIn(ctx);
  if (actor.user.id !== userId) throw new AppError("NOT_FOUND");
  return actor;
}

/** `GET /users/{userId}/favorites`: the user's favorite sites by name. */
export async function listFavorites(ctx: ServiceContext, userId: string): Promise<FavoriteList> {
  const actor = requireOwn(ctx, userId);
  const scope: SQL[] = [eq(favorites.userId, actor.user.id), eq(favorites.accountId, actor.account.id)];
  if (!isAccountAdmin(actor.user)) {
    scope.push(inArray(favorites.siteId, ctx.db.select({ id: sitePermissions.siteId }).from(sitePermissions).where(eq(sitePermissions.userId, actor.user.id))));
  }
  const rows = await ctx.db
    .select({ siteId: favorites.siteId, createdAt: favorites.createdAt, site: { id: sites.id, name: sites.name, url: sites.url } })
    .from(favorites)
    .innerJoin(sites, eq(sites.id, favorites.siteId))
    .where(and(...scope))
    .orderBy(asc(sites.nameSort), asc(sites.id));
  return { favorites: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })) };
}

/** `GET /users/{userId}/favorites/{siteId}` */
export async function isFavorite(ctx: ServiceContext, userId: string, siteId: string): Promise<{ isFavorite: boolean }> {
  const actor = requireOwn(ctx, userId);
  await requireVisibleSite(ctx, actor, siteId);
  const row = await ctx.db.select().from(favorites).where(and(eq(favorites.userId, actor.user.id), eq(favorites.siteId, siteId))).get();
  return { isFavorite: Boolean(row) };
}

/** `POST` and `DELETE /users/{userId}/favorites/{siteId}`; both safe to repeat. */
export async function setFavorite(ctx: ServiceContext, userId: string, siteId: string, on: boolean): Promise<void> {
  const actor = requireOwn(ctx, userId);
  const site = await requireVisibleSite(ctx, actor, siteId);
  if (on) {
    await ctx.db.insert(favorites).values({ userId: actor.user.id, siteId: site.id, accountId: actor.account.id, createdAt: new Date() }).onConflictDoNothing();
  } else {
    await ctx.db.delete(favorites).where(and(eq(favorites.userId, actor.user.id), eq(favorites.siteId, site.id)));
  }
}

/** Change notifications are an agency-plan feature (spec section 6). */
function assertAgencyPlan(actor: Actor): void {
  if (actor.account.plan !== "agency") throw new AppError("UPGRADE_REQUIRED");
}

/** `GET /users/{userId}/change-notifications/{siteId}` */
export async function hasChangeNotification(ctx: ServiceContext, userId: string, siteId: string): Promise<{ hasChangeNotification: boolean }> {
  const actor = requireOwn(ctx, userId);
  await requireVisibleSite(ctx, actor, siteId);
  const row = await ctx.db.select().from(changeNotifications)
    .where(and(eq(changeNotifications.userId, actor.user.id), eq(changeNotifications.siteId, siteId))).get();
  return { hasChangeNotification: Boolean(row) };
}

/**
 * `POST` and `DELETE /users/{userId}/change-notifications/{siteId}`: an email through the outbox
 * whenever someone publishes a page of the site. Switching on needs the agency plan
 * (UPGRADE_REQUIRED); switching off always works.
 */
export async function setChangeNotification(ctx: ServiceContext, userId: string, siteId: string, on: boolean): Promise<void> {
  const actor = requireOwn(ctx, userId);
  const site = await requireVisibleSite(ctx, actor, siteId);
  if (on) {
    assertAgencyPlan(actor);
    await ctx.db.insert(changeNotifications).values({ userId: actor.user.id, siteId: site.id, accountId: actor.account.id, createdAt: new Date() }).onConflictDoNothing();
  } else {
    await ctx.db.delete(changeNotifications).where(and(eq(changeNotifications.userId, actor.user.id), eq(changeNotifications.siteId, site.id)));
  }
}
