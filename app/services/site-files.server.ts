/**
 * A site's files: the one place that answers "a RemoteFs for this site" — the demo store in R2 for a
 * demo site, otherwise the site's server through its connection agent — and the file operations of
 * the API on top of it (`GET /sites/{siteId}/files`).
 *
 * The site's secrets (password, private key and passphrase, S3 secret key) are one JSON object
 * sealed with the secret box (SECURITY.md 14) under the AAD `accountId|siteId|conn|keyVersion`
 * (`siteSecretsAad`); they are opened only to build the ConnectionSpec of one call.
 *
 * @example
 * const fs = await siteRemoteFs(ctx.env, site);
 * const entries = await fs.list(site.homeFolder);
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { connectionSpec, type ConnectionSpec, type ObservedPins } from "../../agent/src/connection.ts";
import { AgentError } from "../../agent/src/errors.ts";
import { resolveRemotePath } from "../../agent/src/paths.ts";
import type { RemoteFs } from "../../agent/src/remote-fs.ts";
import { pages, sitePermissions, sites, type Site } from "../../db/schema";
import { AppError } from "~/lib/errors";
import { toFileEntry, type FileEntry, type SiteFilesQuery } from "~/lib/schemas/site-files";
import { agentRemoteFs, type AgentRemoteFs } from "./agent-link.server";
import type { ServiceContext } from "./context.server";
import type { Db } from "./db.server";
import { createDemoStore } from "./demo-store.server";
import { isAccountAdmin, requireSignedIn } from "./policy";
import { openSecret, sealSecret, type SecretBoxEnv } from "./secret-box.server";

// ── secrets ──────────────────────────────────────────────────────────────────────────────────────

/** What `sites.secretsCiphertext` holds once opened; each key only when the protocol uses it. */
export interface SiteSecrets {
  password?: string;
  privateKey?: string;
  passphrase?: string;
  s3SecretKey?: string;
}

/** The AAD of a site's connection secrets: they open only in this site's row of this account. */
export function siteSecretsAad(accountId: string, siteId: string) {
  return (keyVersion: number) => `${accountId}|${siteId}|conn|${keyVersion}`;
}

/**
 * Seals a site's secrets for its row (the site form and the seed use it).
 * @example await db.update(sites).set(await sealSiteSecrets(env, site, { password })).where(eq(sites.id, site.id));
 */
export async function sealSiteSecrets(env: SecretBoxEnv, site: Pick<Site, "id" | "accountId">, secrets: SiteSecrets) {
  const sealed = await sealSecret(env, new TextEncoder().encode(JSON.stringify(secrets)), siteSecretsAad(site.accountId, site.id));
  return { secretsCiphertext: sealed.ciphertext, secretsIv: sealed.iv, secretsKeyVersion: sealed.keyVersion };
}

/** The site's secrets, or none when the row stores none. Throws when they do not open (wrong row, tampered, key gone). */
export async function openSiteSecrets(env: SecretBoxEnv, site: Pick<Site, "id" | "accountId" | "secretsCiphertext" | "secretsIv" | "secretsKeyVersion">): Promise<SiteSecrets> {
  if (!site.secretsCiphertext || !site.secretsIv || site.secretsKeyVersion === null) return {};
  const plaintext = await openSecret(
    env,
    { ciphertext: site.secretsCiphertext, iv: site.secretsIv, keyVersion: site.secretsKeyVersion },
    siteSecretsAad(site.accountId, site.id),
  );
  const parsed: unknown = JSON.parse(new TextDecoder().decode(plaintext));
  if (typeof parsed !== "object" || parsed === null) return {};
  const pick = (key: keyof SiteSecrets) => {
    const value = (parsed as Record<string, unknown>)[key];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  return { password: pick("password"), privateKey: pick("privateKey"), passphrase: pick("passphrase"), s3SecretKey: pick("s3SecretKey") };
}

// ── the RemoteFs of a site ───────────────────────────────────────────────────────────────────────

/**
 * What the agent needs for one call on a saved site: where, how, the decrypted secrets and the
 * pins of earlier connections. Connections are reused per `site:<id>`.
 */
export async function siteConnectionSpec(env: SecretBoxEnv, site: Site): Promise<ConnectionSpec> {
  if (site.protocol === "demo") throw new Error("A demo site has no connection: use siteRemoteFs");
  const secrets = await openSiteSecrets(env, site);
  return connectionSpec.parse({
    key: `site:${site.id}`,
    protocol: site.protocol,
    host: site.host ?? "",
    port: site.port ?? undefined,
    username: site.username ?? "",
    password: secrets.password,
    privateKey: secrets.privateKey,
    passphrase: secrets.passphrase,
    s3AccessKey: site.s3AccessKey ?? undefined,
    s3SecretKey: secrets.s3SecretKey,
    s3Region: site.s3Region ?? undefined,
    s3Bucket: site.s3Bucket ?? undefined,
    s3Acl: site.s3Acl === "public-read" ? "public-read" : undefined,
    home: site.homeFolder,
    sftpHostKey: site.sftpHostKey ?? undefined,
    ftpsCertFingerprint: site.ftpsCertFingerprint ?? undefined,
  });
}

/**
 * The RemoteFs of a site: its files in R2 for a demo site, otherwise its server through the
 * site's agent (null: the hosted agent). Callers never check the protocol.
 * @example const fs = await siteRemoteFs(ctx.env, site); await fs.read("index.html");
 */
export async function siteRemoteFs(env: Env, site: Site): Promise<RemoteFs> {
  if (site.isDemo || site.protocol === "demo") return createDemoStore(env.UPLOADS, site.id, { home: site.homeFolder });
  return agentRemoteFs(env, site.agentId, await siteConnectionSpec(env, site));
}

/**
 * Pins what a connection learned on first use (SECURITY.md 4): the SFTP host key and the FTPS
 * certificate fingerprint are written only while the site has none, so a pin once set is never
 * replaced this way (a changed key is refused by the agent instead). Answers which pins it wrote.
 * @example await recordObservedPins(db, site, { sftpHostKey: "SHA256:…" });
 */
export async function recordObservedPins(db: Db, site: Pick<Site, "id" | "accountId">, pins: ObservedPins): Promise<ObservedPins> {
  const written: ObservedPins = {};
  const scope = and(eq(sites.id, site.id), eq(sites.accountId, site.accountId));
  if (pins.sftpHostKey) {
    const rows = await db.update(sites).set({ sftpHostKey: pins.sftpHostKey }).where(and(scope, isNull(sites.sftpHostKey))).returning({ id: sites.id });
    if (rows.length > 0) written.sftpHostKey = pins.sftpHostKey;
  }
  if (pins.ftpsCertFingerprint) {
    const rows = await db
      .update(sites)
      .set({ ftpsCertFingerprint: pins.ftpsCertFingerprint })
      .where(and(scope, isNull(sites.ftpsCertFingerprint)))
      .returning({ id: sites.id });
    if (rows.length > 0) written.ftpsCertFingerprint = pins.ftpsCertFingerprint;
  }
  return written;
}

/**
 * Pins what the site's connection saw, if the site had no pin yet (after any call through the agent).
 * @example const fs = await siteRemoteFs(env, site); await fs.list("/"); await pinObservedKeys(db, site, fs);
 */
export async function pinObservedKeys(db: Db, site: Site, fs: RemoteFs): Promise<void> {
  if (!("observedPins" in fs)) return;
  const pins = (fs as AgentRemoteFs).observedPins;
  const missing: ObservedPins = {
    sftpHostKey: site.sftpHostKey ? undefined : pins.sftpHostKey,
    ftpsCertFingerprint: site.ftpsCertFingerprint ? undefined : pins.ftpsCertFingerprint,
  };
  if (missing.sftpHostKey || missing.ftpsCertFingerprint) await recordObservedPins(db, site, missing);
}

// ── access ───────────────────────────────────────────────────────────────────────────────────────

/**
 * The site, if the actor may reach it: admins and owners every site of their account, client
 * users the sites granted to them. Anything else (another account's site, an ungranted one, an
 * unknown id) is NOT_FOUND, so ids reveal nothing.
 * @example const site = await findAccessibleSite(ctx, siteId);
 */
export async function findAccessibleSite(ctx: ServiceContext, siteId: string): Promise<Site> {
  const actor = requireSignedIn(ctx);
  const site = await ctx.db.select().from(sites).where(and(eq(sites.id, siteId), eq(sites.accountId, actor.account.id))).get();
  if (!site) throw new AppError("NOT_FOUND");
  if (isAccountAdmin(actor.user)) return site;
  const grant = await ctx.db
    .select({ id: sitePermissions.id })
    .from(sitePermissions)
    .where(and(eq(sitePermissions.siteId, site.id), eq(sitePermissions.userId, actor.user.id), eq(sitePermissions.accountId, actor.account.id)))
    .get();
  if (!grant) throw new AppError("NOT_FOUND");
  return site;
}

// ── operations ───────────────────────────────────────────────────────────────────────────────────

/** A folder of the site, normalised and inside its home folder, else PATH_OUTSIDE_OF_HOME_FOLDER on `path`. */
function folderOf(site: Site, path: string | undefined): string {
  try {
    return resolveRemotePath(site.homeFolder, path === undefined || path === "" ? site.homeFolder : path);
  } catch (error) {
    if (error instanceof AgentError && error.code === "PATH_OUTSIDE_OF_HOME_FOLDER") throw new AppError("PATH_OUTSIDE_OF_HOME_FOLDER", { invalid: ["path"] });
    throw error;
  }
}

/** D1 binds at most 100 parameters per statement. */
const PATHS_PER_QUERY = 90;

/**
 * `GET /sites/{siteId}/files`: the entries of a folder of the site's server (default: the home
 * folder), folders first. With `showEnabled`, each entry says whether it is already an enabled page.
 * Anyone who can reach the site may list it.
 *
 * @example const { files } = await listSiteFiles(ctx, siteId, { path: "/blog", showEnabled: true });
 */
export async function listSiteFiles(ctx: ServiceContext, siteId: string, query: SiteFilesQuery): Promise<{ files: FileEntry[] }> {
  const site = await findAccessibleSite(ctx, siteId);
  const folder = folderOf(site, query.path);
  const fs = await siteRemoteFs(ctx.env, site);
  const files = (await fs.list(folder)).map(toFileEntry);
  await pinObservedKeys(ctx.db, site, fs);
  if (!query.showEnabled) return { files };
  const candidates = files.filter((file) => file.type === "file").map((file) => file.path);
  const enabled = new Set<string>();
  for (let i = 0; i < candidates.length; i += PATHS_PER_QUERY) {
    const rows = await ctx.db
      .select({ path: pages.path })
      .from(pages)
      .where(and(eq(pages.siteId, site.id), eq(pages.accountId, site.accountId), eq(pages.isEnabled, true), inArray(pages.path, candidates.slice(i, i + PATHS_PER_QUERY))));
    for (const row of rows) enabled.add(row.path);
  }
  return { files: files.map((file) => ({ ...file, isEnabled: enabled.has(file.path) })) };
}
