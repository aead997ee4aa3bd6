/**
 * Connection agents per account (DECISIONS.md "Connection agent"): the hosted agent serves every
 * account by default; an account can register its own agents, each with a token shown once and
 * stored as its SHA-256 (SECURITY.md 15), and choose per site which agent reaches it.
 *
 * Who: the owner, or an admin with canManageSettings; client users get FORBIDDEN; another
 * account's agent is NOT_FOUND. A sudo session may list and remove agents (every change it makes is
 * audited by the API middleware) but not register one: a new token is a credential (SECURITY.md 12).
 *
 * @example const { agent, token } = await createAgent(ctx, { name: "Office NAS" });
 */
import { and, asc, desc, eq, isNull } from "drizzle-orm";
import { agents, type Agent } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { AgentList, AgentView, NewAgent, NewAgentBody } from "~/lib/schemas/agents";
import { randomToken, sha256Hex } from "~/lib/tokens";
import type { Actor } from "./actor.server";
import { audit } from "./audit.server";
import type { ServiceContext } from "./context.server";
import { assertNotSudo, effectiveFlags, requireSignedIn } from "./policy";

/** Agent tokens start with this, so secret scanners and people can recognise them. */
export const AGENT_TOKEN_PREFIX = "sca_";

/** What `agents.tokenHash` stores for a token (the agent link looks agents up by it). */
export function agentTokenHash(token: string): Promise<string> {
  return sha256Hex(token);
}

function requireAgentManager(ctx: ServiceContext): Actor {
  const actor = requireSignedIn(ctx);
  if (!effectiveFlags(actor.user).canManageSettings) throw new AppError("FORBIDDEN");
  return actor;
}

function view(agent: Agent): AgentView {
  return {
    id: agent.id,
    name: agent.name,
    isHosted: false,
    lastSeenAt: agent.lastSeenAt?.toISOString() ?? null,
    createdAt: agent.createdAt.toISOString(),
  };
}

/**
 * `GET /account/agents`: the hosted agent first (`id: null`, last seen when any hosted instance
 * last connected), then the account's own agents by name.
 */
export async function listAgents(ctx: ServiceContext): Promise<AgentList> {
  const actor = requireAgentManager(ctx);
  const [hosted, own] = await Promise.all([
    ctx.db
      .select({ lastSeenAt: agents.lastSeenAt })
      .from(agents)
      .where(and(isNull(agents.accountId), eq(agents.isHosted, true)))
      .orderBy(desc(agents.lastSeenAt))
      .limit(1)
      .get(),
    ctx.db.select().from(agents).where(and(eq(agents.accountId, actor.account.id), eq(agents.isHosted, false))).orderBy(asc(agents.name), asc(agents.id)),
  ]);
  const hostedEntry: AgentView = { id: null, name: null, isHosted: true, lastSeenAt: hosted?.lastSeenAt?.toISOString() ?? null, createdAt: null };
  return { agents: [hostedEntry, ...own.map(view)] };
}

/**
 * `POST /account/agents`: registers an agent; its token is answered once and only its hash is kept.
 * @example const { token } = await createAgent(ctx, { name: "Office NAS" }); // "sca_…"
 */
export async function createAgent(ctx: ServiceContext, body: NewAgentBody): Promise<NewAgent> {
  const actor = requireAgentManager(ctx);
  assertNotSudo(ctx);
  const token = AGENT_TOKEN_PREFIX + randomToken(32);
  const [agent] = await ctx.db
    .insert(agents)
    .values({ accountId: actor.account.id, name: body.name, tokenHash: await agentTokenHash(token), isHosted: false, createdAt: new Date() })
    .returning();
  await audit(ctx, { action: "agent.create", entity: "agent", entityId: agent.id, details: { name: agent.name } });
  return { agent: view(agent), token };
}

/**
 * `DELETE /account/agents/{agentId}`: removes the agent; its token stops working and the sites that
 * used it fall back to the hosted agent (`sites.agentId` is set null by the foreign key).
 */
export async function deleteAgent(ctx: ServiceContext, agentId: string): Promise<void> {
  const actor = requireAgentManager(ctx);
  const [removed] = await ctx.db
    .delete(agents)
    .where(and(eq(agents.id, agentId), eq(agents.accountId, actor.account.id), eq(agents.isHosted, false)))
    .returning({ id: agents.id, name: agents.name });
  if (!removed) throw new AppError("NOT_FOUND");
  await audit(ctx, { action: "agent.delete", entity: "agent", entityId: removed.id, details: { name: removed.name } });
}
