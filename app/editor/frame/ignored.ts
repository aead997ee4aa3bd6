/**
 * `<!-- cms-ignore -->` … `<!-- /cms-ignore -->`: the editor neither shows nor touches these ranges
 * and serialises them exactly as they were. "As they were" is taken while the parser builds the
 * document, before a page script can fill or change what a range holds (a widget rendered into it,
 * a counter): a mutation observer started by the first script sees each closing comment as the
 * parser inserts it, and serialises the siblings since its opening comment then.
 */
import { readMarkerComment } from "~/lib/regions/markers";
import { inert, isComment, isElement } from "./dom";
import type { Platform } from "./platform";

const originals = new WeakMap<Comment, string>();

export const ignoredOriginal = (open: Comment): string | undefined => originals.get(open);
export const setIgnoredOriginal = (open: Comment, html: string): void => void originals.set(open, html);

export function markerOf(node: Node): ReturnType<typeof readMarkerComment> {
  return isComment(node) ? readMarkerComment(node.data) : null;
}

/** The siblings between two comments of one parent, serialised in that parent's context. */
export function serializeBetween(open: Comment, close: Comment | null): string {
  const parent = open.parentNode;
  const doc = inert();
  const box = isElement(parent) && parent.localName !== "template" ? (doc.importNode(parent, false) as Element) : doc.createElement("div");
  for (let n = open.nextSibling; n && n !== close; n = n.nextSibling) box.appendChild(doc.importNode(n, true));
  return box.innerHTML;
}

/** The opening comment that `close` ends, among its previous siblings (nested ranges counted). */
function openingOf(close: Comment): Comment | null {
  let depth = 0;
  for (let n = close.previousSibling; n; n = n.previousSibling) {
    const marker = markerOf(n);
    if (marker?.kind !== "ignore") continue;
    if (!marker.open) depth++;
    else if (depth === 0) return n as Comment;
    else depth--;
  }
  return null;
}

function onRecords(records: MutationRecord[]): void {
  for (const record of records) {
    for (const node of Array.from(record.addedNodes)) {
      const marker = markerOf(node);
      if (marker?.kind !== "ignore" || marker.open) continue;
      const open = openingOf(node as Comment);
      if (open && !originals.has(open)) originals.set(open, serializeBetween(open, node as Comment));
    }
  }
}

export function captureIgnoredRanges(platform: Platform): void {
  if (document.readyState !== "loading") return;
  const observer = platform.observe(onRecords);
  observer.observe(document, { childList: true, subtree: true });
  platform.listen(
    document,
    "DOMContentLoaded",
    () => {
      onRecords(observer.takeRecords());
      observer.disconnect();
    },
    { once: true },
  );
}
