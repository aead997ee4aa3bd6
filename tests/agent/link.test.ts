// The agent link end to end: the built app on `wrangler dev` (fresh seeded database), a REAL agent
// process (`node agent/src/main.ts`) dialing its `/agent/connect`, and the real FTP and SFTP servers
// of tests/servers. Drives the site form's connection test and browse through the link, kills the
// agent mid-operation (the caller gets CONNECTION_AGENT_OFFLINE promptly, a restarted agent serves
// the next call) and restarts the Worker under the agent (it reconnects by itself).
// Needs root and the packages of tests/servers/install.mjs.
import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Servers, startServers } from "../servers/servers.mjs";
// @ts-expect-error: plain .mjs helpers shared with the start script
import { buildDir, buildIfNeeded, freePort, prepareDatabase, root, startGroup, stopGroup, toolEnv, waitForHttp } from "../../scripts/lib.mjs";

const HOSTED_TOKEN = "development-only-hosted-agent-token";
const persistTo = ".wrangler/link-state";

let servers: Servers<"ftp" | "sftp">;
let port: number;
let baseURL: string;
let worker: ChildProcess | null = null;
let agent: ChildProcess | null = null;
let cookie = "";
const logs: string[] = [];
const groups = new Set<ChildProcess>();

function capture(child: ChildProcess, label: string): void {
  const keep = (data: Buffer) => {
    for (const line of data.toString().split("\n")) if (line.trim()) logs.push(`[${label}] ${line}`);
    if (logs.length > 2_000) logs.splice(0, logs.length - 2_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
}

async function startWorker(): Promise<void> {
  worker = startGroup("wrangler", [
    "dev", "--config", `${buildDir}/server/wrangler.json`, "--ip", "127.0.0.1", "--port", String(port),
    "--persist-to", persistTo, "--show-interactive-dev-session=false", "--log-level", "warn",
  ], { stdio: ["ignore", "pipe", "pipe"] }) as ChildProcess;
  groups.add(worker);
  capture(worker, "worker");
  await waitForHttp(`${baseURL}/login`);
}

/** The agent as customers get it from the registry (`npx @sitecraft/agent`): the bundle `npm pack` builds. */
function buildPackagedAgent(): string {
  const result = spawnSync("npm", ["run", "--silent", "build"], { cwd: path.join(root, "agent"), env: toolEnv, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`npm run build in agent/ failed: ${result.stderr}`);
  return "agent/dist/main.js";
}

function startAgent(entry = "agent/src/main.ts"): ChildProcess {
  const child = startGroup(path.join(root, "node_modules", ".bin", "node"), [entry], {
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...toolEnv,
      CMS_AGENT_URL: `ws://127.0.0.1:${port}/agent/connect`,
      CMS_AGENT_TOKEN: HOSTED_TOKEN,
      CMS_AGENT_ALLOW_HOSTS: "127.0.0.1",
      CMS_AGENT_NAME: "link-test",
    },
  }) as ChildProcess;
  groups.add(child);
  capture(child, "agent");
  return child;
}

/** Ends a process group: SIGKILL when asked (the crash), else SIGTERM; waits until the leader is gone. */
async function stop(child: ChildProcess | null, signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (signal === "SIGKILL") {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  } else {
    stopGroup(child);
  }
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }
  groups.delete(child);
}

async function api(method: string, pathname: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${baseURL}/api${pathname}`, {
    method,
    headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin", ...(init.body ? { "Content-Type": "application/json" } : {}), ...init.headers },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const testConnection = (form: unknown) => api("POST", "/utilities/test-connection", { body: form });
const browse = (form: unknown, folder: string) => api("GET", `/utilities/files?path=${encodeURIComponent(folder)}`, { headers: { "Target-Server": JSON.stringify(form) } });

function sftpForm(extra: Record<string, unknown> = {}) {
  return { protocol: "sftp", host: servers.sftp.host, port: servers.sftp.port, username: servers.sftp.username, password: servers.sftp.password, homeFolder: `${servers.sftp.remoteRoot}/link-site`, ...extra };
}

function ftpForm(extra: Record<string, unknown> = {}) {
  return { protocol: "ftp", host: servers.ftp.host, port: String(servers.ftp.port), username: servers.ftp.username, password: servers.ftp.password, homeFolder: "/link-site", ...extra };
}

/** Polls the SFTP connection test until the agent is (re)connected and answers. */
async function waitForAgent(timeoutMs = 45_000): Promise<{ status: number; body: Record<string, unknown> }> {
  const deadline = Date.now() + timeoutMs;
  let last: { status: number; body: Record<string, unknown> } = { status: 0, body: {} };
  while (Date.now() < deadline) {
    last = await testConnection(sftpForm());
    if (last.body.code !== "CONNECTION_AGENT_OFFLINE") return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the agent did not connect: ${JSON.stringify(last)}\n${logs.slice(-40).join("\n")}`);
}

function seedFiles(rootOnDisk: string): void {
  const site = path.join(rootOnDisk, "link-site");
  mkdirSync(path.join(site, "blog"), { recursive: true });
  writeFileSync(path.join(site, "index.html"), "<h1>Hello</h1>\n");
  writeFileSync(path.join(site, "blog", "first post.html"), "<p>First</p>\n");
}

beforeAll(async () => {
  servers = await startServers({ which: ["ftp", "sftp"] });
  seedFiles(servers.sftp.root);
  seedFiles(servers.ftp.root);
  rmSync(path.join(root, persistTo), { recursive: true, force: true });
  buildIfNeeded();
  prepareDatabase(persistTo);
  port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  await startWorker();
  const login = await fetch(`${baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" },
    body: JSON.stringify({ email: "admin@agency.test", password: "demo-password-1" }),
  });
  expect(login.status).toBe(200);
  cookie = (login.headers.get("Set-Cookie") ?? "").split(";")[0];
  agent = startAgent();
  await waitForAgent();
}, 300_000);

afterAll(async () => {
  for (const child of [...groups]) await stop(child);
  await servers?.stop();
  rmSync(path.join(root, persistTo), { recursive: true, force: true });
});

describe("the agent link with a real agent process", () => {
  it("tests an SFTP connection through the agent, with the host key it saw", async () => {
    const { status, body } = await testConnection(sftpForm());
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ ok: true, pins: { sftpHostKey: servers.sftp.hostKeyFingerprint } });
    expect((body.files as { name: string }[]).map((file) => file.name)).toEqual(["blog", "index.html"]);
  });

  it("browses FTP and SFTP folders of an unsaved site form", async () => {
    for (const form of [ftpForm(), sftpForm()]) {
      const { status, body } = await browse(form, "blog");
      expect(status, JSON.stringify(body)).toBe(200);
      const files = body.files as { name: string; path: string; type: string; size: number; modifiedAt: string | null }[];
      expect(files).toHaveLength(1);
      expect(files[0]).toMatchObject({ name: "first post.html", type: "file", size: 13 });
      expect(files[0].path).toMatch(/\/link-site\/blog\/first post\.html$/);
    }
  });

  it("answers the agent's codes: a wrong password, a path outside the home folder, a private address", async () => {
    expect(await testConnection(sftpForm({ password: "wrong-password" }))).toEqual({ status: 502, body: { code: "CONNECTION_AGENT_AUTH", invalid: [] } });
    expect(await browse(ftpForm(), "/etc")).toEqual({ status: 400, body: { code: "PATH_OUTSIDE_OF_HOME_FOLDER", invalid: [] } });
    // The development allow-list names 127.0.0.1 only: other private addresses stay refused.
    const privateHost = await testConnection(ftpForm({ host: "10.0.0.1" }));
    expect(privateHost.body.code).toBe("CONNECTION_AGENT_HOST_NOT_ALLOWED");
  });

  it("fails a call in flight promptly with CONNECTION_AGENT_OFFLINE when the agent is killed, and serves the next call after a restart of the packaged agent", async () => {
    // A server that accepts and never greets: the agent's FTP login waits (up to its 45 s timeout).
    const connected: net.Socket[] = [];
    const blackHole = net.createServer((socket) => connected.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", () => resolve()));
    try {
      const slowPort = (blackHole.address() as net.AddressInfo).port;
      const call = testConnection(ftpForm({ port: slowPort }));
      const deadline = Date.now() + 10_000;
      while (connected.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(connected.length, "the agent reached the slow server").toBeGreaterThan(0);
      const killedAt = Date.now();
      await stop(agent, "SIGKILL");
      const answer = await call;
      expect(answer).toEqual({ status: 503, body: { code: "CONNECTION_AGENT_OFFLINE", invalid: [] } });
      expect(Date.now() - killedAt, "the caller learned at once, not at the timeout").toBeLessThan(5_000);
    } finally {
      for (const socket of connected) socket.destroy();
      blackHole.close();
    }
    expect((await testConnection(sftpForm())).body.code).toBe("CONNECTION_AGENT_OFFLINE");
    // The restarted agent is the packaged bundle, so the npx path is proven to connect and serve.
    agent = startAgent(buildPackagedAgent());
    const next = await waitForAgent();
    expect(next.status, JSON.stringify(next.body)).toBe(200);
  });

  it("reconnects by itself when the Worker side drops the socket (the Worker restarts)", async () => {
    await stop(worker);
    await startWorker();
    const next = await waitForAgent();
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(agent?.exitCode).toBeNull();
  });

  it("stops cleanly on SIGTERM: closes the link and exits with 0", async () => {
    const child = agent!;
    await stop(child, "SIGTERM");
    expect(child.exitCode, logs.filter((line) => line.startsWith("[agent]")).slice(-10).join("\n")).toBe(0);
    expect(logs.some((line) => line.startsWith("[agent]") && /DOMException|invalid code/i.test(line))).toBe(false);
    agent = null;
  });
});
