// `npm start`: build if needed, migrate and seed the local database, then serve the app on workerd
// with a local connection agent beside it (the hosted agent's role in production).
import path from "node:path";
import { buildDir, buildIfNeeded, prepareDatabase, root, startGroup, stopGroup, waitForHttp } from "./lib.mjs";
import { SEEDED_SIGN_INS } from "./seeded-sign-ins.mjs";

const port = Number(process.env.PORT ?? 8787);
const persistTo = ".wrangler/state";

buildIfNeeded();
prepareDatabase(persistTo);

const server = startGroup("wrangler", [
  "dev", "--config", `${buildDir}/server/wrangler.json`, "--ip", "127.0.0.1", "--port", String(port),
  "--persist-to", persistTo, "--show-interactive-dev-session=false",
]);

let agent;
const stop = () => {
  stopGroup(agent);
  stopGroup(server);
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 1));

const url = `http://localhost:${port}`;
await waitForHttp(`${url}/login`);

// The local agent dials the Worker with the development hosted-agent token of wrangler.toml.
// CMS_AGENT_ALLOW_HOSTS lets it reach servers on this machine (loopback and private addresses),
// which the agent refuses by default (SECURITY.md 3). For local development only: production never
// sets it. Override it, e.g. CMS_AGENT_ALLOW_HOSTS=127.0.0.1,192.168.1.20 npm start.
agent = startGroup(path.join(root, "node_modules", ".bin", "node"), ["agent/src/main.ts"], {
  env: {
    ...process.env,
    CMS_AGENT_URL: `ws://127.0.0.1:${port}/agent/connect`,
    CMS_AGENT_TOKEN: process.env.CMS_AGENT_TOKEN ?? "development-only-hosted-agent-token",
    CMS_AGENT_ALLOW_HOSTS: process.env.CMS_AGENT_ALLOW_HOSTS ?? "127.0.0.1,::1,localhost",
    CMS_AGENT_NAME: "local",
  },
});

console.log(`\n  The app is running at ${url}\n\n  Seeded sign-ins (password for all: ${SEEDED_SIGN_INS.password}):`);
for (const { role, email } of SEEDED_SIGN_INS.users) console.log(`    ${role.padEnd(28)} ${email}`);
console.log(`\n  Two-factor demo secret for ${SEEDED_SIGN_INS.tfa.email}: ${SEEDED_SIGN_INS.tfa.secret} (recovery code ${SEEDED_SIGN_INS.tfa.recoveryCode})`);
console.log(`  Sent mail (password resets, welcome links): ${url}/dev/mailbox`);
console.log(`  API reference: ${url}/api/openapi.json`);
console.log("  Connection agent: running locally; it may reach servers on this machine (CMS_AGENT_ALLOW_HOSTS, development only).");
console.log("\n  Press Ctrl+C to stop.\n");
