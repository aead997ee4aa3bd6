import { describe, expect, it } from "vitest";
import { changedRegions, draftPayload, isMetadataIncomplete, snapshotKey } from "~/editor/draft-payload";
import type { RegionUpdates } from "~/lib/regions/types";

const initial: RegionUpdates = {
  title: { type: "inline", content: "Hello" },
  body: { type: "block", content: "<p>Text</p>" },
  photo: { type: "image", src: "a.png", alt: "A" },
};

describe("what a save or publish sends", () => {
  it("sends only the regions whose serialisation changed since the frame was ready", () => {
    const current = { ...initial, photo: { type: "image" as const, src: "a.png", alt: "Better" } };
    expect(changedRegions(initial, current)).toEqual({ photo: { type: "image", src: "a.png", alt: "Better" } });
    expect(draftPayload({ revisionRegions: {}, revisionMetadata: {}, initialContent: initial }, initial, {})).toEqual({ metadata: {}, regions: {} });
  });

  it("keeps what the opened revision held, with this session's edits on top", () => {
    const base = { revisionRegions: { title: { type: "inline" as const, content: "Draft" } }, revisionMetadata: { title: "Draft title" }, initialContent: { ...initial, title: { type: "inline" as const, content: "Draft" } } };
    const current = { ...base.initialContent, body: { type: "block" as const, content: "<p>New</p>" } };
    expect(draftPayload(base, current, { description: "About" })).toEqual({
      metadata: { title: "Draft title", description: "About" },
      regions: { title: { type: "inline", content: "Draft" }, body: { type: "block", content: "<p>New</p>" } },
    });
  });

  it("compares snapshots by content, whatever the key order", () => {
    const a = snapshotKey({ metadata: { title: "T", description: "D" }, regions: { x: initial.title, y: initial.body } });
    const b = snapshotKey({ metadata: { description: "D", title: "T" }, regions: { y: initial.body, x: initial.title } });
    expect(a).toBe(b);
    expect(snapshotKey({ metadata: {}, regions: { x: initial.title } })).not.toBe(snapshotKey({ metadata: {}, regions: { x: initial.body } }));
  });

  it("flags incomplete metadata while the title or the description is empty", () => {
    expect(isMetadataIncomplete({ title: "Home", description: " " })).toBe(true);
    expect(isMetadataIncomplete({ title: "", description: "About" })).toBe(true);
    expect(isMetadataIncomplete({ title: "Home", description: "About" })).toBe(false);
  });
});
