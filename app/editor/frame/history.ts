/**
 * Undo and redo for the whole document: each step is one region's state before and after a change
 * (its inner HTML, the attributes its payload reads, the ignored ranges' originals and the caret).
 * Typing within a second in one region is one step. The browser's own undo stack is never used: it
 * cannot see changes made through the Range API and panels.
 */
import { isComment, nodeAt, pathOf } from "./dom";
import { ignoredOriginal, setIgnoredOriginal } from "./ignored";
import { protect, rangePairs, type Region } from "./regions";

interface Caret {
  anchor: number[];
  anchorOffset: number;
  focus: number[];
  focusOffset: number;
}

interface Snapshot {
  html: string;
  attrs: Array<[string, string | null]>;
  /** The original of each opening ignore comment, in document order. */
  ignored: Array<string | undefined>;
  caret: Caret | null;
}

interface Step {
  region: Region;
  before: Snapshot;
  after: Snapshot;
  typing: boolean;
  at: number;
}

const MAX_STEPS = 200;
const COALESCE_MS = 1000;
const ATTRS: Partial<Record<Region["type"], string[]>> = {
  image: ["src", "alt", "srcset", "sizes"],
  link: ["href", "title", "target", "rel"],
  background: ["style"],
};

function caretIn(region: Region): Caret | null {
  const selection = document.getSelection();
  if (!selection || selection.rangeCount === 0 || !selection.anchorNode || !selection.focusNode) return null;
  const anchor = pathOf(region.el, selection.anchorNode);
  const focus = pathOf(region.el, selection.focusNode);
  return anchor && focus ? { anchor, anchorOffset: selection.anchorOffset, focus, focusOffset: selection.focusOffset } : null;
}

function snapshot(region: Region): Snapshot {
  return {
    html: region.el.innerHTML,
    attrs: (ATTRS[region.type] ?? []).map((name) => [name, region.el.getAttribute(name)]),
    ignored: rangePairs(region.el).pairs.filter((p) => p.kind === "ignore").map((p) => ignoredOriginal(p.open)),
    caret: caretIn(region),
  };
}

const sameState = (a: Snapshot, b: Snapshot) => a.html === b.html && a.attrs.every(([name, value], i) => b.attrs[i]?.[0] === name && b.attrs[i][1] === value);

function restore(region: Region, state: Snapshot): void {
  const el = region.el;
  if (el.innerHTML !== state.html) {
    el.innerHTML = state.html;
    const opens = rangePairs(el).pairs.filter((p) => p.kind === "ignore");
    opens.forEach((pair, i) => {
      const original = state.ignored[i];
      if (original !== undefined && isComment(pair.open)) setIgnoredOriginal(pair.open, original);
    });
    protect(el);
  }
  for (const [name, value] of state.attrs) {
    if (value === null) el.removeAttribute(name);
    else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  }
  if (state.caret) {
    const anchor = nodeAt(el, state.caret.anchor);
    const focus = nodeAt(el, state.caret.focus);
    const selection = document.getSelection();
    if (anchor && focus && selection) {
      try {
        selection.setBaseAndExtent(anchor, state.caret.anchorOffset, focus, state.caret.focusOffset);
      } catch {
        // The caret's offsets no longer fit: leave the selection where it is.
      }
    }
  }
}

export class History {
  private done: Step[] = [];
  private undone: Step[] = [];
  /** Each region's state before the change under way (taken by `prepare`, fresh, so changes a page script made count too). */
  private current = new Map<Region, Snapshot>();
  private breakTyping = false;

  /** Called before a change starts: the state to return to, with the caret where it is now. */
  prepare(region: Region): void {
    this.current.set(region, snapshot(region));
  }

  /** Records the region's change since `prepare` as a step (typing steps coalesce). */
  record(region: Region, typing: boolean): void {
    const before = this.current.get(region);
    const after = snapshot(region);
    if (!before || sameState(before, after)) return;
    const now = Date.now();
    const top = this.done[this.done.length - 1];
    if (typing && !this.breakTyping && top && top.typing && top.region === region && now - top.at < COALESCE_MS) {
      top.after = after;
      top.at = now;
    } else {
      this.done.push({ region, before, after, typing, at: now });
      if (this.done.length > MAX_STEPS) this.done.shift();
    }
    this.breakTyping = false;
    this.undone = [];
    this.current.set(region, after);
  }

  /** The next typing starts a new step (the caret moved, a command ran). */
  breakCoalescing(): void {
    this.breakTyping = true;
  }

  undo(): Region | null {
    const step = this.done.pop();
    if (!step) return null;
    restore(step.region, step.before);
    this.undone.push(step);
    this.breakTyping = true;
    return step.region;
  }

  redo(): Region | null {
    const step = this.undone.pop();
    if (!step) return null;
    restore(step.region, step.after);
    this.done.push(step);
    this.breakTyping = true;
    return step.region;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }
}
