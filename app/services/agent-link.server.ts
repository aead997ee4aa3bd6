/**
 * The Worker's side of the agent link: a `RemoteFs` whose every call is an RPC through the
 * AgentHub Durable Object of the site's agent to the connection agent process, which runs it on
 * the customer's server. Protocol-blind callers use it through `site-files.server.ts`.
 *
 * PLACEHOLDER until the link lands: every call answers CONNECTION_AGENT_OFFLINE.
 */
import type { ConnectionSpec } from "../../agent/src/connection.ts";
import type { RemoteFs } from "../../agent/src/remote-fs.ts";
import { AgentError } from "../../agent/src/errors.ts";

/**
 * A RemoteFs on the site's server through its agent (`agentId` null = the hosted agent).
 * @example const fs = agentRemoteFs(env, site.agentId, spec); await fs.list("/");
 */
export function agentRemoteFs(_env: Env, _agentId: string | null, spec: ConnectionSpec): RemoteFs {
  const offline = async (): Promise<never> => {
    throw new AgentError("CONNECTION_AGENT_OFFLINE");
  };
  return {
    protocol: spec.protocol,
    home: spec.home,
    list: offline,
    stat: offline,
    read: offline,
    writeAtomic: offline,
    mkdirp: offline,
    rename: offline,
    remove: offline,
    test: offline,
    close: async () => {},
  };
}
