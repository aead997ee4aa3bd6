/**
 * The site form's client-side rules (spec, page editing section 5 "Site form" and accounts section
 * 5 "Site url"): what the form does to a value when the field is left. Pure functions, shared by
 * the form and its tests; the server checks again.
 */

/** The spec's default ports, shown as placeholders when the port is empty. */
export const DEFAULT_PORTS: Partial<Record<string, number>> = { ftp: 21, ftps: 21, sftp: 22 };

/**
 * A site URL: https:// is prepended when there is no scheme, a bare scheme becomes empty.
 * @example normalizeSiteUrl("example.com") // "https://example.com"
 * @example normalizeSiteUrl("https://") // ""
 */
export function normalizeSiteUrl(input: string): string {
  const value = input.trim();
  if (!value) return "";
  if (/^[a-z][a-z0-9+.-]*:\/*$/i.test(value)) return "";
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value.replace(/^\/+/, "")}`;
  try {
    const url = new URL(withScheme);
    // The URL parser lowercases the host and adds the root path; keep a bare origin without the slash.
    return url.pathname === "/" && !url.search && !url.hash && !withScheme.endsWith("/") ? url.origin : url.href;
  } catch {
    return withScheme;
  }
}

/** An http URL: the editor warns that mixed content will not load. */
export function isInsecureUrl(url: string): boolean {
  return /^http:\/\//i.test(url.trim());
}

/**
 * A WebDAV host gets http:// when it has neither http:// nor https://.
 * @example normalizeWebdavHost("dav.example.com") // "http://dav.example.com"
 */
export function normalizeWebdavHost(input: string): string {
  const value = input.trim();
  if (!value || /^https?:\/\//i.test(value)) return value;
  return `http://${value.replace(/^\/+/, "")}`;
}

/**
 * A folder without trailing slashes ("/" stays "/"), always absolute.
 * @example trimFolder("/var/www/") // "/var/www"
 */
export function trimFolder(input: string): string {
  const value = input.trim();
  if (!value) return "";
  const absolute = value.startsWith("/") ? value : `/${value}`;
  const trimmed = absolute.replace(/\/+$/, "");
  return trimmed || "/";
}

/** Whether `folder` is `home` or lies below it. */
export function isUnderFolder(folder: string, home: string): boolean {
  if (home === "/") return folder.startsWith("/");
  return folder === home || folder.startsWith(`${home}/`);
}

/**
 * The upload folder must lie under the home folder, else it is reset to the home folder.
 * @example fitUploadFolder("/elsewhere", "/var/www") // "/var/www"
 */
export function fitUploadFolder(upload: string, home: string): string {
  const folder = trimFolder(upload);
  const base = trimFolder(home) || "/";
  return folder && isUnderFolder(folder, base) ? folder : base;
}

/** Files that may be enabled as pages (home folder only), by extension (spec section 9). */
export const ENABLEABLE_EXTENSIONS = [
  "asp", "aspx", "ascx", "cshtml", "css", "ctp", "dwt", "htm", "html", "inc", "js", "json", "jps", "lasso",
  "master", "phtml", "php", "py", "rb", "shtm", "shtml", "txt", "tpl",
] as const;

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

export function isEnableable(name: string): boolean {
  return (ENABLEABLE_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

/** An index or default file is enabled as a pinned page named Homepage. */
export function isHomepageFile(name: string): boolean {
  return /^(index|default)\.[a-z0-9]+$/i.test(name);
}

/**
 * The name a page gets when its file is enabled: Homepage for an index file, else the file name
 * without its extension, words capitalised ("about-us.html" → "About Us").
 */
export function pageNameForFile(name: string): string {
  if (isHomepageFile(name)) return "Homepage";
  const base = name.replace(/\.[^.]+$/, "").replace(/[-_]+/g, " ").trim();
  return base.replace(/\b\p{Ll}/gu, (c) => c.toUpperCase()) || name;
}

/**
 * New folder and rename names (page editing section 5): trimmed, whitespace to hyphens, anything
 * but letters, digits, hyphen, underscore and dot removed, double hyphens collapsed, lowercased.
 * @example normalizeFileName(" My Photo (1).JPG") // "my-photo-1.jpg"
 */
export function normalizeFileName(input: string): string {
  return input.trim().replace(/\s+/g, "-").replace(/[^A-Za-z0-9._-]/g, "").replace(/-{2,}/g, "-").toLowerCase();
}

/** The parent of an absolute path ("/" for a top-level entry). */
export function parentFolder(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const slash = trimmed.lastIndexOf("/");
  return slash <= 0 ? "/" : trimmed.slice(0, slash);
}

export function joinPath(folder: string, name: string): string {
  return folder === "/" ? `/${name}` : `${folder}/${name}`;
}

