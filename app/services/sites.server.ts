/**
 * Sites: the list (`GET /sites`), one site (`GET /sites/{siteId}`), the site form's create and
 * update (`POST /sites`, `PUT /sites/{siteId}`), delete, screenshots, and the superuser's
 * reclassification (`PUT /admin/sites/{siteId}/classify`).
 *
 * The form's rules (spec, page editing section 5 "Site form"; accounts section 5 "Site url") are
 * applied here again, whatever the browser did: https:// is added to a URL without a scheme and a
 * bare scheme is empty (so invalid); folders lose their trailing slashes; an upload folder outside
 * the home folder becomes the home folder; a WebDAV host without a scheme gets http://; FTP and
 * FTPS default to port 21, SFTP to 22. Secrets are sealed (SECURITY.md 14) and never answered:
 * `storedSecrets` says only which are stored; an empty or missing secret keeps the stored one.
 *
 * Before a site is saved with a new connection, the connection is tested through the site's agent,
 * so a wrong password answers CONNECTION_AGENT_AUTH and nothing is saved; what the connection
 * showed (SFTP host key, FTPS certificate) is pinned on the site.
 *
 * @example
 * const { site } = await createSite(ctx, { name: "Bakery", url: "bakery.example", protocol: "sftp", host: "sftp.bakery.example", username: "web", password: "…", homeFolder: "/var/www" });
 * const { sites, count } = await listSites(ctx, { search: "bak", limit: 50, offset: 0 });
 */
import { and, asc, count, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { connectionSpec, type ConnectionSpec } from "../../agent/src/connection.ts";
import { AgentError } from "../../agent/src/errors.ts";
import { normaliseFolder } from "../../agent/src/paths.ts";
import type { RemoteEntry } from "../../agent/src/remote-fs.ts";
import { agents, changeNotifications, favorites, sitePermissions, sites, type NewSite, type Site, type SiteClassification } from "../../db/schema";
import { newId } from "../../db/ids";
import { AppError } from "~/lib/errors";
import type { SiteBody, SiteDetail, SiteListQuery, SiteSummary, StoredSecrets } from "~/lib/schemas/sites";
import { DEFAULT_PORTS, fitUploadFolder, normalizeSiteUrl, normalizeWebdavHost, trimFolder } from "~/lib/site-form";
import { resources } from "~/locales";
import type { Actor } from "./actor.server";
import { agentRemoteFs } from "./agent-link.server";
import { audit, auditStatement } from "./audit.server";
import type { ServiceContext } from "./context.server";
import { effectiveFlags, isAccountAdmin, requireSignedIn, requireSuperuser } from "./policy";
import { captureSiteScreenshot, screenshotUrl } from "./screenshots.server";
import { classifySite, HOME_PAGE_NAMES } from "./site-classification";
import { findAccessibleSite, openSiteSecrets, sealSiteSecrets, type SiteSecrets } from "./site-files.server";
import { demoSitePrefix } from "~/lib/storage-keys";

/** Runs work after the answer (the Worker's `waitUntil`); without one, the work is awaited. */
export type Defer = (work: Promise<unknown>) => void;

/** Those who can manage sites (owners, and admins granted it) create, change and delete sites. */
export function requireSiteManager(ctx: ServiceContext): Actor {
  const actor = requireSignedIn(ctx);
  if (!effectiveFlags(actor.user).canManageSites) throw new AppError("FORBIDDEN");
  return actor;
}

// ── listing and reading ──────────────────────────────────────────────────────────────────────────

/** The sites the actor may see: every site of the account for admins, the granted ones for client users. */
export function visibleSites(ctx: ServiceContext, actor: Actor): SQL[] {
  const scope: SQL[] = [eq(sites.accountId, actor.account.id)];
  if (!isAccountAdmin(actor.user)) {
    scope.push(inArray(sites.id, ctx.db.select({ id: sitePermissions.siteId }).from(sitePermissions).where(and(eq(sitePermissions.userId, actor.user.id), eq(sitePermissions.accountId, actor.account.id)))));
  }
  return scope;
}

/** `%term%` for LIKE with `\` as the escape character. */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toSummary(site: Site, marks: { isFavorite: boolean; hasChangeNotification: boolean }): SiteSummary {
  return {
    id: site.id,
    name: site.name,
    url: site.url,
    classification: site.classification,
    classificationLocked: site.classificationLocked,
    homeFolder: site.homeFolder,
    uploadFolder: site.uploadFolder,
    screenshot: screenshotUrl(site),
    isFavorite: marks.isFavorite,
    hasChangeNotification: marks.hasChangeNotification,
    isLocked: site.isLocked,
    isDemo: site.isDemo,
    canDuplicatePages: site.canDuplicatePages,
    canDeletePages: site.canDeletePages,
    gaProfileId: site.gaProfileId,
  };
}

/**
 * `GET /sites`: the sites the actor may see, by name (case-insensitively), each with whether it is
 * one of the actor's favorites and has their change notification, searched by name or URL, in the
 * order of the `(account_id, name_sort, id)` index. `limit: 0` answers the count only.
 *
 * @example const { sites, count } = await listSites(ctx, { search: "bak", limit: 50, offset: 0 });
 */
export async function listSites(ctx: ServiceContext, query: Partial<SiteListQuery> & { limit: number; offset: number }): Promise<{ sites: SiteSummary[]; count: number; offset: number; limit: number }> {
  const actor = requireSignedIn(ctx);
  const scope = visibleSites(ctx, actor);
  const search = (query.search ?? "").trim();
  if (search) {
    const pattern = likePattern(search);
    scope.push(or(sql`${sites.nameSort} like ${pattern} escape '\\'`, sql`lower(${sites.url}) like ${pattern} escape '\\'`)!);
  }
  const where = and(...scope);
  const total = ctx.db.select({ n: count() }).from(sites).where(where);
  if (query.limit === 0) return { sites: [], count: (await total)[0]?.n ?? 0, offset: query.offset, limit: 0 };
  // One round trip to D1 for the rows and the count.
  const [rows, counted] = await ctx.db.batch([
    ctx.db
      .select({
        site: sites,
        isFavorite: sql<boolean>`${favorites.userId} is not null`.mapWith(Boolean),
        hasChangeNotification: sql<boolean>`${changeNotifications.userId} is not null`.mapWith(Boolean),
      })
      .from(sites)
      .leftJoin(favorites, and(eq(favorites.siteId, sites.id), eq(favorites.userId, actor.user.id)))
      .leftJoin(changeNotifications, and(eq(changeNotifications.siteId, sites.id), eq(changeNotifications.userId, actor.user.id)))
      .where(where)
      .orderBy(asc(sites.nameSort), asc(sites.id))
      .limit(query.limit)
      .offset(query.offset),
    total,
  ]);
  return { sites: rows.map((row) => toSummary(row.site, row)), count: counted[0]?.n ?? 0, offset: query.offset, limit: query.limit };
}

async function marksOf(ctx: ServiceContext, actor: Actor, siteId: string) {
  const [favorite, notification] = await Promise.all([
    ctx.db.select({ siteId: favorites.siteId }).from(favorites).where(and(eq(favorites.userId, actor.user.id), eq(favorites.siteId, siteId))).get(),
    ctx.db.select({ siteId: changeNotifications.siteId }).from(changeNotifications).where(and(eq(changeNotifications.userId, actor.user.id), eq(changeNotifications.siteId, siteId))).get(),
  ]);
  return { isFavorite: Boolean(favorite), hasChangeNotification: Boolean(notification) };
}

/** Which secrets the row stores; a row whose secrets no longer open (a retired key) stores none usable. */
async function storedSecretsOf(env: Env, site: Site): Promise<StoredSecrets> {
  const secrets = site.secretsCiphertext ? await openSiteSecrets(env, site).catch(() => null) : null;
  return { password: Boolean(secrets?.password), privateKey: Boolean(secrets?.privateKey), s3SecretKey: Boolean(secrets?.s3SecretKey) };
}

async function toDetail(ctx: ServiceContext, actor: Actor, site: Site): Promise<SiteDetail> {
  const summary = toSummary(site, await marksOf(ctx, actor, site.id));
  if (!effectiveFlags(actor.user).canManageSites) return summary;
  return {
    ...summary,
    protocol: site.protocol,
    host: site.host,
    port: site.port,
    username: site.username,
    s3AccessKey: site.s3AccessKey,
    s3Region: site.s3Region,
    s3Bucket: site.s3Bucket,
    s3Acl: site.s3Acl,
    agentId: site.agentId,
    sftpHostKey: site.sftpHostKey,
    ftpsCertFingerprint: site.ftpsCertFingerprint,
    storedSecrets: await storedSecretsOf(ctx.env, site),
  };
}

/**
 * `GET /sites/{siteId}`: the site, with the actor's favorite and change-notification marks; the
 * connection (never its secrets) only for those who can manage sites.
 * @example const { site } = await getSite(ctx, siteId); site.storedSecrets // { password: true, privateKey: false, s3SecretKey: false }
 */
export async function getSite(ctx: ServiceContext, siteId: string): Promise<{ site: SiteDetail }> {
  const actor = requireSignedIn(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  return { site: await toDetail(ctx, actor, site) };
}

// ── the site form ────────────────────────────────────────────────────────────────────────────────

/** The columns the form sets, normalised, before the connection test. */
type SiteFields = Pick<
  NewSite,
  | "name" | "url" | "protocol" | "host" | "port" | "username" | "s3AccessKey" | "s3Region" | "s3Bucket" | "s3Acl" | "agentId"
  | "homeFolder" | "uploadFolder" | "isLocked" | "canDuplicatePages" | "canDeletePages" | "gaProfileId"
> & { protocol: Exclude<Site["protocol"], "demo">; homeFolder: string; uploadFolder: string };

/** A URL the product can open in its editor: http(s) with a host, after the spec's normalisation. */
function siteUrl(input: string): string | null {
  const normalised = normalizeSiteUrl(input);
  if (!normalised) return null;
  try {
    const url = new URL(normalised);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname ? normalised : null;
  } catch {
    return null;
  }
}

/** A folder typed in the form: trailing slashes trimmed, absolute, normalised; null when it tries to climb out (`..`). */
function folder(input: string): string | null {
  try {
    return normaliseFolder(trimFolder(input) || "/");
  } catch (error) {
    if (error instanceof AgentError) return null;
    throw error;
  }
}

/**
 * The form's fields merged over the stored site (none on create) and normalised; `invalid` names
 * what is missing or malformed. Secrets are merged separately (`mergeSecrets`).
 */
function normaliseFields(input: SiteBody, current: Site | null): { fields: SiteFields; invalid: string[] } {
  const invalid: string[] = [];
  const name = (input.name ?? current?.name ?? "").trim();
  if (!name) invalid.push("name");
  const url = input.url !== undefined ? siteUrl(input.url) : (current?.url ?? null);
  if (!url) invalid.push("url");
  const storedProtocol = current && current.protocol !== "demo" ? current.protocol : undefined;
  const protocol = input.protocol ?? storedProtocol;
  if (!protocol) invalid.push("protocol");
  const kind = protocol ?? "sftp";
  const sameProtocol = kind === storedProtocol;
  let host = (input.host ?? current?.host ?? "").trim();
  if (kind === "webdav") host = normalizeWebdavHost(host);
  const port = input.port !== undefined ? input.port : sameProtocol ? (current?.port ?? null) : null;
  const isS3 = kind === "s3";
  const home = input.homeFolder !== undefined ? folder(input.homeFolder) : (current?.homeFolder ?? "/");
  if (!home) invalid.push("homeFolder");
  const upload = input.uploadFolder !== undefined ? folder(input.uploadFolder) : (current?.uploadFolder ?? home);
  if (!upload) invalid.push("uploadFolder");
  const fields: SiteFields = {
    name,
    url: url ?? "",
    protocol: kind,
    host: host || null,
    port: isS3 || kind === "webdav" ? port : (port ?? DEFAULT_PORTS[kind] ?? null),
    username: isS3 ? null : (input.username ?? current?.username ?? "").trim() || null,
    s3AccessKey: isS3 ? (input.s3AccessKey ?? current?.s3AccessKey ?? null) : null,
    s3Region: isS3 ? (input.s3Region ?? current?.s3Region ?? null) : null,
    s3Bucket: isS3 ? (input.s3Bucket ?? current?.s3Bucket ?? null) : null,
    s3Acl: isS3 ? (input.s3Acl !== undefined ? input.s3Acl : (current?.s3Acl ?? null)) : null,
    agentId: input.agentId !== undefined ? input.agentId : (current?.agentId ?? null),
    homeFolder: home ?? "/",
    // The spec: an upload folder outside the home folder is reset to the home folder.
    uploadFolder: fitUploadFolder(upload ?? "/", home ?? "/"),
    isLocked: input.isLocked ?? current?.isLocked ?? false,
    canDuplicatePages: input.canDuplicatePages ?? current?.canDuplicatePages ?? false,
    canDeletePages: input.canDeletePages ?? current?.canDeletePages ?? false,
    gaProfileId: input.gaProfileId !== undefined ? input.gaProfileId : (current?.gaProfileId ?? null),
  };
  return { fields, invalid };
}

/**
 * The secrets the site keeps: a typed secret replaces the stored one, an empty one keeps it, and
 * only the protocol's own secrets stay. On SFTP, typing a new key drops the stored password and
 * typing a new password drops the stored key (the form offers one or the other).
 */
function mergeSecrets(protocol: SiteFields["protocol"], stored: SiteSecrets, input: SiteBody): SiteSecrets {
  if (protocol === "s3") return clean({ s3SecretKey: input.s3SecretKey ?? stored.s3SecretKey });
  if (protocol !== "sftp") return clean({ password: input.password ?? stored.password });
  const keyTyped = input.privateKey !== undefined;
  const passwordTyped = input.password !== undefined;
  return clean({
    password: input.password ?? (keyTyped && !passwordTyped ? undefined : stored.password),
    privateKey: input.privateKey ?? (passwordTyped && !keyTyped ? undefined : stored.privateKey),
    passphrase: keyTyped ? undefined : stored.passphrase,
  });
}

function clean(secrets: SiteSecrets): SiteSecrets {
  return Object.fromEntries(Object.entries(secrets).filter(([, value]) => typeof value === "string" && value !== "")) as SiteSecrets;
}

/** What each protocol needs (the connection form's rules, on the merged values). */
function missingForProtocol(fields: SiteFields, secrets: SiteSecrets): string[] {
  if (fields.protocol === "s3") {
    return [!fields.s3AccessKey && "s3AccessKey", !secrets.s3SecretKey && "s3SecretKey", !fields.s3Bucket && "s3Bucket"].filter((x): x is string => Boolean(x));
  }
  const missing: string[] = [];
  if (!fields.host) missing.push("host");
  if (fields.protocol === "sftp") {
    if (!fields.username) missing.push("username");
    if (!secrets.password && !secrets.privateKey) missing.push("password");
  }
  return missing;
}

/** The chosen agent (null: the hosted one); another account's agent is an invalid field. */
async function requireOwnAgent(ctx: ServiceContext, accountId: string, agentId: string | null | undefined): Promise<void> {
  if (!agentId) return;
  const row = await ctx.db.select({ id: agents.id }).from(agents).where(and(eq(agents.id, agentId), eq(agents.accountId, accountId))).get();
  if (!row) throw new AppError("VALIDATION_ERROR", { invalid: ["agentId"] });
}

interface TestedConnection {
  entries: RemoteEntry[];
  pins: { sftpHostKey: string | null; ftpsCertFingerprint: string | null };
  spec: ConnectionSpec;
  agentId: string | null;
}

/**
 * Connects with the form's settings under the site's own pool key and lists the home folder; the
 * agent's failure (CONNECTION_AGENT_AUTH, _CONNECT, _OFFLINE, …) propagates and nothing is saved.
 * `pins` are checked by the agent when given and answered as they are to be stored.
 */
async function testConnection(ctx: ServiceContext, siteId: string, fields: SiteFields, secrets: SiteSecrets, pins: { sftpHostKey?: string | null; ftpsCertFingerprint?: string | null }): Promise<TestedConnection> {
  const spec = connectionSpec.parse({
    key: `site:${siteId}`,
    protocol: fields.protocol,
    host: fields.host ?? "",
    port: fields.port ?? undefined,
    username: fields.username ?? "",
    password: secrets.password,
    privateKey: secrets.privateKey,
    passphrase: secrets.passphrase,
    s3AccessKey: fields.s3AccessKey ?? undefined,
    s3SecretKey: secrets.s3SecretKey,
    s3Region: fields.s3Region ?? undefined,
    s3Bucket: fields.s3Bucket ?? undefined,
    s3Acl: fields.s3Acl === "public-read" ? "public-read" : undefined,
    home: fields.homeFolder,
    sftpHostKey: fields.protocol === "sftp" ? (pins.sftpHostKey ?? undefined) : undefined,
    ftpsCertFingerprint: fields.protocol === "ftps" ? (pins.ftpsCertFingerprint ?? undefined) : undefined,
  });
  const agentId = fields.agentId ?? null;
  const fs = agentRemoteFs(ctx.env, agentId, spec);
  const entries = await fs.test();
  return {
    entries,
    spec,
    agentId,
    pins: {
      sftpHostKey: fields.protocol === "sftp" ? (spec.sftpHostKey ?? fs.observedPins.sftpHostKey ?? null) : null,
      ftpsCertFingerprint: fields.protocol === "ftps" ? (spec.ftpsCertFingerprint ?? fs.observedPins.ftpsCertFingerprint ?? null) : null,
    },
  };
}

/** The classification the site's URL and home page suggest (the home page read through the tested connection). */
async function detectClassification(ctx: ServiceContext, tested: TestedConnection, url: string): Promise<SiteClassification> {
  const names = new Set(tested.entries.filter((entry) => entry.type === "file").map((entry) => entry.name.toLowerCase()));
  const homePage = HOME_PAGE_NAMES.find((name) => names.has(name));
  let html = "";
  if (homePage) {
    const path = tested.entries.find((entry) => entry.name.toLowerCase() === homePage)!.path;
    try {
      const bytes = await agentRemoteFs(ctx.env, tested.agentId, tested.spec).read(path, { maxBytes: 512 * 1024 });
      html = new TextDecoder().decode(bytes);
    } catch {
      // A home page that cannot be read leaves the URL to decide.
    }
  }
  return classifySite(url, html);
}

function validationError(invalid: string[]): AppError {
  return new AppError("VALIDATION_ERROR", { invalid: [...new Set(invalid)] });
}

/**
 * `POST /sites` (NewSite): checks the form, tests the connection through the chosen agent, then
 * saves the site with its secrets sealed and the pins the connection showed. Without a chosen
 * classification the site is classified from its URL and home page; a chosen one stands (the
 * superuser may reclassify it), and a non-commercial choice for a site that looks commercial is
 * recorded in the audit log for review. Those who can manage sites only.
 *
 * @example const { site } = await createSite(ctx, { name: "Bakery", url: "bakery.example", protocol: "ftp", host: "ftp.bakery.example", username: "web", password: "…" });
 */
export async function createSite(ctx: ServiceContext, input: SiteBody, options: { defer?: Defer } = {}): Promise<{ site: SiteDetail }> {
  const actor = requireSiteManager(ctx);
  const { fields, invalid } = normaliseFields(input, null);
  const secrets = mergeSecrets(fields.protocol, {}, input);
  invalid.push(...missingForProtocol(fields, secrets));
  if (invalid.length) throw validationError(invalid);
  await requireOwnAgent(ctx, actor.account.id, fields.agentId);
  const id = newId();
  const tested = await testConnection(ctx, id, fields, secrets, { sftpHostKey: input.sftpHostKey, ftpsCertFingerprint: input.ftpsCertFingerprint });
  const detected = await detectClassification(ctx, tested, fields.url);
  const classification = input.classification ?? detected;
  const owner = { id, accountId: actor.account.id };
  const sealed = Object.keys(secrets).length ? await sealSiteSecrets(ctx.env, owner, secrets) : {};
  const row: NewSite = { ...fields, ...owner, ...sealed, classification, ...tested.pins };
  await ctx.db.batch([
    ctx.db.insert(sites).values(row),
    auditStatement(ctx, {
      action: "site.create",
      entity: "site",
      entityId: id,
      details: { protocol: fields.protocol, classification, detectedClassification: detected, secrets: Object.keys(secrets) },
    }),
  ]);
  const site = await ctx.db.select().from(sites).where(and(eq(sites.id, id), eq(sites.accountId, actor.account.id))).get();
  if (!site) throw new AppError("NOT_FOUND");
  scheduleScreenshot(ctx, site, options.defer);
  return { site: await toDetail(ctx, actor, site) };
}

const CONNECTION_COLUMNS = ["protocol", "host", "port", "username", "s3AccessKey", "s3Region", "s3Bucket", "s3Acl", "agentId", "homeFolder"] as const;

/**
 * `PUT /sites/{siteId}` (EditSite): changes what the body names; an empty or missing secret keeps
 * the stored one. When the connection changes (any connection field, the home folder or a secret)
 * it is tested first, as on create; other changes (name, lockdown, page flags, …) save without
 * reaching the server. A classification locked by the superuser cannot change (FORBIDDEN on
 * `classification`). The demo site has no site form (FORBIDDEN). Those who can manage sites only.
 *
 * @example await updateSite(ctx, siteId, { isLocked: true })
 */
export async function updateSite(ctx: ServiceContext, siteId: string, input: SiteBody): Promise<{ site: SiteDetail }> {
  const actor = requireSiteManager(ctx);
  const current = await findAccessibleSite(ctx, siteId);
  if (current.isDemo || current.protocol === "demo") throw new AppError("FORBIDDEN");
  const classification = input.classification ?? current.classification;
  if (classification !== current.classification && current.classificationLocked) throw new AppError("FORBIDDEN", { invalid: ["classification"] });
  const { fields, invalid } = normaliseFields(input, current);
  const stored = await openSiteSecrets(ctx.env, current).catch(() => ({}) as SiteSecrets);
  const secrets = mergeSecrets(fields.protocol, stored, input);
  invalid.push(...missingForProtocol(fields, secrets));
  if (invalid.length) throw validationError(invalid);
  if (fields.agentId !== current.agentId) await requireOwnAgent(ctx, actor.account.id, fields.agentId);

  const secretsChanged = JSON.stringify(clean(stored)) !== JSON.stringify(secrets);
  // A stored row without a port uses its protocol's default, as the saved form does.
  const was = { ...current, port: current.port ?? DEFAULT_PORTS[current.protocol] ?? null };
  const connectionChanged = secretsChanged || CONNECTION_COLUMNS.some((column) => (fields[column] ?? null) !== (was[column] ?? null));
  const changes: Partial<NewSite> = { ...fields, classification };
  if (connectionChanged) {
    const sameServer = fields.protocol === was.protocol && fields.host === was.host && fields.port === was.port;
    // The same server keeps its pins (a changed key is refused); another one is pinned anew.
    const pins = sameServer
      ? { sftpHostKey: current.sftpHostKey, ftpsCertFingerprint: current.ftpsCertFingerprint }
      : { sftpHostKey: input.sftpHostKey, ftpsCertFingerprint: input.ftpsCertFingerprint };
    const tested = await testConnection(ctx, current.id, fields, secrets, pins);
    Object.assign(changes, tested.pins);
  }
  if (secretsChanged) {
    Object.assign(
      changes,
      Object.keys(secrets).length ? await sealSiteSecrets(ctx.env, current, secrets) : { secretsCiphertext: null, secretsIv: null, secretsKeyVersion: null },
    );
  }
  const changed = Object.keys(fields).filter((key) => (fields[key as keyof SiteFields] ?? null) !== (current[key as keyof Site] ?? null));
  await ctx.db.batch([
    ctx.db.update(sites).set(changes).where(and(eq(sites.id, current.id), eq(sites.accountId, actor.account.id))),
    auditStatement(ctx, {
      action: "site.update",
      entity: "site",
      entityId: current.id,
      details: { changed, ...(secretsChanged ? { secrets: Object.keys(secrets) } : {}), ...(classification !== current.classification ? { classification } : {}) },
    }),
  ]);
  const site = await ctx.db.select().from(sites).where(and(eq(sites.id, current.id), eq(sites.accountId, actor.account.id))).get();
  if (!site) throw new AppError("NOT_FOUND");
  return { site: await toDetail(ctx, actor, site) };
}

/** Removes every object under an R2 prefix. */
async function removePrefix(bucket: R2Bucket, prefix: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    if (page.objects.length) await bucket.delete(page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/**
 * `DELETE /sites/{siteId}`: removes the site with its pages, revisions, templates, blocks, grants,
 * favorites and notifications (by cascade), its screenshots and, for a demo site, its files in R2.
 * The customer's server is not touched. Those who can manage sites only.
 */
export async function deleteSite(ctx: ServiceContext, siteId: string): Promise<void> {
  const actor = requireSiteManager(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  await ctx.db.batch([
    ctx.db.delete(sites).where(and(eq(sites.id, site.id), eq(sites.accountId, actor.account.id))),
    auditStatement(ctx, { action: "site.delete", entity: "site", entityId: site.id, details: { name: site.name, url: site.url } }),
  ]);
  await removePrefix(ctx.env.UPLOADS, `screenshots/${site.accountId}/${site.id}/`);
  if (site.isDemo || site.protocol === "demo") await removePrefix(ctx.env.UPLOADS, demoSitePrefix(site.id));
}

// ── screenshots ──────────────────────────────────────────────────────────────────────────────────

function scheduleScreenshot(ctx: ServiceContext, site: Site, defer: Defer | undefined): void {
  const work = captureSiteScreenshot(ctx.env, ctx.db, site).catch((error: unknown) => console.warn("Screenshot not stored", site.id, error));
  if (defer) defer(work);
  else void work;
}

/**
 * `PUT /sites/{siteId}/screenshot`: asks for a new screenshot of the site's home page, taken after
 * the answer (see screenshots.server.ts); answers the spec's message in the actor's language.
 * Those who can manage sites only.
 */
export async function requestScreenshot(ctx: ServiceContext, siteId: string, options: { defer?: Defer } = {}): Promise<{ message: string }> {
  requireSiteManager(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  scheduleScreenshot(ctx, site, options.defer);
  return { message: resources[ctx.locale].sites.screenshot.generating };
}

/** `GET /sites/{siteId}/screenshot`: the stored screenshot, for anyone who reaches the site. */
export async function readScreenshot(ctx: ServiceContext, siteId: string): Promise<{ body: ReadableStream; contentType: string }> {
  const site = await findAccessibleSite(ctx, siteId);
  if (!site.screenshotKey) throw new AppError("NOT_FOUND");
  const object = await ctx.env.UPLOADS.get(site.screenshotKey);
  if (!object) throw new AppError("NOT_FOUND");
  return { body: object.body, contentType: object.httpMetadata?.contentType ?? "image/png" };
}

// ── the superuser ────────────────────────────────────────────────────────────────────────────────

/**
 * `PUT /admin/sites/{siteId}/classify` (AdminReclassify): the superuser sets a site's
 * classification, of any account, and locks it against its owner (DECISIONS.md).
 * @example await reclassifySite(ctx, siteId, "commercial") // { site: { classification: "commercial", classificationLocked: true, … } }
 */
export async function reclassifySite(ctx: ServiceContext, siteId: string, classification: SiteClassification) {
  requireSuperuser(ctx);
  const [site] = await ctx.db
    .update(sites)
    .set({ classification, classificationLocked: true })
    .where(eq(sites.id, siteId))
    .returning({ id: sites.id, accountId: sites.accountId, name: sites.name, classification: sites.classification, classificationLocked: sites.classificationLocked });
  if (!site) throw new AppError("NOT_FOUND");
  await audit(ctx, { accountId: site.accountId, action: "site.reclassify", entity: "site", entityId: site.id, details: { classification } });
  return { site };
}
