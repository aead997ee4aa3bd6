import { DurableObject } from "cloudflare:workers";
import type { ConnectionSpec, ObservedPins } from "../agent/src/connection.ts";
import type { AgentErrorCode } from "../agent/src/errors.ts";
import {
  BODY_FROM_AGENT,
  BODY_TO_AGENT,
  BodyAssembler,
  bodyHeader,
  CLOSE_CODES,
  chunkFrames,
  decodeChunk,
  HEARTBEAT_MS,
  parseAgentMessage,
  PING_TEXT,
  PONG_TEXT,
  PROTOCOL_VERSION,
  resultValue,
  type CallMessage,
  type HubToAgent,
  type Op,
  type OpArgs,
  type OpValue,
} from "../agent/src/protocol.ts";

/** DECISIONS.md: 45 s per command, plus the link's own round trip. */
export const CALL_TIMEOUT_MS = 50_000;
/** Big bodies get longer: 2 s more per MiB carried. */
const EXTRA_MS_PER_MIB = 2_000;
/** A socket that has not pinged for this long is dead (a half-open connection). */
const STALE_AFTER_MS = HEARTBEAT_MS * 4;

/** What the Worker asks (agent-link.server.ts): one RemoteFs operation. */
export type HubCall = {
  [K in Op]: { op: K; spec: ConnectionSpec; args: OpArgs[K]; body?: Uint8Array; timeoutMs?: number };
}[Op];

/** What the hub answers. Never thrown: RPC exceptions lose their code, so failures are values. */
export type HubReply =
  | { ok: true; value: OpValue[Op]; body?: Uint8Array; pins?: ObservedPins }
  | { ok: false; error: { code: AgentErrorCode; reason?: string }; pins?: ObservedPins };

/** Kept on each socket (survives hibernation). */
interface SocketInfo {
  socketId: string;
  /** Who connected: "hosted" or the registered agent's id. */
  agent: string;
  connectedAt: number;
  /** Set once the agent said hello; only then does it get calls. */
  hello: { version: string; name?: string; runtime?: string } | null;
}

interface Pending {
  op: Op;
  socketId: string;
  resolve: (reply: HubReply) => void;
  timer: ReturnType<typeof setTimeout>;
  /** A read's body, once its result announced one. */
  assembler: BodyAssembler | null;
  result: { value: OpValue[Op]; pins?: ObservedPins } | null;
}

/** The header the Worker sets (after authenticating) to tell the hub who connected. */
export const AGENT_HEADER = "X-Sitecraft-Agent";

/**
 * One per agent (`idFromName("hosted")` for the hosted agent, `idFromName(agentId)` for an
 * account's registered agent): holds that agent's sockets with the hibernation API, sends each
 * call over the least busy socket, correlates the result by id, and answers
 * CONNECTION_AGENT_OFFLINE when no socket is connected or the socket closes mid-call, and
 * CONNECTION_AGENT_TIMEOUT when no result arrives in time. Heartbeats are answered by the
 * runtime's auto-response, so an idle hub hibernates. Protocol: agent/src/protocol.ts.
 *
 * Calls in flight live in memory only: a hub with a pending call has an RPC in progress, so it
 * neither hibernates nor loses them; a hub that restarts fails its callers (their RPC breaks).
 */
export class AgentHub extends DurableObject<Env> {
  private readonly pending = new Map<string, Pending>();
  private turn = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING_TEXT, PONG_TEXT));
  }

  /** The WebSocket upgrade, forwarded by the Worker's `/agent/connect` after it checked the token. */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const agent = request.headers.get(AGENT_HEADER);
    if (!agent) return new Response("Unauthorized", { status: 401 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [agent]);
    const info: SocketInfo = { socketId: crypto.randomUUID(), agent, connectedAt: Date.now(), hello: null };
    server.serializeAttachment(info);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** How many agent processes are connected and ready (tests, the agents page). */
  async status(): Promise<{ connected: number; agents: { version: string; name?: string; connectedAt: number }[] }> {
    const ready = this.readySockets();
    return { connected: ready.length, agents: ready.map(({ info }) => ({ version: info.hello!.version, name: info.hello!.name, connectedAt: info.connectedAt })) };
  }

  /** Closes every socket (tests: the Worker side drops the link; the agents reconnect). */
  async disconnectAll(reason = "Disconnected by the server"): Promise<number> {
    const sockets = this.ctx.getWebSockets();
    for (const socket of sockets) this.closeSocket(socket, 1012, reason);
    return sockets.length;
  }

  /**
   * Runs one operation on the agent.
   * @example await hub.call({ op: "list", spec, args: { path: "/" } }) // { ok: true, value: [...] }
   */
  async call(request: HubCall): Promise<HubReply> {
    const socket = this.pickSocket();
    if (!socket) return { ok: false, error: { code: "CONNECTION_AGENT_OFFLINE", reason: "NO_AGENT_CONNECTED" } };
    const info = socket.deserializeAttachment() as SocketInfo;
    const id = crypto.randomUUID().replace(/-/g, "");
    const body = BODY_TO_AGENT.has(request.op) ? (request.body ?? new Uint8Array(0)) : null;
    const message = { v: PROTOCOL_VERSION, type: "call", id, op: request.op, spec: request.spec, args: request.args, ...(body ? { body: bodyHeader(body) } : {}) } as CallMessage satisfies HubToAgent;
    const carried =
      body?.byteLength ??
      (request.op === "read" ? ((request.args as OpArgs["read"]).maxBytes ?? 5 * 1024 * 1024) : request.op === "writeStaged" ? (request.args as OpArgs["writeStaged"]).size : 0);
    const timeoutMs = request.timeoutMs ?? CALL_TIMEOUT_MS + Math.ceil(carried / (1024 * 1024)) * EXTRA_MS_PER_MIB;
    return new Promise<HubReply>((resolve) => {
      const timer = setTimeout(() => this.settle(id, { ok: false, error: { code: "CONNECTION_AGENT_TIMEOUT" } }), timeoutMs);
      this.pending.set(id, { op: request.op, socketId: info.socketId, resolve, timer, assembler: null, result: null });
      try {
        socket.send(JSON.stringify(message));
        if (body) for (const frame of chunkFrames(id, body)) socket.send(frame);
      } catch {
        this.settle(id, { ok: false, error: { code: "CONNECTION_AGENT_OFFLINE", reason: "SEND_FAILED" } });
      }
    });
  }

  override async webSocketMessage(socket: WebSocket, data: string | ArrayBuffer): Promise<void> {
    const info = socket.deserializeAttachment() as SocketInfo;
    // Hibernatable sockets deliver ArrayBuffers; a Blob (the standard binaryType default) is read just in case.
    if (typeof data !== "string") return this.receiveChunk(socket, info, data instanceof Blob ? await (data as Blob).arrayBuffer() : data);
    const parsed = parseAgentMessage(data);
    if (!parsed.ok) return this.refuse(socket, info, parsed.close);
    const message = parsed.message;
    switch (message.type) {
      case "hello":
        socket.serializeAttachment({ ...info, hello: message.agent } satisfies SocketInfo);
        socket.send(JSON.stringify({ v: PROTOCOL_VERSION, type: "welcome", hub: info.agent } satisfies HubToAgent));
        return;
      case "ping":
        // Normally answered by the auto-response; an exact copy of PING_TEXT with other spacing lands here.
        socket.send(PONG_TEXT);
        return;
      case "result": {
        const call = this.pending.get(message.id);
        // A result after its timeout (or for a call of a socket that reconnected): nothing waits for it.
        if (!call || call.socketId !== info.socketId) return;
        if (!message.ok) return this.settle(message.id, { ok: false, error: message.error, pins: message.pins });
        const checked = resultValue(call.op, message.value);
        if (!checked.ok) return this.refuse(socket, info, { code: CLOSE_CODES.protocolError, reason: `Protocol error: ${checked.reason}`.slice(0, 120) });
        const wantsBody = BODY_FROM_AGENT.has(call.op);
        if (wantsBody !== Boolean(message.body)) return this.refuse(socket, info, { code: CLOSE_CODES.protocolError, reason: `Protocol error: ${call.op} result body` });
        if (message.body) {
          call.assembler = new BodyAssembler(message.body);
          call.result = { value: checked.value, pins: message.pins };
          if (call.assembler.complete) this.settle(message.id, { ok: true, value: checked.value, body: call.assembler.bytes, pins: message.pins });
          return;
        }
        return this.settle(message.id, { ok: true, value: checked.value, pins: message.pins });
      }
    }
  }

  private receiveChunk(socket: WebSocket, info: SocketInfo, data: ArrayBuffer): void {
    const chunk = decodeChunk(data);
    if (!chunk.ok) return this.refuse(socket, info, chunk.close);
    const call = this.pending.get(chunk.message.id);
    // Chunks of a call that already timed out are dropped; chunks nobody announced are a protocol error.
    if (!call) return;
    if (call.socketId !== info.socketId || !call.assembler || !call.result) {
      return this.refuse(socket, info, { code: CLOSE_CODES.protocolError, reason: "Protocol error: a chunk before its result" });
    }
    const added = call.assembler.add(chunk.message);
    if (!added.ok) return this.refuse(socket, info, added.close);
    if (added.complete) this.settle(chunk.message.id, { ok: true, value: call.result.value, body: call.assembler.bytes, pins: call.result.pins });
  }

  override async webSocketClose(socket: WebSocket, code: number, reason: string): Promise<void> {
    this.dropSocket(socket, `closed ${code} ${reason}`);
    // Complete the closing handshake (a no-op when the runtime already answered it).
    this.closeSocket(socket, code === 1005 || code === 1006 ? 1000 : code, "Bye");
  }

  override async webSocketError(socket: WebSocket, error: unknown): Promise<void> {
    this.dropSocket(socket, `error ${(error as Error)?.message ?? String(error)}`);
  }

  /** The socket's calls fail now with CONNECTION_AGENT_OFFLINE, not at their timeout. */
  private dropSocket(socket: WebSocket, why: string): void {
    const info = socket.deserializeAttachment() as SocketInfo | null;
    if (!info) return;
    let failed = 0;
    for (const [id, call] of this.pending) {
      if (call.socketId !== info.socketId) continue;
      failed += 1;
      this.settle(id, { ok: false, error: { code: "CONNECTION_AGENT_OFFLINE", reason: "AGENT_DISCONNECTED" } });
    }
    console.log(`Agent ${info.agent} socket ${why}${failed ? `; ${failed} call(s) failed` : ""}`);
  }

  private refuse(socket: WebSocket, info: SocketInfo, close: { code: number; reason: string }): void {
    console.warn(`Agent ${info.agent}: ${close.reason}`);
    this.dropSocket(socket, close.reason);
    this.closeSocket(socket, close.code, close.reason);
  }

  private closeSocket(socket: WebSocket, code: number, reason: string): void {
    try {
      socket.close(code, reason);
    } catch {
      // already closed
    }
  }

  private settle(id: string, reply: HubReply): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.pending.delete(id);
    clearTimeout(call.timer);
    call.resolve(reply);
  }

  /** Open sockets whose agent said hello; sockets silent past STALE_AFTER_MS are closed instead. */
  private readySockets(): { socket: WebSocket; info: SocketInfo }[] {
    const now = Date.now();
    const ready: { socket: WebSocket; info: SocketInfo }[] = [];
    for (const socket of this.ctx.getWebSockets()) {
      if (socket.readyState !== WebSocket.OPEN) continue;
      const info = socket.deserializeAttachment() as SocketInfo | null;
      if (!info?.hello) continue;
      const lastPing = this.ctx.getWebSocketAutoResponseTimestamp(socket)?.getTime() ?? info.connectedAt;
      if (now - Math.max(lastPing, info.connectedAt) > STALE_AFTER_MS) {
        this.dropSocket(socket, "heartbeat timeout");
        this.closeSocket(socket, CLOSE_CODES.heartbeatTimeout, "Heartbeat timeout");
        continue;
      }
      ready.push({ socket, info });
    }
    return ready;
  }

  /** The ready socket with the fewest calls in flight; ties taken in turn. */
  private pickSocket(): WebSocket | null {
    const ready = this.readySockets();
    if (ready.length === 0) return null;
    const load = new Map<string, number>();
    for (const call of this.pending.values()) load.set(call.socketId, (load.get(call.socketId) ?? 0) + 1);
    this.turn = (this.turn + 1) % ready.length;
    const ordered = [...ready.slice(this.turn), ...ready.slice(0, this.turn)];
    ordered.sort((a, b) => (load.get(a.info.socketId) ?? 0) - (load.get(b.info.socketId) ?? 0));
    return ordered[0].socket;
  }
}
