/**
 * The agent's guards: remote paths kept inside the site's home folder, connections only to global
 * unicast addresses (vetted on the resolved address, at connect time), size caps and the command
 * timeout. SECURITY.md items 3, 5 and 17; DECISIONS.md "Limits".
 *
 * @example
 * const path = resolveRemotePath("/www", "/www/blog/index.html"); // "/www/blog/index.html"
 * const socket = await connectGuarded({ host: "ftp.example.com", port: 21 });
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Readable } from "node:stream";
import ipaddr from "ipaddr.js";
import { AgentError } from "./errors.ts";
import { COMMAND_TIMEOUT_MS } from "./paths.ts";

// The path helpers and limits live in paths.ts (environment-neutral, shared with the Worker).
export {
  COMMAND_TIMEOUT_MS,
  MAX_READ_BYTES,
  MAX_WRITE_BYTES,
  baseName,
  isSafeEntryName,
  normaliseFolder,
  parentOf,
  resolveRemotePath,
  temporaryPathFor,
} from "./paths.ts";
// ── addresses ────────────────────────────────────────────────────────────────────────────────────

/** Network options every driver takes. */
export interface NetworkOptions {
  /**
   * Hosts or IP addresses that may be reached although they are not global unicast (loopback in
   * tests and development). Production never sets it.
   */
  allowHosts?: readonly string[];
  /** Per-command timeout; default 45 s. */
  commandTimeoutMs?: number;
}

function hostNotAllowed(host: string, address: string): AgentError {
  const error = new AgentError("CONNECTION_AGENT_HOST_NOT_ALLOWED", `${host} (${address}) is not a public address`);
  return error;
}

/**
 * Whether an address is global unicast (after unwrapping IPv4-mapped IPv6). Refuses loopback,
 * private, link-local, CGNAT, multicast, reserved, unspecified, NAT64, 6to4, Teredo, …
 * @example isPublicAddress("8.8.8.8") // true
 * @example isPublicAddress("::ffff:127.0.0.1") // false
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === "unicast";
}

/**
 * An IP literal in any form the OS accepts (`2130706433`, `0177.0.0.1`, `0x7f.1`), as a canonical
 * address, or null for a name.
 * @example literalAddress("0x7f.0.0.1") // "127.0.0.1"
 */
export function literalAddress(host: string): string | null {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (net.isIP(bare)) return ipaddr.process(bare).toString();
  if (/^[0-9a-fA-FxX.]+$/.test(bare) && ipaddr.IPv4.isValid(bare)) {
    try {
      return ipaddr.IPv4.parse(bare).toString();
    } catch {
      return null;
    }
  }
  return null;
}

function isAllowListed(allowHosts: readonly string[] | undefined, host: string, address: string): boolean {
  if (!allowHosts?.length) return false;
  const canonical = ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
  return allowHosts.includes(host) || allowHosts.includes(address) || allowHosts.includes(canonical);
}

/**
 * Throws CONNECTION_AGENT_HOST_NOT_ALLOWED unless `address` (what `host` resolved to) is global
 * unicast or allow-listed.
 */
export function assertAddressAllowed(host: string, address: string, allowHosts?: readonly string[]): void {
  if (isAllowListed(allowHosts, host, address)) return;
  if (!isPublicAddress(address)) throw hostNotAllowed(host, address);
}

type LookupAddress = { address: string; family: number };

/**
 * Resolves a host once, the way the OS does, and vets every answer. The answer is what to connect to.
 * @example await resolveAllowed("localhost") // throws CONNECTION_AGENT_HOST_NOT_ALLOWED
 */
export async function resolveAllowed(host: string, allowHosts?: readonly string[]): Promise<LookupAddress> {
  const literal = literalAddress(host);
  if (literal) {
    assertAddressAllowed(host, literal, allowHosts);
    return { address: literal, family: net.isIPv6(literal) ? 6 : 4 };
  }
  let answers: LookupAddress[];
  try {
    answers = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch (error) {
    throw new AgentError("CONNECTION_AGENT_CONNECT", `Cannot resolve ${host}`, { cause: error });
  }
  if (!answers.length) throw new AgentError("CONNECTION_AGENT_CONNECT", `Cannot resolve ${host}`);
  for (const answer of answers) assertAddressAllowed(host, answer.address, allowHosts);
  return answers[0];
}

/**
 * A `lookup` for `net.connect`/`tls.connect`/http agents that resolves once and vets the address
 * the socket will really use, so DNS rebinding cannot slip a private address in.
 */
export function guardedLookup(allowHosts?: readonly string[]): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions | number | undefined, callback: (...args: unknown[]) => void) => {
    const wantsAll = typeof options === "object" && options !== null && options.all === true;
    resolveAllowed(hostname, allowHosts).then(
      (answer) => (wantsAll ? callback(null, [answer]) : callback(null, answer.address, answer.family)),
      (error: unknown) => callback(error),
    );
  }) as unknown as net.LookupFunction;
}

/**
 * Opens a TCP connection through the guard (IP literals vetted before connecting, names in the
 * lookup hook), with TCP_NODELAY. Rejects with HOST_NOT_ALLOWED (no connection made), CONNECT or TIMEOUT.
 */
export async function connectGuarded(options: { host: string; port: number; allowHosts?: readonly string[]; timeoutMs?: number }): Promise<net.Socket> {
  const literal = literalAddress(options.host);
  if (literal) assertAddressAllowed(options.host, literal, options.allowHosts);
  const timeoutMs = options.timeoutMs ?? COMMAND_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: literal ?? options.host, port: options.port, lookup: guardedLookup(options.allowHosts), noDelay: true });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new AgentError("CONNECTION_AGENT_TIMEOUT", `No connection to ${options.host}:${options.port} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.off("error", onError);
      socket.setNoDelay(true);
      resolve(socket);
    });
    const onError = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    socket.once("error", onError);
  });
}

/** The connection factory an http(s).Agent uses, vetting IP literals first and names in the lookup hook. */
function guardedCreateConnection<T>(allowHosts: readonly string[] | undefined, onlyHost: string | undefined, create: (options: T) => net.Socket) {
  return (options: T & { host?: string }, callback: (error: Error | null, socket?: net.Socket) => void) => {
    const host = options.host ?? "localhost";
    const literal = literalAddress(host);
    try {
      // A redirect to another host is refused (no credentials or requests leave for it).
      if (onlyHost !== undefined && host.toLowerCase() !== onlyHost.toLowerCase()) {
        throw new AgentError("CONNECTION_AGENT_HOST_NOT_ALLOWED", `Only ${onlyHost} may be reached, not ${host}`, { reason: "OTHER_HOST" });
      }
      if (literal) assertAddressAllowed(host, literal, allowHosts);
    } catch (error) {
      callback(error as Error);
      return undefined;
    }
    return create({ ...options, lookup: guardedLookup(allowHosts) });
  };
}

/**
 * HTTP and HTTPS agents whose every socket goes through the guard (S3 and WebDAV drivers). With
 * `onlyHost`, sockets to any other host (a redirect) are refused too.
 * @example const { httpAgent, httpsAgent } = guardedAgents(["127.0.0.1"], "127.0.0.1");
 */
export function guardedAgents(allowHosts?: readonly string[], onlyHost?: string): { httpAgent: http.Agent; httpsAgent: https.Agent } {
  class GuardedHttpAgent extends http.Agent {}
  class GuardedHttpsAgent extends https.Agent {}
  const httpAgent = new GuardedHttpAgent({ keepAlive: true, maxSockets: 3 });
  const httpsAgent = new GuardedHttpsAgent({ keepAlive: true, maxSockets: 3 });
  const baseHttp = httpAgent.createConnection.bind(httpAgent) as unknown as (options: object) => net.Socket;
  const baseHttps = httpsAgent.createConnection.bind(httpsAgent) as unknown as (options: object) => net.Socket;
  Object.assign(httpAgent, { createConnection: guardedCreateConnection(allowHosts, onlyHost, (options: object) => baseHttp(options)) });
  Object.assign(httpsAgent, { createConnection: guardedCreateConnection(allowHosts, onlyHost, (options: object) => baseHttps(options)) });
  return { httpAgent, httpsAgent };
}

// ── sizes and time ───────────────────────────────────────────────────────────────────────────────

/**
 * Collects a stream into a Buffer, counting the bytes that really arrive (not declared sizes) and
 * stopping with FILE_TOO_LARGE past `maxBytes`.
 */
export async function collect(stream: Readable, maxBytes: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += buffer.length;
    if (total > maxBytes) {
      stream.destroy();
      throw new AgentError("FILE_TOO_LARGE", `${what} is larger than ${maxBytes} bytes`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Runs one command with the command timeout; on expiry calls `onTimeout` (which drops the
 * connection) and rejects with CONNECTION_AGENT_TIMEOUT.
 */
export async function withTimeout<T>(work: () => Promise<T>, timeoutMs: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new AgentError("CONNECTION_AGENT_TIMEOUT", `No answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const running = work();
  running.catch(() => undefined);
  try {
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(timer);
  }
}
