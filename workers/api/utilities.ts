import { createRoute, z } from "@hono/zod-openapi";
import { GRAVATAR_DEFAULT_SIZE, gravatarUrl } from "~/services/gravatar.server";
import { createApi, errorResponses, jsonResponse, signedIn } from "./openapi";

const getGravatar = createRoute({
  method: "get", path: "/utilities/gravatar", tags: ["Utilities"], security: signedIn,
  summary: "The Gravatar URL of an email address; with verify, null when it has none",
  request: {
    query: z.object({
      email: z.string().trim().min(3).max(320),
      size: z.coerce.number().int().min(16).max(2048).default(GRAVATAR_DEFAULT_SIZE),
      verify: z.enum(["true", "false"]).default("false").transform((v) => v === "true"),
    }),
  },
  responses: { 200: jsonResponse(z.object({ url: z.string().nullable() }), "The URL, or null"), ...errorResponses(400, 401) },
});

export const utilitiesApi = createApi().openapi(getGravatar, async (c) => c.json(await gravatarUrl(c.var.ctx, c.req.valid("query")), 200));
