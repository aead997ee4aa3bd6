/**
 * Benchmark: the two big lists of the product at the spec's sizes.
 *
 *   node_modules/.bin/node bench/lists.ts
 *
 * Seeds one account with 5,000 sites and one of its sites with 10,000 pages, then times the first
 * and the hundredth page (50 rows each) of `GET /api/sites` and `GET /api/sites/{id}/pages` on the
 * built app in workerd (median and p99 of 40 calls each), against a bare `SELECT` of the same rows
 * through the same D1 database, the same runtime and the same HTTP round trip (a reference Worker,
 * bench/lists-reference, without sign-in, policy, counts or shaping), in the same run.
 * Targets (issue #5): under 2× the bare query, and flat as the offset grows.
 * A benchmark, not a test: it fails only when something does not work at all.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startApp } from "../tests/agent/app-harness.ts";
// @ts-expect-error: plain .mjs helpers shared with the start script
import { freePort, root, startGroup, stopGroup, waitForHttp } from "../scripts/lib.mjs";

const SITES = 5_000;
const PAGES = 10_000;
const PAGE_SIZE = 50;
const CALLS = 40;
const OWNER = { email: "owner@agency.test", password: "demo-password-1" };

const STATE = ".wrangler/bench-lists-state";

function databaseFile(): string {
  const folder = path.join(root, STATE, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(folder).find((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 database in ${folder}`);
  return path.join(folder, file);
}

const id = (prefix: string, i: number) => `${prefix}${String(i).padStart(28, "0")}`;

/** 5,000 sites in the account (names in no order) and 10,000 pages in the first of them (some pinned). */
function seed(accountId: string): string {
  const db = new DatabaseSync(databaseFile());
  db.exec("PRAGMA busy_timeout = 10000");
  const now = Date.now();
  db.exec("BEGIN");
  const site = db.prepare("INSERT INTO sites (id, account_id, name, url, classification, protocol, home_folder, upload_folder, created_at, updated_at) VALUES (?, ?, ?, ?, 'personal', 'sftp', '/', '/uploads', ?, ?)");
  for (let i = 0; i < SITES; i++) {
    const name = `Site ${((i * 7919) % SITES).toString(36)} ${i}`;
    site.run(id("bs", i), accountId, name, `https://site-${i}.example`, now, now);
  }
  const page = db.prepare("INSERT INTO pages (id, site_id, account_id, name, path, is_pinned, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  for (let i = 0; i < PAGES; i++) {
    page.run(id("bp", i), id("bs", 0), accountId, `Page ${((i * 104729) % PAGES).toString(36)} ${i}`, `/pages/page-${i}.html`, i % 500 === 0 ? 1 : 0, now, now);
  }
  db.exec("COMMIT");
  db.exec("ANALYZE");
  db.close();
  return id("bs", 0);
}

async function timeCalls(url: string, headers: Record<string, string>, expectRows: (body: Record<string, unknown>) => number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < CALLS + 3; i++) {
    const started = performance.now();
    const response = await fetch(url, { headers });
    const body = (await response.json()) as Record<string, unknown>;
    const elapsed = performance.now() - started;
    if (response.status !== 200 || expectRows(body) !== PAGE_SIZE) throw new Error(`${url}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    if (i >= 3) times.push(elapsed); // the first calls warm the caches
  }
  return times.sort((a, b) => a - b);
}

const median = (sorted: number[]) => sorted[Math.floor(sorted.length / 2)];
const p99 = (sorted: number[]) => sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];

const app = await startApp("bench-lists");
let reference: ReturnType<typeof startGroup> | null = null;
try {
  await app.signIn(OWNER);
  const session = await app.api("GET", "/auth/session");
  const accountId = (session.body.user as { account: { id: string } }).account.id;
  console.log(`Seeding ${SITES} sites and ${PAGES} pages…`);
  const siteId = seed(accountId);

  const port: number = await freePort();
  reference = startGroup("wrangler", ["dev", "--config", "bench/lists-reference/wrangler.toml", "--ip", "127.0.0.1", "--port", String(port),
    "--persist-to", STATE, "--show-interactive-dev-session=false", "--log-level", "warn"], { stdio: ["ignore", "ignore", "inherit"] });
  const refBase = `http://127.0.0.1:${port}`;
  await waitForHttp(`${refBase}/sites?owner=${accountId}&limit=1&offset=0`);

  const apiHeaders = await signedInHeaders();

  console.log(`\n${PAGE_SIZE} rows a call, ${CALLS} calls each; ms (median / p99); reference = bare SELECT through D1 in a Worker\n`);
  console.log("list                        page    api median   api p99   bare median   bare p99   ratio");
  for (const list of ["sites", "pages"] as const) {
    for (const pageNumber of [1, 100]) {
      const offset = (pageNumber - 1) * PAGE_SIZE;
      const apiUrl = list === "sites"
        ? `${app.baseURL}/api/sites?limit=${PAGE_SIZE}&offset=${offset}`
        : `${app.baseURL}/api/sites/${siteId}/pages?limit=${PAGE_SIZE}&offset=${offset}&sortBy=pinned`;
      const bareUrl = `${refBase}/${list}?owner=${list === "sites" ? accountId : siteId}&limit=${PAGE_SIZE}&offset=${offset}`;
      const api = await timeCalls(apiUrl, apiHeaders, (body) => (body[list] as unknown[]).length);
      const bare = await timeCalls(bareUrl, {}, (body) => (body.rows as unknown[]).length);
      const label = list === "sites" ? `GET /api/sites` : `GET /api/sites/{id}/pages`;
      console.log(`${label.padEnd(28)}${String(pageNumber).padStart(4)}${median(api).toFixed(1).padStart(13)}${p99(api).toFixed(1).padStart(10)}${median(bare).toFixed(1).padStart(14)}${p99(bare).toFixed(1).padStart(11)}${(median(api) / median(bare)).toFixed(2).padStart(8)}`);
    }
  }
  console.log("\nTargets: ratio under 2, and the 100th page as fast as the first.\n");
} finally {
  stopGroup(reference);
  await app.close();
}

/** A session cookie for the API calls (the harness keeps its own private). */
async function signedInHeaders(): Promise<Record<string, string>> {
  const login = await fetch(`${app.baseURL}/api/auth/login`, {
    method: "POST", headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" }, body: JSON.stringify(OWNER),
  });
  return { Cookie: (login.headers.get("Set-Cookie") ?? "").split(";")[0], "Sec-Fetch-Site": "same-origin" };
}
