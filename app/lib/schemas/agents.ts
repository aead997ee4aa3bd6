import { z } from "zod";

/**
 * A connection agent of the account. The hosted agent, which serves every account by default, is
 * listed first with `id: null` and `name: null` (a site's `agentId` is null for it too; the UI
 * names it in the user's language).
 */
export const AgentView = z.object({
  id: z.string().nullable(),
  name: z.string().nullable(),
  isHosted: z.boolean(),
  lastSeenAt: z.string().nullable(),
  createdAt: z.string().nullable(),
});
export type AgentView = z.infer<typeof AgentView>;

export const AgentList = z.object({ agents: z.array(AgentView) });
export type AgentList = z.infer<typeof AgentList>;

/** `POST /account/agents`: a name to tell the agent apart. */
export const NewAgentBody = z.object({ name: z.string().trim().min(1).max(100) });
export type NewAgentBody = z.infer<typeof NewAgentBody>;

/** Answered once, when an agent is registered: the token the agent connects with. */
export const NewAgent = z.object({ agent: AgentView, token: z.string() });
export type NewAgent = z.infer<typeof NewAgent>;

export const AgentIdParams = z.object({ agentId: z.string().min(1).max(64) });
