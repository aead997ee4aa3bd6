// The agent link end to end: the built app on `wrangler dev` (fresh seeded database), a REAL agent
// process (`node agent/src/main.ts`) dialing its `/agent/connect`, and the real FTP and SFTP servers
// of tests/servers. Drives the site form's connection test and browse through the link, kills the
// agent mid-operation (the caller gets CONNECTION_AGENT_OFFLINE promptly, a restarted agent serves
// the next call) and restarts the Worker under the agent (it reconnects by itself).
// Needs root and the packages of tests/servers/install.mjs.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Servers, startServers } from "../servers/servers.mjs";
import { type App, startApp } from "./app-harness";

let servers: Servers<"ftp" | "sftp">;
let app: App;
let agent: ChildProcess | null = null;

const api: App["api"] = (...args) => app.api(...args);

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
  throw new Error(`the agent did not connect: ${JSON.stringify(last)}\n${app.logs.slice(-40).join("\n")}`);
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
  app = await startApp("link");
  await app.signIn();
  agent = app.startAgent();
  await waitForAgent();
}, 300_000);

afterAll(async () => {
  await app?.close();
  await servers?.stop();
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
      await app.stop(agent, "SIGKILL");
      const answer = await call;
      expect(answer).toEqual({ status: 503, body: { code: "CONNECTION_AGENT_OFFLINE", invalid: [] } });
      expect(Date.now() - killedAt, "the caller learned at once, not at the timeout").toBeLessThan(5_000);
    } finally {
      for (const socket of connected) socket.destroy();
      blackHole.close();
    }
    expect((await testConnection(sftpForm())).body.code).toBe("CONNECTION_AGENT_OFFLINE");
    // The restarted agent is the packaged bundle, so the npx path is proven to connect and serve.
    agent = app.startAgent(app.buildPackagedAgent());
    const next = await waitForAgent();
    expect(next.status, JSON.stringify(next.body)).toBe(200);
  });

  it("reconnects by itself when the Worker side drops the socket (the Worker restarts)", async () => {
    await app.restartWorker();
    const next = await waitForAgent();
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(agent?.exitCode).toBeNull();
  });

  it("stops cleanly on SIGTERM: closes the link and exits with 0", async () => {
    const child = agent!;
    await app.stop(child, "SIGTERM");
    expect(child.exitCode, app.logs.filter((line) => line.startsWith("[agent]")).slice(-10).join("\n")).toBe(0);
    expect(app.logs.some((line) => line.startsWith("[agent]") && /DOMException|invalid code/i.test(line))).toBe(false);
    agent = null;
  });
});
