/**
 * Benchmark: uploads through the whole agent link against the bare client library, per protocol.
 *
 *   node_modules/.bin/node bench/agent-throughput.ts            (as root: it starts the real servers)
 *   node_modules/.bin/node bench/agent-throughput.ts sftp ftp   (only some protocols)
 *
 * For each of FTP, FTPS, SFTP, S3 and WebDAV it writes 200 files of 20 KB and one file of 20 MB
 * twice in the same run:
 *   - link: `POST /api/sites/{id}/files` on the built app under `wrangler dev`: browser upload →
 *     Worker → R2 staging → AgentHub → WebSocket → the agent process (`node agent/src/main.ts`) →
 *     atomic write on the server (temporary name, size check, rename). 100 files per request, the
 *     spec's limit.
 *   - bare: the same bytes with the same client library the agent's driver uses (basic-ftp,
 *     ssh2-sftp-client, @aws-sdk/client-s3, webdav), one connection, one plain upload per file.
 * and prints the time of each and the ratio link / bare (target: within 1.25× per protocol).
 * A benchmark, not a test: it fails only when something does not work at all.
 */
import { startServers, type Servers } from "../tests/servers/servers.mjs";
import { type App, startApp } from "../tests/agent/app-harness.ts";
import { bareClient, chosenProtocols, createSite, homeOf, payload, ratio, timed, type Protocol } from "./protocols.ts";

const SMALL_FILES = 200;
const SMALL_BYTES = 20 * 1024;
const BIG_BYTES = 20 * 1024 * 1024;
const FILES_PER_REQUEST = 100;

const protocols = chosenProtocols();
const small = Array.from({ length: SMALL_FILES }, (_, i) => payload(SMALL_BYTES, i + 1));
const big = payload(BIG_BYTES, 999);

async function bareRun(protocol: Protocol, servers: Servers): Promise<{ small: number; big: number }> {
  const client = await bareClient(protocol, servers);
  try {
    const folder = `${homeOf(protocol, servers).replace(/\/$/, "")}/bare-run`;
    await client.mkdir(folder);
    const smallMs = await timed(async () => {
      for (let i = 0; i < small.length; i++) await client.put(`${folder}/small-${i}.bin`, small[i]);
    });
    const bigMs = await timed(() => client.put(`${folder}/big.bin`, big));
    return { small: smallMs, big: bigMs };
  } finally {
    await client.close();
  }
}

// ── through the agent link ────────────────────────────────────────────────────────────────────────

let app!: App;

async function uploadBatch(siteId: string, folder: string, files: { name: string; bytes: Uint8Array<ArrayBuffer> }[]): Promise<void> {
  const form = new FormData();
  form.set("path", folder);
  for (const file of files) form.append("files", new Blob([file.bytes]), file.name);
  const answer = await app.api("POST", `/sites/${siteId}/files`, { body: form });
  if (answer.status !== 200) throw new Error(`upload to ${folder}: ${answer.status} ${JSON.stringify(answer.body)}`);
}

async function linkRun(protocol: Protocol, servers: Servers): Promise<{ small: number; big: number }> {
  const site = await createSite(app, protocol, servers);
  const folder = `${site.home === "/" ? "" : site.home}/link-run`;
  const made = await app.api("POST", `/sites/${site.id}/files`, { body: { path: folder } });
  if (made.status !== 200 && made.body.code !== "FILE_ALREADY_EXISTS") throw new Error(`mkdir ${folder}: ${JSON.stringify(made.body)}`);
  const smallMs = await timed(async () => {
    for (let i = 0; i < small.length; i += FILES_PER_REQUEST) {
      await uploadBatch(site.id, folder, small.slice(i, i + FILES_PER_REQUEST).map((bytes, j) => ({ name: `small-${i + j}.bin`, bytes })));
    }
  });
  const bigMs = await timed(() => uploadBatch(site.id, folder, [{ name: "big.bin", bytes: big }]));
  return { small: smallMs, big: bigMs };
}

// ── the run ───────────────────────────────────────────────────────────────────────────────────────

let servers: Servers | null = null;
try {
  servers = await startServers({ which: protocols });
  app = await startApp("bench-throughput");
  await app.signIn();
  app.startAgent("agent/src/main.ts", "bench");
  await app.waitForAgent();

  console.log(`\n${SMALL_FILES} × ${SMALL_BYTES / 1024} KB and 1 × ${BIG_BYTES / 1024 / 1024} MB per protocol; link = app → agent → server, bare = the client library alone\n`);
  console.log("protocol   small: link ms   bare ms   ratio   │   20 MB: link ms   bare ms   ratio");
  for (const protocol of protocols) {
    const bare = await bareRun(protocol, servers);
    const link = await linkRun(protocol, servers);
    console.log(
      `${protocol.padEnd(8)} ${link.small.toFixed(0).padStart(14)} ${bare.small.toFixed(0).padStart(9)} ${ratio(link.small, bare.small).padStart(7)}   │ ${link.big.toFixed(0).padStart(15)} ${bare.big.toFixed(0).padStart(9)} ${ratio(link.big, bare.big).padStart(7)}`,
    );
  }
  console.log("\ntarget: link within 1.25× of bare per protocol");
} finally {
  await app?.close();
  await servers?.stop();
}
process.exit(0);
