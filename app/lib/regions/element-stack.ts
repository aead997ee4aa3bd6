/**
 * The stack of open elements, with the implicit end tags of the HTML tree builder that real pages
 * rely on: `<p>` closed by a block, `<li>`/`<dt>`/`<dd>`/`<option>` by a sibling, table cells and
 * rows by the next cell or row, headings by a heading, end tags that close the elements left open
 * inside them, stray end tags ignored, and self-closing tags inside `<svg>`/`<math>`. It does not
 * build a tree: it tells the caller when an element it watches is closed, and where.
 */
import { VOID_ELEMENTS } from "./markers";
import type { StartTag } from "./tokenizer";

/** Called when a watched element closes: its content ends at `innerEnd`, the element at `outerEnd`. */
export type CloseListener = (watch: number, innerEnd: number, outerEnd: number, explicit: boolean) => void;

const HEADINGS = new Set(["h1", "h2", "h3", "h4", "h5", "h6"]);

const CLOSES_P = new Set([
  "address", "article", "aside", "blockquote", "center", "details", "dialog", "dir", "div", "dl", "fieldset",
  "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr",
  "main", "menu", "nav", "ol", "p", "pre", "listing", "search", "section", "summary", "table", "ul", "xmp",
  "li", "dd", "dt", "plaintext",
]);

/** Elements an end tag's search does not cross (the "has an element in scope" boundaries). */
const SCOPE = new Set(["applet", "caption", "html", "table", "td", "th", "marquee", "object", "template", "svg", "math"]);
const TABLE_SCOPE = new Set(["html", "table", "template"]);
const BUTTON_SCOPE = new Set([...SCOPE, "button"]);
const LIST_ITEM_SCOPE = new Set([...SCOPE, "ol", "ul"]);
const TABLE_PARTS = new Set(["td", "th", "tr", "tbody", "thead", "tfoot", "table", "caption", "colgroup"]);

/** The "special" category: an unknown end tag stops at these. */
const SPECIAL = new Set([
  "address", "applet", "area", "article", "aside", "base", "basefont", "bgsound", "blockquote", "body", "br",
  "button", "caption", "center", "col", "colgroup", "dd", "details", "dir", "div", "dl", "dt", "embed",
  "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5",
  "h6", "head", "header", "hgroup", "hr", "html", "iframe", "img", "input", "keygen", "li", "link", "listing",
  "main", "marquee", "menu", "meta", "nav", "noembed", "noframes", "noscript", "object", "ol", "p", "param",
  "plaintext", "pre", "script", "search", "section", "select", "source", "style", "summary", "table",
  "tbody", "td", "template", "textarea", "tfoot", "th", "thead", "title", "tr", "track", "ul", "wbr", "xmp",
]);

const FORMATTING = new Set(["a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"]);

export class ElementStack {
  private readonly names: string[] = [];
  private readonly watches: number[] = [];
  /** Index of the outermost open `<svg>`/`<math>`, or -1. */
  private foreignAt = -1;
  /** How many `p`, `li`, `dd`/`dt` and table parts are open: most start tags then skip the stack walks. */
  private openP = 0;
  private openItems = 0;
  private openCells = 0;

  constructor(private readonly onClose: CloseListener) {}

  get depth(): number {
    return this.names.length;
  }

  /**
   * The implicit end tags a start tag causes (`<li>` closes an open `<li>`, …). Call it before
   * deciding anything that depends on which elements are open, then `open`.
   */
  closeBefore(tag: StartTag): void {
    const name = tag.name;
    const at = tag.start;
    if (this.foreignAt >= 0) return;
    if (name === "body") this.closeIfOpen("head", at);
    if (this.openP > 0 && CLOSES_P.has(name)) this.closeP(at);
    if (this.openItems === 0 && this.openCells === 0) {
      if (HEADINGS.has(name) && HEADINGS.has(this.top())) this.popFrom(this.names.length - 1, at);
      else if (name === "a" || name === "button" || name === "nobr") this.closeInScope(name, SCOPE, at);
      return;
    }
    if (name === "li") this.closeListItem(["li"], ["ul", "ol"], at);
    else if (name === "dd" || name === "dt") this.closeListItem(["dd", "dt"], ["dl"], at);
    else if (HEADINGS.has(name) && HEADINGS.has(this.top())) this.popFrom(this.names.length - 1, at);
    else if (name === "a" || name === "button" || name === "nobr") this.closeInScope(name, SCOPE, at);
    else if (name === "option") {
      if (this.top() === "option") this.popFrom(this.names.length - 1, at);
    } else if (name === "optgroup") {
      if (this.top() === "option") this.popFrom(this.names.length - 1, at);
      if (this.top() === "optgroup") this.popFrom(this.names.length - 1, at);
    } else if (name === "td" || name === "th") this.closeTablePart(["td", "th"], ["tr", "tbody", "thead", "tfoot", "table"], at);
    else if (name === "tr") this.closeTablePart(["td", "th", "tr"], ["tbody", "thead", "tfoot", "table"], at);
    else if (name === "tbody" || name === "thead" || name === "tfoot" || name === "caption" || name === "colgroup")
      this.closeTablePart(["td", "th", "tr", "tbody", "thead", "tfoot", "caption", "colgroup"], ["table"], at);
  }

  /** Opens the element of a start tag (after `closeBefore`); false when it does not open (void, self-closed). */
  open(tag: StartTag, watch = -1): boolean {
    const name = tag.name;
    if (this.foreignAt >= 0) {
      if (tag.selfClosing) return false;
      this.push(name, watch);
      return true;
    }
    // Only the first html, head and body open; the tree builder merges repeats into them.
    if ((name === "html" || name === "body" || name === "head") && this.names.includes(name)) return false;
    if (VOID_ELEMENTS.has(name)) return false;
    if (name === "svg" || name === "math") {
      if (tag.selfClosing) return false;
      this.foreignAt = this.names.length;
    }
    this.push(name, watch);
    return true;
  }

  /** Handles an end tag spanning `[start, end)`. */
  close(name: string, start: number, end: number): void {
    const i = this.findForEnd(name);
    if (i >= 0) this.popFrom(i, start, end);
  }

  /** Closes everything still open at `at` (the end of the source). */
  finish(at: number): void {
    if (this.names.length > 0) this.popFrom(0, at);
  }

  private top(): string {
    return this.names[this.names.length - 1] ?? "";
  }

  private push(name: string, watch: number): void {
    this.names.push(name);
    this.watches.push(watch);
    this.count(name, 1);
  }

  private count(name: string, delta: number): void {
    if (name === "p") this.openP += delta;
    else if (name === "li" || name === "dd" || name === "dt" || name === "option" || name === "optgroup") this.openItems += delta;
    else if (TABLE_PARTS.has(name)) this.openCells += delta;
  }

  /** Where the element an end tag `name` closes is on the stack, or -1 when the tag is ignored. */
  private findForEnd(name: string): number {
    const names = this.names;
    if (this.foreignAt >= 0) {
      for (let i = names.length - 1; i >= this.foreignAt; i--) if (names[i] === name) return i;
      // An HTML end tag inside foreign content closes the foreign content first (breakout).
    }
    if (VOID_ELEMENTS.has(name) || name === "body" || name === "html") return -1;
    if (HEADINGS.has(name)) {
      for (let i = names.length - 1; i >= 0; i--) {
        if (HEADINGS.has(names[i])) return i;
        if (SCOPE.has(names[i])) return -1;
      }
      return -1;
    }
    let stops: Set<string> | null;
    if (name === "p") stops = BUTTON_SCOPE;
    else if (name === "li") stops = LIST_ITEM_SCOPE;
    else if (TABLE_PARTS.has(name)) stops = TABLE_SCOPE;
    else if (SPECIAL.has(name) || FORMATTING.has(name)) stops = SCOPE;
    else stops = null; // any other end tag stops at the first special element
    for (let i = names.length - 1; i >= 0; i--) {
      const open = names[i];
      if (open === name) return i;
      if (stops ? stops.has(open) : SPECIAL.has(open)) return -1;
    }
    return -1;
  }

  private closeP(at: number): void {
    const names = this.names;
    for (let i = names.length - 1; i >= 0; i--) {
      if (names[i] === "p") return this.popFrom(i, at);
      if (SCOPE.has(names[i]) || names[i] === "button") return;
    }
  }

  private closeListItem(items: string[], lists: string[], at: number): void {
    const names = this.names;
    for (let i = names.length - 1; i >= 0; i--) {
      const open = names[i];
      if (items.includes(open)) return this.popFrom(i, at);
      if (lists.includes(open) || SCOPE.has(open)) return;
      if (SPECIAL.has(open) && open !== "address" && open !== "div" && open !== "p") return;
    }
  }

  private closeInScope(name: string, stops: Set<string>, at: number): void {
    const names = this.names;
    for (let i = names.length - 1; i >= 0; i--) {
      if (names[i] === name) return this.popFrom(i, at);
      if (stops.has(names[i])) return;
    }
  }

  /** Closes the outermost of `parts` above the nearest of `stops` (a cell, row or section). */
  private closeTablePart(parts: string[], stops: string[], at: number): void {
    const names = this.names;
    let found = -1;
    for (let i = names.length - 1; i >= 0; i--) {
      const open = names[i];
      if (stops.includes(open) || open === "html" || open === "template") break;
      if (parts.includes(open)) found = i;
    }
    if (found >= 0) this.popFrom(found, at);
  }

  private closeIfOpen(name: string, at: number): void {
    const i = this.names.lastIndexOf(name);
    if (i >= 0) this.popFrom(i, at);
  }

  /**
   * Pops the elements from index `from` up. The element at `from` ends at `endTagEnd` when given
   * (its own end tag), the ones above it are closed implicitly at `at`.
   */
  private popFrom(from: number, at: number, endTagEnd?: number): void {
    const names = this.names;
    const watches = this.watches;
    for (let i = names.length - 1; i >= from; i--) {
      const watch = watches[i];
      if (watch >= 0) {
        const explicit = i === from && endTagEnd !== undefined;
        this.onClose(watch, at, explicit ? endTagEnd : at, explicit);
      }
      if (i === this.foreignAt) this.foreignAt = -1;
    }
    // pop() rather than `length = from`: shrinking by assignment is slow in V8.
    while (names.length > from) {
      this.count(names.pop() as string, -1);
      watches.pop();
    }
  }
}
