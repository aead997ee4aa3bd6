/**
 * The page as the editor frame gets it: the customer's source with a `<base>` to the live page
 * (so its relative images, styles and scripts load from the customer's site) and the in-frame
 * editor's `<script>` put in front of everything else the page runs, without moving a byte of the
 * page itself: the doctype stays first (no quirks mode), and the insertion goes right after the
 * `<head>` start tag, or where the head would begin.
 */
import { decodeEntities, escapeAttribute } from "./entities";
import { type Dialect, getAttr, tokenize } from "./tokenizer";

export interface EditorDocumentHead {
  /** Where the inserted tags go (an index into the source). */
  insertAt: number;
  /** The page's own `<base href>` (entity-decoded), if it has one in the head. */
  baseHref: string | null;
}

const STOP = Symbol("stop");
/** Elements that may open a document before its head content. */
const PROLOGUE = new Set(["html", "head"]);

/**
 * Where the head begins: just after `<head …>` when the page has one before any other content,
 * else just after `<html …>`, else before the first other element or text (after a doctype,
 * comments and leading server code). And the page's own `<base href>`, wherever it is in the head.
 *
 * @example findEditorHead('<!doctype html><html><head><title>x</title>', "html") // { insertAt: 27, baseHref: null }
 */
export function findEditorHead(source: string, dialect: Dialect): EditorDocumentHead {
  let insertAt = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  let decided = false;
  let baseHref: string | null = null;
  try {
    tokenize(source, dialect, {
      wantsAttributes: (tag) => tag.name === "base",
      startTag(tag) {
        if (tag.name === "base" && baseHref === null) {
          const href = getAttr(source, tag, "href");
          if (href !== null) baseHref = decodeEntities(href).trim();
        }
        if (tag.name === "body") throw STOP;
        if (decided) return;
        if (PROLOGUE.has(tag.name)) {
          insertAt = tag.end;
          if (tag.name === "head") decided = true;
        } else {
          insertAt = tag.start;
          decided = true;
        }
      },
      endTag(name) {
        if (name === "head") throw STOP;
      },
      text(start, end) {
        if (!decided && source.slice(start, end).trim() !== "") {
          insertAt = start;
          decided = true;
        }
      },
      comment(_start, end) {
        if (!decided) insertAt = end;
      },
      opaque(_start, end) {
        if (!decided) insertAt = end;
      },
    });
  } catch (error) {
    if (error !== STOP) throw error;
  }
  return { insertAt, baseHref };
}

/**
 * The source with `html` inserted where its head begins (`head`, from `findEditorHead`).
 * @example withHeadInsert(source, findEditorHead(source, "html"), '<base href="https://example.com/">')
 */
export function withHeadInsert(source: string, head: Pick<EditorDocumentHead, "insertAt">, html: string): string {
  return `${source.slice(0, head.insertAt)}${html}${source.slice(head.insertAt)}`;
}

/**
 * The `<base>` the editor frame needs: the page's own base resolved against the live URL (so it
 * keeps its meaning), else the live URL itself. The first `<base href>` of a document wins, and
 * the inserted one comes first.
 */
export function editorBaseTag(liveUrl: string, pageBaseHref: string | null): string {
  let href = liveUrl;
  if (pageBaseHref) {
    try {
      href = new URL(pageBaseHref, liveUrl).href;
    } catch {
      href = liveUrl;
    }
  }
  return `<base href="${escapeAttribute(href)}">`;
}
