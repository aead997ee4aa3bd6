/**
 * A small HTML tokenizer that reports exact source offsets.
 *
 * It follows the HTML tokenizer where it matters for finding element boundaries in real-world
 * pages: case-insensitive tag names, double-, single- and unquoted attribute values (a `>` inside
 * quotes does not end the tag), comments (including `<!-->` and `--!>`), `<![CDATA[ … ]]>`,
 * doctypes and bogus comments, raw text (`script`, `style`, `xmp`, `iframe`, `noembed`,
 * `noframes`, `noscript`), escapable raw text (`textarea`, `title`) and `plaintext`. In the `php`
 * and `asp` dialects, server code (`<?php … ?>`, `<?= … ?>`, `<% … %>`) is opaque wherever it
 * appears: in text, inside a tag, inside an attribute value and inside raw text.
 *
 * Offsets are indices into the JavaScript string (UTF-16 code units); see `source-encoding.ts` for
 * the conversion to bytes. No DOM, no Node APIs: it runs in workerd and the browser.
 */

/** The server-side template syntax a page's extension implies. */
export type Dialect = "html" | "php" | "asp";

/** `php` for PHP pages, `asp` for `<% %>` templates (ASP, ASP.NET, JSP, ERB, EJS), else `html`. */
export function dialectForExtension(extension: string): Dialect {
  const ext = extension.replace(/^.*\./, "").toLowerCase();
  if (/^(php\d?|phtml|inc)$/.test(ext)) return "php";
  if (/^(asp|aspx|ascx|asax|master|cshtml|vbhtml|jsp|jspf|erb|rhtml|ejs)$/.test(ext)) return "asp";
  return "html";
}

export interface Attribute {
  /** Lowercased name; `""` for server code standing where an attribute would (`<div <?php … ?>>`). */
  name: string;
  /** The whole attribute, from its name to the end of its value (closing quote included). */
  start: number;
  end: number;
  nameEnd: number;
  /** The raw (not entity-decoded) value's span, inside the quotes; -1 when there is no `=`. */
  valueStart: number;
  valueEnd: number;
  quote: '"' | "'" | "";
}

export interface StartTag {
  /** Lowercased tag name. */
  name: string;
  start: number;
  /** Just after the closing `>` (or the end of the source for a tag cut off by it). */
  end: number;
  attrs: Attribute[];
  /** The tag ends with `/>`. */
  selfClosing: boolean;
  /**
   * A quick hint from scanning: a `class` value containing `able` (editable, repeatable, …) or a
   * `data-cms*` attribute. False means the tag carries no marker of the editing model.
   */
  hinted: boolean;
}

export interface TokenHandler {
  /**
   * Whether the start tag spanning `[start, end)` needs its attributes (default: always). When
   * false, `tag.attrs` is empty: scanning without collecting is several times faster.
   */
  wantsAttributes?(tag: StartTag): boolean;
  startTag(tag: StartTag): void;
  endTag(name: string, start: number, end: number): void;
  /** `<!--data-->`: the data is `[dataStart, dataEnd)`. */
  comment?(start: number, end: number, dataStart: number, dataEnd: number): void;
  /** Text between tags, and the content of raw text elements. */
  text?(start: number, end: number, raw: boolean): void;
  /** Doctype, CDATA, bogus comments and server code: opaque ranges. */
  opaque?(start: number, end: number, kind: "doctype" | "cdata" | "bogus" | "server"): void;
}

const RAW_TEXT = new Set(["script", "style", "xmp", "iframe", "noembed", "noframes", "noscript", "textarea", "title"]);

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12;
}

function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Where server code starting at `i` (`<?` or `<%`) ends, or -1 when there is none at `i`. */
function serverCodeEnd(src: string, i: number, dialect: Dialect): number {
  if (dialect === "html" || src.charCodeAt(i) !== 60) return -1;
  const c = src.charCodeAt(i + 1);
  let close: string;
  if (dialect === "php" && c === 63) close = "?>";
  else if (dialect === "asp" && c === 37) close = "%>";
  else return -1;
  const j = src.indexOf(close, i + 2);
  // PHP lets a file end inside code (no closing `?>`).
  return j < 0 ? src.length : j + 2;
}

/** Finds the end of the comment whose `<!--` is at `lt`: `-->`, `--!>`, or `<!-->`/`<!--->`. */
function commentBounds(src: string, lt: number): [dataEnd: number, end: number] {
  const d = lt + 4;
  if (src.charCodeAt(d) === 62) return [d, d + 1];
  if (src.charCodeAt(d) === 45 && src.charCodeAt(d + 1) === 62) return [d, d + 2];
  let from = d;
  for (;;) {
    const j = src.indexOf("--", from);
    if (j < 0) return [src.length, src.length];
    if (src.charCodeAt(j + 2) === 62) return [j, j + 3];
    if (src.charCodeAt(j + 2) === 33 && src.charCodeAt(j + 3) === 62) return [j, j + 4];
    from = j + 1;
  }
}

const NO_ATTRIBUTES: Attribute[] = [];

/** The name at `[from, to)`, lowercased only when it has an uppercase letter (no extra string otherwise). */
function lowerName(src: string, from: number, to: number): string {
  const name = src.slice(from, to);
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c >= 65 && c <= 90) return name.toLowerCase();
  }
  return name;
}

/**
 * Scans the start tag at `lt` (`<` followed by a letter). With `collect` false the attributes are
 * only skipped (the tag's end is still exact), which is what most tags of a large page need.
 */
export function scanStartTag(src: string, lt: number, dialect: Dialect, collect = true): StartTag {
  const n = src.length;
  let i = lt + 1;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (isSpace(c) || c === 47 || c === 62) break;
    i++;
  }
  const name = lowerName(src, lt + 1, i);
  const attrs: Attribute[] = collect ? [] : NO_ATTRIBUTES;
  let selfClosing = false;
  let hinted = false;
  for (;;) {
    while (i < n && isSpace(src.charCodeAt(i))) i++;
    if (i >= n) break;
    let c = src.charCodeAt(i);
    if (c === 62) {
      i++;
      break;
    }
    if (c === 47) {
      if (src.charCodeAt(i + 1) === 62) {
        selfClosing = true;
        i += 2;
        break;
      }
      i++;
      continue;
    }
    const server = serverCodeEnd(src, i, dialect);
    if (server >= 0) {
      if (collect) attrs.push({ name: "", start: i, end: server, nameEnd: server, valueStart: -1, valueEnd: -1, quote: "" });
      i = server;
      continue;
    }
    const start = i;
    i++; // the first character of a name may be `=`
    while (i < n) {
      c = src.charCodeAt(i);
      if (isSpace(c) || c === 47 || c === 62 || c === 61) break;
      i++;
    }
    const nameEnd = i;
    const isClass = nameEnd - start === 5 && (src.charCodeAt(start) | 32) === 99 && src.slice(start, nameEnd).toLowerCase() === "class";
    if (!hinted && nameEnd - start >= 8 && (src.startsWith("data-cms", start) || src.slice(start, start + 8).toLowerCase() === "data-cms")) hinted = true;
    const attr: Attribute = {
      name: collect ? lowerName(src, start, nameEnd) : "",
      start,
      end: nameEnd,
      nameEnd,
      valueStart: -1,
      valueEnd: -1,
      quote: "",
    };
    let j = i;
    while (j < n && isSpace(src.charCodeAt(j))) j++;
    if (src.charCodeAt(j) === 61) {
      j++;
      while (j < n && isSpace(src.charCodeAt(j))) j++;
      const q = src.charCodeAt(j);
      if (q === 34 || q === 39) {
        attr.quote = q === 34 ? '"' : "'";
        attr.valueStart = j + 1;
        let k = j + 1;
        while (k < n) {
          const ck = src.charCodeAt(k);
          if (ck === q) break;
          if (ck === 98 && isClass && src.charCodeAt(k - 1) === 97 && src.charCodeAt(k + 1) === 108) hinted = true; // "abl"
          const s = ck === 60 ? serverCodeEnd(src, k, dialect) : -1;
          k = s >= 0 ? s : k + 1;
        }
        attr.valueEnd = Math.min(k, n);
        i = Math.min(k + 1, n);
      } else {
        attr.valueStart = j;
        let k = j;
        while (k < n) {
          const ck = src.charCodeAt(k);
          if (isSpace(ck) || ck === 62) break;
          if (ck === 98 && isClass && src.charCodeAt(k - 1) === 97 && src.charCodeAt(k + 1) === 108) hinted = true;
          const s = ck === 60 ? serverCodeEnd(src, k, dialect) : -1;
          k = s >= 0 ? s : k + 1;
        }
        attr.valueEnd = k;
        i = k;
      }
      attr.end = i;
    }
    if (collect) attrs.push(attr);
  }
  return { name, start: lt, end: Math.min(i, n), attrs, selfClosing, hinted };
}

/** Where the raw text of `name` opened before `from` ends: the `<` of its end tag, or the end. */
function rawTextEnd(src: string, from: number, name: string, dialect: Dialect): number {
  const n = src.length;
  let i = from;
  while (i < n) {
    const lt = src.indexOf("<", i);
    if (lt < 0) return n;
    const server = serverCodeEnd(src, lt, dialect);
    if (server >= 0) {
      i = server;
      continue;
    }
    if (src.charCodeAt(lt + 1) === 47 && src.slice(lt + 2, lt + 2 + name.length).toLowerCase() === name) {
      const c = src.charCodeAt(lt + 2 + name.length);
      if (isSpace(c) || c === 47 || c === 62 || Number.isNaN(c)) return lt;
    }
    i = lt + 1;
  }
  return n;
}

/** Scans an end tag's trailing attributes (ignored by HTML) to its `>`. */
function endTagEnd(src: string, from: number, dialect: Dialect): number {
  // End tags may carry (ignored) attributes; reuse the start tag scanner for quote handling.
  return scanStartTag(src, from - 1, dialect, false).end;
}

/**
 * Tokenizes `src`, calling `handler` for every token in source order. Tokens cover the source
 * without gaps or overlaps (text, tags, comments, opaque ranges).
 */
export function tokenize(src: string, dialect: Dialect, handler: TokenHandler): void {
  const n = src.length;
  let i = 0;
  let textStart = 0;
  const flushText = (end: number) => {
    if (end > textStart) handler.text?.(textStart, end, false);
  };
  while (i < n) {
    const lt = src.indexOf("<", i);
    if (lt < 0) break;
    const c = src.charCodeAt(lt + 1);
    if (c === 33) {
      // `<!`
      if (src.startsWith("<!--", lt)) {
        const [dataEnd, end] = commentBounds(src, lt);
        flushText(lt);
        handler.comment?.(lt, end, lt + 4, dataEnd);
        i = textStart = end;
      } else if (src.startsWith("<![CDATA[", lt)) {
        const j = src.indexOf("]]>", lt + 9);
        const end = j < 0 ? n : j + 3;
        flushText(lt);
        handler.opaque?.(lt, end, "cdata");
        i = textStart = end;
      } else {
        const j = src.indexOf(">", lt + 2);
        const end = j < 0 ? n : j + 1;
        flushText(lt);
        handler.opaque?.(lt, end, /^<!doctype/i.test(src.slice(lt, lt + 9)) ? "doctype" : "bogus");
        i = textStart = end;
      }
    } else if (c === 47) {
      // `</`
      if (isAlpha(src.charCodeAt(lt + 2))) {
        let j = lt + 2;
        while (j < n) {
          const cj = src.charCodeAt(j);
          if (isSpace(cj) || cj === 47 || cj === 62) break;
          j++;
        }
        const name = src.slice(lt + 2, j).toLowerCase();
        const end = src.charCodeAt(j) === 62 ? j + 1 : endTagEnd(src, j, dialect);
        flushText(lt);
        handler.endTag(name, lt, end);
        i = textStart = end;
      } else if (src.charCodeAt(lt + 2) === 62) {
        flushText(lt);
        handler.opaque?.(lt, lt + 3, "bogus"); // `</>` is dropped by browsers
        i = textStart = lt + 3;
      } else {
        const j = src.indexOf(">", lt + 2);
        const end = j < 0 ? n : j + 1;
        flushText(lt);
        handler.opaque?.(lt, end, "bogus");
        i = textStart = end;
      }
    } else if (isAlpha(c)) {
      let tag = scanStartTag(src, lt, dialect, !handler.wantsAttributes);
      if (handler.wantsAttributes?.(tag)) tag = scanStartTag(src, lt, dialect, true);
      flushText(lt);
      handler.startTag(tag);
      i = textStart = tag.end;
      if (tag.name === "plaintext") {
        if (n > i) handler.text?.(i, n, true);
        i = textStart = n;
      } else if (RAW_TEXT.has(tag.name) && !tag.selfClosing) {
        const end = rawTextEnd(src, i, tag.name, dialect);
        if (end > i) handler.text?.(i, end, true);
        i = textStart = end;
      }
    } else {
      const server = serverCodeEnd(src, lt, dialect);
      if (server >= 0) {
        flushText(lt);
        handler.opaque?.(lt, server, "server");
        i = textStart = server;
      } else if (c === 63) {
        // `<?xml …>` and friends in plain HTML: a bogus comment up to the next `>`.
        const j = src.indexOf(">", lt + 2);
        const end = j < 0 ? n : j + 1;
        flushText(lt);
        handler.opaque?.(lt, end, "bogus");
        i = textStart = end;
      } else {
        i = lt + 1; // a literal `<`
      }
    }
  }
  flushText(n);
}

/** The raw value of `name` on `tag` (first occurrence wins, as in browsers); null when absent. */
export function getAttr(src: string, tag: StartTag, name: string): string | null {
  const attr = findAttr(tag, name);
  if (!attr) return null;
  return attr.valueStart < 0 ? "" : src.slice(attr.valueStart, attr.valueEnd);
}

export function findAttr(tag: StartTag, name: string): Attribute | undefined {
  for (const attr of tag.attrs) if (attr.name === name) return attr;
  return undefined;
}
