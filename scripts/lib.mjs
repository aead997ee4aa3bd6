// Shared by the start and test scripts: the environment every tool runs with, and process helpers.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, statSync, readdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "..");
export const buildDir = process.env.CMS_BUILD_DIR ?? "build";
const bin = path.join(root, "node_modules", ".bin");

/** No calls home (STACK.md G2): telemetry off, no request.cf fetch, wrangler's config kept inside the project. */
export const toolEnv = {
  ...process.env,
  PATH: `${bin}${path.delimiter}${process.env.PATH}`,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  XDG_CONFIG_HOME: path.join(root, ".xdg"),
  NO_UPDATE_NOTIFIER: "1",
  // The banner is where wrangler asks the npm registry for a newer version.
  WRANGLER_HIDE_BANNER: "true",
};

/** Runs a command to completion, inheriting the terminal; returns its exit code. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env: toolEnv, stdio: "inherit", ...options });
  return result.status ?? 1;
}

export function runOrExit(command, args, options) {
  const code = run(command, args, options);
  if (code !== 0) {
    console.error(`\n✖ ${command} ${args.join(" ")} failed (exit ${code})`);
    process.exit(code);
  }
}

/** Newest modification time below the given paths (files only). */
export function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) for (const entry of readdirSync(p)) visit(path.join(p, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const p of paths) visit(path.join(root, p));
  return newest;
}

/** Builds the app when the build is missing or older than its sources. */
export function buildIfNeeded() {
  const marker = path.join(root, buildDir, "server", "wrangler.json");
  const sources = ["app", "workers", "db/schema.ts", "public", "wrangler.toml", "vite.config.ts", "react-router.config.ts", "package-lock.json"];
  if (existsSync(marker) && statSync(marker).mtimeMs >= newestMtime(sources)) return;
  console.log("Building the app…");
  runOrExit("react-router", ["build"]);
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts a long-running process in its own process group, so it and all its children stop together (STACK.md G11). */
export function startGroup(command, args, options = {}) {
  return spawn(command, args, { cwd: root, env: toolEnv, detached: true, stdio: "inherit", ...options });
}

export function stopGroup(child) {
  if (!child || child.exitCode !== null) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    // already gone
  }
}

export async function waitForHttp(url, { timeoutMs = 60_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { redirect: "manual" });
      if (response.status < 500) return;
      lastError = new Error(`status ${response.status}`);
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms: ${lastError?.message}`);
}

/** Applies the D1 migrations and seeds the demo data into a local state folder. */
export function prepareDatabase(persistTo) {
  runOrExit("wrangler", ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persistTo], { stdio: ["ignore", "ignore", "inherit"] });
  runOrExit("tsx", ["scripts/seed.ts", "--persist-to", persistTo]);
}
