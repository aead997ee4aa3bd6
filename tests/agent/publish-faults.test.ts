// Publishing under faults, end to end: the built app on `wrangler dev`, a REAL agent process, and
// the real SFTP and FTP servers of tests/servers. The agent is killed at random points of 50
// publishes; a TCP proxy cuts the SFTP connection in the middle of an upload; two publishes of one
// page race; a file is changed over FTP after its draft was made. After each, the server's files
// are checked byte for byte on disk: every page is its old or its new version in full, never a
// part, never missing, and the draft is kept whenever the publish did not complete.
// Needs root and the packages of tests/servers/install.mjs.
import type { ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownByTestUser, type Servers, startServers } from "../servers/servers.mjs";
import { type App, startApp } from "./app-harness";

let servers: Servers<"ftp" | "sftp">;
let app: App;
let agent: ChildProcess | null = null;
let proxy: CuttingProxy;

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const page = (title: string, main: string, footer: string, rest = "") =>
  `<!doctype html>\n<html>\n<head>\n<title>${title}</title>\n</head>\n<body>\n<main class="editable" id="main">${main}</main>\n${rest}` +
  `<footer class="editable global" id="footer">${footer}</footer>\n</body>\n</html>\n`;

const PAGE_NAMES = ["index", "about", "contact"];

interface Site {
  id: string;
  folderOnDisk: string;
  remoteFolder: string;
  pages: Record<string, string>;
}

/**
 * A TCP proxy in front of a server that can cut every connection once `cutAfterUploadBytes` bytes
 * went from the client to the server since it was armed, and then refuses connections until it is
 * disarmed: a network failure in the middle of an upload.
 */
interface CuttingProxy {
  port: number;
  arm(bytes: number): void;
  disarm(): void;
  readonly cuts: number;
  close(): Promise<void>;
}

async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  const sockets = new Set<net.Socket>();
  let armedAt: number | null = null;
  let sent = 0;
  let refusing = false;
  let cuts = 0;
  const server = net.createServer((client) => {
    if (refusing) return client.destroy();
    const upstream = net.connect(targetPort, "127.0.0.1");
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("data", (chunk: Buffer) => {
      if (armedAt !== null) {
        sent += chunk.length;
        if (sent >= armedAt) {
          cuts++;
          refusing = true;
          armedAt = null;
          for (const socket of sockets) socket.destroy();
          sockets.clear();
          return;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => client.write(chunk));
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    arm(bytes) {
      sent = 0;
      armedAt = bytes;
    },
    disarm() {
      armedAt = null;
      refusing = false;
    },
    get cuts() {
      return cuts;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function writePages(folderOnDisk: string, big = false): void {
  mkdirSync(folderOnDisk, { recursive: true });
  // A big page (about 3 MB, outside the regions, so every publish writes it all) keeps an upload
  // on the wire long enough to be cut in the middle.
  const filler = big ? `<section>${"Lorem ipsum dolor sit amet. ".repeat(110_000)}</section>\n` : "";
  for (const name of PAGE_NAMES) writeFileSync(path.join(folderOnDisk, `${name}.html`), page(name, `<p>${name} v0</p>`, "<p>Footer v0</p>", filler));
  ownByTestUser(folderOnDisk);
}

async function createSite(name: string, form: Record<string, unknown>, folderOnDisk: string, remoteFolder: string): Promise<Site> {
  const created = await app.api("POST", "/sites", { body: { name, url: `https://${name.toLowerCase()}.example`, classification: "personal", homeFolder: remoteFolder, uploadFolder: remoteFolder, ...form } });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const id = (created.body.site as { id: string }).id;
  const pages: Record<string, string> = {};
  for (const pageName of PAGE_NAMES) {
    const enabled = await app.api("POST", `/sites/${id}/pages`, { body: { name: pageName, path: `${remoteFolder}/${pageName}.html`.replace(/^\/\//, "/"), createOnServer: false, isPinned: false } });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    pages[pageName] = (enabled.body.page as { id: string }).id;
  }
  return { id, folderOnDisk, remoteFolder, pages };
}

const fileOf = (site: Site, pageName: string) => readFileSync(path.join(site.folderOnDisk, `${pageName}.html`));

async function saveDraft(site: Site, pageName: string, regions: Record<string, unknown>): Promise<string> {
  const saved = await app.api("POST", `/sites/${site.id}/pages/${site.pages[pageName]}/revisions`, { body: { isDraft: true, metadata: {}, regions } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return (saved.body.revision as { id: string }).id;
}

async function draftExists(site: Site, pageName: string, revisionId: string): Promise<boolean> {
  const answer = await app.api("GET", `/sites/${site.id}/pages/${site.pages[pageName]}/revisions/${revisionId}`);
  return answer.status === 200;
}

interface Status {
  queue: { path: string; isProcessed: boolean; errorCode: string | null }[];
  isRequestComplete: boolean;
  errorCode: string | null;
  total: number;
  processed: number;
}

async function waitForStatus(site: Site, pageName: string, statusId: string, timeoutMs = 90_000): Promise<Status> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await app.api("GET", `/sites/${site.id}/pages/${site.pages[pageName]}/publish/${statusId}`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const status = answer.body.publishStatus as Status;
    if (status.isRequestComplete) return status;
    if (Date.now() > deadline) throw new Error(`publish did not complete: ${JSON.stringify(status)}\n${app.logs.slice(-30).join("\n")}`);
    await sleep(100);
  }
}

async function publish(site: Site, pageName: string, body: Record<string, unknown>) {
  return app.api("POST", `/sites/${site.id}/pages/${site.pages[pageName]}/publish`, { body });
}

/** Waits until a connection test through the agent answers (the agent is connected). */
async function waitForAgent(form: Record<string, unknown>): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    const answer = await app.api("POST", "/utilities/test-connection", { body: form });
    if (answer.body.code !== "CONNECTION_AGENT_OFFLINE") return;
    await sleep(200);
  }
  throw new Error("the agent did not connect");
}

let sftpSite: Site;
let cutSite: Site;
let ftpSite: Site;

beforeAll(async () => {
  servers = await startServers({ which: ["ftp", "sftp"] });
  proxy = await startCuttingProxy(servers.sftp.port);
  app = await startApp("publish-faults");
  await app.signIn();
  agent = app.startAgent();
  const sftp = { protocol: "sftp", host: servers.sftp.host, port: servers.sftp.port, username: servers.sftp.username, password: servers.sftp.password };
  await waitForAgent({ ...sftp, homeFolder: servers.sftp.remoteRoot });

  writePages(path.join(servers.sftp.root, "faults"));
  sftpSite = await createSite("Faults", sftp, path.join(servers.sftp.root, "faults"), `${servers.sftp.remoteRoot}/faults`);
  writePages(path.join(servers.sftp.root, "cut"), true);
  cutSite = await createSite("Cut", { ...sftp, port: proxy.port }, path.join(servers.sftp.root, "cut"), `${servers.sftp.remoteRoot}/cut`);
  writePages(path.join(servers.ftp.root, "drift"));
  ftpSite = await createSite("Drift", { protocol: "ftp", host: servers.ftp.host, port: servers.ftp.port, username: servers.ftp.username, password: servers.ftp.password }, path.join(servers.ftp.root, "drift"), "/drift");
}, 300_000);

afterAll(async () => {
  await app?.close();
  await proxy?.close();
  await servers?.stop();
});

describe("publishing through a real agent under faults", () => {
  it("never leaves a half-written or missing page when the agent is killed at random points of 50 publishes, and keeps the draft of every publish that did not complete", async () => {
    // What each page may hold: its versions so far. A page must always equal one of them in full.
    const versions: Record<string, Set<string>> = Object.fromEntries(PAGE_NAMES.map((name) => [name, new Set([sha256(fileOf(sftpSite, name))])]));
    let completed = 0;
    let failed = 0;
    let footer = "<p>Footer v0</p>";
    for (let i = 1; i <= 50; i++) {
      // Every third publish edits the global footer: a fan-out over all three pages.
      const fanOut = i % 3 === 0;
      const regions = fanOut ? { footer: { type: "block", content: `<p>Footer v${i}</p>` } } : { main: { type: "block", content: `<p>index v${i}</p>` } };
      const before = fileOf(sftpSite, "index");
      const revisionId = await saveDraft(sftpSite, "index", regions);
      const started = await publish(sftpSite, "index", { revisionId, regions, baseHash: sha256(before) });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      // The new bytes each page may get from this publish.
      for (const name of fanOut ? PAGE_NAMES : ["index"]) {
        const current = fileOf(sftpSite, name).toString();
        const next = fanOut ? current.replace(/<footer([^>]*)>.*?<\/footer>/s, `<footer$1><p>Footer v${i}</p></footer>`) : current.replace(/<main([^>]*)>.*?<\/main>/s, `<main$1><p>index v${i}</p></main>`);
        versions[name].add(sha256(next));
      }

      await sleep(Math.floor(Math.random() * 120));
      await app.stop(agent, "SIGKILL");
      for (const name of PAGE_NAMES) {
        expect(existsSync(path.join(sftpSite.folderOnDisk, `${name}.html`)), `${name}.html is missing after kill ${i}`).toBe(true);
        expect(versions[name].has(sha256(fileOf(sftpSite, name))), `${name}.html is not a whole version after kill ${i}`).toBe(true);
      }
      await sleep(Math.floor(Math.random() * 400));
      agent = app.startAgent();

      const status = await waitForStatus(sftpSite, "index", started.body.statusId as string);
      for (const name of PAGE_NAMES) expect(versions[name].has(sha256(fileOf(sftpSite, name))), `${name}.html after publish ${i}`).toBe(true);
      if (status.errorCode === null) {
        completed++;
        expect(await draftExists(sftpSite, "index", revisionId), `the published draft ${i} is deleted`).toBe(false);
        expect(status.processed).toBe(status.total);
        expect(status.total).toBe(fanOut ? 3 : 1);
        if (fanOut) footer = `<p>Footer v${i}</p>`;
      } else {
        failed++;
        expect(await draftExists(sftpSite, "index", revisionId), `the draft of failed publish ${i} (${status.errorCode}) is kept`).toBe(true);
      }
    }
    // The queue resumes after the agent comes back: the kills delay publishes, they do not fail them.
    expect(completed, `${failed} of 50 publishes failed`).toBeGreaterThanOrEqual(45);
    for (const name of PAGE_NAMES) expect(fileOf(sftpSite, name).toString()).toContain(footer);
  }, 600_000);

  it("reports the upload error per queue item when the connection is cut in the middle of an upload, and leaves the file whole", async () => {
    const before = fileOf(cutSite, "index");
    proxy.arm(1_000_000);
    const regions = { main: { type: "block", content: "<p>After the cut</p>" } };
    const revisionId = await saveDraft(cutSite, "index", regions);
    const started = await publish(cutSite, "index", { revisionId, regions, baseHash: sha256(before) });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    let status: Status;
    try {
      status = await waitForStatus(cutSite, "index", started.body.statusId as string, 240_000);
    } finally {
      proxy.disarm();
    }
    expect(proxy.cuts, `${JSON.stringify(status)}\n${app.logs.slice(-20).join("\n")}`).toBe(1);
    expect(status.queue.map((item) => item.errorCode)).toEqual(["CONNECTION_AGENT_UPLOAD"]);
    expect(status.errorCode).toBe("CONNECTION_AGENT_UPLOAD");
    expect(fileOf(cutSite, "index")).toEqual(before);
    expect(await draftExists(cutSite, "index", revisionId)).toBe(true);
  }, 300_000);

  it("gives one of two concurrent publishes of a page the page; the other is refused or finds it changed", async () => {
    const before = fileOf(ftpSite, "about");
    const attempts = await Promise.all(["First", "Second"].map((word) => publish(ftpSite, "about", { baseHash: sha256(before), regions: { main: { type: "block", content: `<p>${word}</p>` } } })));
    const outcomes: string[] = [];
    for (const attempt of attempts) {
      if (attempt.status !== 200) outcomes.push(String(attempt.body.code));
      else outcomes.push((await waitForStatus(ftpSite, "about", attempt.body.statusId as string)).errorCode ?? "ok");
    }
    expect(outcomes.sort()).toEqual([expect.stringMatching(/^(PUBLISH_IN_PROGRESS|PAGE_CHANGED_ON_SERVER)$/), "ok"].sort());
    const text = fileOf(ftpSite, "about").toString();
    expect(text.includes("<p>First</p>") !== text.includes("<p>Second</p>")).toBe(true);
  });

  it("does not overwrite a file changed over FTP after the draft was made, and keeps the draft", async () => {
    const base = sha256(fileOf(ftpSite, "contact"));
    const regions = { main: { type: "block", content: "<p>From the editor</p>" } };
    const revisionId = await saveDraft(ftpSite, "contact", regions);
    const changed = fileOf(ftpSite, "contact").toString().replace("contact v0", "edited over FTP");
    writeFileSync(path.join(ftpSite.folderOnDisk, "contact.html"), changed);
    ownByTestUser(path.join(ftpSite.folderOnDisk, "contact.html"));
    const started = await publish(ftpSite, "contact", { revisionId, regions, baseHash: base });
    const status = await waitForStatus(ftpSite, "contact", started.body.statusId as string);
    expect(status.errorCode).toBe("PAGE_CHANGED_ON_SERVER");
    expect(fileOf(ftpSite, "contact").toString()).toBe(changed);
    expect(await draftExists(ftpSite, "contact", revisionId)).toBe(true);
  });
});
