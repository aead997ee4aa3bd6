/**
 * Regions in the live document, found with the server parser's rules (markers.ts), and what the
 * editor does to them: which parts are islands that cannot be typed into, and how a region is
 * read back as the payload with every editor artefact removed.
 */
import type { FrameRegion, RegionProblem } from "../protocol";
import { readBackground } from "~/lib/regions/css-style";
import { classList, hasClass, isRegionMarked, regionType } from "~/lib/regions/markers";
import type { RegionUpdate } from "~/lib/regions/types";
import { inert, insertAfter, isComment, isElement, isText, unwrap } from "./dom";
import { ignoredOriginal, markerOf, serializeBetween, setIgnoredOriginal } from "./ignored";

/** Attributes the editor adds; none of them survives serialisation. */
export const ATTR = {
  /** On each region element: its index (region elements are never serialised). */
  region: "data-cms-f-region",
  problem: "data-cms-f-problem",
  /** On an element made read-only: its own `contenteditable` before ("-" when it had none). */
  readOnly: "data-cms-f-ce",
  /** A span wrapped around text of a locked or ignored range. */
  wrap: "data-cms-f-wrap",
  /** The panel target id of an element (openPanel/applyPanel). */
  target: "data-cms-f-target",
} as const;

export interface Region {
  index: number;
  el: HTMLElement;
  id: string | null;
  type: FrameRegion["type"];
  global: boolean;
  problem: RegionProblem | null;
}

export const isEditable = (region: Region): boolean => region.problem === null && region.type !== "unsupported";
/** Regions typed into (the others are edited through panels). */
export const isTyped = (region: Region): boolean =>
  isEditable(region) && (region.type === "block" || region.type === "inline" || region.type === "text" || region.type === "link");

const classesOf = (el: Element) => classList(el.getAttribute("class"));
export const isRepeatable = (el: Element): boolean => hasClass(classesOf(el), "repeatable");
export const isEmbed = (el: Element): boolean => el.hasAttribute("data-cms-embed");
export const isCode = (el: Element): boolean => el.localName === "pre" && el.hasAttribute("data-cms-code");
/** A gallery inside a block region (a gallery region is the region element itself). */
export const isGallery = (el: Element): boolean => el.hasAttribute("data-cms-gallery");
/** An element the person cannot type into: uneditable, an embed, a code block, a gallery. */
export const isIsland = (el: Element): boolean => hasClass(classesOf(el), "uneditable") || isEmbed(el) || isCode(el) || isGallery(el);
export const isAnchor = (el: Element): boolean =>
  el.localName === "a" && !el.hasAttribute("href") && el.hasAttribute("id") && el.childNodes.length === 0;

/**
 * The regions in document order, as `parsePage` finds them in the source: marked elements outside
 * any region and outside `cms-ignore` ranges; a region's marked descendants are content.
 */
export function discoverRegions(doc: Document): Region[] {
  const regions: Region[] = [];
  const walker = doc.createTreeWalker(doc.documentElement, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_COMMENT);
  let ignoreDepth = 0;
  let open: Element | null = null;
  for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
    if (isComment(node)) {
      const marker = markerOf(node);
      if (marker?.kind === "ignore") ignoreDepth = marker.open ? ignoreDepth + 1 : Math.max(0, ignoreDepth - 1);
      continue;
    }
    const el = node as HTMLElement;
    if (open && !open.contains(el)) open = null;
    const classes = classesOf(el);
    if (classes.length === 0 || !isRegionMarked(classes) || open || ignoreDepth > 0) continue;
    const rawId = el.getAttribute("id");
    regions.push({
      index: regions.length,
      el,
      id: rawId === null || rawId.trim() === "" ? null : rawId,
      type: regionType(el.localName, classes, { cmsType: el.getAttribute("data-cms-type"), background: el.hasAttribute("data-cms-background") }),
      global: hasClass(classes, "global"),
      problem: null,
    });
    open = el;
  }
  const counts = new Map<string, number>();
  for (const region of regions) if (region.id !== null) counts.set(region.id, (counts.get(region.id) ?? 0) + 1);
  for (const region of regions) {
    if (region.id === null) region.problem = "MISSING_ID";
    else if ((counts.get(region.id) ?? 0) > 1) region.problem = "DUPLICATE_ID";
    else if (region.type === "unsupported") region.problem = "UNSUPPORTED_ELEMENT";
  }
  return regions;
}

export function describeRegion(region: Region): FrameRegion {
  return { id: region.id, type: region.type, global: region.global, element: region.el.localName.slice(0, 40), problem: region.problem };
}

// ── lock and ignore ranges ───────────────────────────────────────────────────────────────────────

export interface RangePair {
  kind: "lock" | "ignore";
  open: Comment;
  /** Null when the range is not closed inside the root. */
  close: Comment | null;
  /** Nesting depth among ranges of the same kind. */
  depth: number;
}

/** The lock and ignore ranges under `root`, and the closing comments that close nothing. */
export function rangePairs(root: Node): { pairs: RangePair[]; orphans: Comment[] } {
  const pairs: RangePair[] = [];
  const orphans: Comment[] = [];
  const stacks: Record<"lock" | "ignore", RangePair[]> = { lock: [], ignore: [] };
  const walker = (root.ownerDocument ?? document).createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const marker = markerOf(node);
    if (marker?.kind !== "lock" && marker?.kind !== "ignore") continue;
    const stack = stacks[marker.kind];
    if (marker.open) {
      const pair: RangePair = { kind: marker.kind, open: node as Comment, close: null, depth: stack.length };
      stack.push(pair);
      pairs.push(pair);
    } else {
      const pair = stack.pop();
      if (pair) pair.close = node as Comment;
      else orphans.push(node as Comment);
    }
  }
  return { pairs, orphans };
}

/** The nodes of a range that sit beside its opening comment (all of them, for a range within one parent). */
export function rangeNodes(pair: RangePair): Node[] {
  const nodes: Node[] = [];
  for (let n = pair.open.nextSibling; n && n !== pair.close; n = n.nextSibling) nodes.push(n);
  return nodes;
}

/** A range from before the opening comment to after the closing one (or the end of the parent). */
export function outerRange(pair: RangePair): Range {
  const range = document.createRange();
  range.setStartBefore(pair.open);
  if (pair.close) range.setEndAfter(pair.close);
  else range.setEnd(pair.open.parentNode as Node, (pair.open.parentNode as Node).childNodes.length);
  return range;
}

// ── islands ──────────────────────────────────────────────────────────────────────────────────────

function markReadOnly(el: Element): void {
  if (el.hasAttribute(ATTR.readOnly)) return;
  const own = el.getAttribute("contenteditable");
  if (own === "false") return;
  el.setAttribute(ATTR.readOnly, own === null ? "-" : `=${own}`);
  el.setAttribute("contenteditable", "false");
}

/**
 * Makes a region's islands read-only: uneditable elements, embeds, code blocks, and what lock and
 * ignore ranges hold (their text wrapped in read-only spans). Idempotent; run again after any
 * change that may bring new islands (paste, panels, undo).
 */
export function protect(region: HTMLElement): void {
  for (const el of Array.from(region.querySelectorAll("*"))) if (isIsland(el)) markReadOnly(el);
  for (const pair of rangePairs(region).pairs) {
    if (pair.kind === "ignore" && pair.depth === 0 && pair.close?.parentNode === pair.open.parentNode && ignoredOriginal(pair.open) === undefined) {
      setIgnoredOriginal(pair.open, serializeBetween(pair.open, pair.close));
    }
    for (const node of rangeNodes(pair)) {
      if (isElement(node)) markReadOnly(node);
      else if (isText(node) && node.data.trim() !== "" && !(isElement(node.parentNode) && node.parentNode.hasAttribute(ATTR.wrap))) {
        const span = document.createElement("span");
        span.setAttribute(ATTR.wrap, "");
        span.setAttribute("contenteditable", "false");
        node.replaceWith(span);
        span.appendChild(node);
      }
    }
  }
}

// ── serialisation ────────────────────────────────────────────────────────────────────────────────

const NONCE = `cms-frame-${Math.random().toString(36).slice(2)}-`;

function commentsOf(root: Node): Comment[] {
  const out: Comment[] = [];
  const walker = (root.ownerDocument ?? document).createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) out.push(n as Comment);
  return out;
}

/**
 * The region's inner HTML as the server would read it from an untouched page: editor attributes
 * and wrappers removed, and each ignored range as it was when the page loaded.
 */
export function cleanHtml(region: HTMLElement): string {
  const clone = inert().importNode(region, true) as HTMLElement;
  const substitutions: string[] = [];
  const { pairs } = rangePairs(region);
  if (pairs.some((p) => p.kind === "ignore")) {
    const live = commentsOf(region);
    const copied = commentsOf(clone);
    const position = new Map(live.map((c, i) => [c, i]));
    for (const pair of pairs) {
      const original = ignoredOriginal(pair.open);
      if (pair.kind !== "ignore" || pair.depth > 0 || original === undefined || !pair.close || pair.close.parentNode !== pair.open.parentNode) continue;
      const open = copied[position.get(pair.open) as number];
      const close = copied[position.get(pair.close) as number];
      while (open.nextSibling && open.nextSibling !== close) open.nextSibling.remove();
      insertAfter(open, inert().createComment(`${NONCE}${substitutions.length}`));
      substitutions.push(original);
    }
  }
  for (const el of Array.from(clone.querySelectorAll(`[${ATTR.wrap}]`))) unwrap(el);
  for (const el of Array.from(clone.querySelectorAll(`[${ATTR.readOnly}]`))) {
    const own = el.getAttribute(ATTR.readOnly) as string;
    el.removeAttribute(ATTR.readOnly);
    if (own === "-") el.removeAttribute("contenteditable");
    else el.setAttribute("contenteditable", own.slice(1));
  }
  for (const el of Array.from(clone.querySelectorAll(`[${ATTR.target}]`))) el.removeAttribute(ATTR.target);
  let html = clone.innerHTML;
  substitutions.forEach((original, i) => {
    html = html.replace(`<!--${NONCE}${i}-->`, () => original);
  });
  return html;
}

const attr = (el: Element, name: string) => el.getAttribute(name) ?? "";

/** The payload entry of an editable region. */
export function serializeRegion(region: Region): RegionUpdate | null {
  const el = region.el;
  switch (region.type) {
    case "block":
    case "inline":
    case "gallery":
      return { type: region.type, content: cleanHtml(el) };
    case "text":
      return { type: "text", content: el.textContent ?? "" };
    case "image":
      return { type: "image", src: attr(el, "src"), alt: attr(el, "alt") };
    case "link":
      return { type: "link", href: attr(el, "href"), title: attr(el, "title"), target: attr(el, "target"), rel: attr(el, "rel"), content: cleanHtml(el) };
    case "background":
      return { type: "background", ...readBackground(attr(el, "style")) };
    default:
      return null;
  }
}

/** The region an element or node is in (the region element itself included). */
export function regionOf(node: Node | null, regions: readonly Region[]): Region | null {
  for (let n: Node | null = node; n; n = n.parentNode) {
    if (isElement(n) && n.hasAttribute(ATTR.region)) {
      const region = regions[Number(n.getAttribute(ATTR.region))];
      return region && region.el === n ? region : null;
    }
  }
  return null;
}
