/**
 * The hosted connection agent as a Cloudflare Container (agent/Dockerfile). It serves no port: the
 * agent inside dials out to `/agent/connect` like any customer's agent, so the Worker reaches it
 * only through the AgentHub Durable Object. A cron keeps the instances running (`keepHostedAgentsRunning`).
 *
 * Locally `[dev] enable_containers = false` (STACK.md G16): `npm start` runs the same agent as a
 * plain Node process instead.
 */
import { Container } from "@cloudflare/containers";

/** How many hosted agent instances serve all accounts; the AgentHub spreads calls over their sockets. */
export const HOSTED_AGENT_INSTANCES = 2;

export class HostedAgent extends Container<Env> {
  // Never idle out: an agent with no calls must still be connected when the next call comes.
  override sleepAfter = "24h";

  override async onActivityExpired(): Promise<void> {
    // Renewed by not stopping (the library calls this again when the timer runs out again).
  }

  override onError(error: unknown): void {
    console.error("Hosted agent container failed", error);
  }
}

/** The agent's settings: where to dial and with which token. Never the development allow-list. */
export function hostedAgentEnvVars(env: Env): Record<string, string> {
  const origin = new URL(env.APP_ORIGIN);
  origin.protocol = origin.protocol === "https:" ? "wss:" : "ws:";
  origin.pathname = "/agent/connect";
  return { CMS_AGENT_URL: origin.toString(), CMS_AGENT_TOKEN: env.HOSTED_AGENT_TOKEN, CMS_AGENT_NAME: "hosted" };
}

/** Starts every hosted agent instance that is not running (the scheduled handler calls it each minute). */
export async function keepHostedAgentsRunning(env: Env): Promise<void> {
  if (!env.HOSTED_AGENT) return; // no container binding (local development, tests)
  await Promise.all(
    Array.from({ length: HOSTED_AGENT_INSTANCES }, async (_, index) => {
      const instance = env.HOSTED_AGENT.getByName(`hosted-${index}`);
      await instance.start({ envVars: hostedAgentEnvVars(env) });
    }),
  );
}
