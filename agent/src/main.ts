#!/usr/bin/env node
/**
 * The connection agent's entry point: `node src/main.ts` (Node 24 runs the TypeScript as it is).
 *
 * Settings (environment):
 *   CMS_AGENT_URL          ws(s)://<app host>/agent/connect
 *   CMS_AGENT_TOKEN        the agent's token (the hosted agent's secret, or the one shown once when an account registers an agent)
 *   CMS_AGENT_NAME         optional label for the hub's logs
 *   CMS_AGENT_ALLOW_HOSTS  comma-separated hosts/addresses reachable although not public (loopback,
 *                          private networks). DEVELOPMENT AND TESTS ONLY: production never sets it,
 *                          since it lets site settings reach internal services (SECURITY.md 3).
 *
 * @example CMS_AGENT_URL=ws://127.0.0.1:8787/agent/connect CMS_AGENT_TOKEN=… node src/main.ts
 */
import { readFileSync } from "node:fs";
import { AgentLink } from "./link.ts";
import { ConnectionPool } from "./pool.ts";

function version(): string {
  try {
    return (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version?: string }).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

function fail(message: string): never {
  console.error(`[agent] ${message}`);
  process.exit(2);
}

const url = process.env.CMS_AGENT_URL ?? "";
const token = process.env.CMS_AGENT_TOKEN ?? "";
if (!/^wss?:\/\//i.test(url)) fail("Set CMS_AGENT_URL to ws(s)://<app host>/agent/connect");
if (!token) fail("Set CMS_AGENT_TOKEN to the agent's token");
const allowHosts = (process.env.CMS_AGENT_ALLOW_HOSTS ?? "").split(",").map((host) => host.trim()).filter(Boolean);
if (allowHosts.length > 0) {
  console.warn(`[agent] CMS_AGENT_ALLOW_HOSTS=${allowHosts.join(",")}: these non-public hosts are reachable. Development and tests only; never set it in production.`);
}

const pool = new ConnectionPool({ allowHosts });
const link = new AgentLink({ url, token, pool, version: version(), name: process.env.CMS_AGENT_NAME || undefined });
link.start();

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`[agent] ${signal}: stopping`);
  await link.stop();
  await pool.closeAll();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
