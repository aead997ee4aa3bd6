/**
 * Page metadata (EDITING-MODEL.md, "Metadata"): read from the head, and the edits that write it.
 * `<title>`, `<meta name="description">`, `<meta name="robots" content="noindex">` (robots true),
 * `og:title`, `og:description`, `og:image` (absolute against the page), `og:type` (default
 * `website`) and `og:url`. Tags that exist are updated in place (only their value); missing ones are
 * inserted before `</head>`; nothing else in the head changes. A field is written only when its
 * value differs from the file's, so publishing unchanged metadata changes no byte.
 */
import { decodeEntities, escapeAttribute, escapeText } from "./entities";
import { type Edit, withEol } from "./edits";
import type { HeadScan } from "./parse-page";
import type { MetadataField, MetadataTag, MetadataTagKey, PageMetadata, ParsedMetadata, ParsedPage } from "./types";
import { absoluteUrl } from "./url-policy";

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

function value(tag: MetadataTag | undefined): string {
  return tag ? decodeEntities(tag.raw) : "";
}

export function readMetadata(head: HeadScan): ParsedMetadata {
  const { tags } = head;
  const robots = value(tags.robots).toLowerCase();
  return {
    values: {
      title: collapse(value(tags.title)),
      description: value(tags.description).trim(),
      image: value(tags["og:image"]).trim(),
      robots: /(^|[\s,])(noindex|none)([\s,]|$)/.test(robots),
      type: value(tags["og:type"]).trim() || "website",
      url: value(tags["og:url"]).trim(),
    },
    tags,
    insertAt: head.insertAt,
    indent: head.indent,
    xhtml: head.xhtml,
  };
}

const META_ATTR: Record<Exclude<MetadataTagKey, "title">, string> = {
  description: 'name="description"',
  robots: 'name="robots"',
  "og:title": 'property="og:title"',
  "og:description": 'property="og:description"',
  "og:image": 'property="og:image"',
  "og:type": 'property="og:type"',
  "og:url": 'property="og:url"',
};

export interface MetadataEditResult {
  edits: Edit[];
  /** Fields that changed but could not be written (no head to insert a missing tag into). */
  unwritten: MetadataField[];
}

/** The edits that write `update` into the page's head. */
export function metadataEdits(
  page: ParsedPage,
  update: Partial<PageMetadata>,
  options: { pageUrl?: string } = {},
): MetadataEditResult {
  const { source, metadata } = page;
  const current = metadata.values;
  const edits: Edit[] = [];
  const inserts: string[] = [];
  const unwritten: MetadataField[] = [];
  const close = metadata.xhtml ? " />" : ">";

  const setTag = (key: MetadataTagKey, text: string | null, field: MetadataField) => {
    const tag = metadata.tags[key];
    if (text === null) {
      if (tag) edits.push(removal(source, tag));
      return;
    }
    if (tag) {
      if (key === "title" && tag.value) {
        edits.push({ start: tag.value.start, end: tag.value.end, text: escapeText(text) });
      } else if (tag.value) {
        const quote = source[tag.value.start - 1];
        edits.push(
          quote === '"' || quote === "'"
            ? { start: tag.value.start, end: tag.value.end, text: escapeAttribute(text, quote) }
            : { start: tag.value.start, end: tag.value.end, text: `"${escapeAttribute(text)}"` },
        );
      } else {
        const at = source.lastIndexOf(">", tag.outer.end - 1) - (source[tag.outer.end - 2] === "/" ? 1 : 0);
        edits.push({ start: at, end: at, text: ` content="${escapeAttribute(text)}"` });
      }
      return;
    }
    if (metadata.insertAt === null) {
      if (!unwritten.includes(field)) unwritten.push(field);
      return;
    }
    inserts.push(
      key === "title" ? `<title>${escapeText(text)}</title>` : `<meta ${META_ATTR[key]} content="${escapeAttribute(text)}"${close}`,
    );
  };

  if (update.title !== undefined && collapse(update.title) !== current.title) {
    setTag("title", update.title, "title");
    setTag("og:title", update.title, "title");
  }
  if (update.description !== undefined && update.description.trim() !== current.description) {
    setTag("description", update.description, "description");
    setTag("og:description", update.description, "description");
  }
  if (update.image !== undefined && update.image.trim() !== current.image) {
    const image = update.image.trim();
    setTag("og:image", image ? absoluteUrl(image, options.pageUrl) : null, "image");
  }
  if (update.type !== undefined && (update.type.trim() || "website") !== current.type) {
    setTag("og:type", update.type.trim() || "website", "type");
  }
  if (update.url !== undefined && update.url.trim() !== current.url) {
    setTag("og:url", update.url.trim() || null, "url");
  }
  if (update.robots !== undefined && update.robots !== current.robots) {
    const tag = metadata.tags.robots;
    const tokens = tag ? decodeEntities(tag.raw).split(/\s*,\s*/).filter((t) => t && !/^(noindex|none|index)$/i.test(t)) : [];
    if (update.robots) setTag("robots", ["noindex", ...tokens].join(", "), "robots");
    else setTag("robots", tokens.length > 0 ? tokens.join(", ") : null, "robots");
  }

  if (inserts.length > 0 && metadata.insertAt !== null) {
    const at = metadata.insertAt;
    let lineStart = at;
    while (lineStart > 0 && (source[lineStart - 1] === " " || source[lineStart - 1] === "\t")) lineStart--;
    const ownLine = lineStart === 0 || source[lineStart - 1] === "\n";
    const text = ownLine ? inserts.map((tag) => `${metadata.indent}${tag}\n`).join("") : inserts.join("");
    edits.push({ start: ownLine ? lineStart : at, end: ownLine ? lineStart : at, text: withEol(text, page.eol) });
  }
  return { edits, unwritten };
}

/** Removes a tag, with its line when it stands alone on it. */
function removal(source: string, tag: MetadataTag): Edit {
  let start = tag.outer.start;
  let end = tag.outer.end;
  while (start > 0 && (source[start - 1] === " " || source[start - 1] === "\t")) start--;
  let after = end;
  while (after < source.length && (source[after] === " " || source[after] === "\t")) after++;
  const lineBefore = start === 0 || source[start - 1] === "\n";
  if (lineBefore && (source[after] === "\n" || source.startsWith("\r\n", after))) {
    end = after + (source[after] === "\n" ? 1 : 2);
    return { start, end, text: "" };
  }
  return { start: tag.outer.start, end: tag.outer.end, text: "" };
}
