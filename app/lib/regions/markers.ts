/**
 * The markers of EDITING-MODEL.md: which classes, attributes and comments mean what, and how a
 * region's type is decided. Pure functions over class lists, tag names and comment text.
 */
import type { ParsedRegionType, RegionType } from "./types";

/** Classes that make an element a region (the `cms-` spelling and the older alias). */
export const REGION_CLASSES = [
  "editable",
  "cms-editable",
  "editable-gallery",
  "cms-editable-gallery",
  "editable-text",
  "cms-editable-text",
] as const;

export const REGION_TYPES: readonly RegionType[] = ["block", "inline", "text", "link", "image", "background", "gallery"];

const INLINE_ELEMENTS = new Set([
  "h1", "h2", "h3", "h4", "h5", "h6", "p", "span", "label", "small", "strong", "em", "b", "i", "button",
  "figcaption", "dt", "dd", "li",
]);

/** `editable` on these is flagged "Unsupported Element" whatever else it says. */
const UNSUPPORTED_ELEMENTS = new Set([
  "script", "style", "iframe", "video", "audio", "object", "embed", "applet", "svg", "math", "canvas",
  "template", "noscript", "input", "textarea", "select", "option", "optgroup", "datalist", "output",
  "meter", "progress", "keygen", "frame", "frameset", "head", "title", "meta", "link", "base",
  "area", "br", "col", "hr", "param", "source", "track", "wbr", "xmp", "noembed", "noframes", "plaintext",
]);

/** Elements without content (the HTML void elements). */
export const VOID_ELEMENTS = new Set([
  "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "image", "img", "input",
  "keygen", "link", "meta", "param", "source", "track", "wbr",
]);

export function classList(value: string | null): string[] {
  return value ? value.split(/[\t\n\f\r ]+/).filter(Boolean) : [];
}

export function hasClass(classes: readonly string[], name: string): boolean {
  return classes.includes(name) || classes.includes(`cms-${name}`);
}

export function isRegionMarked(classes: readonly string[]): boolean {
  return hasClass(classes, "editable") || hasClass(classes, "editable-gallery") || hasClass(classes, "editable-text");
}

/**
 * The region type, in the order of the model's table; `data-cms-type` overrides it, except that an
 * unsupported element stays unsupported and a void element cannot take a content type.
 */
export function regionType(
  element: string,
  classes: readonly string[],
  attrs: { cmsType: string | null; background: boolean },
): ParsedRegionType {
  if (UNSUPPORTED_ELEMENTS.has(element)) return "unsupported";
  const override = attrs.cmsType?.trim().toLowerCase();
  let type: RegionType;
  if (override && (REGION_TYPES as readonly string[]).includes(override)) type = override as RegionType;
  else if (hasClass(classes, "editable-gallery")) type = "gallery";
  else if (hasClass(classes, "editable-text")) type = "text";
  else if (element === "img") type = "image";
  else if (element === "a") type = "link";
  else if (attrs.background) type = "background";
  else if (INLINE_ELEMENTS.has(element)) type = "inline";
  else type = "block";
  const hasContent = type === "block" || type === "inline" || type === "text" || type === "gallery" || type === "link";
  if (hasContent && VOID_ELEMENTS.has(element)) return "unsupported";
  return type;
}

export type RangeComment =
  | { kind: "lock" | "ignore"; open: boolean }
  | { kind: "include"; open: true; name: string }
  | { kind: "include"; open: false }
  | { kind: "directive"; name: string };

const DIRECTIVES = new Set(["cms-editable", "cms-repeatable", "cms-code", "cms-embed", "cms-gallery"]);

/** Reads a comment's data as one of the model's comments; null for an ordinary comment. */
export function readMarkerComment(data: string): RangeComment | null {
  const text = data.trim();
  if (text.length > 200 || (!text.includes("cms") && !text.includes("ignore"))) return null;
  const lower = text.toLowerCase();
  if (lower === "cms-lock") return { kind: "lock", open: true };
  if (lower === "cms-unlock") return { kind: "lock", open: false };
  if (lower === "cms-ignore" || lower === "ignore") return { kind: "ignore", open: true };
  if (lower === "/cms-ignore" || lower === "/ignore") return { kind: "ignore", open: false };
  if (lower === "/cms-include") return { kind: "include", open: false };
  const include = /^cms-include\s+(?:"([^"]*)"|'([^']*)')$/i.exec(text);
  if (include) return { kind: "include", open: true, name: include[1] ?? include[2] };
  if (DIRECTIVES.has(lower)) return { kind: "directive", name: lower };
  return null;
}

/**
 * The Code Block language (and an anchor's name): lowercase; everything but letters and digits (of
 * any script) to hyphens, collapsed and trimmed.
 */
export function normaliseCodeLanguage(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");
}
