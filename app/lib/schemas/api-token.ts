import { z } from "zod";

export const ApiTokenStatus = z.object({
  apiToken: z.object({ prefix: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() }).nullable(),
});

/** Answered once, when a token is created or regenerated. */
export const NewApiToken = z.object({ apiToken: z.string() });

export const UserIdParams = z.object({ userId: z.string().min(1).max(64) });
