/**
 * The byte-preserving merge (EDITING-MODEL.md, "Publishing: what may change in the file"): writes
 * region updates and metadata into a page's source so that only the edited regions' inner content
 * (for image, link and background: only the edited attributes) and the edited metadata values
 * change; every other character is copied as is.
 */
import { AppError } from "~/lib/errors";
import { BACKGROUND_PROPERTIES, type BackgroundValues, backgroundCss, withBackground } from "./css-style";
import { asciiOnly as toAscii, decodeEntities, escapeAttribute } from "./entities";
import { applyEdits, attributeEdit, type Edit, withEol } from "./edits";
import { metadataEdits } from "./metadata";
import { ElementStack } from "./element-stack";
import { regionStartTag } from "./read-region";
import { RegionContentError, sanitizeHtml, sanitizeText } from "./sanitize";
import { findAttr, tokenize } from "./tokenizer";
import type { MetadataField, PageMetadata, ParsedPage, Region, RegionUpdate, RegionUpdates } from "./types";
import { LINK_REL, LINK_TARGET, safeUrl } from "./url-policy";

export interface MergeOptions {
  /** The page's live URL: a metadata image that is not http(s) is made absolute against it. */
  pageUrl?: string;
  /** Write non-ASCII characters as character references (a page not stored as UTF-8). */
  asciiOnly?: boolean;
  /** Iframes, video and audio inside `data-cms-embed` elements (Code Block and Embed are by role). */
  allowEmbeds?: boolean;
}

export interface MergeResult {
  source: string;
  /** Ids of the regions whose bytes changed. */
  written: string[];
  /**
   * Ids the update names that were not written: not in the file, flagged (missing or duplicate
   * id, unsupported element) or of another type. The publish reports them as
   * 'Failed to locate content region.' and goes on.
   */
  unpublishedRegions: string[];
  /** Metadata fields that changed but had no head to go into. */
  unwrittenMetadata: MetadataField[];
}

function invalid(id: string): AppError {
  return new AppError("INVALID_REGION_CONTENT", { invalid: [`regions.${id}`] });
}

/** The inner text of each `cms-ignore` range inside the region, in order. */
function ignoredRanges(page: ParsedPage, region: Region): string[] {
  const out: string[] = [];
  for (const marker of page.markers) {
    if (marker.kind === "ignore" && marker.outer.start >= region.inner.start && marker.outer.end <= region.inner.end) {
      out.push(page.source.slice(marker.inner.start, marker.inner.end));
    }
  }
  return out;
}

function contentEdit(page: ParsedPage, region: Region, content: string, options: MergeOptions): Edit | null {
  const current = page.source.slice(region.inner.start, region.inner.end);
  let html: string;
  if (region.type === "text") {
    if (decodeEntities(current) === content) return null;
    html = sanitizeText(content);
  } else {
    if (current === content) return null;
    const mode = region.type === "inline" ? "inline" : region.type === "link" ? "link" : "block";
    const sanitizeOptions = { allowEmbeds: options.allowEmbeds, ignored: ignoredRanges(page, region) };
    html = sanitizeHtml(content, mode, sanitizeOptions);
    // The same content serialised differently (as a browser's innerHTML would) is no change.
    let normalisedCurrent: string | null;
    try {
      normalisedCurrent = sanitizeHtml(current, mode, sanitizeOptions);
    } catch {
      normalisedCurrent = null;
    }
    if (html === current || html === normalisedCurrent) return null;
  }
  html = withEol(options.asciiOnly ? toAscii(html) : html, page.eol);
  return html === current ? null : { start: region.inner.start, end: region.inner.end, text: html };
}

function attrValue(value: string, options: MergeOptions): string {
  return options.asciiOnly ? decodeEntities(toAscii(value)) : value;
}

/** The edits of one region, or null when the update does not apply to it. */
function regionEdits(page: ParsedPage, region: Region, update: RegionUpdate, options: MergeOptions): Edit[] {
  const id = region.id as string;
  const edits: Edit[] = [];
  const push = (edit: Edit | null) => {
    if (edit) edits.push(edit);
  };
  switch (update.type) {
    case "block":
    case "inline":
    case "text":
    case "gallery":
      push(contentEdit(page, region, update.content, options));
      break;
    case "image": {
      const tag = regionStartTag(page, region);
      const src = update.src.trim() === "" ? "" : safeUrl(update.src, { image: true });
      if (src === null) throw invalid(id);
      const srcEdit = attributeEdit(page.source, tag, "src", attrValue(src, options));
      push(srcEdit);
      if (srcEdit) {
        // A new picture: an old srcset would keep showing the old one.
        push(attributeEdit(page.source, tag, "srcset", null));
        push(attributeEdit(page.source, tag, "sizes", null));
      }
      push(attributeEdit(page.source, tag, "alt", attrValue(update.alt, options)));
      break;
    }
    case "link": {
      const tag = regionStartTag(page, region);
      const href = update.href.trim() === "" ? "" : safeUrl(update.href);
      if (href === null) throw invalid(id);
      if (update.target && !LINK_TARGET.test(update.target)) throw invalid(id);
      if (update.rel && !LINK_REL.test(update.rel)) throw invalid(id);
      push(attributeEdit(page.source, tag, "href", href === "" ? null : attrValue(href, options)));
      for (const name of ["title", "target", "rel"] as const) {
        const value = update[name];
        push(attributeEdit(page.source, tag, name, value === "" ? null : attrValue(value, options)));
      }
      push(contentEdit(page, region, update.content, options));
      break;
    }
    case "background": {
      const tag = regionStartTag(page, region);
      const css: Partial<Record<keyof BackgroundValues, string>> = {};
      for (const key of Object.keys(BACKGROUND_PROPERTIES) as Array<keyof BackgroundValues>) {
        const value = backgroundCss(key, update[key] ?? "");
        if (value === null) throw invalid(id);
        css[key] = value;
      }
      const styleAttr = findAttr(tag, "style");
      const current = styleAttr && styleAttr.valueStart >= 0 ? page.source.slice(styleAttr.valueStart, styleAttr.valueEnd) : "";
      const next = withBackground(decodeEntities(current), css);
      if (next !== null && next !== decodeEntities(current)) {
        if (styleAttr && styleAttr.valueStart >= 0 && styleAttr.quote) {
          push({ start: styleAttr.valueStart, end: styleAttr.valueEnd, text: escapeAttribute(attrValue(next, options), styleAttr.quote) });
        } else push(attributeEdit(page.source, tag, "style", attrValue(next, options)));
      }
      break;
    }
  }
  return edits;
}

/**
 * Whether `inner` inside the region's element ends exactly at its end tag: no implied end tag in
 * the content closes the element early (`<div>` in a `<p>`, `<li>` in an `<li>`, `<td>` in a
 * `<td>`). The sanitiser already balances the content; this checks what HTML's tree builder does.
 */
function keepsBoundary(region: Region, inner: string, dialect: ParsedPage["dialect"]): boolean {
  const open = `<${region.element}>`;
  const wrapped = `${open}${inner}</${region.element}>`;
  let closedAt = -1;
  let explicitEnd = false;
  const stack = new ElementStack((_watch, innerEnd, _outerEnd, explicit) => {
    closedAt = innerEnd;
    explicitEnd = explicit;
  });
  let first = true;
  tokenize(wrapped, dialect, {
    wantsAttributes: () => false,
    startTag(tag) {
      stack.closeBefore(tag);
      stack.open(tag, first ? 0 : -1);
      first = false;
    },
    endTag: (name, start, end) => stack.close(name, start, end),
  });
  stack.finish(wrapped.length);
  return explicitEnd && closedAt === wrapped.length - region.element.length - 3;
}

/**
 * Merges region and metadata updates into the parsed page's source.
 *
 * Regions left out of `updates.regions` and unchanged values keep their bytes; with nothing to
 * change the source is returned as is. Content is sanitised for its region's type; content that
 * holds region markers, unbalanced `cms-` comments, a disallowed URL or CSS value, or that would
 * move a region boundary throws `AppError("INVALID_REGION_CONTENT", { invalid: ["regions.<id>"] })`.
 *
 * @example
 * const page = parsePage(source, "html");
 * mergePage(page, { regions: { intro: { type: "inline", content: "Hello <b>world</b>" } } }).source
 */
export function mergePage(
  page: ParsedPage,
  updates: { regions?: RegionUpdates; metadata?: Partial<PageMetadata> },
  options: MergeOptions = {},
): MergeResult {
  const edits: Edit[] = [];
  const written: string[] = [];
  const unpublishedRegions: string[] = [];

  for (const [id, update] of Object.entries(updates.regions ?? {})) {
    const region = page.byId.get(id);
    if (!region || region.type !== update.type) {
      unpublishedRegions.push(id);
      continue;
    }
    let regionChanges: Edit[];
    try {
      regionChanges = regionEdits(page, region, update, options);
    } catch (error) {
      if (error instanceof RegionContentError) throw invalid(id);
      throw error;
    }
    if (regionChanges.length === 0) continue;
    for (const edit of regionChanges) {
      // The edited content must not move the region's boundary (e.g. a block inside a <p>).
      const isContent = edit.start === region.inner.start && edit.end === region.inner.end && region.element !== "img";
      if (isContent && !keepsBoundary(region, edit.text, page.dialect)) throw invalid(id);
    }
    written.push(id);
    edits.push(...regionChanges);
  }

  const meta = updates.metadata ? metadataEdits(page, updates.metadata, options) : { edits: [], unwritten: [] };
  if (options.asciiOnly) for (const edit of meta.edits) edit.text = toAscii(edit.text);
  edits.push(...meta.edits);

  if (edits.length === 0) return { source: page.source, written, unpublishedRegions, unwrittenMetadata: meta.unwritten };
  const source = applyEdits(page.source, edits);

  return { source, written, unpublishedRegions, unwrittenMetadata: meta.unwritten };
}
