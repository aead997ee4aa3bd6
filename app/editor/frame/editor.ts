/**
 * The in-frame editor, started by main.ts once the parent's `init` arrived and the document is
 * parsed: makes the regions editable, answers the parent's messages and reports changes.
 *
 * `send` must never be handed to code outside this bundle (as a callback to a built-in a page
 * script may have replaced): it is the only way to the parent.
 */
import type { FrameMessage, FramePage, PanelKind, ParentMessage, SelectionState, TextCommand } from "../protocol";
import { backgroundCss, type BackgroundValues, readBackground, withBackground } from "~/lib/regions/css-style";
import { normaliseCodeLanguage } from "~/lib/regions/markers";
import type { RegionUpdate, RegionUpdates } from "~/lib/regions/types";
import { LINK_REL, LINK_TARGET, safeUrl } from "~/lib/regions/url-policy";
import { caretAfter, caretInside, closestWithin, currentRange, inert, insertAfter, insertBefore, isElement, isText, nodeAt, pathOf, select } from "./dom";
import { History } from "./history";
import { markerOf } from "./ignored";
import { BLOCK_LEVEL, cleanPastedHtml, type PasteMode, plainTextFragment } from "./paste";
import type { Platform } from "./platform";
import { defaultAnchorName, normaliseAnchorName } from "~/lib/names";
import {
  ATTR, cleanHtml, describeRegion, discoverRegions, isAnchor, isCode, isEditable, isEmbed, isGallery, isRepeatable, isTyped, outerRange,
  protect, type RangePair, rangePairs, type Region, regionOf, serializeRegion,
} from "./regions";

type Init = Extract<ParentMessage, { type: "init" }>;
type Values = Record<string, string | boolean | null>;

const STYLE = `
[${ATTR.region}]{outline:1px dashed rgba(37,99,235,.45);outline-offset:2px}
[${ATTR.region}]:hover{outline-color:rgba(37,99,235,.9)}
[${ATTR.region}][contenteditable]:focus{outline:2px solid rgba(37,99,235,.9)}
[${ATTR.problem}]{outline:1px dashed rgba(220,38,38,.8);outline-offset:2px}
img[${ATTR.region}],[${ATTR.region}] img,[${ATTR.region}] [data-cms-embed],[${ATTR.region}] pre[data-cms-code]{cursor:pointer}
[${ATTR.region}] [${ATTR.readOnly}],[${ATTR.region}] [${ATTR.wrap}]{cursor:default}
[${ATTR.region}] a[id]:empty:not([href])::before{content:"\\2693";font:12px/1 sans-serif;opacity:.6;cursor:pointer}
`;

const FORMAT_COMMANDS: Partial<Record<TextCommand, string>> = {
  bold: "bold", italic: "italic", underline: "underline", strike: "strikeThrough", clearFormatting: "removeFormat",
};
const BLOCK_COMMANDS: Partial<Record<TextCommand, [string, string?]>> = {
  h1: ["formatBlock", "<h1>"], h2: ["formatBlock", "<h2>"], h3: ["formatBlock", "<h3>"], h4: ["formatBlock", "<h4>"],
  h5: ["formatBlock", "<h5>"], h6: ["formatBlock", "<h6>"], paragraph: ["formatBlock", "<p>"],
  orderedList: ["insertOrderedList"], unorderedList: ["insertUnorderedList"],
  alignLeft: ["justifyLeft"], alignCenter: ["justifyCenter"], alignRight: ["justifyRight"], alignJustify: ["justifyFull"],
};
/** Gallery options (EDITING-MODEL.md): panel value key → `data-cms-*` attribute name. */
const GALLERY_OPTIONS = [
  ["element", "element"], ["captions", "captions"], ["links", "links"],
  ["thumbnailWidth", "thumbnail-width"], ["thumbnailHeight", "thumbnail-height"], ["thumbnailResize", "thumbnail-resize"],
] as const;
let template: HTMLTemplateElement | null = null;
/** A template element of an inert document: parsing HTML into it loads nothing and runs nothing. */
const inertTemplate = () => (template ??= inert().createElement("template"));

const PHRASING_BLOCKS = /^(p|h[1-6]|pre|address)$/;

const exec = (command: string, value?: string) => document.execCommand(command, false, value);
const isLink = (el: Element) => el.localName === "a" && el.hasAttribute("href");
const isCell = (el: Element) => el.localName === "td" || el.localName === "th";

/** -1, 0 or 1: where boundary point a is relative to boundary point b. */
function order(aNode: Node, aOffset: number, bNode: Node, bOffset: number): number {
  const range = document.createRange();
  range.setStart(bNode, bOffset);
  return range.comparePoint(aNode, aOffset);
}

function isEmptyBlock(el: Element): boolean {
  return (el.textContent ?? "").trim() === "" && !el.querySelector("img,table,hr,iframe,video,[data-cms-embed]");
}

export function startEditor(platform: Platform, send: (message: FrameMessage) => void, _init: Init, page: FramePage): (message: ParentMessage) => void {
  const regions = discoverRegions(document);
  const history = new History();
  const cache = new Map<Region, RegionUpdate | null>();
  const dirty = new Set<Region>();
  let inCommand = false;
  let lastInputType = "";
  let saved: { region: Region; range: Range } | null = null;
  let nextTarget = 0;
  let lastChanged: string | null = null;
  let changedTimer = 0;
  let selectionTimer = 0;
  let lastSelection = "";
  /** Where the panel opened by a toolbar's insert button will put its element. */
  let pendingInsert: { region: Region; range: Range } | null = null;

  // Chromium's defaults would write <div> paragraphs and <span style> formatting.
  exec("defaultParagraphSeparator", "p");
  exec("styleWithCSS", "false");

  for (const region of regions) {
    if (region.problem) region.el.setAttribute(ATTR.problem, region.problem);
    if (!isEditable(region)) continue;
    region.el.setAttribute(ATTR.region, String(region.index));
    if (region.type === "text") region.el.setAttribute("contenteditable", "plaintext-only");
    else if (isTyped(region)) region.el.setAttribute("contenteditable", "true");
    if (isTyped(region)) protect(region.el);
  }
  const style = document.createElement("style");
  style.textContent = STYLE;
  (document.head ?? document.documentElement).appendChild(style);

  // ── serialisation and change reports ──────────────────────────────────────────────────────────

  function serializeAll(): RegionUpdates {
    const out: RegionUpdates = {};
    for (const region of regions) {
      if (!isEditable(region) || region.id === null) continue;
      if (dirty.has(region) || !cache.has(region)) cache.set(region, serializeRegion(region));
      const value = cache.get(region);
      if (value) out[region.id] = value;
    }
    dirty.clear();
    return out;
  }

  function onMutations(records: MutationRecord[]): void {
    let touched = false;
    for (const record of records) {
      const region = regionOf(record.target, regions);
      if (region) {
        dirty.add(region);
        touched = true;
      }
    }
    if (!touched) return;
    if (changedTimer) platform.clearTimeout(changedTimer);
    changedTimer = platform.setTimeout(flushChanged, 150);
  }

  function flushChanged(): void {
    changedTimer = 0;
    const regionsNow = serializeAll();
    const json = JSON.stringify(regionsNow);
    if (json === lastChanged) return;
    lastChanged = json;
    send({ type: "changed", regions: regionsNow });
  }

  // ── selection ────────────────────────────────────────────────────────────────────────────────

  function selectionState(): SelectionState {
    const range = currentRange();
    const region = range ? regionOf(range.startContainer, regions) : null;
    const state: SelectionState = {
      regionId: null, regionType: null, formats: [], inTable: false, inRepeatable: false,
      canUndo: history.canUndo, canRedo: history.canRedo,
    };
    if (!range || !region || !isEditable(region) || region.type === "unsupported") return state;
    state.regionId = region.id;
    state.regionType = region.type;
    if (!isTyped(region)) return state;
    const node = range.startContainer;
    const el = region.el;
    if (region.type !== "text") {
      for (const [command, name] of [["bold", "bold"], ["italic", "italic"], ["underline", "underline"], ["strikeThrough", "strike"]]) {
        if (document.queryCommandState(command)) state.formats.push(name);
      }
      if (closestWithin(node, el, isLink, true)) state.formats.push("link");
    }
    if (region.type === "block") {
      const block = closestWithin(node, el, (e) => /^(h[1-6]|p)$/.test(e.localName));
      if (block) state.formats.push(block.localName);
      const list = closestWithin(node, el, (e) => e.localName === "ol" || e.localName === "ul");
      if (list) state.formats.push(list.localName);
      const aligned = closestWithin(node, el, (e) => BLOCK_LEVEL.has(e.localName), true) ?? el;
      const align = getComputedStyle(aligned).textAlign;
      state.formats.push(align === "center" || align === "justify" ? align : align === "right" || align === "end" ? "right" : "left");
      state.inTable = closestWithin(node, el, isCell) !== null;
    }
    state.inRepeatable = closestWithin(node, el, isRepeatable) !== null;
    return state;
  }

  function scheduleSelection(): void {
    if (selectionTimer) return;
    selectionTimer = platform.setTimeout(() => {
      selectionTimer = 0;
      const state = selectionState();
      const json = JSON.stringify(state);
      if (json === lastSelection) return;
      lastSelection = json;
      send({ type: "selection", state });
    }, 100);
  }

  function onSelectionChange(): void {
    const range = currentRange();
    const region = range ? regionOf(range.startContainer, regions) : null;
    if (range && region && isTyped(region)) saved = { region, range: range.cloneRange() };
    scheduleSelection();
  }

  /**
   * The region and range a toolbar command applies to. A click in the parent's toolbar moved the
   * focus out of the frame; the selection is put back where it was before the command runs.
   */
  function restoreSelection(): { region: Region; range: Range } | null {
    const range = currentRange();
    const region = range ? regionOf(range.startContainer, regions) : null;
    let target: { region: Region; range: Range } | null = range && region && isTyped(region) ? { region, range: range.cloneRange() } : null;
    if (!target && saved && saved.region.el.isConnected) {
      target = saved.region.el.contains(saved.range.startContainer) ? saved : null;
      if (!target) {
        const end = document.createRange();
        end.selectNodeContents(saved.region.el);
        end.collapse(false);
        target = { region: saved.region, range: end };
      }
    }
    if (!target) return null;
    target.region.el.focus({ preventScroll: true });
    select(target.range);
    return { region: target.region, range: currentRange() ?? target.range };
  }

  // ── changes and history ──────────────────────────────────────────────────────────────────────

  /** Runs one change of a region as one undo step. */
  function change(region: Region, run: () => void): void {
    history.prepare(region);
    locksBefore = closedLocks(region);
    inCommand = true;
    try {
      run();
    } finally {
      inCommand = false;
    }
    if (isTyped(region)) {
      repairLocks(region);
      protect(region.el);
    }
    history.record(region, false);
    history.breakCoalescing();
    scheduleSelection();
  }

  function undoRedo(redo: boolean): void {
    const region = redo ? history.redo() : history.undo();
    if (region) scheduleSelection();
  }

  const closedLocks = (region: Region) => rangePairs(region.el).pairs.filter((p) => p.kind === "lock" && p.close).length;
  let locksBefore = 0;

  /** A lock range is deleted whole: when a deletion took one, a comment it left behind goes too. */
  function repairLocks(region: Region): void {
    const { pairs, orphans } = rangePairs(region.el);
    if (pairs.filter((p) => p.kind === "lock" && p.close).length >= locksBefore) return;
    for (const orphan of orphans) if (markerOf(orphan)?.kind === "lock") orphan.remove();
    for (const pair of pairs) if (pair.kind === "lock" && !pair.close) pair.open.remove();
  }

  /**
   * Whether an edit would change a lock or ignore range: nothing may go into either or come out of
   * either; a lock range may only be deleted whole, an ignore range not at all.
   */
  function touchesProtectedRange(region: Region, targets: readonly AbstractRange[], deleting: boolean): boolean {
    const { pairs } = rangePairs(region.el);
    if (pairs.length === 0) return false;
    for (const pair of pairs) {
      if (pair.depth > 0) continue;
      const outer = outerRange(pair);
      const innerStart: [Node, number] = [outer.startContainer, outer.startOffset + 1];
      const innerEnd: [Node, number] = pair.close ? [outer.endContainer, outer.endOffset - 1] : [outer.endContainer, outer.endOffset];
      for (const t of targets) {
        const touches = t.collapsed
          ? order(t.startContainer, t.startOffset, ...innerStart) >= 0 && order(t.startContainer, t.startOffset, ...innerEnd) <= 0
          : order(t.startContainer, t.startOffset, ...innerEnd) < 0 && order(t.endContainer, t.endOffset, ...innerStart) > 0;
        if (!touches) continue;
        const whole = order(t.startContainer, t.startOffset, outer.startContainer, outer.startOffset) <= 0 &&
          order(t.endContainer, t.endOffset, outer.endContainer, outer.endOffset) >= 0;
        if (pair.kind === "lock" && deleting && whole) continue;
        return true;
      }
    }
    return false;
  }

  function onBeforeInput(event: InputEvent): void {
    const region = regionOf(event.target as Node, regions);
    if (!region || !isTyped(region)) return;
    const type = event.inputType;
    if (type === "historyUndo" || type === "historyRedo") {
      event.preventDefault();
      undoRedo(type === "historyRedo");
      return;
    }
    if (inCommand) return;
    const lineBreak = type === "insertParagraph" || type === "insertLineBreak";
    if (
      (lineBreak && (region.type === "text" || (region.type !== "block" && type === "insertParagraph"))) ||
      type === "insertFromDrop" || type === "insertFromPaste"
    ) {
      event.preventDefault();
      return;
    }
    const targets = event.getTargetRanges();
    const range = currentRange();
    if (touchesProtectedRange(region, targets.length > 0 ? targets : range ? [range] : [], type.startsWith("delete"))) {
      event.preventDefault();
      return;
    }
    lastInputType = type;
    locksBefore = closedLocks(region);
    history.prepare(region);
  }

  function onInput(event: Event): void {
    if (inCommand) return;
    const region = regionOf(event.target as Node, regions);
    if (!region || !isTyped(region)) return;
    if (lastInputType.startsWith("delete")) repairLocks(region);
    history.record(region, lastInputType === "insertText" || lastInputType.startsWith("delete"));
    scheduleSelection();
  }

  function onKeyDown(event: KeyboardEvent): void {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const region = regionOf(event.target as Node, regions);
    if (!region || !isTyped(region)) return;
    const key = event.key.toLowerCase();
    if (key === "z" || key === "y") {
      event.preventDefault();
      undoRedo(key === "y" || event.shiftKey);
    }
  }

  // ── paste ────────────────────────────────────────────────────────────────────────────────────

  /** Inserts cleaned nodes at the caret; block content splits the paragraph the caret is in. */
  function insertFragment(region: Region, fragment: DocumentFragment): void {
    let range = currentRange();
    if (!range || !region.el.contains(range.startContainer)) return;
    if (!range.collapsed) {
      exec("delete");
      range = currentRange();
      if (!range) return;
    }
    const last = fragment.lastChild;
    if (!last) return;
    const hasBlock = Array.from(fragment.childNodes).some((n) => isElement(n) && BLOCK_LEVEL.has(n.localName));
    const host = hasBlock ? closestWithin(range.startContainer, region.el, (e) => PHRASING_BLOCKS.test(e.localName)) : null;
    if (host) {
      const tail = document.createRange();
      tail.setStart(range.startContainer, range.startOffset);
      tail.setEnd(host, host.childNodes.length);
      const rest = host.cloneNode(false) as HTMLElement;
      rest.removeAttribute("id");
      rest.removeAttribute(ATTR.target);
      rest.appendChild(tail.extractContents());
      insertAfter(host, rest);
      insertBefore(rest, fragment);
      if (isEmptyBlock(host)) host.remove();
      if (isEmptyBlock(rest)) rest.remove();
    } else {
      range.insertNode(fragment);
    }
    if (isElement(last) && BLOCK_LEVEL.has(last.localName)) caretInside(last, true);
    else caretAfter(last);
  }

  function onPaste(event: ClipboardEvent): void {
    const region = regionOf(event.target as Node, regions);
    if (!region || !isTyped(region)) return;
    event.preventDefault();
    const data = event.clipboardData;
    const range = currentRange();
    if (!data || !range || !region.el.contains(range.startContainer)) return;
    if (touchesProtectedRange(region, [range], false)) return;
    const html = data.getData("text/html");
    const text = data.getData("text/plain");
    if (!html && !text) return;
    change(region, () => {
      if (region.type === "text") {
        exec("insertText", text.replace(/\s*\r?\n\s*/g, " "));
        return;
      }
      const inLink = region.type === "link" || closestWithin(range.startContainer, region.el, (e) => e.localName === "a") !== null;
      const mode: PasteMode = inLink ? "link" : region.type === "block" ? "block" : "inline";
      insertFragment(region, html ? cleanPastedHtml(html, mode) : plainTextFragment(text, mode));
    });
  }

  // ── tables and repeatable items ──────────────────────────────────────────────────────────────

  function emptyCell(name: string): HTMLElement {
    const cell = document.createElement(name);
    cell.appendChild(document.createElement("br"));
    return cell;
  }

  function insertTable(region: Region, range: Range): void {
    const table = document.createElement("table");
    const body = table.appendChild(document.createElement("tbody"));
    for (let r = 0; r < 2; r++) {
      const row = body.appendChild(document.createElement("tr"));
      for (let c = 0; c < 3; c++) row.appendChild(emptyCell("td"));
    }
    let at: Node | null = range.startContainer;
    if (at === region.el) at = region.el.childNodes[range.startOffset - 1] ?? null;
    else while (at && at.parentNode !== region.el) at = at.parentNode;
    if (at && isElement(at) && PHRASING_BLOCKS.test(at.localName) && isEmptyBlock(at)) at.replaceWith(table);
    else if (at) insertAfter(at, table);
    else region.el.insertBefore(table, region.el.firstChild);
    let next = table.nextSibling;
    while (next && isText(next) && next.data.trim() === "") next = next.nextSibling;
    if (!next) {
      const p = document.createElement("p");
      p.appendChild(document.createElement("br"));
      insertAfter(table, p);
    }
    caretInside(table.querySelector("td") as HTMLElement);
  }

  function tableCommand(command: TextCommand, region: Region, range: Range): void {
    const cell = closestWithin(range.startContainer, region.el, isCell);
    if (!cell) return;
    const row = cell.parentElement as HTMLTableRowElement;
    const table = row.closest("table") as HTMLTableElement | null;
    if (!table || !region.el.contains(table)) return;
    const index = (cell as HTMLTableCellElement).cellIndex;
    const removeTable = () => {
      const p = document.createElement("p");
      p.appendChild(document.createElement("br"));
      table.replaceWith(p);
      caretInside(p);
    };
    switch (command) {
      case "addRow": {
        const added = row.cloneNode(false) as HTMLTableRowElement;
        for (const c of Array.from(row.cells)) {
          const fresh = emptyCell(c.localName);
          if (c.colSpan > 1) fresh.setAttribute("colspan", String(c.colSpan));
          added.appendChild(fresh);
        }
        insertAfter(row, added);
        caretInside(added.cells[Math.min(index, added.cells.length - 1)]);
        break;
      }
      case "removeRow": {
        const neighbour = (row.nextElementSibling ?? row.previousElementSibling) as HTMLTableRowElement | null;
        row.remove();
        if (table.rows.length === 0) removeTable();
        else if (neighbour) caretInside(neighbour.cells[Math.min(index, neighbour.cells.length - 1)] ?? neighbour);
        else caretInside(table.rows[0].cells[0] ?? table.rows[0]);
        break;
      }
      case "addColumn": {
        for (const r of Array.from(table.rows)) {
          const ref = r.cells[Math.min(index, r.cells.length - 1)];
          const fresh = emptyCell(ref ? ref.localName : "td");
          if (ref) insertAfter(ref, fresh);
          else r.appendChild(fresh);
        }
        caretInside(row.cells[Math.min(index + 1, row.cells.length - 1)]);
        break;
      }
      case "removeColumn": {
        for (const r of Array.from(table.rows)) {
          r.cells[index]?.remove();
          if (r.cells.length === 0) r.remove();
        }
        if (table.rows.length === 0) removeTable();
        else {
          const target = row.isConnected ? row : table.rows[0];
          caretInside(target.cells[Math.min(index, target.cells.length - 1)] ?? target);
        }
        break;
      }
    }
  }

  const hasIgnored = (el: Element) => rangePairs(el).pairs.some((p: RangePair) => p.kind === "ignore");
  const isBlankText = (node: Node | null): node is Text => node !== null && isText(node) && node.data.trim() === "";

  function swap(a: Element, b: Element): void {
    const mark = document.createTextNode("");
    a.replaceWith(mark);
    b.replaceWith(a);
    mark.replaceWith(b);
  }

  function itemCommand(command: TextCommand, region: Region, range: Range): void {
    const item = closestWithin(range.startContainer, region.el, isRepeatable);
    if (!item) return;
    const caretPath = pathOf(item, range.startContainer);
    const caretOffset = range.startOffset;
    const putCaret = (into: Element) => {
      const node = caretPath ? nodeAt(into, caretPath) : null;
      if (!node) return caretInside(into);
      const r = document.createRange();
      r.setStart(node, Math.min(caretOffset, isText(node) ? node.length : node.childNodes.length));
      select(r);
    };
    const sibling = (forward: boolean) => {
      const el = forward ? item.nextElementSibling : item.previousElementSibling;
      return el && isRepeatable(el) ? el : null;
    };
    switch (command) {
      case "duplicateItem": {
        // The server keeps ignored ranges by position: a copied one would not be the page's.
        if (hasIgnored(item)) return;
        const copy = item.cloneNode(true) as HTMLElement;
        copy.removeAttribute("id");
        for (const el of [copy, ...Array.from(copy.querySelectorAll(`[${ATTR.target}]`))]) el.removeAttribute(ATTR.target);
        const gap = isBlankText(item.previousSibling) ? item.previousSibling.cloneNode() : null;
        insertAfter(item, ...(gap ? [gap, copy] : [copy]));
        putCaret(copy);
        break;
      }
      case "moveItemUp":
      case "moveItemDown": {
        const other = sibling(command === "moveItemDown");
        if (!other || hasIgnored(item) || hasIgnored(other)) return;
        swap(item, other);
        putCaret(item);
        break;
      }
      case "removeItem": {
        if (hasIgnored(item)) return;
        const next = item.nextElementSibling ?? item.previousElementSibling;
        if (isBlankText(item.previousSibling)) item.previousSibling.remove();
        item.remove();
        if (next && region.el.contains(next)) caretInside(next);
        else caretInside(region.el, true);
        break;
      }
    }
  }

  // ── commands and links ───────────────────────────────────────────────────────────────────────

  function onCommand(command: TextCommand): void {
    if (command === "undo" || command === "redo") return undoRedo(command === "redo");
    const target = restoreSelection();
    if (!target) return;
    const { region, range } = target;
    if (command === "editLink") {
      // The toolbar's Link button: the link at the caret opens in the panel; elsewhere the panel
      // makes a new one around the selection (target "", answered with a `link` message).
      if (region.type === "text") return;
      const link = closestWithin(range.startContainer, region.el, isLink, true);
      if (link) openPanel("link", link, { ...attrs(link, ["href", "title", "target", "rel"]), anchors: anchorNames() });
      else send({ type: "openPanel", panel: "link", target: "", values: { href: "", title: "", target: "", rel: "", anchors: anchorNames() } });
      return;
    }
    if (command.startsWith("new")) return offerNewElement(command, region, range);
    const format = FORMAT_COMMANDS[command];
    const block = BLOCK_COMMANDS[command];
    if (format) {
      if (region.type !== "text") change(region, () => exec(format));
    } else if (block) {
      if (region.type === "block") change(region, () => exec(block[0], block[1]));
    } else if (command === "unlink") {
      if (region.type === "text") return;
      change(region, () => {
        const link = range.collapsed ? closestWithin(range.startContainer, region.el, isLink) : null;
        if (link) {
          const whole = document.createRange();
          whole.selectNodeContents(link);
          select(whole);
        }
        exec("unlink");
      });
    } else if (command === "insertTable") {
      if (region.type === "block") change(region, () => insertTable(region, range));
    } else if (command === "addRow" || command === "removeRow" || command === "addColumn" || command === "removeColumn") {
      if (region.type === "block") change(region, () => tableCommand(command, region, range));
    } else {
      change(region, () => itemCommand(command, region, range));
    }
  }

  function setOrRemove(el: Element, name: string, value: string | null | undefined): void {
    if (value === undefined) return;
    if (value === null || value === "") el.removeAttribute(name);
    else el.setAttribute(name, value);
  }

  function onLink(message: Extract<ParentMessage, { type: "link" }>): void {
    const href = message.href.trim() === "" ? "" : safeUrl(message.href);
    if (href === null || href === "") return;
    if (message.target && !LINK_TARGET.test(message.target)) return;
    if (!LINK_REL.test(message.rel)) return;
    const target = restoreSelection();
    if (!target || target.region.type === "text") return;
    const { region, range } = target;
    change(region, () => {
      const existing = closestWithin(range.startContainer, region.el, (e) => e.localName === "a", true);
      let links: Element[];
      if (existing) links = [existing];
      else if (range.collapsed) {
        const a = document.createElement("a");
        a.textContent = message.title || message.href;
        range.insertNode(a);
        caretAfter(a);
        links = [a];
      } else {
        exec("createLink", href);
        const now = currentRange() ?? range;
        links = Array.from(region.el.querySelectorAll("a")).filter((a) => a.getAttribute("href") === href && now.intersectsNode(a));
      }
      for (const a of links) {
        a.setAttribute("href", href);
        setOrRemove(a, "title", message.title);
        setOrRemove(a, "target", message.target);
        setOrRemove(a, "rel", message.rel);
      }
    });
  }

  // ── new elements ─────────────────────────────────────────────────────────────────────────────

  const NEW_PANELS: Partial<Record<TextCommand, PanelKind>> = {
    newImage: "image", newGallery: "gallery", newEmbed: "embed", newCode: "code", newAnchor: "anchor", newBlock: "block",
  };

  /**
   * The toolbar's insert buttons: the panel opens empty (target ""), with what the selection offers
   * as defaults. Everything but an anchor goes into block regions only (EDITING-MODEL.md: inline
   * regions take inline formatting and links).
   */
  function offerNewElement(command: TextCommand, region: Region, range: Range): void {
    const panel = NEW_PANELS[command];
    if (!panel) return;
    if (region.type !== "block" && !(panel === "anchor" && region.type === "inline")) return;
    const selected = range.toString();
    const defaults: Record<PanelKind, Values> = {
      image: { src: "", alt: "" },
      gallery: { content: "", element: "ul", captions: true, links: false, thumbnailWidth: "256", thumbnailHeight: "256", thumbnailResize: "cover" },
      embed: { url: "", html: "" },
      code: { language: "", source: selected },
      anchor: { id: defaultAnchorName(selected) },
      block: {},
      link: {},
      background: {},
    };
    pendingInsert = { region, range: range.cloneRange() };
    send({ type: "openPanel", panel, target: "", values: defaults[panel] });
  }

  /** Parses HTML the parent sends (an embed's code, a block's source, a gallery) without running or loading anything. */
  function fragmentOf(html: string): DocumentFragment {
    const template = inertTemplate();
    template.innerHTML = html;
    return document.importNode(template.content, true);
  }

  /** A new element at the place the panel was opened for (the caret then). */
  function onInsert(message: Extract<ParentMessage, { type: "insert" }>): void {
    const pending = pendingInsert;
    pendingInsert = null;
    if (!pending || !pending.region.el.isConnected) return;
    const { region, range } = pending;
    const values = message.values;
    const text = (key: string) => (typeof values[key] === "string" ? (values[key] as string) : "");
    change(region, () => {
      select(range);
      switch (message.panel) {
        case "anchor": {
          const name = normaliseAnchorName(text("id"));
          if (!name) return;
          const anchor = document.createElement("a");
          anchor.setAttribute("id", name);
          range.collapse(true);
          range.insertNode(anchor);
          caretAfter(anchor);
          return;
        }
        case "image": {
          const src = safeUrl(text("src"), { image: true });
          if (!src) return;
          const img = document.createElement("img");
          img.setAttribute("src", src);
          img.setAttribute("alt", text("alt"));
          range.collapse(true);
          range.insertNode(img);
          caretAfter(img);
          return;
        }
        case "code": {
          const pre = document.createElement("pre");
          pre.setAttribute("data-cms-code", normaliseCodeLanguage(text("language")));
          pre.appendChild(document.createElement("code")).textContent = text("source");
          placeBlock(region, range, pre);
          return;
        }
        case "embed": {
          const html = text("html");
          if (!html.trim()) return;
          const embed = document.createElement("div");
          embed.setAttribute("data-cms-embed", text("url"));
          embed.appendChild(fragmentOf(html));
          placeBlock(region, range, embed);
          return;
        }
        case "gallery": {
          const content = text("content");
          if (!content.trim()) return;
          const gallery = document.createElement("div");
          gallery.setAttribute("data-cms-gallery", "");
          writeGalleryOptions(gallery, values);
          gallery.appendChild(fragmentOf(content));
          placeBlock(region, range, gallery);
          return;
        }
        case "block": {
          const name = text("name").replace(/["\\]|--/g, "").trim();
          if (!name) return;
          const include = document.createDocumentFragment();
          include.appendChild(document.createComment(` cms-include "${name}" `));
          include.appendChild(fragmentOf(text("source")));
          include.appendChild(document.createComment(" /cms-include "));
          placeBlock(region, range, include);
          return;
        }
      }
    });
  }

  /**
   * Puts block-level content after the region's child the caret is in (replacing it when that is an
   * empty paragraph), or at the caret when it sits directly in the region.
   */
  function placeBlock(region: Region, range: Range, node: Node): void {
    let at: Node | null = range.startContainer;
    if (at === region.el) at = region.el.childNodes[range.startOffset - 1] ?? null;
    else while (at && at.parentNode !== region.el) at = at.parentNode;
    const last = node.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? node.lastChild : node;
    if (at && isElement(at) && PHRASING_BLOCKS.test(at.localName) && isEmptyBlock(at)) at.replaceWith(node);
    else if (at) insertAfter(at, node);
    else region.el.insertBefore(node, region.el.firstChild);
    if (last) caretAfter(last);
  }

  function writeGalleryOptions(el: Element, values: Values): void {
    for (const [key, name] of GALLERY_OPTIONS) {
      const value = values[key];
      if (value === undefined) continue;
      if (value === null || value === "") el.removeAttribute(`data-cms-${name}`);
      else el.setAttribute(`data-cms-${name}`, String(value));
    }
  }

  // ── panels ───────────────────────────────────────────────────────────────────────────────────

  function openPanel(panel: PanelKind, el: Element, values: Values): void {
    let target = el.getAttribute(ATTR.target);
    if (!target) {
      target = `t${++nextTarget}`;
      el.setAttribute(ATTR.target, target);
    }
    send({ type: "openPanel", panel, target, values });
  }

  const attrs = (el: Element, names: string[]): Values => Object.fromEntries(names.map((name) => [name, el.getAttribute(name) ?? ""]));

  function galleryValues(el: HTMLElement): Values {
    const values: Values = { content: cleanHtml(el), container: el.localName };
    for (const [key, name] of GALLERY_OPTIONS) values[key] = el.getAttribute(`data-cms-${name}`);
    return values;
  }

  /** The page's anchors, for the Link panel's `#anchor` choices. */
  function anchorNames(): string {
    return Array.from(document.querySelectorAll("a[id]")).filter((a) => isAnchor(a)).map((a) => a.getAttribute("id")).join(" ");
  }

  /** What a double-click (or a click on an image region) opens, or null. */
  function panelFor(node: Element, region: Region): [PanelKind, Element, Values] | null {
    const el = region.el;
    switch (region.type) {
      case "gallery":
        return ["gallery", el, galleryValues(el)];
      case "image":
        return ["image", el, attrs(el, ["src", "alt"])];
      case "background":
        return ["background", el, { ...readBackground(el.getAttribute("style") ?? "") }];
    }
    if (!isTyped(region)) return null;
    const code = closestWithin(node, el, isCode);
    if (code) {
      const inner = code.children.length === 1 && code.firstElementChild?.localName === "code" ? code.firstElementChild : code;
      return ["code", code, { language: normaliseCodeLanguage(code.getAttribute("data-cms-code") ?? ""), source: inner.textContent ?? "" }];
    }
    const embed = closestWithin(node, el, isEmbed);
    if (embed) return ["embed", embed, { url: embed.getAttribute("data-cms-embed") ?? "", html: embed.innerHTML }];
    const gallery = closestWithin(node, el, isGallery);
    if (gallery) return ["gallery", gallery, galleryValues(gallery)];
    if (node.localName === "img" && el.contains(node)) return ["image", node, attrs(node, ["src", "alt"])];
    if (isAnchor(node) && el.contains(node) && node !== el) return ["anchor", node, { id: node.getAttribute("id") ?? "" }];
    const link = closestWithin(node, el, isLink, true);
    if (link) return ["link", link, { ...attrs(link, ["href", "title", "target", "rel"]), anchors: anchorNames() }];
    return null;
  }

  function onDoubleClick(event: MouseEvent): void {
    const node = event.target;
    if (!isElement(node as Node)) return;
    const region = regionOf(node as Node, regions);
    if (!region || !isEditable(region)) return;
    const panel = panelFor(node as Element, region);
    if (!panel) return;
    event.preventDefault();
    openPanel(...panel);
  }

  function onClick(event: MouseEvent): void {
    const node = event.target as Element | null;
    if (!node || !isElement(node)) return;
    // Nothing in the page being edited may navigate the frame away.
    if (node.closest("a[href],area[href]")) event.preventDefault();
    const region = regionOf(node, regions);
    if (region && region.type === "image" && isEditable(region) && event.detail <= 1) {
      event.preventDefault();
      openPanel("image", region.el, attrs(region.el, ["src", "alt"]));
    }
  }

  function onApplyPanel(message: Extract<ParentMessage, { type: "applyPanel" }>): void {
    if (!/^t[0-9]{1,9}$/.test(message.target)) return;
    const el = document.querySelector(`[${ATTR.target}="${message.target}"]`);
    const region = el ? regionOf(el, regions) : null;
    if (!el || !region || !isEditable(region)) return;
    const values = message.values;
    const text = (key: string): string | null | undefined => {
      const value = values[key];
      return typeof value === "string" ? value : value === null ? null : undefined;
    };
    change(region, () => {
      switch (message.panel) {
        case "image": {
          const src = text("src");
          // The spec: an empty URL deletes the image (an image region keeps its element, empty).
          if (typeof src === "string" && src.trim() === "" && el !== region.el) {
            el.remove();
            break;
          }
          if (typeof src === "string") {
            const safe = src.trim() === "" ? "" : safeUrl(src, { image: true });
            if (safe !== null && el.getAttribute("src") !== safe) {
              el.setAttribute("src", safe);
              // A new picture: an old srcset would keep showing the old one.
              el.removeAttribute("srcset");
              el.removeAttribute("sizes");
            }
          }
          const alt = text("alt");
          if (alt === null) el.removeAttribute("alt");
          else if (alt !== undefined) el.setAttribute("alt", alt);
          break;
        }
        case "link": {
          const href = text("href");
          if (typeof href === "string") {
            const safe = href.trim() === "" ? "" : safeUrl(href);
            if (safe !== null) setOrRemove(el, "href", safe);
          }
          setOrRemove(el, "title", text("title"));
          const target = text("target");
          if (!target || LINK_TARGET.test(target)) setOrRemove(el, "target", target);
          const rel = text("rel");
          if (!rel || LINK_REL.test(rel)) setOrRemove(el, "rel", rel);
          break;
        }
        case "code": {
          const language = text("language");
          if (typeof language === "string") el.setAttribute("data-cms-code", normaliseCodeLanguage(language));
          const source = text("source");
          if (typeof source === "string") {
            const inner = el.children.length === 1 && el.firstElementChild?.localName === "code" ? el.firstElementChild : el;
            inner.textContent = source;
          }
          break;
        }
        case "anchor": {
          const id = normaliseAnchorName(text("id") ?? "");
          if (id === "") el.remove();
          else el.setAttribute("id", id);
          break;
        }
        case "background": {
          const css: Partial<BackgroundValues> = {};
          for (const key of ["backgroundImage", "backgroundColor", "backgroundSize", "backgroundRepeat"] as const) {
            const value = text(key);
            if (value === undefined) continue;
            const written = backgroundCss(key, value ?? "");
            if (written !== null) css[key] = written;
          }
          const style = withBackground(el.getAttribute("style") ?? "", css);
          if (style === "") el.removeAttribute("style");
          else if (style !== null) el.setAttribute("style", style);
          break;
        }
        case "embed": {
          const html = text("html");
          if (typeof html === "string") el.innerHTML = html;
          const url = text("url");
          if (typeof url === "string") el.setAttribute("data-cms-embed", url);
          break;
        }
        case "gallery": {
          const content = text("content");
          // The spec: an existing gallery left with no images is deleted (a gallery region is emptied).
          if (typeof content === "string" && content.trim() === "" && el !== region.el) {
            el.remove();
            break;
          }
          writeGalleryOptions(el, values);
          if (typeof content === "string") {
            el.textContent = "";
            el.appendChild(fragmentOf(content));
          }
          break;
        }
      }
    });
  }

  // ── wiring ───────────────────────────────────────────────────────────────────────────────────

  const on = <E extends Event>(target: EventTarget, type: string, fn: (event: E) => void) => platform.listen(target, type, fn, true);
  on(document, "selectionchange", onSelectionChange);
  on<InputEvent>(document, "beforeinput", onBeforeInput);
  on(document, "input", onInput);
  on<ClipboardEvent>(document, "paste", onPaste);
  on<KeyboardEvent>(window, "keydown", onKeyDown);
  on<MouseEvent>(document, "click", onClick);
  on<MouseEvent>(document, "dblclick", onDoubleClick);
  on(document, "submit", (event: Event) => event.preventDefault());
  on(document, "drop", (event: Event) => {
    if (regionOf(event.target as Node, regions)) event.preventDefault();
  });

  const content = serializeAll();
  lastChanged = JSON.stringify(content);
  send({ type: "ready", regions: regions.slice(0, 5000).map(describeRegion), content, page });
  const observer = platform.observe(onMutations);
  observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true });

  return (message) => {
    switch (message.type) {
      case "command":
        return onCommand(message.command);
      case "link":
        return onLink(message);
      case "applyPanel":
        return onApplyPanel(message);
      case "insert":
        return onInsert(message);
      case "serialize": {
        onMutations(observer.takeRecords());
        const regionsNow = serializeAll();
        return send({ type: "regions", requestId: message.requestId, regions: regionsNow });
      }
      case "clean":
      case "init":
        return;
    }
  };
}
