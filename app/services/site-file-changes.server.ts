/**
 * Changing a site's uploads from the file browser: new folders, uploads, renames and deletes
 * (`POST`, `PUT`, `DELETE /sites/{siteId}/files`). Every change lies inside the site's upload
 * folder (INVALID_UPLOAD_PATH otherwise; the pages themselves change through the page calls),
 * and none is made while the site is on lockdown (SITE_IS_LOCKED).
 *
 * Uploads are parsed as they stream in (25 MB per file, 100 MB per request, counted on the bytes
 * that arrive: SECURITY.md 17). For a site on a customer's server each file is staged in R2 and
 * the agent fetches it (upload-staging.server.ts); a demo site's store takes the bytes directly.
 * Nothing is written for a file that did not arrive whole, and an existing file is never replaced
 * (FILE_ALREADY_EXISTS).
 *
 * @example
 * await createSiteFolder(ctx, siteId, { path: "/uploads/2026" });
 * await uploadSiteFiles(ctx, siteId, request); // { files: [{ name: "a.png", path: "/uploads/a.png" }] }
 */
import {
  MaxFileSizeExceededError,
  MaxPartsExceededError,
  MaxTotalSizeExceededError,
  MultipartParseError,
  parseMultipartRequest,
} from "@remix-run/multipart-parser";
import { AgentError } from "../../agent/src/errors.ts";
import { baseName, parentOf, resolveRemotePath } from "../../agent/src/paths.ts";
import type { RemoteFs } from "../../agent/src/remote-fs.ts";
import type { Site } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { AgentRemoteFs } from "./agent-link.server";
import { HOSTED_AGENT } from "./agent-link.server";
import type { ServiceContext } from "./context.server";
import { findAccessibleSite, pinObservedKeys, siteRemoteFs } from "./site-files.server";
import { removeStaged, stageUpload } from "./upload-staging.server";

/** DECISIONS.md "Limits". */
export const MAX_UPLOAD_FILE_BYTES = 25 * 1024 * 1024;
export const MAX_UPLOAD_REQUEST_BYTES = 100 * 1024 * 1024;
/** Files per upload request (and entries per rename or delete request). */
export const MAX_FILES_PER_REQUEST = 100;

/**
 * File types the web server would run instead of serve. A client user who may upload images must
 * not be able to place a script on the customer's server (FILE_TYPE_NOT_SUPPORTED).
 */
const SERVER_EXECUTABLE = /\.(php\d?|phtml|phar|pht|shtml|asp|aspx|ashx|asmx|cer|jsp|jspx|cgi|pl|py|rb|sh|bash|exe|dll|so)$/i;

export interface ChangedFile {
  name: string;
  path: string;
}

interface Target {
  site: Site;
  fs: RemoteFs;
}

/**
 * The site and its RemoteFs, if the actor may change its uploads now (whoever reaches the site,
 * unless it is on lockdown). Thumbnails use it too: whoever may upload may make them.
 * @example const { site, fs } = await openForChange(ctx, siteId);
 */
export async function openForChange(ctx: ServiceContext, siteId: string): Promise<Target> {
  const site = await findAccessibleSite(ctx, siteId);
  if (site.isLocked) throw new AppError("SITE_IS_LOCKED");
  return { site, fs: await siteRemoteFs(ctx.env, site) };
}

/**
 * A path of the site: normalised and inside its home folder, else PATH_OUTSIDE_OF_HOME_FOLDER
 * naming `field`.
 * @example homePath(site, "blog/a.png", "path") // "/www/blog/a.png" for the home folder "/www"
 */
export function homePath(site: Site, input: string, field: string): string {
  try {
    return resolveRemotePath(site.homeFolder, input);
  } catch (error) {
    if (error instanceof AgentError) throw new AppError("PATH_OUTSIDE_OF_HOME_FOLDER", { invalid: [field] });
    throw error;
  }
}

/**
 * A path for a change: normalised, inside the home folder, and inside (not equal to, unless
 * `allowUploadFolder`) the upload folder.
 * @example uploadPath(site, "/uploads/a.png", "path") // "/uploads/a.png"; "/index.png" throws INVALID_UPLOAD_PATH
 */
export function uploadPath(site: Site, input: string, field: string, options: { allowUploadFolder?: boolean } = {}): string {
  const full = homePath(site, input, field);
  const root = resolveRemotePath(site.homeFolder, site.uploadFolder);
  const inside = root === "/" ? full !== "/" : full.startsWith(`${root}/`);
  if (inside || (options.allowUploadFolder && full === root)) return full;
  throw new AppError("INVALID_UPLOAD_PATH", { invalid: [field] });
}

/**
 * A file or folder name typed by a user or sent by a browser: one plain, visible segment.
 * @example plainName(" a.png ", "files") // "a.png"; ".htaccess" throws INVALID_UPLOAD_PATH
 */
export function plainName(name: string, field: string): string {
  const trimmed = name.trim();
  const invalid =
    trimmed === "" ||
    trimmed.startsWith(".") ||
    /[/\\\0]/.test(trimmed) ||
    [...trimmed].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f) ||
    new TextEncoder().encode(trimmed).byteLength > 255;
  if (invalid) throw new AppError("INVALID_UPLOAD_PATH", { invalid: [field] });
  return trimmed;
}

function assertServableType(name: string, field: string): void {
  if (SERVER_EXECUTABLE.test(name) || /^\.?htaccess$|^\.user\.ini$|^web\.config$/i.test(name)) throw new AppError("FILE_TYPE_NOT_SUPPORTED", { invalid: [field] });
}

/** Refuses to replace anything that exists (FILE_ALREADY_EXISTS names the field). */
async function assertFree(fs: RemoteFs, path: string, field: string): Promise<void> {
  if (await fs.stat(path)) throw new AppError("FILE_ALREADY_EXISTS", { invalid: [field] });
}

/**
 * `POST /sites/{siteId}/files` with a JSON body: creates the folder `path` (and missing parents)
 * inside the upload folder.
 * @example await createSiteFolder(ctx, siteId, { path: "/uploads/team" }) // { files: [{ name: "team", path: "/uploads/team" }] }
 */
export async function createSiteFolder(ctx: ServiceContext, siteId: string, body: { path: string }): Promise<{ files: ChangedFile[] }> {
  const { site, fs } = await openForChange(ctx, siteId);
  const path = uploadPath(site, body.path, "path");
  plainName(baseName(path), "path");
  await assertFree(fs, path, "path");
  await fs.mkdirp(path);
  await pinObservedKeys(ctx.db, site, fs);
  return { files: [{ name: baseName(path), path }] };
}

/**
 * Writes one upload (or a thumbnail): staged in R2 for the agent to fetch, or straight into a demo
 * site's store. An existing file at `path` is replaced; callers that must not replace check first.
 * @example await writeUpload(ctx, site, fs, "/uploads/a.png", bytes);
 */
export async function writeUpload(ctx: ServiceContext, site: Site, fs: RemoteFs, path: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
  if (!("writeStaged" in fs)) return fs.writeAtomic(path, bytes);
  const staged = await stageUpload(ctx.env.UPLOADS, site.agentId ?? HOSTED_AGENT, bytes);
  try {
    await (fs as AgentRemoteFs).writeStaged(path, staged);
  } finally {
    await removeStaged(ctx.env.UPLOADS, staged.key);
  }
}

/**
 * `POST /sites/{siteId}/files` with a multipart body: the field `path` (a folder inside the upload
 * folder, before the files) and one or more `files`. Answers the written files in order. The whole
 * request is checked as it streams; a refused file stops the request, and files written before it
 * stay written (each one whole).
 *
 * @example
 * const form = new FormData(); form.set("path", "/uploads"); form.append("files", new File([png], "a.png"));
 * await uploadSiteFiles(ctx, siteId, new Request(url, { method: "POST", body: form }));
 */
export async function uploadSiteFiles(ctx: ServiceContext, siteId: string, request: Request): Promise<{ files: ChangedFile[] }> {
  const { site, fs } = await openForChange(ctx, siteId);
  const written: ChangedFile[] = [];
  let folder: string | null = null;
  try {
    for await (const part of parseMultipartRequest(request, {
      maxFileSize: MAX_UPLOAD_FILE_BYTES,
      maxTotalSize: MAX_UPLOAD_REQUEST_BYTES,
      maxParts: MAX_FILES_PER_REQUEST + 1,
    })) {
      if (!part.isFile) {
        if (part.name === "path") folder = uploadPath(site, part.text, "path", { allowUploadFolder: true });
        continue;
      }
      if (part.name !== "files") continue;
      if (folder === null) throw new AppError("VALIDATION_ERROR", { invalid: ["path"] });
      // Browsers send the bare name; anything path-like from a script is cut to its last segment.
      const name = plainName(baseName(`/${(part.filename ?? "").replace(/\\/g, "/")}`), "files");
      assertServableType(name, "files");
      const path = `${folder === "/" ? "" : folder}/${name}`;
      await assertFree(fs, path, "files");
      await writeUpload(ctx, site, fs, path, new Uint8Array(part.bytes));
      written.push({ name, path });
    }
  } catch (error) {
    if (error instanceof MaxFileSizeExceededError || error instanceof MaxTotalSizeExceededError) throw new AppError("FILE_TOO_LARGE", { invalid: ["files"] });
    if (error instanceof MaxPartsExceededError) throw new AppError("VALIDATION_ERROR", { invalid: ["files"] });
    if (error instanceof MultipartParseError) throw new AppError("VALIDATION_ERROR", { invalid: ["files"] });
    throw error;
  }
  await pinObservedKeys(ctx.db, site, fs);
  if (written.length === 0) throw new AppError("VALIDATION_ERROR", { invalid: [folder === null ? "path" : "files"] });
  return { files: written };
}

/**
 * `PUT /sites/{siteId}/files`: renames or moves each `path` to `newPath`, in order, never over an
 * existing file; both inside the upload folder.
 * @example await renameSiteFiles(ctx, siteId, { files: [{ path: "/uploads/a.png", newPath: "/uploads/b.png" }] })
 */
export async function renameSiteFiles(ctx: ServiceContext, siteId: string, body: { files: { path: string; newPath: string }[] }): Promise<{ files: ChangedFile[] }> {
  const { site, fs } = await openForChange(ctx, siteId);
  const moves = body.files.map((file, index) => {
    const from = uploadPath(site, file.path, `files.${index}.path`);
    const to = uploadPath(site, file.newPath, `files.${index}.newPath`);
    plainName(baseName(to), `files.${index}.newPath`);
    // A folder cannot move into itself.
    if (to.startsWith(`${from}/`)) throw new AppError("INVALID_UPLOAD_PATH", { invalid: [`files.${index}.newPath`] });
    return { from, to, index };
  });
  const renamed: ChangedFile[] = [];
  for (const { from, to, index } of moves) {
    if (from === to) {
      renamed.push({ name: baseName(to), path: to });
      continue;
    }
    const entry = await fs.stat(from);
    if (!entry) throw new AppError("NOT_FOUND", { invalid: [`files.${index}.path`] });
    if (entry.type === "file") assertServableType(baseName(to), `files.${index}.newPath`);
    await assertFree(fs, to, `files.${index}.newPath`);
    if (parentOf(to) !== parentOf(from)) await fs.mkdirp(parentOf(to));
    await fs.rename(from, to);
    renamed.push({ name: baseName(to), path: to });
  }
  await pinObservedKeys(ctx.db, site, fs);
  return { files: renamed };
}

/**
 * `DELETE /sites/{siteId}/files`: removes each path (a folder with its contents) inside the upload
 * folder. Answers what was removed; a path already gone counts as removed.
 * @example await deleteSiteFiles(ctx, siteId, { paths: ["/uploads/old.png"] })
 */
export async function deleteSiteFiles(ctx: ServiceContext, siteId: string, body: { paths: string[] }): Promise<{ files: ChangedFile[] }> {
  const { site, fs } = await openForChange(ctx, siteId);
  const paths = body.paths.map((path, index) => uploadPath(site, path, `paths.${index}`));
  const removed: ChangedFile[] = [];
  for (const path of paths) {
    await fs.remove(path);
    removed.push({ name: baseName(path), path });
  }
  await pinObservedKeys(ctx.db, site, fs);
  return { files: removed };
}
