// The built app on `wrangler dev` (a fresh seeded database of its own) with REAL agent processes
// dialing its `/agent/connect`: what the agent-level end-to-end tests (link, publish faults) share.
// Processes run in their own groups and are stopped by group.
import { type ChildProcess, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
// @ts-expect-error: plain .mjs helpers shared with the start script
import { buildDir, buildIfNeeded, freePort, prepareDatabase, root, startGroup, stopGroup, toolEnv, waitForHttp } from "../../scripts/lib.mjs";

export const HOSTED_TOKEN = "development-only-hosted-agent-token";
export const SEEDED_ADMIN = { email: "admin@agency.test", password: "demo-password-1" };

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * One app with its agents for a test file.
 * @example
 * const app = await startApp("link"); await app.signIn(SEEDED_ADMIN); app.startAgent();
 * await app.api("POST", "/utilities/test-connection", { body: form });
 * await app.close();
 */
export async function startApp(name: string) {
  const persistTo = `.wrangler/${name}-state`;
  const logs: string[] = [];
  const groups = new Set<ChildProcess>();
  let worker: ChildProcess | null = null;
  let cookie = "";

  const capture = (child: ChildProcess, label: string) => {
    const keep = (data: Buffer) => {
      for (const line of data.toString().split("\n")) if (line.trim()) logs.push(`[${label}] ${line}`);
      if (logs.length > 2_000) logs.splice(0, logs.length - 2_000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
  };

  rmSync(path.join(root, persistTo), { recursive: true, force: true });
  buildIfNeeded();
  prepareDatabase(persistTo);
  const port: number = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;

  async function startWorker(): Promise<void> {
    worker = startGroup("wrangler", [
      "dev", "--config", `${buildDir}/server/wrangler.json`, "--ip", "127.0.0.1", "--port", String(port),
      "--persist-to", persistTo, "--show-interactive-dev-session=false", "--log-level", "warn",
    ], { stdio: ["ignore", "pipe", "pipe"] }) as ChildProcess;
    groups.add(worker);
    capture(worker, "worker");
    await waitForHttp(`${baseURL}/login`);
  }

  /** Ends a process group: SIGKILL when asked (the crash), else SIGTERM; waits until the leader is gone. */
  async function stop(child: ChildProcess | null, signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const kill = () => {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    };
    if (signal === "SIGKILL") kill();
    else stopGroup(child);
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) kill();
    groups.delete(child);
  }

  await startWorker();

  return {
    baseURL,
    logs,
    get worker() {
      return worker;
    },
    startWorker,
    stop,
    async restartWorker(): Promise<void> {
      await stop(worker);
      await startWorker();
    },

    /** Starts an agent process (the TypeScript source, or a built bundle) connected with the hosted token. */
    startAgent(entry = "agent/src/main.ts", label = "agent"): ChildProcess {
      const child = startGroup(path.join(root, "node_modules", ".bin", "node"), [entry], {
        stdio: ["ignore", "pipe", "pipe"],
        env: {
          ...toolEnv,
          CMS_AGENT_URL: `ws://127.0.0.1:${port}/agent/connect`,
          CMS_AGENT_TOKEN: HOSTED_TOKEN,
          CMS_AGENT_ALLOW_HOSTS: "127.0.0.1",
          CMS_AGENT_NAME: label,
        },
      }) as ChildProcess;
      groups.add(child);
      capture(child, label);
      return child;
    },

    /** The agent as customers get it from the registry (`npx`): the bundle `npm pack` builds. */
    buildPackagedAgent(): string {
      const result = spawnSync("npm", ["run", "--silent", "build"], { cwd: path.join(root, "agent"), env: toolEnv, encoding: "utf8" });
      if (result.status !== 0) throw new Error(`npm run build in agent/ failed: ${result.stderr}`);
      return "agent/dist/main.js";
    },

    async signIn(user = SEEDED_ADMIN): Promise<void> {
      const login = await fetch(`${baseURL}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" },
        body: JSON.stringify(user),
      });
      if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
      cookie = (login.headers.get("Set-Cookie") ?? "").split(";")[0];
    },

    async api(method: string, pathname: string, init: { body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiAnswer> {
      // A FormData body goes as multipart (fetch sets its boundary); anything else as JSON.
      const isForm = init.body instanceof FormData;
      const response = await fetch(`${baseURL}/api${pathname}`, {
        method,
        headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin", ...(init.body && !isForm ? { "Content-Type": "application/json" } : {}), ...init.headers },
        body: isForm ? (init.body as FormData) : init.body ? JSON.stringify(init.body) : undefined,
      });
      return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
    },

    /**
     * Waits until an agent is connected: a connection test to a closed loopback port answers the
     * agent's CONNECTION_AGENT_CONNECT then, CONNECTION_AGENT_OFFLINE before.
     */
    async waitForAgent(timeoutMs = 45_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      const probe = { protocol: "ftp", host: "127.0.0.1", port: 1, username: "probe", password: "probe-password", homeFolder: "/" };
      for (;;) {
        const answer = await this.api("POST", "/utilities/test-connection", { body: probe });
        if (answer.body.code !== "CONNECTION_AGENT_OFFLINE") return;
        if (Date.now() > deadline) throw new Error(`no agent connected:\n${logs.slice(-30).join("\n")}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },

    async close(): Promise<void> {
      for (const child of [...groups]) await stop(child);
      rmSync(path.join(root, persistTo), { recursive: true, force: true });
    },
  };
}

export type App = Awaited<ReturnType<typeof startApp>>;
