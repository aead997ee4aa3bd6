import { describe, expect, it } from "vitest";
import { envelope, isHello, PROTOCOL, PROTOCOL_VERSION, readFrameMessage, readParentMessage } from "~/editor/protocol";

const page = { baseHash: "a".repeat(64), revisionId: null, metadata: { title: "T", description: "", image: "", robots: false, type: "website", url: "" } };

describe("the editor's message protocol", () => {
  it("reads well-formed messages of its version", () => {
    expect(readFrameMessage(envelope({ type: "ready", regions: [{ id: "a", type: "block", global: false, element: "div", problem: null }], content: { a: { type: "block", content: "<p>x</p>" } }, page })))
      .toMatchObject({ type: "ready", page });
    expect(readFrameMessage(envelope({ type: "shortcut", name: "publish" }))).toEqual({ type: "shortcut", name: "publish" });
    expect(readParentMessage(envelope({ type: "command", command: "bold" }))).toEqual({ type: "command", command: "bold" });
    expect(isHello(envelope({ type: "hello" }))).toBe(true);
  });

  it("drops anything else: another version, another protocol, unknown types, wrong field types, extra region fields", () => {
    const bad: unknown[] = [
      null, "string", [], { type: "ready" },
      { protocol: PROTOCOL, version: PROTOCOL_VERSION + 1, type: "shortcut", name: "save" },
      { protocol: "other", version: PROTOCOL_VERSION, type: "shortcut", name: "save" },
      envelope({ type: "shortcut", name: "delete" } as never),
      envelope({ type: "publish" } as never),
      envelope({ type: "changed", regions: { a: { type: "block", content: 5 } } } as never),
      envelope({ type: "changed", regions: { a: { type: "block", content: "x", onclick: "y" } } } as never),
      envelope({ type: "changed", regions: { a: { type: "script", content: "x" } } } as never),
      envelope({ type: "openPanel", panel: "link", target: "[onclick]", values: {} } as never),
      envelope({ type: "ready", regions: [], content: {}, page: { ...page, baseHash: "not-a-hash" } } as never),
      envelope({ type: "failed", reason: "x", code: "<script>" } as never),
    ];
    for (const message of bad) expect(readFrameMessage(message), JSON.stringify(message)).toBeNull();
    expect(readParentMessage(envelope({ type: "command", command: "publish" } as never))).toBeNull();
    expect(readParentMessage(envelope({ type: "init", locale: "en", strings: { a: 1 } } as never))).toBeNull();
    expect(isHello({ type: "hello" })).toBe(false);
  });
});
