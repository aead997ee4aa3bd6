/**
 * A site's pages in the product: the page list (`GET /sites/{siteId}/pages`), enabling existing
 * files, new pages from a template, duplicates, renames, pins, and removing pages (`POST
 * /sites/{siteId}/pages/delete`: disable removes a page from the product only; delete also removes
 * its file from the server). Every file change goes through the site's RemoteFs — the demo store
 * for a demo site, the site's agent otherwise (`siteRemoteFs`).
 *
 * Who may do what (spec, accounts section 6 and page editing section 6):
 * - anyone who reaches the site lists its pages (client users: the pages of their grant) and
 *   creates new pages from a template;
 * - duplicate: admins, and client users when the site allows it (canDuplicatePages);
 * - delete from the server: admins, and client users when the site allows it (canDeletePages);
 * - enable, disable, rename and pin: admins.
 * No page changes while the site is on lockdown (SITE_IS_LOCKED). A client user with a grant on
 * selected pages gets the pages they create or duplicate added to it.
 *
 * Page paths are absolute on the server, inside the site's home folder
 * (PATH_OUTSIDE_OF_HOME_FOLDER), and end in one of the spec's page extensions
 * (FILE_TYPE_NOT_SUPPORTED).
 *
 * @example
 * const { pages, count } = await listPages(ctx, siteId, { search: "", limit: 50, offset: 0, sortBy: "pinned" });
 * await createPage(ctx, siteId, { path: "/index.html", createOnServer: false }); // { page: { name: "Homepage", isPinned: true, … } }
 */
import { and, asc, count, desc, eq, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { AgentError } from "../../agent/src/errors.ts";
import { baseName, MAX_WRITE_BYTES, normaliseFolder, parentOf, resolveRemotePath } from "../../agent/src/paths.ts";
import type { RemoteFs } from "../../agent/src/remote-fs.ts";
import { pages, permissionPages, revisions, sitePermissions, sites, templates, users, type Page, type Site } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { DeletePagesAnswer, DeletePagesBody, NewPageBody, PageList, PageListQuery, PageView, UpdatePageBody } from "~/lib/schemas/pages";
import type { ActivityList } from "~/lib/schemas/users";
import { isEnableable, isHomepageFile, pageNameForFile } from "~/lib/site-form";
import type { Actor } from "./actor.server";
import { auditStatement } from "./audit.server";
import type { ServiceContext } from "./context.server";
import { isAccountAdmin, requireSignedIn } from "./policy";
import { findEditablePage } from "./publish.server";
import { findAccessibleSite, pinObservedKeys, siteRemoteFs } from "./site-files.server";
import { likePattern, visibleSites } from "./sites.server";

/** D1 binds at most 100 parameters per statement. */
const IDS_PER_QUERY = 90;

export function toPageView(page: Page): PageView {
  return { id: page.id, siteId: page.siteId, name: page.name, path: page.path, isPinned: page.isPinned };
}

// ── access ───────────────────────────────────────────────────────────────────────────────────────

/** A client user's grant on the site (null for admins, who reach every page). */
async function grantOf(ctx: ServiceContext, actor: Actor, site: Site): Promise<{ id: string; allPages: boolean } | null> {
  if (isAccountAdmin(actor.user)) return null;
  const grant = await ctx.db
    .select({ id: sitePermissions.id, allPages: sitePermissions.allPages })
    .from(sitePermissions)
    .where(and(eq(sitePermissions.siteId, site.id), eq(sitePermissions.userId, actor.user.id), eq(sitePermissions.accountId, site.accountId)))
    .get();
  if (!grant) throw new AppError("NOT_FOUND");
  return grant;
}

/**
 * The enabled pages of a site the actor may reach, as one condition on `pages`: the actor's
 * account's, and for client users those their grant on the site covers (all pages, or the ones it
 * lists). SQL only, so a list needs no lookup before its query.
 */
function reachablePagesOfSite(actor: Actor, siteId: string): SQL {
  const scope: SQL[] = [eq(pages.siteId, siteId), ofAccount(pages.accountId, actor.account.id), eq(pages.isEnabled, true)];
  if (!isAccountAdmin(actor.user)) {
    scope.push(sql`exists (select 1 from ${sitePermissions} where ${sitePermissions.siteId} = ${pages.siteId} and ${sitePermissions.userId} = ${actor.user.id}
      and (${sitePermissions.allPages} = 1 or exists (select 1 from ${permissionPages} where ${permissionPages.permissionId} = ${sitePermissions.id} and ${permissionPages.pageId} = ${pages.id})))`);
  }
  return and(...scope)!;
}

/** The condition that keeps `pageColumn` to the pages the actor may reach, or null for all. */
async function reachablePages(ctx: ServiceContext, actor: Actor, site: Site, pageColumn: typeof pages.id | typeof revisions.pageId): Promise<SQL | null> {
  const grant = await grantOf(ctx, actor, site);
  if (!grant || grant.allPages) return null;
  return inArray(pageColumn, ctx.db.select({ id: permissionPages.pageId }).from(permissionPages).where(eq(permissionPages.permissionId, grant.id)));
}

/** A page the actor created or copied joins a grant limited to selected pages, so they can edit it. */
async function extendGrant(ctx: ServiceContext, actor: Actor, site: Site, page: Page): Promise<void> {
  const grant = await grantOf(ctx, actor, site);
  if (!grant || grant.allPages) return;
  await ctx.db.insert(permissionPages).values({ permissionId: grant.id, pageId: page.id, accountId: site.accountId }).onConflictDoNothing();
}

function requireAdmin(actor: Actor): void {
  if (!isAccountAdmin(actor.user)) throw new AppError("FORBIDDEN");
}

function requireUnlocked(site: Site): void {
  if (site.isLocked) throw new AppError("SITE_IS_LOCKED");
}

/**
 * A page's file: normalised, inside the home folder and not the home folder itself, with one of
 * the spec's page extensions. Errors name `field`.
 * @example pagePath(site, "blog/post.html") // "/www/blog/post.html" for the home folder "/www"
 */
export function pagePath(site: Pick<Site, "homeFolder">, input: string, field = "path"): string {
  let full: string;
  try {
    full = resolveRemotePath(site.homeFolder, input.trim());
  } catch (error) {
    if (error instanceof AgentError) throw new AppError("PATH_OUTSIDE_OF_HOME_FOLDER", { invalid: [field] });
    throw error;
  }
  if (full === normaliseFolder(site.homeFolder)) throw new AppError("VALIDATION_ERROR", { invalid: [field] });
  if (!isEnableable(baseName(full))) throw new AppError("FILE_TYPE_NOT_SUPPORTED", { invalid: [field] });
  return full;
}

/**
 * The account condition of a query that already names the site, written `+account_id = ?`: the
 * unary plus keeps SQLite from choosing the account's index for it (without table statistics it
 * would, and scan every page of the account) so the site's own index leads. Rows still have to
 * belong to the account.
 */
function ofAccount(column: typeof pages.accountId | typeof revisions.accountId, accountId: string): SQL {
  return sql`+${column} = ${accountId}`;
}

// ── listing and reading ──────────────────────────────────────────────────────────────────────────

/**
 * `GET /sites/{siteId}/pages`: the enabled pages the actor may reach, searched by name or path.
 * `sortBy: "pinned"` orders pinned pages first, then by name case-insensitively (then by id, so
 * every page appears exactly once across pages of the list), along the index `pages_site_list_idx`;
 * `limit: 0` answers the count only.
 *
 * @example const { pages, count } = await listPages(ctx, siteId, { search: "about", limit: 50, offset: 0, sortBy: "pinned" });
 */
export async function listPages(ctx: ServiceContext, siteId: string, query: PageListQuery): Promise<PageList> {
  const actor = requireSignedIn(ctx);
  // Access is all in SQL, so the site check, the rows and the count go to D1 in one round trip.
  const scope: SQL[] = [reachablePagesOfSite(actor, siteId)];
  if (query.search) {
    const pattern = likePattern(query.search);
    scope.push(or(sql`${pages.nameSort} like ${pattern} escape '\\'`, sql`lower(${pages.path}) like ${pattern} escape '\\'`)!);
  }
  const where = and(...scope);
  const siteCheck = ctx.db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, siteId), ...visibleSites(ctx, actor))).limit(1);
  const total = ctx.db.select({ n: count() }).from(pages).where(where);
  if (query.limit === 0) {
    const [site, counted] = await ctx.db.batch([siteCheck, total]);
    if (site.length === 0) throw new AppError("NOT_FOUND");
    return { pages: [], count: counted[0]?.n ?? 0, offset: query.offset, limit: 0 };
  }
  const order = query.sortBy === "pinned" ? [desc(pages.isPinned), asc(pages.nameSort), asc(pages.id)] : [asc(pages.nameSort), asc(pages.id)];
  const [site, rows, counted] = await ctx.db.batch([siteCheck, ctx.db.select().from(pages).where(where).orderBy(...order).limit(query.limit).offset(query.offset), total]);
  if (site.length === 0) throw new AppError("NOT_FOUND");
  return { pages: rows.map(toPageView), count: counted[0]?.n ?? 0, offset: query.offset, limit: query.limit };
}

/** `GET /sites/{siteId}/pages/{pageId}`: a page the actor may edit. */
export async function getPage(ctx: ServiceContext, siteId: string, pageId: string): Promise<{ page: PageView }> {
  const site = await findAccessibleSite(ctx, siteId);
  return { page: toPageView(await findEditablePage(ctx, site, pageId)) };
}

/**
 * `GET /sites/{siteId}/revisions`: the site's drafts and published revisions, newest first, with
 * their author and page (spec section 3, Revision in activity lists). Client users see the
 * revisions of the pages they may reach.
 */
export async function listSiteRevisions(ctx: ServiceContext, siteId: string, page: { limit: number; offset: number }): Promise<ActivityList> {
  const actor = requireSignedIn(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  const scope: SQL[] = [eq(revisions.siteId, site.id), ofAccount(revisions.accountId, site.accountId)];
  const reachable = await reachablePages(ctx, actor, site, revisions.pageId);
  if (reachable) scope.push(reachable);
  const where = and(...scope);
  const total = ctx.db.select({ n: count() }).from(revisions).where(where).get();
  if (page.limit === 0) return { revisions: [], count: (await total)?.n ?? 0, offset: page.offset, limit: 0 };
  const [rows, counted] = await Promise.all([
    ctx.db
      .select({
        id: revisions.id,
        createdAt: revisions.createdAt,
        isDraft: revisions.isDraft,
        user: { id: users.id, name: users.name, avatar: users.avatar },
        page: { id: pages.id, name: pages.name },
      })
      .from(revisions)
      .innerJoin(pages, eq(pages.id, revisions.pageId))
      .leftJoin(users, eq(users.id, revisions.userId))
      .where(where)
      .orderBy(desc(revisions.createdAt), desc(revisions.id))
      .limit(page.limit)
      .offset(page.offset),
    total,
  ]);
  return {
    revisions: rows.map((row) => ({
      id: row.id,
      createdAt: row.createdAt.toISOString(),
      isDraft: row.isDraft,
      user: row.user ? { id: row.user.id, name: row.user.name, avatar: row.user.avatar ?? null } : null,
      site: { id: site.id, name: site.name },
      page: row.page,
    })),
    count: counted?.n ?? 0,
    offset: page.offset,
    limit: page.limit,
  };
}

// ── creating ─────────────────────────────────────────────────────────────────────────────────────

/** An enabled page already uses the path (FILE_ALREADY_EXISTS on `path`). */
async function assertNoPageAt(ctx: ServiceContext, site: Site, path: string): Promise<void> {
  const taken = await ctx.db
    .select({ id: pages.id })
    .from(pages)
    .where(and(eq(pages.siteId, site.id), eq(pages.accountId, site.accountId), eq(pages.path, path), eq(pages.isEnabled, true)))
    .get();
  if (taken) throw new AppError("FILE_ALREADY_EXISTS", { invalid: ["path"] });
}

async function assertNoFileAt(fs: RemoteFs, path: string): Promise<void> {
  if (await fs.stat(path)) throw new AppError("FILE_ALREADY_EXISTS", { invalid: ["path"] });
}

/**
 * Records a page for a file just written. A disabled page left at the path belonged to a file that
 * is gone, so it goes (with its history) and the new page starts fresh.
 */
async function insertPage(ctx: ServiceContext, site: Site, fields: { name: string; path: string; isPinned?: boolean }, action: string, details: Record<string, unknown>): Promise<Page> {
  const atPath = and(eq(pages.siteId, site.id), eq(pages.accountId, site.accountId), eq(pages.path, fields.path), eq(pages.isEnabled, false));
  const [, [page]] = await ctx.db.batch([
    ctx.db.delete(pages).where(atPath),
    ctx.db.insert(pages).values({ siteId: site.id, accountId: site.accountId, name: fields.name, path: fields.path, isPinned: fields.isPinned ?? false }).returning(),
    auditStatement(ctx, { action, entity: "page", entityId: null, details: { siteId: site.id, path: fields.path, ...details } }),
  ]);
  return page;
}

/**
 * `POST /sites/{siteId}/pages` in the spec's three forms: a new page from a template (`templateId`),
 * a duplicate of a page (`pageId`: its file is copied on the server), or an existing file enabled
 * (`createOnServer`). Answers the page.
 *
 * @example await createPage(ctx, siteId, { name: "Contact (Copy)", path: "/contact-copy.html", pageId })
 */
export async function createPage(ctx: ServiceContext, siteId: string, body: NewPageBody): Promise<{ page: PageView }> {
  const actor = requireSignedIn(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  if ("templateId" in body) return { page: toPageView(await newPageFromTemplate(ctx, actor, site, body)) };
  if ("pageId" in body) return { page: toPageView(await duplicatePage(ctx, actor, site, body)) };
  return { page: toPageView(await enablePage(ctx, actor, site, body)) };
}

/** A page's name from its file: "about-us.html" → "About Us"; another folder's index file is named after its folder ("Blog"). */
function defaultPageName(path: string): string {
  const file = baseName(path);
  return isHomepageFile(file) && parentOf(path) !== "/" ? pageNameForFile(baseName(parentOf(path))) : pageNameForFile(file);
}

/**
 * Enables a file of the server as a page (admins). An index or default file of the home folder is
 * named Homepage and pinned (spec section 9). Enabling a page that was disabled brings it back with
 * its history; enabling an enabled page answers it unchanged.
 */
async function enablePage(ctx: ServiceContext, actor: Actor, site: Site, body: { name?: string; path: string; createOnServer: boolean; isPinned?: boolean }): Promise<Page> {
  requireAdmin(actor);
  requireUnlocked(site);
  const path = pagePath(site, body.path);
  const fs = await siteRemoteFs(ctx.env, site);
  const entry = await fs.stat(path);
  if (body.createOnServer) {
    if (entry) throw new AppError("FILE_ALREADY_EXISTS", { invalid: ["path"] });
    await fs.writeAtomic(path, new Uint8Array(0));
  } else if (entry?.type !== "file") {
    throw new AppError("NOT_FOUND", { invalid: ["path"] });
  }
  await pinObservedKeys(ctx.db, site, fs);
  const homepage = parentOf(path) === normaliseFolder(site.homeFolder) && isHomepageFile(baseName(path));
  const name = homepage ? "Homepage" : (body.name ?? defaultPageName(path));
  const isPinned = homepage || (body.isPinned ?? false);
  const [page] = await ctx.db
    .insert(pages)
    .values({ siteId: site.id, accountId: site.accountId, name, path, isPinned })
    .onConflictDoUpdate({ target: [pages.siteId, pages.path], set: { name, isPinned, isEnabled: true, updatedAt: new Date() }, setWhere: eq(pages.isEnabled, false) })
    .returning();
  if (!page) {
    const existing = await ctx.db.select().from(pages).where(and(eq(pages.siteId, site.id), eq(pages.accountId, site.accountId), eq(pages.path, path))).get();
    if (!existing) throw new AppError("NOT_FOUND");
    return existing;
  }
  await auditStatement(ctx, { action: "page.enable", entity: "page", entityId: page.id, details: { siteId: site.id, path } });
  return page;
}

/** Copies a page's file on the server to a new path and makes it a page (admins, or the site's canDuplicatePages). */
async function duplicatePage(ctx: ServiceContext, actor: Actor, site: Site, body: { name: string; path: string; pageId: string }): Promise<Page> {
  if (!isAccountAdmin(actor.user) && !site.canDuplicatePages) throw new AppError("FORBIDDEN");
  requireUnlocked(site);
  const source = await findEditablePage(ctx, site, body.pageId);
  const path = pagePath(site, body.path);
  if (path === source.path) throw new AppError("FILE_ALREADY_EXISTS", { invalid: ["path"] });
  await assertNoPageAt(ctx, site, path);
  const fs = await siteRemoteFs(ctx.env, site);
  await assertNoFileAt(fs, path);
  const bytes = await fs.read(source.path, { maxBytes: MAX_WRITE_BYTES });
  await fs.writeAtomic(path, bytes);
  await pinObservedKeys(ctx.db, site, fs);
  const page = await insertPage(ctx, site, { name: body.name, path }, "page.duplicate", { from: source.id });
  await extendGrant(ctx, actor, site, page);
  return page;
}

/** A template's source: inline, or in R2 when large. */
async function templateSource(env: Env, template: { source: string | null; sourceKey: string | null }): Promise<string> {
  if (template.source !== null) return template.source;
  if (!template.sourceKey) return "";
  const object = await env.UPLOADS.get(template.sourceKey);
  return object ? await object.text() : "";
}

/** Writes a new file from one of the site's templates and makes it a page (NewPage; anyone who reaches the site). */
async function newPageFromTemplate(ctx: ServiceContext, actor: Actor, site: Site, body: { name: string; path: string; templateId: string }): Promise<Page> {
  requireUnlocked(site);
  const template = await ctx.db
    .select({ id: templates.id, source: templates.source, sourceKey: templates.sourceKey })
    .from(templates)
    .where(and(eq(templates.id, body.templateId), eq(templates.siteId, site.id), eq(templates.accountId, site.accountId)))
    .get();
  if (!template) throw new AppError("VALIDATION_ERROR", { invalid: ["templateId"] });
  const path = pagePath(site, body.path);
  await assertNoPageAt(ctx, site, path);
  const fs = await siteRemoteFs(ctx.env, site);
  await assertNoFileAt(fs, path);
  await fs.writeAtomic(path, new TextEncoder().encode(await templateSource(ctx.env, template)));
  await pinObservedKeys(ctx.db, site, fs);
  const page = await insertPage(ctx, site, { name: body.name, path }, "page.create", { templateId: template.id });
  await extendGrant(ctx, actor, site, page);
  return page;
}

// ── changing ─────────────────────────────────────────────────────────────────────────────────────

/**
 * `PUT /sites/{siteId}/pages/{pageId}` (admins): rename — a new name, and a new path, which moves
 * the file on the server first (never over an existing file) — and/or pin or unpin.
 *
 * @example await updatePage(ctx, siteId, pageId, { name: "About Us", path: "/about-us.html" })
 * @example await updatePage(ctx, siteId, pageId, { isPinned: true })
 */
export async function updatePage(ctx: ServiceContext, siteId: string, pageId: string, body: UpdatePageBody): Promise<{ page: PageView }> {
  const actor = requireSignedIn(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  requireAdmin(actor);
  requireUnlocked(site);
  const page = await findEditablePage(ctx, site, pageId);
  const changes: Partial<Page> = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.isPinned !== undefined) changes.isPinned = body.isPinned;
  const to = body.path !== undefined ? pagePath(site, body.path) : page.path;
  let fs: RemoteFs | null = null;
  if (to !== page.path) {
    await assertNoPageAt(ctx, site, to);
    fs = await siteRemoteFs(ctx.env, site);
    await assertNoFileAt(fs, to);
    if (parentOf(to) !== parentOf(page.path)) await fs.mkdirp(parentOf(to));
    await fs.rename(page.path, to);
    await pinObservedKeys(ctx.db, site, fs);
    changes.path = to;
  }
  const scope = and(eq(pages.id, page.id), eq(pages.siteId, site.id), eq(pages.accountId, site.accountId));
  try {
    const [, [updated]] = await ctx.db.batch([
      // A disabled page left at the new path belonged to a file that was not there.
      ctx.db.delete(pages).where(and(eq(pages.siteId, site.id), eq(pages.accountId, site.accountId), eq(pages.path, to), eq(pages.isEnabled, false), ne(pages.id, page.id))),
      ctx.db.update(pages).set({ ...changes, updatedAt: new Date() }).where(scope).returning(),
      auditStatement(ctx, { action: "page.update", entity: "page", entityId: page.id, details: { siteId: site.id, changed: Object.keys(changes), ...(changes.path ? { from: page.path, to } : {}) } }),
    ]);
    if (!updated) throw new AppError("NOT_FOUND");
    return { page: toPageView(updated) };
  } catch (error) {
    // The file moved but the page did not: move it back so the two stay in step.
    if (fs && changes.path) await fs.rename(to, page.path).catch(() => undefined);
    throw error;
  }
}

/**
 * `POST /sites/{siteId}/pages/delete`: removes pages from the product (`deleteFromServer: false`,
 * admins: the files stay on the server, the page's history stays for a later enable) or deletes
 * them (`true`, admins or the site's canDeletePages: the file is removed through the site's
 * connection first, then the page with its history). Each page succeeds or fails on its own:
 * `succeeded` lists the ids done, `failed` the others with their code.
 *
 * @example await removePages(ctx, siteId, { pageIds: [a, b], deleteFromServer: true }) // { succeeded: [{ id: a }, { id: b }], failed: [] }
 */
export async function removePages(ctx: ServiceContext, siteId: string, body: DeletePagesBody): Promise<DeletePagesAnswer> {
  const actor = requireSignedIn(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  if (body.deleteFromServer ? !isAccountAdmin(actor.user) && !site.canDeletePages : !isAccountAdmin(actor.user)) throw new AppError("FORBIDDEN");
  requireUnlocked(site);
  const ids = [...new Set(body.pageIds)];
  const reachable = await reachablePages(ctx, actor, site, pages.id);
  const found = new Map<string, Page>();
  for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
    const rows = await ctx.db
      .select()
      .from(pages)
      .where(and(eq(pages.siteId, site.id), eq(pages.accountId, site.accountId), eq(pages.isEnabled, true), inArray(pages.id, ids.slice(i, i + IDS_PER_QUERY)), ...(reachable ? [reachable] : [])));
    for (const row of rows) found.set(row.id, row);
  }
  const done: string[] = [];
  const failed: DeletePagesAnswer["failed"] = [];
  const fs = body.deleteFromServer && found.size > 0 ? await siteRemoteFs(ctx.env, site) : null;
  for (const id of ids) {
    const page = found.get(id);
    if (!page) {
      failed.push({ id, code: "NOT_FOUND" });
      continue;
    }
    if (fs) {
      try {
        await fs.remove(page.path);
      } catch (error) {
        if (!(error instanceof AgentError)) throw error;
        failed.push({ id, code: error.code });
        continue;
      }
    }
    done.push(id);
  }
  if (fs) await pinObservedKeys(ctx.db, site, fs);
  for (let i = 0; i < done.length; i += IDS_PER_QUERY) {
    const chunk = done.slice(i, i + IDS_PER_QUERY);
    const scope = and(eq(pages.siteId, site.id), eq(pages.accountId, site.accountId), inArray(pages.id, chunk));
    await ctx.db.batch([
      body.deleteFromServer ? ctx.db.delete(pages).where(scope) : ctx.db.update(pages).set({ isEnabled: false, isPinned: false, updatedAt: new Date() }).where(scope),
      auditStatement(ctx, { action: body.deleteFromServer ? "page.delete" : "page.disable", entity: "site", entityId: site.id, details: { pageIds: chunk, paths: chunk.map((id) => found.get(id)!.path) } }),
    ]);
  }
  return { succeeded: done.map((id) => ({ id })), failed };
}

