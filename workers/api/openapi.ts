import { OpenAPIHono, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { AppError, errorBody } from "~/lib/errors";
import type { AppEnv } from "./app-env";
import { invalidFields } from "./error-mapper";

/**
 * Routes declared with a security requirement refuse anonymous callers before their input is
 * validated, so a caller without credentials learns nothing about a route's parameters. The full
 * check (two-factor done, role, ownership) is the operation's, through the policy module.
 */
const requireCredentials = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.ctx.actor) throw new AppError("UNAUTHORIZED");
  await next();
});

/** A sub-app whose request validation failures answer the spec's 400 `{ code, invalid }`. */
export function createApi() {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) return c.json(errorBody("VALIDATION_ERROR", invalidFields(result.error)), 400);
    },
  });
  const declare = app.openapi;
  app.openapi = ((route, handler, hook) => {
    const secured = (route.security ?? []).length > 0;
    const own = route.middleware ? [route.middleware].flat() : [];
    return declare({ ...route, middleware: secured ? [requireCredentials, ...own] : own }, handler, hook);
  }) as typeof declare;
  return app;
}

export const ErrorSchema = z
  .object({
    code: z.string().openapi({ example: "VALIDATION_ERROR" }),
    invalid: z.array(z.string()).openapi({ example: ["email"] }),
  })
  .openapi("Error");

const errorDescriptions = {
  400: "Invalid input: `code` names the problem, `invalid` the fields",
  401: "Not signed in, or the token is not valid",
  403: "Not allowed for this user, plan or site state",
  404: "Not found, or not visible to this user",
  409: "Conflicts with the current state",
  429: "Too many attempts; try again later",
} as const;

/** The error answers a route can give, for its OpenAPI declaration. */
export function errorResponses<S extends keyof typeof errorDescriptions>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: errorDescriptions[status], content: { "application/json": { schema: ErrorSchema } } }]),
  ) as unknown as { [K in S]: { description: string; content: { "application/json": { schema: typeof ErrorSchema } } } };
}

/** OpenAPI security requirement for routes that need a signed-in user (cookie session or API token). */
export const signedIn: Record<string, string[]>[] = [{ cookieAuth: [] }, { bearerAuth: [] }];
/** For routes anyone may call (sign-in itself). */
export const publicRoute: never[] = [];

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { content: { "application/json": { schema } }, required: true } as const;
}

export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } } as const;
}
