import { rmSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startOembedProvider } from "./oembed-provider";
// @ts-expect-error: plain .mjs helpers shared with the start script
import { buildDir, buildIfNeeded, freePort, prepareDatabase, root, startGroup, stopGroup, toolEnv, waitForHttp } from "../../scripts/lib.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** The local oEmbed provider the app's embed lookups go to (tests/e2e/oembed-provider.ts). */
    oembedOrigin: string;
  }
}

/** One built app on workerd, on a free port with a fresh seeded database, and a local agent, for the whole e2e run. */
export default async function setup(project: TestProject) {
  const persistTo = process.env.CMS_E2E_STATE ?? ".wrangler/e2e-state";
  rmSync(persistTo, { recursive: true, force: true });
  buildIfNeeded();
  prepareDatabase(persistTo);
  const port: number = await freePort();
  const oembed = await startOembedProvider();
  const server = startGroup("wrangler", [
    "dev", "--config", `${buildDir}/server/wrangler.json`, "--ip", "127.0.0.1", "--port", String(port),
    "--persist-to", persistTo, "--show-interactive-dev-session=false", "--log-level", "warn",
    "--var", `OEMBED_PROVIDERS:${oembed.providers}`,
  ], { stdio: ["ignore", "inherit", "inherit"] });
  const baseURL = `http://localhost:${port}`;
  await waitForHttp(`${baseURL}/login`);
  // A local connection agent, as `npm start` runs one: it may reach the test servers on loopback.
  const agent = startGroup(path.join(root, "node_modules", ".bin", "node"), ["agent/src/main.ts"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...toolEnv,
      CMS_AGENT_URL: `ws://127.0.0.1:${port}/agent/connect`,
      CMS_AGENT_TOKEN: "development-only-hosted-agent-token",
      CMS_AGENT_ALLOW_HOSTS: "127.0.0.1",
      CMS_AGENT_NAME: "e2e",
    },
  });
  project.provide("baseURL", baseURL);
  project.provide("oembedOrigin", oembed.origin);
  return async () => {
    stopGroup(agent);
    stopGroup(server);
    await oembed.close();
  };
}
