/**
 * The agent link's wire protocol (version 1), shared by the AgentHub Durable Object (workers/agent-hub.ts)
 * and the agent process (link.ts). Both sides check every message on receipt with these schemas; a
 * message of another version closes the socket with CLOSE_CODES.unsupportedVersion and a reason
 * naming both versions, a malformed one with CLOSE_CODES.protocolError.
 *
 * Text frames carry JSON messages:
 *   agent → hub  hello { agent: { version, name?, runtime? } }    once, right after the socket opens
 *   hub → agent  welcome { hub }                                   the hub accepted the hello
 *   agent → hub  ping                                              every HEARTBEAT_MS (the hub auto-answers pong
 *   hub → agent  pong                                              without waking from hibernation)
 *   hub → agent  call { id, op, spec, args, body? }                one RemoteFs operation
 *   agent → hub  result { id, ok: true, value, body?, pins? } | { id, ok: false, error: { code, reason? }, pins? }
 *
 * File bodies (a write's content, a read's result) never travel in JSON: the message announces
 * `body: { size, chunks }` and the bytes follow in that many binary frames of at most CHUNK_BYTES,
 * each framed by encodeChunk (version, last flag, sequence number, call id, payload).
 *
 * @example
 * const parsed = parseMessage(text, hubToAgent); if (!parsed.ok) socket.close(parsed.close.code, parsed.close.reason);
 * for (const frame of chunkFrames(id, bytes)) socket.send(frame);
 */
import { z } from "zod";
import { connectionSpec } from "./connection.ts";
import type { AgentErrorCode } from "./errors.ts";

export const PROTOCOL_VERSION = 1;

/**
 * Bytes per binary frame. Workers and Durable Objects refuse received WebSocket messages over 32 MiB
 * (1 MiB on older runtimes, closing with 1009); 256 KiB stays far below either and keeps memory flat.
 */
export const CHUNK_BYTES = 256 * 1024;
/** The largest body either side accepts: DECISIONS.md's 25 MB per file. */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;
/** How often the agent pings; the hub treats a socket silent for 4 intervals as dead. */
export const HEARTBEAT_MS = 15_000;

/** WebSocket close codes of the link (4000–4999 are the application's). */
export const CLOSE_CODES = {
  /** A message failed its schema, or binary frames arrived out of order. */
  protocolError: 4400,
  /** The peer speaks another protocol version. */
  unsupportedVersion: 4426,
  /** No heartbeat for too long. */
  heartbeatTimeout: 4408,
  /**
   * The agent process is stopping (SIGTERM). Not 1001: the WHATWG WebSocket API lets a client
   * close only with 1000 or 3000–4999, and Node's WebSocket throws on anything else.
   */
  goingAway: 4001,
} as const;

export const OPS = ["list", "stat", "read", "write", "writeStaged", "mkdirp", "rename", "remove", "test"] as const;
export type Op = (typeof OPS)[number];

/** A staged upload's key below `/agent/staged/`: the hub it is meant for, then a random id. */
export const STAGED_KEY = /^[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{16,64}$/;

const callId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const remotePath = z.string().max(4096);

/** The arguments of each operation. */
export const opArgs = {
  list: z.object({ path: remotePath }),
  stat: z.object({ path: remotePath }),
  read: z.object({ path: remotePath, maxBytes: z.number().int().min(1).max(MAX_BODY_BYTES).optional() }),
  write: z.object({ path: remotePath }),
  /**
   * A write whose bytes the agent fetches itself from the Worker's staging area (an upload from a
   * browser, already in R2): GET <app>/agent/staged/<key> with the agent's token. The agent checks
   * the size and SHA-256 before writing, so a truncated or altered download is never written.
   */
  writeStaged: z.object({
    path: remotePath,
    key: z.string().regex(STAGED_KEY),
    size: z.number().int().min(0).max(MAX_BODY_BYTES),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  mkdirp: z.object({ path: remotePath }),
  rename: z.object({ from: remotePath, to: remotePath }),
  remove: z.object({ path: remotePath }),
  test: z.object({}),
} satisfies Record<Op, z.ZodType>;
export type OpArgs = { [K in Op]: z.infer<(typeof opArgs)[K]> };

/** A RemoteEntry on the wire: `modifiedAt` as an ISO string. */
export const wireEntry = z.object({
  name: z.string().max(1024),
  path: z.string().max(4096),
  type: z.enum(["file", "directory"]),
  size: z.number().int().min(0),
  modifiedAt: z.string().max(40).nullable(),
});
export type WireEntry = z.infer<typeof wireEntry>;

/** The value each operation answers (a read's bytes come as the body, its value is null). */
export const opValues = {
  list: z.array(wireEntry).max(100_000),
  stat: wireEntry.nullable(),
  read: z.null(),
  write: z.null(),
  writeStaged: z.null(),
  mkdirp: z.null(),
  rename: z.null(),
  remove: z.null(),
  test: z.array(wireEntry).max(100_000),
} satisfies Record<Op, z.ZodType>;
export type OpValue = { [K in Op]: z.infer<(typeof opValues)[K]> };

/** Which operations carry a body: a write's from the hub, a read's from the agent. */
export const BODY_TO_AGENT: ReadonlySet<Op> = new Set(["write"]);
export const BODY_FROM_AGENT: ReadonlySet<Op> = new Set(["read"]);

const body = z.object({
  size: z.number().int().min(0).max(MAX_BODY_BYTES),
  chunks: z.number().int().min(0).max(Math.ceil(MAX_BODY_BYTES / CHUNK_BYTES)),
}).refine((b) => b.chunks === chunkCount(b.size), { message: "chunks does not match size" });
export type BodyHeader = z.infer<typeof body>;

const pins = z.object({ sftpHostKey: z.string().max(200).optional(), ftpsCertFingerprint: z.string().max(200).optional() });

const AGENT_ERROR_CODES = [
  "CONNECTION_AGENT_CONNECT",
  "CONNECTION_AGENT_AUTH",
  "CONNECTION_AGENT_MKDIR",
  "CONNECTION_AGENT_DELETE",
  "CONNECTION_AGENT_DOWNLOAD",
  "CONNECTION_AGENT_LIST",
  "CONNECTION_AGENT_MOVE",
  "CONNECTION_AGENT_UPLOAD",
  "CONNECTION_AGENT_TIMEOUT",
  "CONNECTION_AGENT_HOST_NOT_ALLOWED",
  "CONNECTION_AGENT_OFFLINE",
  "PATH_OUTSIDE_OF_HOME_FOLDER",
  "FILE_TOO_LARGE",
  "FILE_ALREADY_EXISTS",
  "NOT_FOUND",
] as const satisfies readonly AgentErrorCode[];
// Every AgentErrorCode is listed (a compile error here means errors.ts gained a code).
type MissingCode = Exclude<AgentErrorCode, (typeof AGENT_ERROR_CODES)[number]>;
export const _everyAgentErrorCodeListed: [MissingCode] extends [never] ? true : MissingCode = true;

export const wireError = z.object({ code: z.enum(AGENT_ERROR_CODES), reason: z.string().max(200).optional() });
export type WireError = z.infer<typeof wireError>;

const callMessage = z.discriminatedUnion("op", OPS.map((op) =>
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal("call"),
    id: callId,
    op: z.literal(op),
    spec: connectionSpec,
    args: opArgs[op],
    body: BODY_TO_AGENT.has(op) ? body : z.never().optional(),
  }),
) as unknown as [z.ZodObject, ...z.ZodObject[]]);

/** What the hub may send. */
export const hubToAgent = z.discriminatedUnion("type", [
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal("welcome"), hub: z.string().max(200) }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal("pong") }),
  callMessage,
]);

/** What the agent may send. A result's value is checked against its call's op by the hub (resultValue). */
export const agentToHub = z.discriminatedUnion("type", [
  z.object({
    v: z.literal(PROTOCOL_VERSION),
    type: z.literal("hello"),
    agent: z.object({ version: z.string().min(1).max(50), name: z.string().max(100).optional(), runtime: z.string().max(100).optional() }),
  }),
  z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal("ping") }),
  z.discriminatedUnion("ok", [
    z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal("result"), id: callId, ok: z.literal(true), value: z.unknown(), body: body.optional(), pins: pins.optional() }),
    z.object({ v: z.literal(PROTOCOL_VERSION), type: z.literal("result"), id: callId, ok: z.literal(false), error: wireError, pins: pins.optional() }),
  ]),
]);

export type CallMessage = {
  [K in Op]: { v: 1; type: "call"; id: string; op: K; spec: z.infer<typeof connectionSpec>; args: OpArgs[K]; body?: BodyHeader };
}[Op];
export type HubToAgent = { v: 1; type: "welcome"; hub: string } | { v: 1; type: "pong" } | CallMessage;
export type AgentToHub = z.infer<typeof agentToHub>;
export type ResultMessage = Extract<AgentToHub, { type: "result" }>;

/** The exact heartbeat texts: the hub answers PING_TEXT with PONG_TEXT through the runtime's auto-response, so a heartbeat never wakes it. */
export const PING_TEXT = JSON.stringify({ v: PROTOCOL_VERSION, type: "ping" });
export const PONG_TEXT = JSON.stringify({ v: PROTOCOL_VERSION, type: "pong" });

export type ParseResult<T> = { ok: true; message: T } | { ok: false; close: { code: number; reason: string } };

/** WebSocket close reasons are at most 123 bytes. */
function closeReason(text: string): string {
  let reason = text;
  while (new TextEncoder().encode(reason).byteLength > 123) reason = reason.slice(0, -1);
  return reason;
}

function protocolError(why: string): { ok: false; close: { code: number; reason: string } } {
  return { ok: false, close: { code: CLOSE_CODES.protocolError, reason: closeReason(`Protocol error: ${why}`) } };
}

function unsupportedVersion(seen: unknown): { ok: false; close: { code: number; reason: string } } {
  return {
    ok: false,
    close: { code: CLOSE_CODES.unsupportedVersion, reason: closeReason(`Unsupported protocol version ${JSON.stringify(seen) ?? "none"}; this side speaks ${PROTOCOL_VERSION}`) },
  };
}

/**
 * Parses and checks one text message: the version first (another one → unsupportedVersion), then
 * the schema (→ protocolError, naming the first failing field).
 * @example parseMessage('{"v":1,"type":"ping"}', agentToHub) // { ok: true, message: { v: 1, type: "ping" } }
 */
export function parseMessage<S extends z.ZodType>(text: string, schema: S): ParseResult<z.infer<S>> {
  if (text.length > 4 * 1024 * 1024) return protocolError("text message too large");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return protocolError("not JSON");
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) return protocolError("not an object");
  const version = (json as { v?: unknown }).v;
  if (version !== PROTOCOL_VERSION) return unsupportedVersion(version);
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return protocolError(`${(json as { type?: unknown }).type ?? "message"} ${issue?.path.join(".") || ""} ${issue?.message ?? ""}`.trim());
  }
  return { ok: true, message: parsed.data };
}

/** parseMessage for what the agent receives. */
export function parseHubMessage(text: string): ParseResult<HubToAgent> {
  return parseMessage(text, hubToAgent) as ParseResult<HubToAgent>;
}

/** parseMessage for what the hub receives. */
export function parseAgentMessage(text: string): ParseResult<AgentToHub> {
  return parseMessage(text, agentToHub) as ParseResult<AgentToHub>;
}

/**
 * Checks a successful result's value against the operation of its call.
 * @example resultValue("stat", null) // { ok: true, value: null }
 */
export function resultValue<K extends Op>(op: K, value: unknown): { ok: true; value: OpValue[K] } | { ok: false; reason: string } {
  const parsed = opValues[op].safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data as OpValue[K] } : { ok: false, reason: `${op} value ${parsed.error.issues[0]?.path.join(".") ?? ""} ${parsed.error.issues[0]?.message ?? ""}`.trim() };
}

// ── binary frames ────────────────────────────────────────────────────────────────────────────────

/** How many frames a body of `size` bytes takes (an empty body takes none). */
export function chunkCount(size: number): number {
  return Math.ceil(size / CHUNK_BYTES);
}

export function bodyHeader(data: Uint8Array): BodyHeader {
  return { size: data.byteLength, chunks: chunkCount(data.byteLength) };
}

const HEADER_BYTES = 7;
const LAST = 1;

/**
 * One binary frame: byte 0 the protocol version, byte 1 flags (1 = last chunk), bytes 2–5 the
 * sequence number (uint32, big-endian), byte 6 the id's length, then the id (ASCII) and the payload.
 * @example encodeChunk("c1", 0, true, new Uint8Array([1, 2]))
 */
export function encodeChunk(id: string, seq: number, last: boolean, payload: Uint8Array): Uint8Array {
  if (!callId.safeParse(id).success) throw new Error(`Invalid call id ${id}`);
  const frame = new Uint8Array(HEADER_BYTES + id.length + payload.byteLength);
  const view = new DataView(frame.buffer);
  view.setUint8(0, PROTOCOL_VERSION);
  view.setUint8(1, last ? LAST : 0);
  view.setUint32(2, seq);
  view.setUint8(6, id.length);
  for (let i = 0; i < id.length; i += 1) frame[HEADER_BYTES + i] = id.charCodeAt(i);
  frame.set(payload, HEADER_BYTES + id.length);
  return frame;
}

export type DecodedChunk = { id: string; seq: number; last: boolean; payload: Uint8Array };

/**
 * Reads a binary frame (see encodeChunk); a frame of another version or a malformed one is refused
 * with the close code and reason to use.
 */
export function decodeChunk(data: ArrayBuffer | Uint8Array): ParseResult<DecodedChunk> {
  const frame = data instanceof Uint8Array ? data : new Uint8Array(data);
  if (frame.byteLength < HEADER_BYTES) return protocolError("binary frame too short");
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const version = view.getUint8(0);
  if (version !== PROTOCOL_VERSION) return unsupportedVersion(version);
  const flags = view.getUint8(1);
  if ((flags & ~LAST) !== 0) return protocolError("unknown binary frame flags");
  const seq = view.getUint32(2);
  const idLength = view.getUint8(6);
  if (frame.byteLength < HEADER_BYTES + idLength) return protocolError("binary frame id cut off");
  const id = String.fromCharCode(...frame.subarray(HEADER_BYTES, HEADER_BYTES + idLength));
  if (!callId.safeParse(id).success) return protocolError("binary frame id invalid");
  const payload = frame.subarray(HEADER_BYTES + idLength);
  if (payload.byteLength > CHUNK_BYTES) return protocolError("binary frame over CHUNK_BYTES");
  return { ok: true, message: { id, seq, last: (flags & LAST) !== 0, payload } };
}

/**
 * The binary frames of a body, in order.
 * @example for (const frame of chunkFrames("c1", bytes)) socket.send(frame);
 */
export function* chunkFrames(id: string, data: Uint8Array): Generator<Uint8Array> {
  const count = chunkCount(data.byteLength);
  for (let seq = 0; seq < count; seq += 1) {
    yield encodeChunk(id, seq, seq === count - 1, data.subarray(seq * CHUNK_BYTES, Math.min((seq + 1) * CHUNK_BYTES, data.byteLength)));
  }
}

/**
 * Collects the announced frames of one body: in order, none missing, the exact size.
 * @example const assembler = new BodyAssembler(header); const done = assembler.add(chunk); if (done.ok && done.body) use(done.body);
 */
export class BodyAssembler {
  private readonly buffer: Uint8Array;
  private received = 0;
  private nextSeq = 0;
  readonly header: BodyHeader;

  constructor(header: BodyHeader) {
    this.header = header;
    this.buffer = new Uint8Array(header.size);
  }

  /** True when the body needs no frames at all. */
  get complete(): boolean {
    return this.nextSeq === this.header.chunks && this.received === this.header.size;
  }

  get bytes(): Uint8Array {
    return this.buffer;
  }

  /** Adds a frame; answers whether the body is complete, or the protocol error it made. */
  add(chunk: DecodedChunk): { ok: true; complete: boolean } | { ok: false; close: { code: number; reason: string } } {
    if (chunk.seq !== this.nextSeq) return protocolError(`chunk ${chunk.seq} out of order (expected ${this.nextSeq})`);
    if (this.received + chunk.payload.byteLength > this.header.size) return protocolError("body larger than announced");
    const shouldBeLast = chunk.seq === this.header.chunks - 1;
    if (chunk.last !== shouldBeLast) return protocolError("last flag does not match the announced chunks");
    this.buffer.set(chunk.payload, this.received);
    this.received += chunk.payload.byteLength;
    this.nextSeq += 1;
    if (chunk.last && this.received !== this.header.size) return protocolError("body smaller than announced");
    return { ok: true, complete: this.complete };
  }
}

// ── entries ──────────────────────────────────────────────────────────────────────────────────────

/** A RemoteEntry for the wire. */
export function toWireEntry(entry: { name: string; path: string; type: "file" | "directory"; size: number; modifiedAt: Date | null }): WireEntry {
  const time = entry.modifiedAt?.getTime();
  return { name: entry.name, path: entry.path, type: entry.type, size: entry.size, modifiedAt: time !== undefined && Number.isFinite(time) ? new Date(time).toISOString() : null };
}

/** A RemoteEntry from the wire. */
export function fromWireEntry(entry: WireEntry): { name: string; path: string; type: "file" | "directory"; size: number; modifiedAt: Date | null } {
  return { ...entry, modifiedAt: entry.modifiedAt ? new Date(entry.modifiedAt) : null };
}
