import { ERROR_STATUS, isErrorCode, type ErrorCode } from "./error-codes";

/**
 * An expected failure with a catalogue code. Both transports map it the same way:
 * `/api` answers `{ code, invalid }` with `status`; pages render the error boundary for `status`.
 *
 * @example throw new AppError("SITE_IS_LOCKED")
 * @example throw new AppError("VALIDATION_ERROR", { invalid: ["email"] })
 * @example throw new AppError("RATE_LIMITED", { retryAfter: 12 }) // `/api` adds `Retry-After: 12`
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly invalid: string[];
  /** Whole seconds after which the same request may succeed (sent as `Retry-After`); null when unknown. */
  readonly retryAfter: number | null;

  constructor(code: ErrorCode, options: { invalid?: string[]; cause?: unknown; retryAfter?: number } = {}) {
    super(code, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.invalid = options.invalid ?? [];
    this.retryAfter = options.retryAfter === undefined ? null : Math.max(1, Math.ceil(options.retryAfter));
  }
}

/** The body every API error is answered with. */
export interface ErrorBody {
  code: string;
  invalid: string[];
}

export function errorBody(code: ErrorCode, invalid: string[] = []): ErrorBody {
  return { code, invalid };
}

/** Reads an error body from any parsed JSON; unknown shapes become the generic error. */
export function parseErrorBody(value: unknown): { code: ErrorCode | null; invalid: string[] } {
  if (typeof value !== "object" || value === null) return { code: null, invalid: [] };
  const { code, invalid } = value as { code?: unknown; invalid?: unknown };
  return {
    code: isErrorCode(code) ? code : null,
    invalid: Array.isArray(invalid) ? invalid.filter((x): x is string => typeof x === "string") : [],
  };
}

/** The i18n key of the message for a code; unknown codes get the generic message. */
export function errorMessageKey(code: unknown): `errors:${ErrorCode | "generic"}` {
  return isErrorCode(code) ? `errors:${code}` : "errors:generic";
}
