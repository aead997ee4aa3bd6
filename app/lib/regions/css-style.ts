/**
 * Inline `style` attributes: reading declarations with their spans, filtering unsafe ones, and the
 * background properties of a background region (written to the inline style only).
 */
import { safeUrl } from "./url-policy";

export interface Declaration {
  /** Lowercased property name. */
  property: string;
  value: string;
  /** The declaration's span in the style text (without its `;`). */
  start: number;
  end: number;
  /** The value's span. */
  valueStart: number;
  valueEnd: number;
}

/** Splits style text into declarations (`;` inside quotes or parentheses does not split). */
export function parseDeclarations(style: string): Declaration[] {
  const out: Declaration[] = [];
  let start = 0;
  let depth = 0;
  let quote = "";
  for (let i = 0; i <= style.length; i++) {
    const c = style[i];
    if (i < style.length) {
      if (quote) {
        if (c === "\\") i++;
        else if (c === quote) quote = "";
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (c === "(") depth++;
      else if (c === ")") depth = Math.max(0, depth - 1);
      if (c !== ";" || depth > 0) continue;
    }
    const colon = style.indexOf(":", start);
    if (colon >= 0 && colon < i) {
      let s = start;
      while (s < colon && /\s/.test(style[s])) s++;
      let valueStart = colon + 1;
      while (valueStart < i && /\s/.test(style[valueStart])) valueStart++;
      let valueEnd = i;
      while (valueEnd > valueStart && /\s/.test(style[valueEnd - 1])) valueEnd--;
      out.push({
        property: style.slice(s, colon).trim().toLowerCase(),
        value: style.slice(valueStart, valueEnd),
        start: s,
        end: valueEnd,
        valueStart,
        valueEnd,
      });
    }
    start = i + 1;
  }
  return out;
}

const UNSAFE_CSS = /expression\s*\(|javascript:|vbscript:|@import|behavior\s*:|-moz-binding|\\|<|\/\*/i;

/** Keeps the declarations a browser cannot be made to run code or fetch unsafe URLs with. */
export function safeStyle(style: string): string {
  const kept: string[] = [];
  for (const d of parseDeclarations(style)) {
    if (!/^-?[a-z][a-z0-9-]*$/.test(d.property) || UNSAFE_CSS.test(d.value)) continue;
    const urls = [...d.value.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi)];
    if (urls.some((m) => safeUrl(m[1] ?? m[2] ?? m[3] ?? "", { image: true }) === null)) continue;
    kept.push(`${d.property}: ${d.value}`);
  }
  return kept.join("; ");
}

export interface BackgroundValues {
  backgroundImage: string;
  backgroundColor: string;
  backgroundSize: string;
  backgroundRepeat: string;
}

export const BACKGROUND_PROPERTIES = {
  backgroundImage: "background-image",
  backgroundColor: "background-color",
  backgroundSize: "background-size",
  backgroundRepeat: "background-repeat",
} as const;

/** The URL inside `url(…)`, or the value itself. */
export function cssUrlValue(value: string): string {
  const m = /^url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)$/i.exec(value.trim());
  return m ? (m[1] ?? m[2] ?? m[3] ?? "") : value.trim();
}

/** The background values of an inline style (empty strings for the ones not set). */
export function readBackground(style: string): BackgroundValues {
  const out: BackgroundValues = { backgroundImage: "", backgroundColor: "", backgroundSize: "", backgroundRepeat: "" };
  for (const d of parseDeclarations(style)) {
    for (const [key, property] of Object.entries(BACKGROUND_PROPERTIES) as Array<[keyof BackgroundValues, string]>) {
      if (d.property === property && out[key] === "") out[key] = key === "backgroundImage" ? cssUrlValue(d.value) : d.value;
    }
  }
  return out;
}

const LENGTH = "(?:auto|0|-?[0-9.]+(?:%|px|em|rem|vw|vh|vmin|vmax|ch|ex|cm|mm|in|pt|pc))";
const SIZE = new RegExp(`^(?:cover|contain|${LENGTH}(?:\\s+${LENGTH})?)$`, "i");
const REPEAT = /^(?:repeat-x|repeat-y|(?:repeat|no-repeat|space|round)(?:\s+(?:repeat|no-repeat|space|round))?)$/i;
const COLOR = /^(?:#[0-9a-f]{3,8}|[a-z]+|(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(\s*[-+0-9.,%\s/a-z]*\))$/i;

/**
 * The CSS value to write for one background property, "" to remove it, or null when the value is
 * not allowed. The image is a URL (or `url(…)`, or `none`).
 */
export function backgroundCss(key: keyof BackgroundValues, value: string): string | null {
  const v = value.trim();
  if (v === "") return "";
  switch (key) {
    case "backgroundImage": {
      if (v.toLowerCase() === "none") return "none";
      const url = safeUrl(cssUrlValue(v), { image: true });
      if (url === null) return null;
      return `url('${url.replace(/['"\\\n\r]/g, (c) => (c === "'" ? "%27" : encodeURIComponent(c)))}')`;
    }
    case "backgroundColor":
      return COLOR.test(v) ? v : null;
    case "backgroundSize":
      return SIZE.test(v) ? v : null;
    case "backgroundRepeat":
      return REPEAT.test(v) ? v : null;
  }
}

/**
 * The style text with the given background properties set (`""` removes one), or null when nothing
 * changes. Other declarations keep their text; a new one is appended.
 */
export function withBackground(style: string, css: Partial<Record<keyof BackgroundValues, string>>): string | null {
  const declarations = parseDeclarations(style);
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const appended: string[] = [];
  for (const [key, text] of Object.entries(css) as Array<[keyof BackgroundValues, string]>) {
    const property = BACKGROUND_PROPERTIES[key];
    const existing = declarations.find((d) => d.property === property);
    if (existing) {
      const same =
        key === "backgroundImage" ? cssUrlValue(existing.value) === cssUrlValue(text) : existing.value.trim() === text;
      if (same) continue;
      if (text === "") {
        // Remove the declaration and its `;`.
        let end = existing.end;
        const semi = style.indexOf(";", end);
        if (semi >= 0 && style.slice(end, semi).trim() === "") end = semi + 1;
        while (end < style.length && style[end] === " ") end++;
        edits.push({ start: existing.start, end, text: "" });
      } else edits.push({ start: existing.valueStart, end: existing.valueEnd, text });
    } else if (text !== "") appended.push(`${property}: ${text}`);
  }
  if (edits.length === 0 && appended.length === 0) return null;
  edits.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const edit of edits) {
    out += style.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  out += style.slice(at);
  if (appended.length > 0) {
    const trimmed = out.replace(/\s+$/, "");
    const sep = trimmed === "" || trimmed.endsWith(";") ? (trimmed === "" ? "" : " ") : "; ";
    out = `${trimmed}${sep}${appended.join("; ")};`;
  }
  return out.replace(/^\s*;\s*/, "");
}
