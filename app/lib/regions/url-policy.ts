/**
 * Which URLs content may carry: relative URLs, fragments and the schemes http, https, mailto,
 * tel and ftp; `data:` only for raster images in `src`. Never `javascript:`, `vbscript:` or
 * anything else a browser would run. The scheme is read the way browsers do (leading control
 * characters and spaces ignored, tabs and line breaks removed).
 */

/** A link's `target` content may carry: a browsing-context keyword or a plain name. */
export const LINK_TARGET = /^(_blank|_self|_parent|_top|[a-z0-9_-]+)$/i;
/** A link's `rel`: space-separated plain keywords. */
export const LINK_REL = /^[a-z0-9\s_-]*$/i;

const ALLOWED_SCHEMES = new Set(["http", "https", "mailto", "tel", "ftp", "sms"]);
const DATA_IMAGE = /^data:image\/(png|gif|jpe?g|webp|avif);base64,[a-z0-9+/=\s]*$/i;

function hasControlCharacter(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) < 0x20) return true;
  return false;
}

/** The URL if it is allowed, else null. */
export function safeUrl(value: string, options: { image?: boolean } = {}): string | null {
  // eslint-disable-next-line no-control-regex
  const trimmed = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "");
  const compact = trimmed.replace(/[\t\n\r]/g, "");
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(compact);
  if (!scheme) return hasControlCharacter(compact) ? null : trimmed;
  const name = scheme[1].toLowerCase();
  if (ALLOWED_SCHEMES.has(name)) return trimmed;
  if (name === "data" && options.image && DATA_IMAGE.test(compact)) return trimmed;
  return null;
}

/** Every URL of a `srcset` allowed (else null). */
export function safeSrcset(value: string): string | null {
  for (const candidate of value.split(",")) {
    const url = candidate.trim().split(/\s+/)[0] ?? "";
    if (url && safeUrl(url, { image: true }) === null) return null;
  }
  return value;
}

/** Makes `url` absolute against `base` unless it already has an http(s) scheme. */
export function absoluteUrl(url: string, base: string | undefined): string {
  if (!url || /^https?:/i.test(url) || !base) return url;
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}
