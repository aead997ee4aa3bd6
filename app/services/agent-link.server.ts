/**
 * The Worker's side of the agent link: a `RemoteFs` whose every call is an RPC through the
 * AgentHub Durable Object of the site's agent (workers/agent-hub.ts) to the connection agent
 * process, which runs it on the customer's server. Protocol-blind callers use it through
 * `site-files.server.ts`. Also: who may open the link (`authenticateAgent`).
 */
import { eq } from "drizzle-orm";
import { agents } from "../../db/schema";
import type { ConnectionSpec, ObservedPins } from "../../agent/src/connection.ts";
import { AgentError } from "../../agent/src/errors.ts";
import { fromWireEntry, type OpArgs, type OpValue, type WireEntry } from "../../agent/src/protocol.ts";
import type { ReadOptions, RemoteEntry, RemoteFs } from "../../agent/src/remote-fs.ts";
import type { HubCall, HubReply } from "../../workers/agent-hub";
import { sha256Hex } from "~/lib/tokens";
import { getDb } from "./db.server";

/** The AgentHub name of the hosted agent that serves every account by default. */
export const HOSTED_AGENT = "hosted";

/** The hub of an agent (null = the hosted agent). */
export function agentHub(env: Pick<Env, "AGENT_HUB">, agentId: string | null) {
  return env.AGENT_HUB.get(env.AGENT_HUB.idFromName(agentId ?? HOSTED_AGENT));
}

/** An upload in the staging area (upload-staging.server.ts), for the agent to fetch and write. */
export interface StagedUpload {
  key: string;
  size: number;
  sha256: string;
}

/**
 * A RemoteFs through the link; `observedPins` collects what the agent saw (SFTP host key, FTPS
 * certificate) for the caller to pin; `writeStaged` writes a staged upload, which the agent fetches
 * itself instead of the bytes travelling through the AgentHub.
 */
export type AgentRemoteFs = RemoteFs & { readonly observedPins: ObservedPins; writeStaged(path: string, staged: StagedUpload): Promise<void> };

/**
 * A RemoteFs on the site's server through its agent (`agentId` null = the hosted agent). Failures
 * are `AgentError`s with the agent's code; CONNECTION_AGENT_OFFLINE when no agent is connected or
 * it went away mid-call, CONNECTION_AGENT_TIMEOUT when it did not answer in time.
 * @example const fs = agentRemoteFs(env, site.agentId, spec); await fs.list("/");
 */
export function agentRemoteFs(env: Env, agentId: string | null, spec: ConnectionSpec): AgentRemoteFs {
  const observedPins: ObservedPins = {};

  async function call<K extends HubCall["op"]>(op: K, args: OpArgs[K], body?: Uint8Array): Promise<{ value: OpValue[K]; body?: Uint8Array }> {
    let reply: HubReply;
    try {
      reply = await agentHub(env, agentId).call({ op, spec, args, body } as HubCall);
    } catch (error) {
      // The hub itself failed (restarted, overloaded): to the caller the agent is not reachable.
      throw new AgentError("CONNECTION_AGENT_OFFLINE", "The agent hub did not answer", { cause: error, reason: "HUB_UNAVAILABLE" });
    }
    if (reply.pins) Object.assign(observedPins, reply.pins);
    if (!reply.ok) throw new AgentError(reply.error.code, `Agent: ${reply.error.code}${reply.error.reason ? ` (${reply.error.reason})` : ""}`, { reason: reply.error.reason });
    return { value: reply.value as OpValue[K], body: reply.body };
  }

  const entries = (wire: WireEntry[]): RemoteEntry[] => wire.map(fromWireEntry);

  return {
    protocol: spec.protocol,
    home: spec.home,
    observedPins,
    list: async (path) => entries((await call("list", { path })).value),
    stat: async (path) => {
      const { value } = await call("stat", { path });
      return value ? fromWireEntry(value) : null;
    },
    read: async (path, options?: ReadOptions) => {
      const { body } = await call("read", { path, maxBytes: options?.maxBytes });
      const bytes = body ?? new Uint8Array(0);
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    writeAtomic: async (path, data) => {
      await call("write", { path }, data);
    },
    writeStaged: async (path, staged) => {
      await call("writeStaged", { path, key: staged.key, size: staged.size, sha256: staged.sha256 });
    },
    mkdirp: async (path) => {
      await call("mkdirp", { path });
    },
    rename: async (from, to) => {
      await call("rename", { from, to });
    },
    remove: async (path) => {
      await call("remove", { path });
    },
    test: async () => entries((await call("test", {})).value),
    // Connections belong to the agent's pool (3 per site, idle ones closed there).
    close: async () => {},
  };
}

/** wrangler.toml's development-only HOSTED_AGENT_TOKEN. */
export const DEVELOPMENT_HOSTED_AGENT_TOKEN = "development-only-hosted-agent-token";

/** Equal strings, compared in constant time (both hashed first, so lengths do not leak either). */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [a, b] = await Promise.all([crypto.subtle.digest("SHA-256", encoder.encode(given)), crypto.subtle.digest("SHA-256", encoder.encode(expected))]);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let difference = 0;
  for (let i = 0; i < x.length; i += 1) difference |= x[i] ^ y[i];
  return difference === 0;
}

/**
 * Which hub an agent's token opens: the hosted agent's (`HOSTED_AGENT_TOKEN`), or a registered
 * agent's (looked up by the token's SHA-256; its lastSeenAt is updated). Null when the token is
 * unknown.
 * @example await authenticateAgent(env, "…") // { hub: "hosted" } | { hub: "01J…" } | null
 */
export async function authenticateAgent(env: Env, token: string): Promise<{ hub: string } | null> {
  if (!token || token.length > 512) return null;
  // wrangler.toml's development value never opens the hosted hub outside development.
  const configured: string = env.HOSTED_AGENT_TOKEN ?? "";
  const hosted = configured === DEVELOPMENT_HOSTED_AGENT_TOKEN && env.ENVIRONMENT !== "development" ? "" : configured;
  if (hosted.length > 0 && (await sameSecret(token, hosted))) return { hub: HOSTED_AGENT };
  const db = getDb(env);
  const row = await db.select({ id: agents.id, isHosted: agents.isHosted }).from(agents).where(eq(agents.tokenHash, await sha256Hex(token))).get();
  if (!row) return null;
  await db.update(agents).set({ lastSeenAt: new Date() }).where(eq(agents.id, row.id));
  return { hub: row.isHosted ? HOSTED_AGENT : row.id };
}
