/**
 * Benchmark: publishing through the whole product against the bare client library, per protocol.
 *
 *   node_modules/.bin/node bench/publish.ts             (as root: it starts the real servers)
 *   node_modules/.bin/node bench/publish.ts sftp ftp    (only some protocols)
 *
 * For each of FTP, FTPS, SFTP, S3 and WebDAV, on a site of 50 enabled pages (20 KB each) that share
 * a global footer region:
 *   - single: publish one edited region of one page (POST …/publish, then the status polled until
 *     complete: read, base check, merge, backup, atomic write, revision), against a bare download
 *     plus upload of that file with the same client library;
 *   - fan-out: publish an edited global footer, which writes all 50 pages, against bare uploads of
 *     the same 50 files' new bytes.
 * Prints the times and the ratios. Targets (issue #6): single within 2×, fan-out within 1.5×.
 * The merge's own CPU time (1 MB page, 100 regions, under 5 ms) is bench/regions-merge.ts.
 * A benchmark, not a test: it fails only when something does not work at all.
 */
import { startServers, type Servers } from "../tests/servers/servers.mjs";
import { type App, startApp } from "../tests/agent/app-harness.ts";
import { bareClient, chosenProtocols, createSite, ratio, timed, type Protocol } from "./protocols.ts";

const PAGES = 50;
const protocols = chosenProtocols();

function pageSource(i: number, footer: string): string {
  const paragraphs = Array.from({ length: 60 }, (_, p) => `<p>Paragraph ${p} of page ${i}: ${"lorem ipsum dolor sit amet ".repeat(10)}</p>`).join("\n");
  return `<!doctype html>\n<html>\n<head>\n<title>Page ${i}</title>\n</head>\n<body>\n<main class="editable" id="main">\n${paragraphs}\n</main>\n` +
    `<footer class="editable global" id="footer">${footer}</footer>\n</body>\n</html>\n`;
}

interface PublishStatus {
  isRequestComplete: boolean;
  errorCode: string | null;
  total: number;
}

async function publishAndWait(app: App, siteId: string, pageId: string, regions: Record<string, unknown>): Promise<PublishStatus> {
  const started = await app.api("POST", `/sites/${siteId}/pages/${pageId}/publish`, { body: { regions } });
  if (started.status !== 200) throw new Error(`publish: ${started.status} ${JSON.stringify(started.body)}`);
  for (;;) {
    const answer = await app.api("GET", `/sites/${siteId}/pages/${pageId}/publish/${started.body.statusId as string}`);
    const status = answer.body.publishStatus as PublishStatus;
    if (status.isRequestComplete) {
      if (status.errorCode) throw new Error(`publish failed: ${status.errorCode}`);
      return status;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function benchProtocol(app: App, protocol: Protocol, servers: Servers) {
  const site = await createSite(app, protocol, servers);
  const folder = `${site.home === "/" ? "" : site.home}/publish-bench`;
  const bare = await bareClient(protocol, servers);
  try {
    await bare.mkdir(folder);
    const paths = Array.from({ length: PAGES }, (_, i) => `${folder}/page-${i}.html`);
    for (let i = 0; i < PAGES; i++) await bare.put(paths[i], new TextEncoder().encode(pageSource(i, "<p>Footer 0</p>")));
    const pageIds: string[] = [];
    for (let i = 0; i < PAGES; i++) {
      const enabled = await app.api("POST", `/sites/${site.id}/pages`, { body: { name: `Page ${i}`, path: paths[i], createOnServer: false, isPinned: false } });
      if (enabled.status !== 200) throw new Error(`enable ${paths[i]}: ${enabled.status} ${JSON.stringify(enabled.body)}`);
      pageIds.push((enabled.body.page as { id: string }).id);
    }

    // Warm both paths once (connections, the agent's pool), then measure.
    await publishAndWait(app, site.id, pageIds[0], { main: { type: "block", content: "<p>warm</p>" } });
    const edited = new TextEncoder().encode(pageSource(0, "<p>Footer 0</p>").replace(/<main([^>]*)>[\s\S]*<\/main>/, "<main$1><p>bare</p></main>"));
    const bareSingle = await timed(async () => {
      await bare.get(paths[0]);
      await bare.put(paths[0], edited);
    });
    const linkSingle = await timed(async () => {
      await publishAndWait(app, site.id, pageIds[0], { main: { type: "block", content: "<p>Edited once</p>" } });
    });

    const newFiles = paths.map((_, i) => new TextEncoder().encode(pageSource(i, "<p>Footer bare</p>")));
    const bareFanOut = await timed(async () => {
      for (let i = 0; i < PAGES; i++) await bare.put(paths[i], newFiles[i]);
    });
    let total = 0;
    const linkFanOut = await timed(async () => {
      total = (await publishAndWait(app, site.id, pageIds[0], { footer: { type: "block", content: "<p>Footer 2027</p>" } })).total;
    });
    if (total !== PAGES) throw new Error(`the fan-out wrote ${total} pages, not ${PAGES}`);
    return { linkSingle, bareSingle, linkFanOut, bareFanOut };
  } finally {
    await bare.close();
  }
}

let servers: Servers | null = null;
let app: App | undefined;
try {
  servers = await startServers({ which: protocols });
  app = await startApp("bench-publish");
  await app.signIn();
  app.startAgent("agent/src/main.ts", "bench");
  await app.waitForAgent();
  console.log(`\n${PAGES} pages of ${(pageSource(0, "").length / 1024).toFixed(0)} KB; link = publish through the app and agent, bare = the client library alone\n`);
  console.log("protocol   single: link ms   bare ms   ratio   │   fan-out: link ms   bare ms   ratio");
  for (const protocol of protocols) {
    const r = await benchProtocol(app, protocol, servers);
    console.log(
      `${protocol.padEnd(8)} ${r.linkSingle.toFixed(0).padStart(15)} ${r.bareSingle.toFixed(0).padStart(9)} ${ratio(r.linkSingle, r.bareSingle).padStart(7)}   │ ${r.linkFanOut.toFixed(0).padStart(17)} ${r.bareFanOut.toFixed(0).padStart(9)} ${ratio(r.linkFanOut, r.bareFanOut).padStart(7)}`,
    );
  }
  console.log("\ntargets: single within 2×, fan-out within 1.5×");
} finally {
  await app?.close();
  await servers?.stop();
}
process.exit(0);
