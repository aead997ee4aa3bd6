/**
 * Pasted content, cleaned to what the region type allows before it reaches the page: inline
 * regions take inline formatting only, block regions the model's rich content; never scripts,
 * styles, event handlers, classes (so no region markers), comments (so no `cms-` ranges) or unsafe
 * URLs. The server sanitises again on save; this keeps the page what the person will get.
 */
import { LINK_TARGET, safeUrl } from "~/lib/regions/url-policy";
import { isElement, isText } from "./dom";

export type PasteMode = "inline" | "link" | "block";

const INLINE = new Set(["b", "strong", "i", "em", "u", "s", "strike", "del", "ins", "sub", "sup", "code", "a", "br", "small", "mark", "q", "abbr", "kbd"]);
const BLOCK = new Set([
  ...INLINE, "h1", "h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "blockquote", "pre", "table", "thead", "tbody",
  "tfoot", "tr", "th", "td", "caption", "hr", "figure", "figcaption", "img", "dl", "dt", "dd",
]);
/** Dropped with their content. */
const DROP = new Set([
  "script", "style", "template", "object", "embed", "iframe", "video", "audio", "svg", "math", "canvas", "noscript",
  "textarea", "select", "button", "input", "head", "title", "meta", "link", "base", "frame", "frameset", "applet", "portal", "dialog",
]);
/** Containers whose children stand on their own; with only inline children they become a paragraph. */
export const BLOCK_LEVEL = new Set([
  "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure", "footer", "form", "h1",
  "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "ul", "dd", "dt",
  "tr", "td", "th", "tbody", "thead", "tfoot", "caption", "center",
]);

function copyAttributes(from: Element, to: Element): void {
  const get = (name: string) => from.getAttribute(name);
  switch (to.localName) {
    case "a": {
      const href = get("href");
      const safe = href === null ? null : safeUrl(href);
      if (safe) to.setAttribute("href", safe);
      const title = get("title");
      if (title) to.setAttribute("title", title);
      const target = get("target");
      if (target && LINK_TARGET.test(target)) to.setAttribute("target", target);
      break;
    }
    case "img": {
      const src = get("src");
      const safe = src === null ? null : safeUrl(src, { image: true });
      if (safe) to.setAttribute("src", safe);
      for (const name of ["alt", "width", "height"]) {
        const value = get(name);
        if (value !== null) to.setAttribute(name, value);
      }
      break;
    }
    case "td":
    case "th":
      for (const name of ["colspan", "rowspan"]) {
        const value = get(name);
        if (value !== null && /^[0-9]{1,3}$/.test(value)) to.setAttribute(name, value);
      }
      break;
    case "ol": {
      const start = get("start");
      if (start !== null && /^-?[0-9]{1,6}$/.test(start)) to.setAttribute("start", start);
      break;
    }
  }
}

function hasBlockChild(el: Element): boolean {
  return Array.from(el.children).some((child) => BLOCK_LEVEL.has(child.localName));
}

function cleanChildren(from: Node, to: Node, mode: PasteMode): void {
  const allowed = mode === "block" ? BLOCK : INLINE;
  for (const node of Array.from(from.childNodes)) {
    if (isText(node)) {
      to.appendChild(document.createTextNode(node.data));
      continue;
    }
    if (!isElement(node)) continue; // comments, processing instructions
    const name = node.localName;
    if (DROP.has(name)) continue;
    // Google Docs wraps everything in <b style="font-weight:normal">.
    const notBold = name === "b" && /font-weight:\s*(normal|[1-4]00)/i.test(node.getAttribute("style") ?? "");
    if (allowed.has(name) && !(mode === "link" && name === "a") && !notBold) {
      const el = document.createElement(name);
      copyAttributes(node, el);
      // What is left of an image or link whose URL was refused is nothing, or its text.
      if (name === "img" && !el.hasAttribute("src")) continue;
      if (name === "a" && !el.hasAttribute("href")) {
        cleanChildren(node, to, mode);
        continue;
      }
      cleanChildren(node, el, mode);
      to.appendChild(el);
    } else if (mode === "block" && BLOCK_LEVEL.has(name) && !hasBlockChild(node)) {
      const p = document.createElement("p");
      cleanChildren(node, p, mode);
      if (p.childNodes.length > 0) to.appendChild(p);
    } else {
      cleanChildren(node, to, mode);
      // Blocks flattened into inline content keep a word break between them.
      if (mode !== "block" && BLOCK_LEVEL.has(name) && to.lastChild && !(isText(to.lastChild) && /\s$/.test(to.lastChild.data))) {
        to.appendChild(document.createTextNode(" "));
      }
    }
  }
}

/** Pasted HTML as nodes of this document that the region type allows. */
export function cleanPastedHtml(html: string, mode: PasteMode): DocumentFragment {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  const fragment = document.createDocumentFragment();
  cleanChildren(parsed.body, fragment, mode);
  // Word and browsers wrap the selection in a trailing break or whitespace-only text.
  while (fragment.lastChild && isText(fragment.lastChild) && fragment.lastChild.data.trim() === "") fragment.lastChild.remove();
  return fragment;
}

/** Pasted plain text: one line stays inline; several lines in a block region become paragraphs. */
export function plainTextFragment(text: string, mode: PasteMode): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  if (mode !== "block" || lines.length === 1) {
    fragment.appendChild(document.createTextNode(lines.join(" ")));
    return fragment;
  }
  for (const line of lines) {
    if (line.trim() === "") continue;
    const p = document.createElement("p");
    p.textContent = line;
    fragment.appendChild(p);
  }
  return fragment;
}
