import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import { ERROR_STATUS } from "~/lib/error-codes";
import { AppError, errorBody } from "~/lib/errors";
import { AgentError } from "../../agent/src/errors.ts";

/** Field names from a zod error, as the spec's `invalid` list: `email`, `permissions.0.siteId`. */
export function invalidFields(error: ZodError): string[] {
  const names = error.issues.map((issue) => issue.path.map(String).join(".") || "body");
  return [...new Set(names)];
}

/**
 * The one error mapper of `/api`: every failure becomes `{ code, invalid }` with its status.
 * Unexpected errors are logged and answered as a bare 500 so nothing internal leaks.
 */
export function mapApiError(error: unknown, c: Context): Response {
  if (error instanceof AppError) {
    if (error.retryAfter !== null) c.header("Retry-After", String(error.retryAfter));
    return c.json(errorBody(error.code, error.invalid), error.status as 400);
  }
  if (error instanceof AgentError) {
    // Everything behind RemoteFs (the agent link, the demo store) fails with a catalogue code.
    return c.json(errorBody(error.code), ERROR_STATUS[error.code] as 400);
  }
  if (error instanceof HTTPException) {
    // Hono's own validators answer malformed JSON (400) and a wrong content type (415).
    if (error.status === 400 || error.status === 415) return c.json(errorBody("VALIDATION_ERROR", ["body"]), 400);
    if (error.status === 401) return c.json(errorBody("UNAUTHORIZED"), 401);
    if (error.status === 403) return c.json(errorBody("FORBIDDEN"), 403);
    if (error.status === 404) return c.json(errorBody("NOT_FOUND"), 404);
  }
  console.error("Unhandled API error", error);
  return c.json(errorBody("INTERNAL_ERROR"), 500);
}
