/** Small DOM helpers of the in-frame editor. */

let inertDocument: Document | null = null;

/** A document without a browsing context: nodes imported into it load nothing and run nothing. */
export function inert(): Document {
  inertDocument ??= document.implementation.createHTMLDocument("");
  return inertDocument;
}

export const isElement = (node: Node | null): node is HTMLElement => node !== null && node.nodeType === Node.ELEMENT_NODE;
export const isComment = (node: Node | null): node is Comment => node !== null && node.nodeType === Node.COMMENT_NODE;
export const isText = (node: Node | null): node is Text => node !== null && node.nodeType === Node.TEXT_NODE;

/** The nearest element from `node` up to `root` (inclusive when `self`) that matches. */
export function closestWithin(node: Node | null, root: Element, test: (el: HTMLElement) => boolean, includeRoot = false): HTMLElement | null {
  for (let n: Node | null = node; n && root.contains(n); n = n.parentNode) {
    if (n === root && !includeRoot) return null;
    if (isElement(n) && test(n)) return n;
  }
  return null;
}

export function indexOf(node: Node): number {
  let i = 0;
  for (let n = node.previousSibling; n; n = n.previousSibling) i++;
  return i;
}

export function pathOf(root: Node, node: Node): number[] | null {
  const path: number[] = [];
  for (let n: Node = node; n !== root; ) {
    const parent = n.parentNode;
    if (!parent) return null;
    path.unshift(indexOf(n));
    n = parent;
  }
  return path;
}

export function nodeAt(root: Node, path: readonly number[]): Node | null {
  let n: Node | null = root;
  for (const i of path) {
    n = n.childNodes[i] ?? null;
    if (!n) return null;
  }
  return n;
}

export function currentRange(): Range | null {
  const selection = document.getSelection();
  return selection && selection.rangeCount > 0 ? selection.getRangeAt(0) : null;
}

export function select(range: Range): void {
  const selection = document.getSelection();
  if (!selection) return;
  selection.removeAllRanges();
  selection.addRange(range);
}

export function caretAfter(node: Node): void {
  const range = document.createRange();
  range.setStartAfter(node);
  range.collapse(true);
  select(range);
}

export function caretInside(node: Node, atEnd = false): void {
  const range = document.createRange();
  range.selectNodeContents(node);
  range.collapse(!atEnd);
  select(range);
}

/** Replaces an element by its children. */
export function unwrap(el: Element): void {
  el.replaceWith(...Array.from(el.childNodes));
}

// The Workers types give `Element` HTMLRewriter's `before`/`after`/`append`/`prepend`, which shadow
// the DOM's in type checking; these say the same with the older methods.

export function insertAfter(ref: Node, ...nodes: Node[]): void {
  const parent = ref.parentNode as Node;
  const next = ref.nextSibling;
  for (const node of nodes) parent.insertBefore(node, next);
}

export function insertBefore(ref: Node, node: Node): void {
  (ref.parentNode as Node).insertBefore(node, ref);
}
