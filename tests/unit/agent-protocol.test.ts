import { describe, expect, it } from "vitest";
import {
  BodyAssembler,
  bodyHeader,
  CHUNK_BYTES,
  CLOSE_CODES,
  chunkFrames,
  decodeChunk,
  encodeChunk,
  fromWireEntry,
  parseAgentMessage,
  parseHubMessage,
  PING_TEXT,
  PONG_TEXT,
  resultValue,
  toWireEntry,
} from "../../agent/src/protocol.ts";
import { backoffDelay } from "../../agent/src/link.ts";

const spec = { key: "site:1", protocol: "ftp", host: "ftp.example.com", username: "me", password: "pw", home: "/www" };

describe("the agent link protocol", () => {
  it("accepts each call with its op's arguments, and a body only for writes", () => {
    expect(parseHubMessage(JSON.stringify({ v: 1, type: "call", id: "c1", op: "list", spec, args: { path: "/" } }))).toMatchObject({ ok: true, message: { op: "list" } });
    expect(parseHubMessage(JSON.stringify({ v: 1, type: "call", id: "c1", op: "rename", spec, args: { from: "a", to: "b" } })).ok).toBe(true);
    expect(parseHubMessage(JSON.stringify({ v: 1, type: "call", id: "c1", op: "write", spec, args: { path: "a" }, body: { size: 3, chunks: 1 } })).ok).toBe(true);
    expect(parseHubMessage(JSON.stringify({ v: 1, type: "call", id: "c1", op: "write", spec, args: { path: "a" } })).ok).toBe(false);
    expect(parseHubMessage(JSON.stringify({ v: 1, type: "call", id: "c1", op: "list", spec, args: { path: "a" }, body: { size: 3, chunks: 1 } })).ok).toBe(false);
    expect(parseHubMessage(JSON.stringify({ v: 1, type: "call", id: "c1", op: "rename", spec, args: { path: "a" } })).ok).toBe(false);
    expect(parseHubMessage(JSON.stringify({ v: 1, type: "call", id: "c1", op: "chmod", spec, args: {} })).ok).toBe(false);
    // A body header whose chunk count does not match its size.
    expect(parseHubMessage(JSON.stringify({ v: 1, type: "call", id: "c1", op: "write", spec, args: { path: "a" }, body: { size: CHUNK_BYTES + 1, chunks: 1 } })).ok).toBe(false);
  });

  it("checks the spec inside a call", () => {
    const bad = parseHubMessage(JSON.stringify({ v: 1, type: "call", id: "c1", op: "list", spec: { ...spec, protocol: "gopher" }, args: { path: "/" } }));
    expect(bad).toMatchObject({ ok: false, close: { code: CLOSE_CODES.protocolError } });
    if (!bad.ok) expect(bad.close.reason).toContain("spec.protocol");
  });

  it("refuses another version with a reason naming both, and non-JSON as a protocol error", () => {
    expect(parseAgentMessage(JSON.stringify({ v: 2, type: "hello", agent: { version: "2.0.0" } }))).toEqual({
      ok: false,
      close: { code: CLOSE_CODES.unsupportedVersion, reason: "Unsupported protocol version 2; this side speaks 1" },
    });
    expect(parseAgentMessage(JSON.stringify({ type: "hello" }))).toMatchObject({ ok: false, close: { code: CLOSE_CODES.unsupportedVersion } });
    expect(parseAgentMessage("{nope")).toMatchObject({ ok: false, close: { code: CLOSE_CODES.protocolError } });
    expect(parseAgentMessage("[1]")).toMatchObject({ ok: false, close: { code: CLOSE_CODES.protocolError } });
  });

  it("accepts results with a catalogue error code only", () => {
    expect(parseAgentMessage(JSON.stringify({ v: 1, type: "result", id: "c1", ok: false, error: { code: "CONNECTION_AGENT_AUTH", reason: "x" } })).ok).toBe(true);
    expect(parseAgentMessage(JSON.stringify({ v: 1, type: "result", id: "c1", ok: false, error: { code: "INTERNAL_ERROR" } })).ok).toBe(false);
    expect(parseAgentMessage(JSON.stringify({ v: 1, type: "result", id: "c1", ok: true, value: null, pins: { sftpHostKey: "SHA256:x" } })).ok).toBe(true);
    expect(parseAgentMessage(JSON.stringify({ v: 1, type: "result", id: "bad id!", ok: true, value: null })).ok).toBe(false);
  });

  it("checks a result's value against its call's op", () => {
    expect(resultValue("stat", null)).toEqual({ ok: true, value: null });
    expect(resultValue("list", [{ name: "a", path: "/a", type: "file", size: 1, modifiedAt: null }]).ok).toBe(true);
    expect(resultValue("list", "nope").ok).toBe(false);
    expect(resultValue("write", [1]).ok).toBe(false);
  });

  it("keeps the heartbeat texts valid messages", () => {
    expect(parseAgentMessage(PING_TEXT)).toEqual({ ok: true, message: { v: 1, type: "ping" } });
    expect(parseHubMessage(PONG_TEXT)).toEqual({ ok: true, message: { v: 1, type: "pong" } });
  });

  it("frames bodies in chunks of at most CHUNK_BYTES and reassembles them exactly", () => {
    const data = new Uint8Array(CHUNK_BYTES * 3 + 17).map((_, i) => i % 253);
    const frames = [...chunkFrames("call-1", data)];
    expect(frames).toHaveLength(4);
    expect(bodyHeader(data)).toEqual({ size: data.byteLength, chunks: 4 });
    const assembler = new BodyAssembler(bodyHeader(data));
    let complete = false;
    for (const frame of frames) {
      expect(frame.byteLength).toBeLessThanOrEqual(CHUNK_BYTES + 7 + 64);
      const chunk = decodeChunk(frame);
      if (!chunk.ok) throw new Error(chunk.close.reason);
      const added = assembler.add(chunk.message);
      if (!added.ok) throw new Error(added.close.reason);
      complete = added.complete;
    }
    expect(complete).toBe(true);
    expect(Buffer.compare(Buffer.from(assembler.bytes), Buffer.from(data))).toBe(0);
    expect(new BodyAssembler({ size: 0, chunks: 0 }).complete).toBe(true);
  });

  it("refuses chunks out of order, oversized bodies and frames of another version", () => {
    const data = new Uint8Array(CHUNK_BYTES + 1);
    const [first, second] = [...chunkFrames("c", data)];
    const assembler = new BodyAssembler(bodyHeader(data));
    const decodedSecond = decodeChunk(second);
    expect(decodedSecond.ok && assembler.add(decodedSecond.message)).toMatchObject({ ok: false, close: { code: CLOSE_CODES.protocolError } });
    const tooBig = new BodyAssembler({ size: 1, chunks: 1 });
    const decodedFirst = decodeChunk(first);
    expect(decodedFirst.ok && tooBig.add(decodedFirst.message)).toMatchObject({ ok: false });
    const otherVersion = encodeChunk("c", 0, true, new Uint8Array(1));
    otherVersion[0] = 9;
    expect(decodeChunk(otherVersion)).toMatchObject({ ok: false, close: { code: CLOSE_CODES.unsupportedVersion } });
    expect(decodeChunk(new Uint8Array(3))).toMatchObject({ ok: false, close: { code: CLOSE_CODES.protocolError } });
    expect(() => encodeChunk("no spaces", 0, true, new Uint8Array(0))).toThrow();
  });

  it("carries entries with ISO dates", () => {
    const entry = { name: "a.html", path: "/a.html", type: "file" as const, size: 3, modifiedAt: new Date("2026-05-01T10:00:00Z") };
    expect(toWireEntry(entry)).toEqual({ ...entry, modifiedAt: "2026-05-01T10:00:00.000Z" });
    expect(fromWireEntry(toWireEntry(entry))).toEqual(entry);
    expect(toWireEntry({ ...entry, modifiedAt: new Date(Number.NaN) }).modifiedAt).toBeNull();
  });
});

describe("the agent's reconnect backoff", () => {
  it("doubles from 0.5 s, is capped at 30 s, and is jittered", () => {
    expect(backoffDelay(0, 500, 30_000, () => 0)).toBe(250);
    expect(backoffDelay(0, 500, 30_000, () => 0.999)).toBeLessThanOrEqual(500);
    expect(backoffDelay(3, 500, 30_000, () => 0.999)).toBeLessThanOrEqual(4_000);
    expect(backoffDelay(3, 500, 30_000, () => 0.999)).toBeGreaterThan(3_900);
    expect(backoffDelay(50, 500, 30_000, () => 0.999)).toBeLessThanOrEqual(30_000);
    expect(backoffDelay(50, 500, 30_000, () => 0)).toBe(15_000);
  });
});
