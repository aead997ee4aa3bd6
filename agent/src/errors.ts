/**
 * Errors of the connection agent: one `AgentError` carrying a code of the product's catalogue, and
 * one mapper per protocol that turns a library's error into it.
 *
 * Codes: CONNECTION_AGENT_CONNECT, _AUTH, _TIMEOUT, _HOST_NOT_ALLOWED for the connection; the
 * operation's own code (_LIST, _DOWNLOAD, _UPLOAD, _MKDIR, _MOVE, _DELETE) for a refused command;
 * NOT_FOUND, FILE_TOO_LARGE, FILE_ALREADY_EXISTS and PATH_OUTSIDE_OF_HOME_FOLDER where they fit.
 *
 * @example
 * try { await fs.read("/index.html"); } catch (error) { if (error instanceof AgentError) error.code; }
 */
import type { ErrorCode } from "../../app/lib/error-codes.ts";

/** The codes a driver answers with. */
export type AgentErrorCode = Extract<
  ErrorCode,
  | "CONNECTION_AGENT_CONNECT"
  | "CONNECTION_AGENT_AUTH"
  | "CONNECTION_AGENT_MKDIR"
  | "CONNECTION_AGENT_DELETE"
  | "CONNECTION_AGENT_DOWNLOAD"
  | "CONNECTION_AGENT_LIST"
  | "CONNECTION_AGENT_MOVE"
  | "CONNECTION_AGENT_UPLOAD"
  | "CONNECTION_AGENT_TIMEOUT"
  | "CONNECTION_AGENT_HOST_NOT_ALLOWED"
  | "CONNECTION_AGENT_OFFLINE"
  | "PATH_OUTSIDE_OF_HOME_FOLDER"
  | "FILE_TOO_LARGE"
  | "FILE_ALREADY_EXISTS"
  | "NOT_FOUND"
>;

/** The code of an operation when the server refuses it for a reason no other code names. */
export type OperationCode = Extract<
  AgentErrorCode,
  | "CONNECTION_AGENT_MKDIR"
  | "CONNECTION_AGENT_DELETE"
  | "CONNECTION_AGENT_DOWNLOAD"
  | "CONNECTION_AGENT_LIST"
  | "CONNECTION_AGENT_MOVE"
  | "CONNECTION_AGENT_UPLOAD"
  | "CONNECTION_AGENT_CONNECT"
>;

/**
 * An agent failure with a catalogue code. `reason` is a short machine-readable detail for logs and
 * tests (e.g. "HOST_KEY_CHANGED"); the message is for logs only and never shown to users.
 *
 * @example throw new AgentError("FILE_TOO_LARGE", "index.html is over 5 MB");
 */
export class AgentError extends Error {
  override name = "AgentError";
  readonly code: AgentErrorCode;
  readonly reason: string | undefined;

  constructor(code: AgentErrorCode, message: string = code, options: { cause?: unknown; reason?: string } = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.reason = options.reason;
  }
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "ECONNABORTED",
  "EADDRNOTAVAIL",
  "ERR_SOCKET_CLOSED",
]);
const TIMEOUT_CODES = new Set(["ETIMEDOUT", "ESOCKETTIMEDOUT", "TimeoutError", "ERR_SOCKET_CONNECTION_TIMEOUT"]);

type Loose = { code?: unknown; errno?: unknown; name?: unknown; message?: unknown; cause?: unknown; status?: unknown };

/** The error and its causes, outermost first (at most 5 deep). */
function chain(error: unknown): Loose[] {
  const out: Loose[] = [];
  let current: unknown = error;
  while (current && typeof current === "object" && out.length < 5) {
    out.push(current as Loose);
    current = (current as Loose).cause;
  }
  return out;
}

/** What every protocol shares: our own errors, refused hosts, network failures and timeouts. */
function mapCommon(error: unknown): AgentError | null {
  for (const link of chain(error)) {
    if (link instanceof AgentError) return link;
    if (link.code === "CONNECTION_AGENT_HOST_NOT_ALLOWED") {
      return new AgentError("CONNECTION_AGENT_HOST_NOT_ALLOWED", String(link.message), { cause: error });
    }
  }
  for (const link of chain(error)) {
    const code = typeof link.code === "string" ? link.code : typeof link.name === "string" ? link.name : "";
    if (TIMEOUT_CODES.has(code)) return new AgentError("CONNECTION_AGENT_TIMEOUT", String(link.message), { cause: error });
    if (NETWORK_CODES.has(code)) return new AgentError("CONNECTION_AGENT_CONNECT", String(link.message), { cause: error });
  }
  return null;
}

/** Socket failures of a connection that was open: it was lost, rather than never made. */
const LOST_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "ERR_SOCKET_CLOSED", "ERR_STREAM_DESTROYED", "ERR_STREAM_PREMATURE_CLOSE"]);
const LOST_MESSAGE = /connection lost|No SFTP connection|Not connected|socket hang up|Client is closed|closed by|connection (?:was )?(?:closed|reset)/i;

/**
 * A failure in the middle of an operation on a connection that had been made (the network cut it,
 * the server hung up): the operation failed (an upload answers CONNECTION_AGENT_UPLOAD, with the
 * reason CONNECTION_LOST), it is not a failure to connect. Failures to reach the server at all
 * (refused, unreachable, unknown host) stay CONNECTION_AGENT_CONNECT.
 *
 * @example lostDuring(mapSftpError(econnreset, "CONNECTION_AGENT_UPLOAD"), econnreset, "CONNECTION_AGENT_UPLOAD").code // "CONNECTION_AGENT_UPLOAD"
 */
export function lostDuring(mapped: AgentError, error: unknown, operation: OperationCode): AgentError {
  if (mapped.code !== "CONNECTION_AGENT_CONNECT" || operation === "CONNECTION_AGENT_CONNECT" || mapped.reason) return mapped;
  const lost = chain(error).some((link) => (typeof link.code === "string" && LOST_CODES.has(link.code)) || LOST_MESSAGE.test(String(link.message ?? "")));
  return lost ? new AgentError(operation, mapped.message, { cause: error, reason: "CONNECTION_LOST" }) : mapped;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * basic-ftp: FTPError carries the reply code. 530 → AUTH; 550 on a read → NOT_FOUND; 421 and
 * socket errors → CONNECT; "Timeout" → TIMEOUT.
 * @example mapFtpError(new FTPError({ code: 530, message: "530 Login incorrect." }), "CONNECTION_AGENT_LIST").code // "CONNECTION_AGENT_AUTH"
 */
export function mapFtpError(error: unknown, operation: OperationCode): AgentError {
  const common = mapCommon(error);
  if (common) return common;
  const message = messageOf(error);
  const reply = Number((error as Loose)?.code);
  if (reply === 530 || /^530\b/.test(message)) return new AgentError("CONNECTION_AGENT_AUTH", message, { cause: error });
  if (reply === 421) return new AgentError("CONNECTION_AGENT_CONNECT", message, { cause: error });
  if (/timeout/i.test(message)) return new AgentError("CONNECTION_AGENT_TIMEOUT", message, { cause: error });
  if (/self[- ]signed|certificate|ERR_TLS|altnames/i.test(message) || String((error as Loose)?.code).startsWith("ERR_TLS")) {
    return new AgentError("CONNECTION_AGENT_CONNECT", message, { cause: error, reason: "TLS_CERTIFICATE" });
  }
  if (reply === 550 && operation === "CONNECTION_AGENT_DOWNLOAD") return new AgentError("NOT_FOUND", message, { cause: error });
  if (/closed|Client is closed|not connected/i.test(message)) return new AgentError("CONNECTION_AGENT_CONNECT", message, { cause: error });
  return new AgentError(operation, message, { cause: error });
}

/**
 * ssh2 / ssh2-sftp-client: "All configured authentication methods failed" → AUTH; a refused host
 * key → CONNECT (reason HOST_KEY_CHANGED); status 2 (no such file) on a read → NOT_FOUND.
 * @example mapSftpError(new Error("All configured authentication methods failed"), "CONNECTION_AGENT_CONNECT").code // "CONNECTION_AGENT_AUTH"
 */
export function mapSftpError(error: unknown, operation: OperationCode): AgentError {
  const common = mapCommon(error);
  if (common) return common;
  const message = messageOf(error);
  if (/authentication methods failed|Authentication failure|permission denied \(publickey|password\)/i.test(message)) {
    return new AgentError("CONNECTION_AGENT_AUTH", message, { cause: error });
  }
  if (/Host denied|verification failed/i.test(message)) {
    return new AgentError("CONNECTION_AGENT_CONNECT", message, { cause: error, reason: "HOST_KEY_CHANGED" });
  }
  if (/Timed out while waiting for handshake|timeout/i.test(message)) return new AgentError("CONNECTION_AGENT_TIMEOUT", message, { cause: error });
  const code = (error as Loose)?.code;
  if ((code === 2 || code === "ENOENT" || /No such file/i.test(message)) && operation === "CONNECTION_AGENT_DOWNLOAD") {
    return new AgentError("NOT_FOUND", message, { cause: error });
  }
  if (/No SFTP connection|Not connected|connection lost|ERR_NOT_CONNECTED|ERR_GENERIC_CLIENT/i.test(message) || code === "ERR_NOT_CONNECTED") {
    return new AgentError("CONNECTION_AGENT_CONNECT", message, { cause: error });
  }
  return new AgentError(operation, message, { cause: error });
}

/**
 * @aws-sdk/client-s3: 403 InvalidAccessKeyId / SignatureDoesNotMatch / AccessDenied on the first
 * request → AUTH; 404 NoSuchKey on a read → NOT_FOUND; NoSuchBucket → CONNECT.
 * @example mapS3Error({ name: "InvalidAccessKeyId", $metadata: { httpStatusCode: 403 } }, "CONNECTION_AGENT_LIST").code // "CONNECTION_AGENT_AUTH"
 */
export function mapS3Error(error: unknown, operation: OperationCode): AgentError {
  const common = mapCommon(error);
  if (common) return common;
  const message = messageOf(error);
  const name = String((error as Loose)?.name ?? "");
  const status = (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  if (["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "InvalidToken", "ExpiredToken"].includes(name) || status === 401 || status === 403) {
    return new AgentError("CONNECTION_AGENT_AUTH", message, { cause: error });
  }
  if (name === "NoSuchBucket") return new AgentError("CONNECTION_AGENT_CONNECT", message, { cause: error, reason: "NO_SUCH_BUCKET" });
  if ((name === "NoSuchKey" || name === "NotFound" || status === 404) && operation === "CONNECTION_AGENT_DOWNLOAD") {
    return new AgentError("NOT_FOUND", message, { cause: error });
  }
  if (name === "TimeoutError" || name === "RequestTimeout") return new AgentError("CONNECTION_AGENT_TIMEOUT", message, { cause: error });
  return new AgentError(operation, message, { cause: error });
}

/**
 * webdav: errors carry `status`. 401 → AUTH; 404 on a read → NOT_FOUND; 3xx (redirects are
 * refused) → CONNECT.
 * @example mapWebDavError(Object.assign(new Error("Invalid response: 401 Unauthorized"), { status: 401 }), "CONNECTION_AGENT_LIST").code // "CONNECTION_AGENT_AUTH"
 */
export function mapWebDavError(error: unknown, operation: OperationCode): AgentError {
  const common = mapCommon(error);
  if (common) return common;
  const message = messageOf(error);
  const status = Number((error as Loose)?.status);
  if (status === 401 || status === 403) return new AgentError("CONNECTION_AGENT_AUTH", message, { cause: error });
  if (status === 404 && operation === "CONNECTION_AGENT_DOWNLOAD") return new AgentError("NOT_FOUND", message, { cause: error });
  if (status >= 300 && status < 400) return new AgentError("CONNECTION_AGENT_CONNECT", message, { cause: error, reason: "REDIRECT" });
  if (status === 507 || status === 413) return new AgentError(operation, message, { cause: error, reason: `HTTP_${status}` });
  return new AgentError(operation, message, { cause: error });
}
