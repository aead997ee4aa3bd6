/**
 * Parses a page's source into its regions, the other markers of EDITING-MODEL.md and its metadata,
 * in one pass of the tokenizer over the source, with exact offsets (UTF-16 indices of `source`).
 */
import { decodeEntities } from "./entities";
import { ElementStack } from "./element-stack";
import { classList, hasClass, isRegionMarked, normaliseCodeLanguage, readMarkerComment, regionType } from "./markers";
import { readMetadata } from "./metadata";
import { type Dialect, dialectForExtension, findAttr, getAttr, type StartTag, tokenize } from "./tokenizer";
import type { Marker, MetadataTag, MetadataTagKey, ParsedPage, Region, Span } from "./types";

const HEAD_CONTENT = new Set(["html", "head", "title", "meta", "link", "style", "script", "base", "noscript", "template"]);
const GALLERY_OPTIONS = [
  "data-cms-element",
  "data-cms-captions",
  "data-cms-links",
  "data-cms-thumbnail-width",
  "data-cms-thumbnail-height",
  "data-cms-thumbnail-resize",
];

/** What the head holds, collected while parsing (read by `readMetadata`). */
export interface HeadScan {
  tags: Partial<Record<MetadataTagKey, MetadataTag>>;
  insertAt: number | null;
  indent: string;
  xhtml: boolean;
}

/**
 * Parses `source`. `extension` (`"php"`, `".html"`, `"index.asp"`) selects the dialect: server code
 * in `.php`/`.asp`-like pages is opaque.
 *
 * @example
 * const page = parsePage('<h1 class="editable" id="title">Hi</h1>', "html");
 * page.regions[0].type; // "inline"
 * page.source.slice(page.regions[0].inner.start, page.regions[0].inner.end); // "Hi"
 */
export function parsePage(source: string, extension: string): ParsedPage {
  const dialect: Dialect = dialectForExtension(extension);
  const regions: Region[] = [];
  const markers: Marker[] = [];
  const nested: Span[] = [];
  /** What each watched element on the stack is: a region index or a marker index. */
  const targets: Array<{ region: number } | { marker: number }> = [];
  let openRegion = -1;
  let ignoreDepth = 0;
  const openRanges: Record<"lock" | "ignore" | "include", number[]> = { lock: [], ignore: [], include: [] };

  const head: HeadScan = { tags: {}, insertAt: null, indent: "", xhtml: false };
  let inHead = true;
  let headOpenTag: StartTag | null = null;
  let titleTag: StartTag | null = null;
  let titleInner: Span | null = null;

  const stack = new ElementStack((watch, innerEnd, outerEnd, explicit) => {
    const target = targets[watch];
    if ("region" in target) {
      const region = regions[target.region];
      region.inner.end = innerEnd;
      region.outer.end = outerEnd;
      region.explicitEnd = explicit;
      if (dialect !== "html") {
        const inner = source.slice(region.inner.start, innerEnd);
        region.hasServerCode = inner.includes(dialect === "php" ? "<?" : "<%");
      }
      if (openRegion === target.region) openRegion = -1;
    } else {
      const marker = markers[target.marker];
      marker.inner.end = innerEnd;
      marker.outer.end = outerEnd;
    }
  });

  const currentRegionId = () => (openRegion >= 0 ? regions[openRegion].id : null);

  const addElementMarker = (tag: StartTag, kind: Marker["kind"], name: string | null): number => {
    markers.push({
      kind,
      outer: { start: tag.start, end: tag.end },
      inner: { start: tag.end, end: tag.end },
      regionId: currentRegionId(),
      regionIndex: openRegion,
      name,
    });
    return markers.length - 1;
  };

  const endHead = (at: number) => {
    if (!inHead) return;
    inHead = false;
    if (head.insertAt === null && headOpenTag) head.insertAt = at;
  };

  const lineIndent = (at: number): string | null => {
    let i = at;
    while (i > 0 && (source.charCodeAt(i - 1) === 32 || source.charCodeAt(i - 1) === 9)) i--;
    return i === 0 || source.charCodeAt(i - 1) === 10 ? source.slice(i, at) : null;
  };

  const scanHeadTag = (tag: StartTag) => {
    if (tag.name === "head") headOpenTag = tag;
    if (tag.name === "title" && !titleTag) {
      titleTag = tag;
      titleInner = { start: tag.end, end: tag.end };
    }
    if (tag.name === "meta" || tag.name === "link") {
      if (tag.selfClosing) head.xhtml = true;
    }
    if (tag.name === "meta" || tag.name === "title") {
      const indent = lineIndent(tag.start);
      if (indent !== null && head.indent === "") head.indent = indent;
    }
    if (tag.name !== "meta") return;
    const key = (getAttr(source, tag, "property") ?? getAttr(source, tag, "name") ?? "").trim().toLowerCase();
    if (!["description", "robots", "og:title", "og:description", "og:image", "og:type", "og:url"].includes(key)) return;
    const metaKey = key as MetadataTagKey;
    if (head.tags[metaKey]) return; // the first one counts
    const content = findAttr(tag, "content");
    const value = content && content.valueStart >= 0 ? { start: content.valueStart, end: content.valueEnd } : null;
    head.tags[metaKey] = {
      outer: { start: tag.start, end: tag.end },
      value,
      raw: value ? source.slice(value.start, value.end) : "",
    };
  };

  tokenize(source, dialect, {
    // Only tags that may hold a marker (or are in the head) need their attributes read.
    wantsAttributes: (tag) => inHead || tag.hinted,
    startTag(tag) {
      if (inHead) {
        if (tag.name === "body" || !HEAD_CONTENT.has(tag.name)) {
          if (tag.name === "body" && head.insertAt === null) head.insertAt = tag.start;
          endHead(tag.start);
        } else scanHeadTag(tag);
      }
      stack.closeBefore(tag);
      let classValue: string | null = null;
      for (const attr of tag.attrs) {
        if (attr.name === "class") {
          classValue = attr.valueStart < 0 ? "" : source.slice(attr.valueStart, attr.valueEnd);
          break;
        }
      }
      const classes = classValue && classValue.includes("e") ? classList(classValue) : [];
      let watch = -1;
      if (classes.length > 0 && isRegionMarked(classes)) {
        if (openRegion >= 0 || ignoreDepth > 0) {
          if (openRegion >= 0) nested.push({ start: tag.start, end: tag.end });
        } else {
          const rawId = getAttr(source, tag, "id");
          const id = rawId === null || rawId.trim() === "" ? null : decodeEntities(rawId);
          const type = regionType(tag.name, classes, {
            cmsType: getAttr(source, tag, "data-cms-type"),
            background: findAttr(tag, "data-cms-background") !== undefined,
          });
          const options: Record<string, string> = {};
          if (type === "gallery") {
            for (const option of GALLERY_OPTIONS) {
              const value = getAttr(source, tag, option);
              if (value !== null) options[option.slice("data-cms-".length)] = decodeEntities(value);
            }
          }
          regions.push({
            id,
            type,
            element: tag.name,
            global: hasClass(classes, "global"),
            outer: { start: tag.start, end: tag.end },
            startTag: { start: tag.start, end: tag.end },
            inner: { start: tag.end, end: tag.end },
            explicitEnd: false,
            problem: null,
            hasServerCode: false,
            options,
          });
          openRegion = regions.length - 1;
          targets.push({ region: openRegion });
          watch = targets.length - 1;
        }
      }
      if (watch < 0 && tag.attrs.length > 0) {
        let marker = -1;
        if (classes.length > 0 && hasClass(classes, "repeatable")) marker = addElementMarker(tag, "repeatable", null);
        else if (classes.length > 0 && hasClass(classes, "uneditable")) marker = addElementMarker(tag, "uneditable", null);
        else if (findAttr(tag, "data-cms-embed")) marker = addElementMarker(tag, "embed", null);
        else if (tag.name === "pre") {
          const lang = getAttr(source, tag, "data-cms-code");
          if (lang !== null) marker = addElementMarker(tag, "code", normaliseCodeLanguage(decodeEntities(lang)));
        }
        if (marker >= 0) {
          targets.push({ marker });
          watch = targets.length - 1;
        }
      }
      const opened = stack.open(tag, watch);
      if (!opened && watch >= 0) {
        const target = targets[watch];
        if ("region" in target && openRegion === target.region) openRegion = -1;
      }
    },
    endTag(name, start, end) {
      if (inHead) {
        if (name === "head") {
          head.insertAt = start;
          endHead(start);
        } else if (name === "title" && titleTag && titleInner && !head.tags.title) {
          head.tags.title = {
            outer: { start: (titleTag as StartTag).start, end },
            value: titleInner,
            raw: source.slice(titleInner.start, titleInner.end),
          };
        }
      }
      stack.close(name, start, end);
    },
    text(start, end, raw) {
      if (raw && titleTag && titleInner && titleInner.end === start && titleInner.start === start) titleInner.end = end;
      else if (inHead && !raw && /[^\s\ufeff]/.test(source.slice(start, end))) endHead(start); // text starts the body
    },
    comment(start, end, dataStart, dataEnd) {
      const data = source.slice(dataStart, dataEnd);
      const comment = readMarkerComment(data);
      if (!comment) return;
      if (comment.kind === "directive") {
        markers.push({
          kind: "directive",
          outer: { start, end },
          inner: { start: end, end },
          regionId: currentRegionId(),
          regionIndex: openRegion,
          name: comment.name,
        });
        return;
      }
      const open = openRanges[comment.kind];
      if (comment.open) {
        markers.push({
          kind: comment.kind,
          outer: { start, end: source.length },
          inner: { start: end, end: source.length },
          regionId: currentRegionId(),
          regionIndex: openRegion,
          name: comment.kind === "include" ? comment.name : null,
          unclosed: true,
        });
        open.push(markers.length - 1);
        if (comment.kind === "ignore") ignoreDepth++;
      } else if (open.length > 0) {
        const marker = markers[open.pop() as number];
        marker.inner.end = start;
        marker.outer.end = end;
        delete marker.unclosed;
        if (comment.kind === "ignore") ignoreDepth--;
      }
    },
  });
  stack.finish(source.length);

  // Problems: a missing id, then a duplicate id, then an unsupported element.
  const counts = new Map<string, number>();
  for (const region of regions) if (region.id !== null) counts.set(region.id, (counts.get(region.id) ?? 0) + 1);
  const byId = new Map<string, Region>();
  for (const region of regions) {
    if (region.id === null) region.problem = "MISSING_ID";
    else if ((counts.get(region.id) ?? 0) > 1) region.problem = "DUPLICATE_ID";
    else if (region.type === "unsupported") region.problem = "UNSUPPORTED_ELEMENT";
    else byId.set(region.id, region);
  }

  const firstBreak = source.indexOf("\n");
  const eol = firstBreak > 0 && source.charCodeAt(firstBreak - 1) === 13 ? "\r\n" : "\n";
  return {
    source,
    dialect,
    regions,
    byId,
    markers,
    metadata: readMetadata(head),
    eol,
    nested,
  };
}
