/**
 * Remote paths and size limits: plain string logic with no Node or Worker API, so the agent's
 * drivers and the Worker's demo store (app/services/demo-store.server.ts) share one definition.
 * `guards.ts` re-exports everything here. SECURITY.md items 3 and 5; DECISIONS.md "Limits".
 *
 * @example resolveRemotePath("/www", "blog/a.html") // "/www/blog/a.html"
 */
import { AgentError } from "./errors.ts";

/** DECISIONS.md: 45 s per command. */
export const COMMAND_TIMEOUT_MS = 45_000;
/** DECISIONS.md: a page file read for editing is at most 5 MB. */
export const MAX_READ_BYTES = 5 * 1024 * 1024;
/** DECISIONS.md: an upload is at most 25 MB per file. */
export const MAX_WRITE_BYTES = 25 * 1024 * 1024;

// ── paths ────────────────────────────────────────────────────────────────────────────────────────

/**
 * Normalises a POSIX folder path ("/", "/www", no trailing slash). Refuses NUL, backslashes, `..`
 * segments and percent-encoded dots or slashes.
 * @example normaliseFolder("www/site/") // "/www/site"
 */
export function normaliseFolder(folder: string): string {
  return normalise(folder.startsWith("/") ? folder : `/${folder}`, folder);
}

function normalise(input: string, original: string): string {
  const refuse = (why: string) => new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", `Refused path ${JSON.stringify(original)}: ${why}`);
  if (typeof input !== "string" || input.length === 0) throw refuse("empty");
  if (input.length > 4096) throw refuse("too long");
  if (input.includes("\0")) throw refuse("NUL");
  if (input.includes("\\")) throw refuse("backslash");
  if ([...input].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f)) throw refuse("control character");
  if (/%(2e|2f|5c|00)/i.test(input)) throw refuse("percent-encoded dot, slash or NUL");
  const segments: string[] = [];
  for (const segment of input.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") throw refuse("'..' segment");
    segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/**
 * Resolves a remote path against the home folder: absolute paths are taken as they are, relative
 * ones are joined to the home folder. The answer is normalised and lies inside the home folder
 * (or is it), else PATH_OUTSIDE_OF_HOME_FOLDER.
 * @example resolveRemotePath("/www", "blog/a.html") // "/www/blog/a.html"
 * @example resolveRemotePath("/www", "/etc/passwd") // throws PATH_OUTSIDE_OF_HOME_FOLDER
 */
export function resolveRemotePath(home: string, input: string): string {
  const root = normaliseFolder(home);
  const full = normalise(typeof input === "string" && input.startsWith("/") ? input : `${root}/${input}`, input);
  if (root === "/" || full === root || full.startsWith(`${root}/`)) return full;
  throw new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", `${JSON.stringify(input)} is outside of ${root}`);
}

/** The parent folder of a normalised path ("/" for "/" itself). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

/** The last segment of a normalised path ("" for "/"). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** A listing name from a server is used only if it is one plain segment (a malicious server may send `../x`). */
export function isSafeEntryName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !/[/\\\0]/.test(name);
}

/** `.<name>.<random>.tmp` in the same folder (SECURITY.md 19). */
export function temporaryPathFor(path: string, random: string = Math.random().toString(36).slice(2, 10)): string {
  const parent = parentOf(path);
  return `${parent === "/" ? "" : parent}/.${baseName(path)}.${random}.tmp`;
}
