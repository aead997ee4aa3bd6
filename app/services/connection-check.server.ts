/**
 * The site form's connection, before the site is saved: the connection test (`POST
 * /utilities/test-connection`) and browsing the server (`GET /utilities/files` with the form in
 * the `Target-Server` header). Both reach the server through the agent link with a ConnectionSpec
 * built from the form (`formConnectionSpec`, which the sites operations reuse).
 */
import { and, eq, isNotNull } from "drizzle-orm";
import { agents } from "../../db/schema";
import { connectionSpec, type ConnectionSpec, type ObservedPins } from "../../agent/src/connection.ts";
import type { RemoteEntry } from "../../agent/src/remote-fs.ts";
import { AppError } from "~/lib/errors";
import { siteConnectionForm, type SiteConnectionForm } from "~/lib/schemas/site-connection";
import { sha256Hex } from "~/lib/tokens";
import { agentRemoteFs } from "./agent-link.server";
import type { ServiceContext } from "./context.server";
import { effectiveFlags, requireSignedIn } from "./policy";

export interface RemoteFile {
  name: string;
  path: string;
  type: "file" | "directory";
  size: number;
  modifiedAt: string | null;
}

function requireCanManageSites(ctx: ServiceContext) {
  const actor = requireSignedIn(ctx);
  if (!effectiveFlags(actor.user).canManageSites) throw new AppError("FORBIDDEN");
  return actor;
}

/**
 * The form's connection fields, checked; VALIDATION_ERROR names the invalid fields.
 * @example parseConnectionForm({ protocol: "ftp", host: "ftp.example.com", username: "me", password: "…" })
 */
export function parseConnectionForm(input: unknown): SiteConnectionForm {
  const parsed = siteConnectionForm.safeParse(input);
  if (!parsed.success) {
    const invalid = [...new Set(parsed.error.issues.map((issue) => issue.path.map(String).join(".") || "body"))];
    throw new AppError("VALIDATION_ERROR", { invalid });
  }
  return parsed.data;
}

/**
 * What the agent gets for a site form: the connection fields, with the key "form:<sha256 of the
 * settings and the account>" so repeated tests and browsing of the same unsaved settings reuse the
 * agent's connections, and nothing is shared between accounts.
 * @example await formConnectionSpec(form, account.id) // { key: "form:3f…", protocol: "sftp", … }
 */
export async function formConnectionSpec(form: SiteConnectionForm, accountId: string): Promise<ConnectionSpec> {
  const settings = {
    protocol: form.protocol,
    host: form.host,
    port: form.port,
    username: form.username,
    password: form.password,
    privateKey: form.privateKey,
    s3AccessKey: form.s3AccessKey,
    s3SecretKey: form.s3SecretKey,
    s3Region: form.s3Region,
    s3Bucket: form.s3Bucket,
    s3Acl: form.s3Acl,
    home: form.homeFolder,
    sftpHostKey: form.sftpHostKey,
    ftpsCertFingerprint: form.ftpsCertFingerprint,
  };
  const fingerprint = await sha256Hex(JSON.stringify([accountId, settings]));
  return connectionSpec.parse({ key: `form:${fingerprint}`, ...settings });
}

/** The agent the form chose (null = the hosted agent); another account's agent is an invalid field. */
async function formAgent(ctx: ServiceContext, accountId: string, agentId: string | undefined): Promise<string | null> {
  if (!agentId) return null;
  const row = await ctx.db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.accountId, accountId), isNotNull(agents.accountId)))
    .get();
  if (!row) throw new AppError("VALIDATION_ERROR", { invalid: ["agentId"] });
  return row.id;
}

function toRemoteFile(entry: RemoteEntry): RemoteFile {
  return { name: entry.name, path: entry.path, type: entry.type, size: entry.size, modifiedAt: entry.modifiedAt ? entry.modifiedAt.toISOString() : null };
}

async function formFs(ctx: ServiceContext, input: unknown) {
  const actor = requireCanManageSites(ctx);
  const form = parseConnectionForm(input);
  const agentId = await formAgent(ctx, actor.account.id, form.agentId);
  return agentRemoteFs(ctx.env, agentId, await formConnectionSpec(form, actor.account.id));
}

/**
 * `GET /utilities/files`: a folder of the server the site form describes (`targetServer`: the
 * form as JSON, from the `Target-Server` header), before the site is saved.
 * @example await browseFormServer(ctx, { targetServer: JSON.stringify(form), path: "/www" }) // { files: [...] }
 */
export async function browseFormServer(ctx: ServiceContext, input: { targetServer: string | undefined; path: string | undefined }): Promise<{ files: RemoteFile[] }> {
  requireCanManageSites(ctx);
  let form: unknown;
  try {
    form = JSON.parse(input.targetServer ?? "");
  } catch {
    throw new AppError("VALIDATION_ERROR", { invalid: ["Target-Server"] });
  }
  const fs = await formFs(ctx, form);
  const entries = await fs.list(input.path ?? "");
  return { files: entries.map(toRemoteFile) };
}

/**
 * `POST /utilities/test-connection`: connects with the site form's settings and lists the home
 * folder; failures are the agent's codes (CONNECTION_AGENT_AUTH, _CONNECT, _HOST_NOT_ALLOWED, …).
 * `pins` is what the server showed (SFTP host key, FTPS certificate), for the form to keep.
 * @example await testFormConnection(ctx, form) // { ok: true, files: [...], pins: { sftpHostKey: "SHA256:…" } }
 */
export async function testFormConnection(ctx: ServiceContext, form: unknown): Promise<{ ok: true; files: RemoteFile[]; pins: ObservedPins }> {
  const fs = await formFs(ctx, form);
  const entries = await fs.test();
  return { ok: true, files: entries.map(toRemoteFile), pins: { ...fs.observedPins } };
}
