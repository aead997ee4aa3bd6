/**
 * Replacements of source ranges, and the attribute edits the merge makes inside a start tag.
 * Everything outside the edited ranges is copied as is.
 */
import { decodeEntities, escapeAttribute } from "./entities";
import { findAttr, type StartTag } from "./tokenizer";

/** Replace `[start, end)` of the source with `text` (`start === end`: insert). */
export interface Edit {
  start: number;
  end: number;
  text: string;
}

/** Applies non-overlapping edits (in any order; insertions at one offset keep their order). */
export function applyEdits(source: string, edits: readonly Edit[]): string {
  if (edits.length === 0) return source;
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) throw new Error(`Overlapping edits at ${edit.start}`);
    parts.push(source.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  parts.push(source.slice(at));
  return parts.join("");
}

/** The quote the tag's existing attributes use (double when none is quoted). */
function tagQuote(tag: StartTag): '"' | "'" {
  for (const attr of tag.attrs) if (attr.quote) return attr.quote;
  return '"';
}

const SAFE_UNQUOTED = /^[^\s"'=<>`&]+$/;

/**
 * The edit that gives attribute `name` of `tag` the (decoded) `value`, or removes it when `value`
 * is null; null when the attribute already says that. Existing quoting is kept; a new attribute is
 * added after the last one, quoted like the others.
 */
export function attributeEdit(source: string, tag: StartTag, name: string, value: string | null): Edit | null {
  const attr = findAttr(tag, name);
  if (value === null) {
    if (!attr) return null;
    let start = attr.start;
    while (start > tag.start && /\s/.test(source[start - 1])) start--;
    return { start, end: attr.end, text: "" };
  }
  if (!attr) {
    const last = tag.attrs[tag.attrs.length - 1];
    const at = last ? last.end : tag.start + 1 + tag.name.length;
    const quote = tagQuote(tag);
    return { start: at, end: at, text: ` ${name}=${quote}${escapeAttribute(value, quote)}${quote}` };
  }
  if (attr.valueStart < 0) {
    const quote = tagQuote(tag);
    return { start: attr.start, end: attr.end, text: `${source.slice(attr.start, attr.nameEnd)}=${quote}${escapeAttribute(value, quote)}${quote}` };
  }
  const raw = source.slice(attr.valueStart, attr.valueEnd);
  if (raw === value || decodeEntities(raw) === value) return null;
  if (attr.quote) return { start: attr.valueStart, end: attr.valueEnd, text: escapeAttribute(value, attr.quote) };
  if (SAFE_UNQUOTED.test(value)) return { start: attr.valueStart, end: attr.valueEnd, text: value };
  return { start: attr.valueStart, end: attr.valueEnd, text: `"${escapeAttribute(value, '"')}"` };
}

/** Normalises line breaks in inserted text to the page's own. */
export function withEol(text: string, eol: "\n" | "\r\n"): string {
  return eol === "\n" ? text.replace(/\r\n?/g, "\n") : text.replace(/\r\n|\r|\n/g, "\r\n");
}
