/**
 * Sanitises the HTML submitted for a region, per region type, by re-serialising it from the
 * tokenizer's tokens through an allowlist:
 *
 * - `inline` (and a link's content): inline formatting only (b, strong, i, em, u, s, strike, del,
 *   ins, sub, sup, code, a, br, span, small, mark, abbr, kbd, q, cite, time, wbr); other tags are
 *   unwrapped (their text kept). A link's content has no nested `<a>` but may hold an `<img>`.
 * - `block` and `gallery`: the rich content of the model (headings, paragraphs, lists, tables,
 *   images, figures, code blocks, anchors, blocks); iframes, video and audio only inside a
 *   `data-cms-embed` element and only when `allowEmbeds` (a role's right, decided by the caller).
 * - always: no `script`/`style`/`object`/`svg`/form fields (dropped with their content), no event
 *   handlers, no URLs other than those of `url-policy.ts`, no unsafe inline CSS, no server code
 *   (`<?php`, `<%`: text is escaped, so none can start), every element closed (the content cannot
 *   close the region's element or leave a comment open).
 * - region markers are refused, not stripped (SECURITY.md 8): an element with a region class, or a
 *   `cms-` range comment left unbalanced, throws `RegionContentError`.
 * - `<!-- cms-ignore -->` ranges are copied verbatim, unsanitised, from `ignored` (the region's
 *   current ranges): the editor never touches them and the submission cannot change them.
 */
import { decodeEntities, escapeAttribute, escapeText } from "./entities";
import { classList, isRegionMarked, readMarkerComment, VOID_ELEMENTS } from "./markers";
import { safeStyle } from "./css-style";
import { type StartTag, tokenize } from "./tokenizer";
import { LINK_TARGET, safeSrcset, safeUrl } from "./url-policy";

export type SanitizeMode = "inline" | "link" | "block";

/** Content a region may not take (it holds region markers or unbalanced `cms-` comments). */
export class RegionContentError extends Error {
  constructor(readonly reason: "REGION_MARKER" | "UNBALANCED_MARKER_COMMENT" | "IGNORED_RANGES_CHANGED" | "INVALID_VALUE") {
    super(reason);
    this.name = "RegionContentError";
  }
}

const INLINE = [
  "b", "strong", "i", "em", "u", "s", "strike", "del", "ins", "sub", "sup", "code", "a", "br", "span", "small",
  "mark", "abbr", "kbd", "q", "cite", "time", "wbr", "var", "samp", "dfn", "bdi", "bdo",
];
const BLOCK = [
  ...INLINE, "h1", "h2", "h3", "h4", "h5", "h6", "p", "div", "section", "article", "aside", "header", "footer",
  "main", "nav", "blockquote", "pre", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr",
  "th", "td", "caption", "colgroup", "col", "figure", "figcaption", "img", "picture", "source", "hr", "address",
  "details", "summary", "hgroup", "center",
];
const ALLOWED: Record<SanitizeMode, Set<string>> = {
  inline: new Set(INLINE),
  link: new Set([...INLINE.filter((t) => t !== "a"), "img", "picture", "source"]),
  block: new Set(BLOCK),
};
/** Elements a start tag closes when one is the current element (the implied end tags of HTML). */
const BLOCK_IN_P = ["p", "div", "ul", "ol", "dl", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "section",
  "article", "aside", "header", "footer", "nav", "figure", "hr", "address", "details", "main", "hgroup", "center"];
const IMPLIED_END: Record<string, readonly string[]> = {
  li: ["li", "p"],
  dt: ["dt", "dd", "p"],
  dd: ["dt", "dd", "p"],
  td: ["td", "th"],
  th: ["td", "th"],
  tr: ["td", "th", "tr"],
  ...Object.fromEntries(BLOCK_IN_P.map((name) => [name, ["p"]])),
};
const EMBED_ELEMENTS = new Set(["iframe", "video", "audio", "source", "track"]);

/** Dropped together with everything inside them. */
const DROP_WITH_CONTENT = new Set([
  "script", "style", "template", "object", "applet", "embed", "noscript", "noembed", "noframes", "textarea",
  "select", "title", "head", "svg", "math", "xmp", "plaintext", "frameset", "iframe", "video", "audio",
  "canvas", "button", "datalist", "dialog", "portal",
]);

const GLOBAL_ATTRS = new Set(["id", "class", "title", "lang", "dir", "role", "style", "hidden", "translate"]);
const ELEMENT_ATTRS: Record<string, readonly string[]> = {
  a: ["href", "target", "rel", "name", "hreflang", "type", "download"],
  img: ["src", "srcset", "sizes", "alt", "width", "height", "loading", "decoding"],
  source: ["src", "srcset", "sizes", "type", "media", "width", "height"],
  td: ["colspan", "rowspan", "headers", "align", "valign"],
  th: ["colspan", "rowspan", "headers", "scope", "abbr", "align", "valign"],
  col: ["span", "width"],
  colgroup: ["span", "width"],
  ol: ["start", "reversed", "type"],
  li: ["value"],
  blockquote: ["cite"],
  q: ["cite"],
  del: ["cite", "datetime"],
  ins: ["cite", "datetime"],
  time: ["datetime"],
  details: ["open"],
  table: ["summary"],
  iframe: ["src", "width", "height", "allow", "allowfullscreen", "frameborder", "loading", "referrerpolicy", "title", "scrolling"],
  video: ["src", "width", "height", "controls", "poster", "muted", "loop", "playsinline", "preload", "autoplay"],
  audio: ["src", "controls", "muted", "loop", "preload"],
  track: ["src", "kind", "srclang", "label", "default"],
};
const URL_ATTRS = new Set(["href", "src", "cite", "poster"]);

export interface SanitizeOptions {
  allowEmbeds?: boolean;
  /** The inner text of each `cms-ignore` range, in order, to copy verbatim; null: keep the submitted ones. */
  ignored?: readonly string[] | null;
}

function sanitizeAttributes(src: string, tag: StartTag, inEmbed: boolean): string {
  const seen = new Set<string>();
  let out = "";
  const allowed = ELEMENT_ATTRS[tag.name] ?? [];
  for (const attr of tag.attrs) {
    const name = attr.name;
    if (!name || seen.has(name)) continue;
    seen.add(name);
    const ok = GLOBAL_ATTRS.has(name) || allowed.includes(name) || /^(data|aria)-[a-z0-9_.-]+$/.test(name) ||
      (inEmbed && name === "data-cms-embed");
    if (!ok || name.startsWith("on")) continue;
    let value = attr.valueStart < 0 ? null : decodeEntities(src.slice(attr.valueStart, attr.valueEnd));
    if (name === "class" && value !== null && isRegionMarked(classList(value))) throw new RegionContentError("REGION_MARKER");
    if (value !== null) {
      if (URL_ATTRS.has(name)) value = safeUrl(value, { image: tag.name === "img" || tag.name === "source" });
      else if (name === "srcset") value = safeSrcset(value);
      else if (name === "style") value = safeStyle(value) || null;
      else if (name === "target" && !LINK_TARGET.test(value)) value = null;
      if (value === null) continue;
    }
    out += value === null ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`;
  }
  return out;
}

/**
 * Sanitises `html` for a region of the given mode.
 *
 * @example sanitizeHtml('<b onclick="x()">Hi</b><script>x()</script>', "inline") // "<b>Hi</b>"
 */
export function sanitizeHtml(html: string, mode: SanitizeMode, options: SanitizeOptions = {}): string {
  const allowed = ALLOWED[mode];
  const out: string[] = [];
  const open: Array<{ name: string; embed: boolean }> = [];
  let drop: { name: string; depth: number } | null = null;
  let ignoring = -1; // index in `out` of the slot of the ignore range being skipped
  const ignoreSlots: number[] = [];
  const submittedIgnored: string[] = [];
  let ignoreStart = 0;
  const balance = { lock: 0, include: 0 };
  const inEmbed = () => open.length > 0 && open[open.length - 1].embed;

  tokenize(html, "html", {
    startTag(tag) {
      if (ignoring >= 0) return;
      if (drop) {
        if (tag.name === drop.name && !tag.selfClosing) drop.depth++;
        return;
      }
      const embedContext = inEmbed();
      const isEmbed = EMBED_ELEMENTS.has(tag.name) && embedContext && options.allowEmbeds === true && mode === "block";
      for (const attr of tag.attrs) {
        if (attr.name === "class" && attr.valueStart >= 0) {
          if (isRegionMarked(classList(decodeEntities(html.slice(attr.valueStart, attr.valueEnd))))) {
            throw new RegionContentError("REGION_MARKER");
          }
        }
      }
      if (!isEmbed && DROP_WITH_CONTENT.has(tag.name)) {
        if (!VOID_ELEMENTS.has(tag.name)) drop = { name: tag.name, depth: 1 };
        return;
      }
      if (!isEmbed && !allowed.has(tag.name)) return; // unwrapped: its content stays
      const implied = IMPLIED_END[tag.name];
      while (implied && open.length > 0 && implied.includes(open[open.length - 1].name)) {
        out.push(`</${(open.pop() as { name: string }).name}>`);
      }
      const embed = embedContext || tag.attrs.some((a) => a.name === "data-cms-embed");
      out.push(`<${tag.name}${sanitizeAttributes(html, tag, embed)}>`);
      if (!VOID_ELEMENTS.has(tag.name)) open.push({ name: tag.name, embed });
    },
    endTag(name) {
      if (ignoring >= 0) return;
      if (drop) {
        if (name === drop.name && --drop.depth === 0) drop = null;
        return;
      }
      let i = open.length - 1;
      while (i >= 0 && open[i].name !== name) i--;
      if (i < 0) return;
      while (open.length > i) out.push(`</${(open.pop() as { name: string }).name}>`);
    },
    text(start, end, raw) {
      if (ignoring >= 0 || drop || raw) return;
      out.push(escapeText(decodeEntities(html.slice(start, end))).replace(/\u00a0/g, "&nbsp;"));
    },
    comment(start, end, dataStart, dataEnd) {
      const data = html.slice(dataStart, dataEnd);
      const marker = readMarkerComment(data);
      if (ignoring >= 0) {
        if (marker?.kind === "ignore" && !marker.open) {
          submittedIgnored.push(html.slice(ignoreStart, start));
          ignoring = -1;
          out.push(html.slice(start, end));
        }
        return;
      }
      if (drop) return;
      if (!marker) {
        // Ordinary comments stay in block content (conditional comments do not: old IE runs them).
        if (mode === "block" && !/^\s*\[if/i.test(data)) out.push(html.slice(start, end));
        return;
      }
      if (marker.kind === "ignore") {
        if (!marker.open) throw new RegionContentError("UNBALANCED_MARKER_COMMENT");
        out.push(html.slice(start, end));
        ignoring = out.length;
        ignoreSlots.push(out.length);
        out.push("");
        ignoreStart = end;
        return;
      }
      if (marker.kind === "directive") {
        if (mode === "block") out.push(html.slice(start, end));
        return;
      }
      if (marker.open) balance[marker.kind]++;
      else if (--balance[marker.kind] < 0) throw new RegionContentError("UNBALANCED_MARKER_COMMENT");
      out.push(html.slice(start, end));
    },
  });
  if (ignoring >= 0 || balance.lock !== 0 || balance.include !== 0) throw new RegionContentError("UNBALANCED_MARKER_COMMENT");
  while (open.length > 0) out.push(`</${(open.pop() as { name: string }).name}>`);

  const ignored = options.ignored ?? submittedIgnored;
  if (ignored.length !== ignoreSlots.length) throw new RegionContentError("IGNORED_RANGES_CHANGED");
  ignoreSlots.forEach((slot, i) => (out[slot] = ignored[i]));
  return out.join("");
}

/** Plain text for a text region: escaped, no markup. */
export function sanitizeText(text: string): string {
  return escapeText(text).replace(/\u00a0/g, "&nbsp;");
}
