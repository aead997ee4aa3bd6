// The RemoteFs contract (tests/agent/contract.ts), unchanged, against the demo store in real
// workerd with R2: the demo site's "server" keeps every promise the protocol drivers keep, but the
// wrong-password and closed-port ones: the store has no credentials and no network.
import { env } from "cloudflare:test";
import { createDemoStore } from "~/services/demo-store.server";
import { runContract } from "../agent/contract.ts";

const siteId = `contract-${crypto.randomUUID()}`;
const home = "/contract-demo";

runContract("demo store (R2)", () => ({
  home,
  create: (options) => createDemoStore(env.UPLOADS, siteId, { home: options?.home ?? home }),
  root: () => createDemoStore(env.UPLOADS, siteId),
}), { network: false });
