/**
 * What a save or a publish sends, and whether the editor is dirty (spec: "Dirty is judged by
 * comparing metadata and serialised regions with the last clean snapshot").
 *
 * Only what was edited is sent: the regions whose serialisation changed since the frame became
 * ready, on top of the regions the opened revision already held, and the metadata fields set in
 * this session on top of the revision's. A region the user never touched is never written, so the
 * publish cannot change its bytes however the browser would serialise it.
 */
import type { PageMetadata, RegionUpdate, RegionUpdates } from "~/lib/regions/types";

export interface EditorBase {
  /** What the opened revision holds (empty for the page itself). */
  revisionRegions: RegionUpdates;
  revisionMetadata: Partial<PageMetadata>;
  /** The frame's regions when it became ready: the file, with the revision applied. */
  initialContent: RegionUpdates;
}

export interface DraftPayload {
  metadata: Partial<PageMetadata>;
  regions: RegionUpdates;
}

const same = (a: RegionUpdate | undefined, b: RegionUpdate | undefined) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The regions of `current` that differ from `initial`.
 * @example changedRegions({ a: x, b: y }, { a: x, b: y2 }) // { b: y2 }
 */
export function changedRegions(initial: RegionUpdates, current: RegionUpdates): RegionUpdates {
  const out: RegionUpdates = {};
  for (const [id, update] of Object.entries(current)) if (!same(initial[id], update)) out[id] = update;
  return out;
}

export function draftPayload(base: EditorBase, current: RegionUpdates, metadataChanges: Partial<PageMetadata>): DraftPayload {
  return {
    metadata: { ...base.revisionMetadata, ...metadataChanges },
    regions: { ...base.revisionRegions, ...changedRegions(base.initialContent, current) },
  };
}

/** A stable text of a payload (keys sorted), to compare snapshots. */
export function snapshotKey(payload: DraftPayload): string {
  const sorted = (value: Record<string, unknown>) => Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return JSON.stringify([sorted(payload.metadata), sorted(payload.regions as Record<string, unknown>)]);
}

/** The spec's "!" badge: the title or the description is empty. */
export function isMetadataIncomplete(metadata: Pick<PageMetadata, "title" | "description">): boolean {
  return metadata.title.trim() === "" || metadata.description.trim() === "";
}
