// `npm start`: build if needed, migrate and seed the local database, then serve the app on workerd.
import { buildDir, buildIfNeeded, prepareDatabase, startGroup, stopGroup, waitForHttp } from "./lib.mjs";
import { SEEDED_SIGN_INS } from "./seeded-sign-ins.mjs";

const port = Number(process.env.PORT ?? 8787);
const persistTo = ".wrangler/state";

buildIfNeeded();
prepareDatabase(persistTo);

const server = startGroup("wrangler", [
  "dev", "--config", `${buildDir}/server/wrangler.json`, "--ip", "127.0.0.1", "--port", String(port),
  "--persist-to", persistTo, "--show-interactive-dev-session=false",
]);
const stop = () => {
  stopGroup(server);
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 1));

const url = `http://localhost:${port}`;
await waitForHttp(`${url}/login`);
console.log(`\n  The app is running at ${url}\n\n  Seeded sign-ins (password for all: ${SEEDED_SIGN_INS.password}):`);
for (const { role, email } of SEEDED_SIGN_INS.users) console.log(`    ${role.padEnd(28)} ${email}`);
console.log(`\n  Two-factor demo secret for ${SEEDED_SIGN_INS.tfa.email}: ${SEEDED_SIGN_INS.tfa.secret} (recovery code ${SEEDED_SIGN_INS.tfa.recoveryCode})`);
console.log(`  Sent mail (password resets, welcome links): ${url}/dev/mailbox`);
console.log(`  API reference: ${url}/api/openapi.json`);
console.log("\n  Press Ctrl+C to stop.\n");
