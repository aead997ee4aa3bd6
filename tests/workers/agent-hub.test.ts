import { env, SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { agents } from "../../db/schema";
import { AgentError } from "../../agent/src/errors.ts";
import {
  BodyAssembler,
  bodyHeader,
  chunkFrames,
  decodeChunk,
  PING_TEXT,
  PONG_TEXT,
  type CallMessage,
} from "../../agent/src/protocol.ts";
import { sha256Hex } from "~/lib/tokens";
import { agentHub, agentRemoteFs, DEVELOPMENT_HOSTED_AGENT_TOKEN } from "~/services/agent-link.server";
import { createTenant, db, signIn, type Tenant } from "./fixtures";

/**
 * The Worker's side of the agent link in workerd: who may open `/agent/connect`, and the AgentHub's
 * RPCs against a fake agent played by the test over a real WebSocket (chunked bodies both ways,
 * errors with their codes, a socket closing mid-call, the timeout). The real agent process is driven
 * in tests/agent/link.test.ts.
 */

const spec = { key: "site:test", protocol: "sftp" as const, host: "sftp.example", username: "me", password: "secret", home: "/www" };
const open: WebSocket[] = [];

async function dial(token: string | null, headers: Record<string, string> = {}) {
  return SELF.fetch("http://localhost/agent/connect", {
    headers: { Upgrade: "websocket", ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
  });
}

type Handler = (call: CallMessage, body: Uint8Array | null, socket: WebSocket) => void;

/** Connects as an agent that answers calls with `handler`; resolves once the hub said welcome. */
async function fakeAgent(handler: Handler, token = DEVELOPMENT_HOSTED_AGENT_TOKEN, hello: unknown = { v: 1, type: "hello", agent: { version: "test" } }) {
  const response = await dial(token);
  expect(response.status).toBe(101);
  const socket = response.webSocket!;
  // Workers deliver binary messages as Blobs unless asked otherwise (the agent asks the same).
  (socket as WebSocket & { binaryType: string }).binaryType = "arraybuffer";
  socket.accept();
  open.push(socket);
  const incoming = new Map<string, { call: CallMessage; assembler: BodyAssembler }>();
  const messages: string[] = [];
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })));
  const welcomed = new Promise<void>((resolve) => {
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") {
        const chunk = decodeChunk(event.data as ArrayBuffer);
        if (!chunk.ok) throw new Error(chunk.close.reason);
        const pending = incoming.get(chunk.message.id)!;
        const added = pending.assembler.add(chunk.message);
        if (added.ok && added.complete) handler(pending.call, pending.assembler.bytes, socket);
        return;
      }
      messages.push(event.data);
      const message = JSON.parse(event.data) as { type: string };
      if (message.type === "welcome") resolve();
      if (message.type !== "call") return;
      const call = message as CallMessage;
      if (call.body && call.body.size > 0) incoming.set(call.id, { call, assembler: new BodyAssembler(call.body) });
      else handler(call, call.body ? new Uint8Array(0) : null, socket);
    });
  });
  socket.send(JSON.stringify(hello));
  return { socket, welcomed, closed, messages };
}

function reply(socket: WebSocket, call: CallMessage, result: Record<string, unknown>, body?: Uint8Array) {
  socket.send(JSON.stringify({ v: 1, type: "result", id: call.id, ...result, ...(body ? { body: bodyHeader(body) } : {}) }));
  if (body) for (const frame of chunkFrames(call.id, body)) socket.send(frame);
}

afterEach(async () => {
  for (const socket of open.splice(0)) {
    try {
      socket.close(1000, "test done");
    } catch {
      // already closed
    }
  }
  await agentHub(env, null).disconnectAll();
});

let tenant: Tenant;
let adminCookie: string;
let clientCookie: string;

beforeAll(async () => {
  tenant = await createTenant("Hub");
  adminCookie = await signIn(tenant.admin.email);
  clientCookie = await signIn(tenant.client.email);
});

const form = { protocol: "sftp", host: "sftp.example", username: "me", password: "secret", homeFolder: "/www" };

function browse(cookie: string, targetServer: unknown, path = "/") {
  return SELF.fetch(`http://localhost/api/utilities/files?path=${encodeURIComponent(path)}`, {
    headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin", ...(targetServer === undefined ? {} : { "Target-Server": typeof targetServer === "string" ? targetServer : JSON.stringify(targetServer) }) },
  });
}

function testConnection(cookie: string, body: unknown) {
  return SELF.fetch("http://localhost/api/utilities/test-connection", {
    method: "POST",
    headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

describe("/agent/connect", () => {
  it("refuses requests that are not WebSocket upgrades", async () => {
    const response = await SELF.fetch("http://localhost/agent/connect", { headers: { Authorization: `Bearer ${DEVELOPMENT_HOSTED_AGENT_TOKEN}` } });
    expect(response.status).toBe(426);
    expect(response.webSocket).toBeNull();
  });

  it("refuses a missing or wrong token with 401 and no upgrade", async () => {
    for (const response of [await dial(null), await dial("wrong-token"), await dial(`${DEVELOPMENT_HOSTED_AGENT_TOKEN}x`), await dial(null, { Authorization: "Basic abc" })]) {
      expect(response.status).toBe(401);
      expect(response.webSocket).toBeNull();
    }
  });

  it("does not let a caller name its own hub", async () => {
    const response = await dial("wrong-token", { "X-Sitecraft-Agent": "hosted" });
    expect(response.status).toBe(401);
  });

  it("accepts the hosted agent's token, says welcome after the hello and answers heartbeats", async () => {
    const agent = await fakeAgent(() => {});
    await agent.welcomed;
    const pong = new Promise<string>((resolve) => agent.socket.addEventListener("message", (event) => event.data === PONG_TEXT && resolve(event.data)));
    agent.socket.send(PING_TEXT);
    expect(await pong).toBe(PONG_TEXT);
    expect(await agentHub(env, null).status()).toMatchObject({ connected: 1, agents: [{ version: "test" }] });
  });

  it("accepts a registered agent's token (stored hashed) on that agent's hub and records lastSeenAt", async () => {
    const token = "registered-agent-token-0123456789";
    const [row] = await db().insert(agents).values({ accountId: tenant.account.id, name: "Office", tokenHash: await sha256Hex(token) }).returning();
    const agent = await fakeAgent((call, _body, socket) => reply(socket, call, { ok: true, value: [] }), token);
    await agent.welcomed;
    expect(await agentHub(env, row.id).status()).toMatchObject({ connected: 1 });
    expect(await agentHub(env, null).status()).toMatchObject({ connected: 0 });
    expect(await agentRemoteFs(env, row.id, spec).list("/")).toEqual([]);
    const seen = await db().query.agents.findFirst({ where: (a, { eq }) => eq(a.id, row.id) });
    expect(seen?.lastSeenAt).toBeInstanceOf(Date);
    await agentHub(env, row.id).disconnectAll();
  });

  it("closes the socket of an agent that speaks another protocol version, with a clear reason", async () => {
    const response = await dial(DEVELOPMENT_HOSTED_AGENT_TOKEN);
    const socket = response.webSocket!;
    socket.accept();
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.addEventListener("close", (event) => resolve({ code: event.code, reason: event.reason })));
    socket.send(JSON.stringify({ v: 2, type: "hello", agent: { version: "9.0.0" } }));
    const { code, reason } = await closed;
    expect(code).toBe(4426);
    expect(reason).toMatch(/Unsupported protocol version 2; this side speaks 1/);
  });
});

describe("the AgentHub RPC", () => {
  it("answers CONNECTION_AGENT_OFFLINE when no agent is connected", async () => {
    await expect(agentRemoteFs(env, null, spec).list("/")).rejects.toMatchObject({ name: "AgentError", code: "CONNECTION_AGENT_OFFLINE" });
  });

  it("round-trips a list, a stat with dates, and the observed pins", async () => {
    const agent = await fakeAgent((call, _body, socket) => {
      if (call.op === "list") reply(socket, call, { ok: true, value: [{ name: "index.html", path: "/www/index.html", type: "file", size: 12, modifiedAt: "2026-01-02T03:04:05.000Z" }], pins: { sftpHostKey: "SHA256:abc" } });
      if (call.op === "stat") reply(socket, call, { ok: true, value: null });
    });
    await agent.welcomed;
    const fs = agentRemoteFs(env, null, spec);
    const entries = await fs.list("/www");
    expect(entries).toEqual([{ name: "index.html", path: "/www/index.html", type: "file", size: 12, modifiedAt: new Date("2026-01-02T03:04:05.000Z") }]);
    expect(fs.observedPins).toEqual({ sftpHostKey: "SHA256:abc" });
    expect(await fs.stat("missing.html")).toBeNull();
    const call = JSON.parse(agent.messages.find((text) => text.includes('"op":"list"'))!) as CallMessage;
    expect(call).toMatchObject({ v: 1, type: "call", op: "list", args: { path: "/www" }, spec: { key: "site:test", protocol: "sftp", home: "/www" } });
  });

  it("carries a 20 MB body both ways in chunks", async () => {
    const big = new Uint8Array(20 * 1024 * 1024).map((_, i) => (i * 31) % 256);
    let written: Uint8Array | null = null;
    const agent = await fakeAgent((call, body, socket) => {
      if (call.op === "read") reply(socket, call, { ok: true, value: null }, big);
      if (call.op === "write") {
        written = body;
        reply(socket, call, { ok: true, value: null });
      }
    });
    await agent.welcomed;
    const fs = agentRemoteFs(env, null, spec);
    const read = await fs.read("big.bin", { maxBytes: 25 * 1024 * 1024 });
    expect(read.byteLength).toBe(big.byteLength);
    expect(Buffer.compare(read, Buffer.from(big))).toBe(0);
    await fs.writeAtomic("copy.bin", big);
    expect(written!.byteLength).toBe(big.byteLength);
    expect(Buffer.compare(Buffer.from(written!), Buffer.from(big))).toBe(0);
    // An empty body is zero chunks.
    await fs.writeAtomic("empty.txt", new Uint8Array(0));
    expect(written!.byteLength).toBe(0);
  });

  it("throws the agent's error code as an AgentError", async () => {
    const agent = await fakeAgent((call, _body, socket) => reply(socket, call, { ok: false, error: { code: "CONNECTION_AGENT_AUTH" } }));
    await agent.welcomed;
    const failure = await agentRemoteFs(env, null, spec).test().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AgentError);
    expect(failure).toMatchObject({ code: "CONNECTION_AGENT_AUTH" });
  });

  it("fails the calls of a socket that closes mid-call at once with CONNECTION_AGENT_OFFLINE", async () => {
    const agent = await fakeAgent((_call, _body, socket) => socket.close(1011, "crashed"));
    await agent.welcomed;
    const started = Date.now();
    await expect(agentRemoteFs(env, null, spec).read("slow.html")).rejects.toMatchObject({ code: "CONNECTION_AGENT_OFFLINE" });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("answers CONNECTION_AGENT_TIMEOUT when the agent does not answer in time", async () => {
    const agent = await fakeAgent(() => {});
    await agent.welcomed;
    const reply = await agentHub(env, null).call({ op: "stat", spec, args: { path: "x" }, timeoutMs: 300 });
    expect(reply).toEqual({ ok: false, error: { code: "CONNECTION_AGENT_TIMEOUT" } });
  });

  it("spreads calls over several connected agent processes", async () => {
    const served: string[] = [];
    const one = await fakeAgent((call, _body, socket) => (served.push("one"), reply(socket, call, { ok: true, value: [] })));
    const two = await fakeAgent((call, _body, socket) => (served.push("two"), reply(socket, call, { ok: true, value: [] })));
    await Promise.all([one.welcomed, two.welcomed]);
    const fs = agentRemoteFs(env, null, spec);
    await Promise.all(Array.from({ length: 6 }, () => fs.list("/")));
    expect(served.filter((name) => name === "one").length).toBeGreaterThan(0);
    expect(served.filter((name) => name === "two").length).toBeGreaterThan(0);
  });

  it("closes a socket that sends a malformed result, failing its call", async () => {
    const agent = await fakeAgent((call, _body, socket) => socket.send(JSON.stringify({ v: 1, type: "result", id: call.id, ok: true, value: "not a list" })));
    await agent.welcomed;
    await expect(agentRemoteFs(env, null, spec).list("/")).rejects.toMatchObject({ code: "CONNECTION_AGENT_OFFLINE" });
    expect((await agent.closed).code).toBe(4400);
  });
});

describe("GET /utilities/files and POST /utilities/test-connection", () => {
  it("answers 503 CONNECTION_AGENT_OFFLINE with no agent connected", async () => {
    const files = await browse(adminCookie, form);
    expect(files.status).toBe(503);
    expect(await files.json()).toEqual({ code: "CONNECTION_AGENT_OFFLINE", invalid: [] });
    const test = await testConnection(adminCookie, form);
    expect(test.status).toBe(503);
    expect(await test.json()).toEqual({ code: "CONNECTION_AGENT_OFFLINE", invalid: [] });
  });

  it("lists the form's server through the agent", async () => {
    const agent = await fakeAgent((call, _body, socket) =>
      reply(socket, call, { ok: true, value: [{ name: "blog", path: "/www/blog", type: "directory", size: 0, modifiedAt: null }], pins: { sftpHostKey: "SHA256:k" } }),
    );
    await agent.welcomed;
    const files = await browse(adminCookie, form, "/www");
    expect(files.status).toBe(200);
    expect(await files.json()).toEqual({ files: [{ name: "blog", path: "/www/blog", type: "directory", size: 0, modifiedAt: null }] });
    const test = await testConnection(adminCookie, { ...form, name: "My site", url: "https://example.com" });
    expect(test.status).toBe(200);
    expect(await test.json()).toEqual({ ok: true, files: [{ name: "blog", path: "/www/blog", type: "directory", size: 0, modifiedAt: null }], pins: { sftpHostKey: "SHA256:k" } });
    const calls = agent.messages.filter((text) => text.includes('"type":"call"')).map((text) => JSON.parse(text) as CallMessage);
    expect(calls.map((call) => call.op)).toEqual(["list", "test"]);
    expect(calls[0].spec.key).toMatch(/^form:[0-9a-f]{64}$/);
    expect(calls[1].spec.key).toBe(calls[0].spec.key);
    expect(calls[0].spec).toMatchObject({ protocol: "sftp", host: "sftp.example", username: "me", password: "secret", home: "/www" });
  });

  it("names the invalid fields of the form, and refuses a header that is not JSON", async () => {
    const missing = await browse(adminCookie, { protocol: "sftp", host: "", port: "99999" });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ code: "VALIDATION_ERROR", invalid: expect.arrayContaining(["host", "port", "username", "password"]) });
    const notJson = await browse(adminCookie, "{nope");
    expect(await notJson.json()).toEqual({ code: "VALIDATION_ERROR", invalid: ["Target-Server"] });
    const none = await browse(adminCookie, undefined);
    expect(none.status).toBe(400);
    const s3 = await testConnection(adminCookie, { protocol: "s3", s3Bucket: "site" });
    expect(await s3.json()).toEqual({ code: "VALIDATION_ERROR", invalid: ["s3AccessKey", "s3SecretKey"] });
  });

  it("refuses another account's agent as an invalid agentId", async () => {
    const other = await createTenant("Elsewhere");
    const [foreign] = await db().insert(agents).values({ accountId: other.account.id, name: "Theirs", tokenHash: await sha256Hex("foreign-token") }).returning();
    const response = await testConnection(adminCookie, { ...form, agentId: foreign.id });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: "VALIDATION_ERROR", invalid: ["agentId"] });
  });

  it("is only for users who can manage sites", async () => {
    const files = await browse(clientCookie, form);
    expect(files.status).toBe(403);
    const test = await testConnection(clientCookie, form);
    expect(test.status).toBe(403);
    const anonymous = await SELF.fetch("http://localhost/api/utilities/files", { headers: { "Target-Server": JSON.stringify(form) } });
    expect(anonymous.status).toBe(401);
  });
});
