/**
 * The agent's side of the link: dials the Worker's `/agent/connect` over a WebSocket (outbound
 * only, so it works behind a customer's firewall), says hello, pings every HEARTBEAT_MS, runs the
 * calls it receives on pooled connections (pool.ts) and answers them (protocol.ts). When the socket
 * drops — the Worker restarted, the network went away, the heartbeat went unanswered — it dials
 * again with capped exponential backoff and jitter (0.5 s doubling up to 30 s).
 *
 * Nothing here logs a spec: it carries the customer's credentials.
 *
 * @example
 * const link = new AgentLink({ url: "wss://app.example.com/agent/connect", token, pool, version: "1.0.0" });
 * link.start();
 * await link.stop();
 */
import { AgentError, type AgentErrorCode } from "./errors.ts";
import type { ConnectionPool } from "./pool.ts";
import {
  BODY_FROM_AGENT,
  BodyAssembler,
  bodyHeader,
  CLOSE_CODES,
  chunkFrames,
  decodeChunk,
  HEARTBEAT_MS,
  parseHubMessage,
  PING_TEXT,
  PROTOCOL_VERSION,
  toWireEntry,
  type AgentToHub,
  type CallMessage,
  type Op,
  type ResultMessage,
} from "./protocol.ts";
import type { RemoteFs } from "./remote-fs.ts";
import { fetchStaged } from "./staged.ts";

export interface LinkOptions {
  /** ws(s)://host/agent/connect */
  url: string;
  token: string;
  pool: ConnectionPool;
  /** The agent's version, sent in the hello. */
  version: string;
  /** A name for the hub's logs ("hosted", a customer's label). */
  name?: string;
  minBackoffMs?: number;
  maxBackoffMs?: number;
  heartbeatMs?: number;
  log?: (line: string) => void;
}

export type LinkState = "connecting" | "open" | "ready" | "closed" | "stopped";

/** The code a call fails with when the driver threw something that is not an AgentError. */
const FALLBACK_CODE: Record<Op, AgentErrorCode> = {
  list: "CONNECTION_AGENT_LIST",
  stat: "CONNECTION_AGENT_LIST",
  read: "CONNECTION_AGENT_DOWNLOAD",
  write: "CONNECTION_AGENT_UPLOAD",
  mkdirp: "CONNECTION_AGENT_MKDIR",
  rename: "CONNECTION_AGENT_MOVE",
  remove: "CONNECTION_AGENT_DELETE",
  test: "CONNECTION_AGENT_CONNECT",
  writeStaged: "CONNECTION_AGENT_UPLOAD",
};

/** The delay before reconnect attempt `attempt` (0-based): min·2^attempt capped at max, times a random factor in [0.5, 1). */
export function backoffDelay(attempt: number, minMs = 500, maxMs = 30_000, random: () => number = Math.random): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.5 + random() * 0.5));
}

export class AgentLink {
  private readonly options: Required<Omit<LinkOptions, "name">> & { name?: string };
  private socket: WebSocket | null = null;
  private attempt = 0;
  private stopped = true;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private lastPong = 0;
  /** Write calls whose body is still arriving, by call id. */
  private readonly incoming = new Map<string, { call: CallMessage; assembler: BodyAssembler }>();
  private listeners = new Set<(state: LinkState) => void>();
  state: LinkState = "stopped";

  constructor(options: LinkOptions) {
    this.options = {
      minBackoffMs: 500,
      maxBackoffMs: 30_000,
      heartbeatMs: HEARTBEAT_MS,
      log: (line) => console.log(`[agent] ${line}`),
      ...options,
    };
  }

  /** Calls `listener` on every state change (tests wait for "ready"). */
  onState(listener: (state: LinkState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setState(state: LinkState): void {
    this.state = state;
    for (const listener of this.listeners) listener(state);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  /** Closes the socket (CLOSE_CODES.goingAway) and stops reconnecting. Calls in flight finish on the servers but are not answered. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.stopHeartbeat();
    const socket = this.socket;
    this.socket = null;
    if (socket && socket.readyState <= 1) {
      const closed = new Promise<void>((resolve) => socket.addEventListener("close", () => resolve(), { once: true }));
      socket.close(CLOSE_CODES.goingAway, "Agent stopping");
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
    }
    this.setState("stopped");
  }

  private connect(): void {
    if (this.stopped) return;
    this.setState("connecting");
    let socket: WebSocket;
    try {
      // Node's WebSocket (undici) takes headers: the token never goes into the URL (and so never into logs).
      socket = new WebSocket(this.options.url, { headers: { Authorization: `Bearer ${this.options.token}` } } as unknown as string[]);
    } catch (error) {
      this.options.log(`cannot dial ${redact(this.options.url)}: ${(error as Error).message}`);
      this.scheduleReconnect();
      return;
    }
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    socket.addEventListener("open", () => {
      if (this.socket !== socket) return;
      this.setState("open");
      this.send(socket, { v: PROTOCOL_VERSION, type: "hello", agent: { version: this.options.version, name: this.options.name, runtime: `node ${process.versions.node}` } });
      this.startHeartbeat(socket);
    });
    socket.addEventListener("message", (event) => {
      if (this.socket !== socket) return;
      this.receive(socket, event.data as string | ArrayBuffer);
    });
    socket.addEventListener("error", () => {
      // The close event follows and reconnects; a refused token shows here as a failed handshake.
    });
    socket.addEventListener("close", (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.stopHeartbeat();
      this.incoming.clear();
      const reason = event.reason ? ` (${event.reason})` : "";
      if (event.code === CLOSE_CODES.unsupportedVersion) this.options.log(`the hub refused protocol version ${PROTOCOL_VERSION}${reason}: update the agent`);
      else this.options.log(`link closed: ${event.code}${reason}`);
      this.setState("closed");
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const delay = backoffDelay(this.attempt, this.options.minBackoffMs, this.options.maxBackoffMs);
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private startHeartbeat(socket: WebSocket): void {
    this.stopHeartbeat();
    this.lastPong = Date.now();
    this.heartbeatTimer = setInterval(() => {
      if (Date.now() - this.lastPong > this.options.heartbeatMs * 3) {
        this.options.log("no pong from the hub: reconnecting");
        socket.close(CLOSE_CODES.heartbeatTimeout, "Heartbeat timeout");
        // A half-open TCP connection may never deliver the close event: give up on it now.
        this.socket = null;
        this.stopHeartbeat();
        this.setState("closed");
        this.scheduleReconnect();
        return;
      }
      if (socket.readyState === 1) socket.send(PING_TEXT);
    }, this.options.heartbeatMs);
  }

  private stopHeartbeat(): void {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  private send(socket: WebSocket, message: AgentToHub): void {
    if (socket.readyState === 1) socket.send(JSON.stringify(message));
  }

  private refuse(socket: WebSocket, close: { code: number; reason: string }): void {
    this.options.log(`closing the link: ${close.reason}`);
    socket.close(close.code, close.reason);
  }

  private receive(socket: WebSocket, data: string | ArrayBuffer): void {
    if (typeof data !== "string") {
      const chunk = decodeChunk(data);
      if (!chunk.ok) return this.refuse(socket, chunk.close);
      const pending = this.incoming.get(chunk.message.id);
      if (!pending) return this.refuse(socket, { code: CLOSE_CODES.protocolError, reason: "Protocol error: a chunk for no pending call" });
      const added = pending.assembler.add(chunk.message);
      if (!added.ok) return this.refuse(socket, added.close);
      if (added.complete) {
        this.incoming.delete(chunk.message.id);
        void this.execute(socket, pending.call, pending.assembler.bytes);
      }
      return;
    }
    const parsed = parseHubMessage(data);
    if (!parsed.ok) return this.refuse(socket, parsed.close);
    const message = parsed.message;
    switch (message.type) {
      case "welcome":
        this.attempt = 0;
        this.lastPong = Date.now();
        this.options.log(`connected to ${redact(this.options.url)} (${message.hub})`);
        this.setState("ready");
        return;
      case "pong":
        this.lastPong = Date.now();
        return;
      case "call":
        this.lastPong = Date.now();
        if (message.op === "write") {
          const assembler = new BodyAssembler(message.body ?? { size: 0, chunks: 0 });
          if (assembler.complete) void this.execute(socket, message, assembler.bytes);
          else this.incoming.set(message.id, { call: message, assembler });
          return;
        }
        void this.execute(socket, message, null);
        return;
    }
  }

  /** Runs one call on a pooled connection and answers it on the socket it came from. */
  private async execute(socket: WebSocket, call: CallMessage, body: Uint8Array | null): Promise<void> {
    let result: ResultMessage;
    let bytes: Uint8Array | null = null;
    try {
      // A staged upload is downloaded and verified before a connection to the server is taken.
      const input = call.op === "writeStaged"
        ? await fetchStaged({ linkUrl: this.options.url, token: this.options.token, key: call.args.key, size: call.args.size, sha256: call.args.sha256 })
        : body;
      const { value, pins } = await this.options.pool.use(call.spec, (fs) => run(fs, call, input));
      if (BODY_FROM_AGENT.has(call.op)) {
        bytes = value as Uint8Array;
        result = { v: PROTOCOL_VERSION, type: "result", id: call.id, ok: true, value: null, body: bodyHeader(bytes), pins };
      } else {
        result = { v: PROTOCOL_VERSION, type: "result", id: call.id, ok: true, value, pins };
      }
    } catch (error) {
      const pins = (error as { pins?: ResultMessage["pins"] })?.pins;
      const code = error instanceof AgentError ? error.code : FALLBACK_CODE[call.op];
      if (!(error instanceof AgentError)) this.options.log(`${call.op} failed unexpectedly: ${(error as Error)?.message ?? String(error)}`);
      const reason = error instanceof AgentError && error.reason ? error.reason.slice(0, 200) : undefined;
      result = { v: PROTOCOL_VERSION, type: "result", id: call.id, ok: false, error: { code, reason }, pins };
    }
    // The socket may have closed meanwhile: the hub has already failed this call (CONNECTION_AGENT_OFFLINE).
    if (socket.readyState !== 1) return;
    socket.send(JSON.stringify(result));
    if (bytes) for (const frame of chunkFrames(call.id, bytes)) socket.send(frame);
  }
}

/** One operation on a RemoteFs, its value in wire form (a read answers its bytes). */
async function run(fs: RemoteFs, call: CallMessage, body: Uint8Array | null): Promise<unknown> {
  switch (call.op) {
    case "list":
      return (await fs.list(call.args.path)).map(toWireEntry);
    case "stat": {
      const entry = await fs.stat(call.args.path);
      return entry ? toWireEntry(entry) : null;
    }
    case "read":
      return new Uint8Array(await fs.read(call.args.path, { maxBytes: call.args.maxBytes }));
    case "write":
    case "writeStaged":
      await fs.writeAtomic(call.args.path, body ?? new Uint8Array(0));
      return null;
    case "mkdirp":
      await fs.mkdirp(call.args.path);
      return null;
    case "rename":
      await fs.rename(call.args.from, call.args.to);
      return null;
    case "remove":
      await fs.remove(call.args.path);
      return null;
    case "test":
      return (await fs.test()).map(toWireEntry);
  }
}

/** The URL without credentials or query, for logs. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
