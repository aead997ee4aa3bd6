/**
 * The error catalogue: every code the product answers with, and its HTTP status.
 *
 * The code is what `/api` sends (`{ code, invalid }`) and is also the i18n key of the message
 * (`errors:SITE_IS_LOCKED`); the messages live in `app/locales/<lng>/errors.ts`. Codes come from
 * both spec documents and `DECISIONS.md`, plus the transport-level ones the API needs.
 *
 * Status choices: 400 for input problems (the client marks the `invalid` fields), 401 only for
 * "not signed in" (the client sends the user to the login), 403 for refusals, 409 for conflicts
 * with the current state (in use, already exists, quota full, in progress), 502/503/504 for the
 * customer's server, its connection agent, the analytics provider or an oEmbed provider. 402 is never used.
 * Codes the client turns into a field highlight by status 400 (spec: "A 400 on a form marks the
 * invalid fields") are 400 on purpose: INVALID_RECOVERY_TOKEN, INCORRECT_PASSWORD,
 * EMAIL_NOT_REGISTERED (Recover Password shows the code message only for 400).
 *
 * No imports: this module is shared by the worker, the agent and the browser.
 *
 * @example new AppError("SITE_IS_LOCKED").status // 403
 */
export const ERROR_STATUS = {
  // Transport level
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  DOMAIN_INACTIVE: 410,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,

  // Accounts and sign-in
  INVALID_TFA_TOKEN: 400,
  INVALID_RECOVERY_TOKEN: 400,
  INCORRECT_PASSWORD: 400,
  /** 100 consecutive failed sign-in, two-factor or recovery attempts (DECISIONS.md): refused until a password reset. */
  ACCOUNT_LOCKED: 403,
  PASSWORD_TOO_SHORT: 400,
  EMAIL_NOT_REGISTERED: 400,
  EMAIL_IN_USE: 409,
  DOMAIN_IN_USE: 409,

  // Plans, billing and locks
  UPGRADE_REQUIRED: 403,
  SITE_IS_LOCKED: 403,
  NO_PAYMENT_INFO: 400,

  // Analytics
  GA_INSUFFICIENT_PERMISSIONS: 403,
  GA_INVALID_CREDENTIALS: 403,
  GA_NOT_ENABLED: 403,
  GA_FETCH_FAILED: 502,

  // Blocks and templates
  BLOCKS_QUOTA_REACHED: 409,
  BLOCKS_MUST_NOT_HAVE_IDS: 400,
  TEMPLATE_QUOTA_REACHED: 409,

  // Files
  FILE_ALREADY_EXISTS: 409,
  FILE_TYPE_NOT_SUPPORTED: 400,
  /** DECISIONS.md: 25 MB per file, 100 MB per request. */
  FILE_TOO_LARGE: 413,
  INVALID_UPLOAD_PATH: 400,
  PATH_OUTSIDE_OF_HOME_FOLDER: 400,

  // Drafts and publishing
  PAGE_CHANGED_ON_SERVER: 409,
  REVISION_CONFLICT: 409,
  PUBLISH_IN_PROGRESS: 409,
  /** The editor's preview link is older than its few minutes: the editor loads it again. */
  RENDER_EXPIRED: 410,
  PUBLISHING_ERROR: 502,
  /** Content submitted for a region holds region markers, a disallowed URL or CSS value, or would move a region boundary. */
  INVALID_REGION_CONTENT: 400,

  // Embeds
  /** No oEmbed provider matches the address, or its answer is unusable: the Video panel inserts the raw text instead. */
  OEMBED_LOOKUP_FAILED: 502,

  // The connection agent and the customer's server
  CONNECTION_AGENT_CONNECT: 502,
  CONNECTION_AGENT_AUTH: 502,
  CONNECTION_AGENT_MKDIR: 502,
  CONNECTION_AGENT_DELETE: 502,
  CONNECTION_AGENT_DOWNLOAD: 502,
  CONNECTION_AGENT_LIST: 502,
  CONNECTION_AGENT_MOVE: 502,
  CONNECTION_AGENT_UPLOAD: 502,
  CONNECTION_AGENT_OFFLINE: 503,
  CONNECTION_AGENT_TIMEOUT: 504,
  /** The site's host resolves to a private or reserved address (an input problem of the site form). */
  CONNECTION_AGENT_HOST_NOT_ALLOWED: 400,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** True for a code of the catalogue (own keys only, so `"toString"` is not a code). */
export function isErrorCode(x: unknown): x is ErrorCode {
  return typeof x === "string" && Object.hasOwn(ERROR_STATUS, x);
}
