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

/** DECISIONS.md: 45 s per command. */
export const COMMAND_TIMEOUT_MS = 45_000;
/** DECISIONS.md: a page file read for editing is at most 5 MB. */
export const MAX_READ_BYTES = 5 * 1024 * 1024;
/** DECISIONS.md: an upload is at most 25 MB per file. */
export const MAX_WRITE_BYTES = 25 * 1024 * 1024;

// ── paths ────────────────────────────────────────────────────────────────────────────────────────

/**
 * Normalises a POSIX folder path ("/", "/www", no trailing slash). Refuses NUL, backslashes, `..`
 * segments and percent-encoded dots or slashes.
 * @example normaliseFolder("www/site/") // "/www/site"
 */
export function normaliseFolder(folder: string): string {
  return normalise(folder.startsWith("/") ? folder : `/${folder}`, folder);
}

function normalise(input: string, original: string): string {
  const refuse = (why: string) => new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", `Refused path ${JSON.stringify(original)}: ${why}`);
  if (typeof input !== "string" || input.length === 0) throw refuse("empty");
  if (input.length > 4096) throw refuse("too long");
  if (input.includes("\0")) throw refuse("NUL");
  if (input.includes("\\")) throw refuse("backslash");
  if ([...input].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f)) throw refuse("control character");
  if (/%(2e|2f|5c|00)/i.test(input)) throw refuse("percent-encoded dot, slash or NUL");
  const segments: string[] = [];
  for (const segment of input.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") throw refuse("'..' segment");
    segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/**
 * Resolves a remote path against the home folder: absolute paths are taken as they are, relative
 * ones are joined to the home folder. The answer is normalised and lies inside the home folder
 * (or is it), else PATH_OUTSIDE_OF_HOME_FOLDER.
 * @example resolveRemotePath("/www", "blog/a.html") // "/www/blog/a.html"
 * @example resolveRemotePath("/www", "/etc/passwd") // throws PATH_OUTSIDE_OF_HOME_FOLDER
 */
export function resolveRemotePath(home: string, input: string): string {
  const root = normaliseFolder(home);
  const full = normalise(typeof input === "string" && input.startsWith("/") ? input : `${root}/${input}`, input);
  if (root === "/" || full === root || full.startsWith(`${root}/`)) return full;
  throw new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", `${JSON.stringify(input)} is outside of ${root}`);
}

/** The parent folder of a normalised path ("/" for "/" itself). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf("/");
  return cut <= 0 ? "/" : path.slice(0, cut);
}

/** The last segment of a normalised path ("" for "/"). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** A listing name from a server is used only if it is one plain segment (a malicious server may send `../x`). */
export function isSafeEntryName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && !/[/\\\0]/.test(name);
}

/** `.<name>.<random>.tmp` in the same folder (SECURITY.md 19). */
export function temporaryPathFor(path: string, random: string = Math.random().toString(36).slice(2, 10)): string {
  const parent = parentOf(path);
  return `${parent === "/" ? "" : parent}/.${baseName(path)}.${random}.tmp`;
}

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
