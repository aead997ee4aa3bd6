/**
 * The agent's connections, reused between calls: at most MAX_PER_KEY RemoteFs instances per
 * `spec.key` (DECISIONS.md: 3 connections per site — hosts' firewalls block after a handful of
 * failed logins), calls beyond that wait in order, idle instances are closed after IDLE_MS, and a
 * changed spec under the same key (new password, new pin) replaces the key's instances.
 *
 * @example
 * const pool = new ConnectionPool({ allowHosts: [] });
 * const entries = await pool.use(spec, (fs) => fs.list("/"));
 */
import type { ConnectionSpec, ObservedPins } from "./connection.ts";
import { FtpFs } from "./drivers/ftp.ts";
import { SftpFs } from "./drivers/sftp.ts";
import { createRemoteFs, type RemoteFsOptions } from "./index.ts";
import type { RemoteFs } from "./remote-fs.ts";

export const MAX_PER_KEY = 3;
export const IDLE_MS = 60_000;

/**
 * The driver options of a spec. S3: `host` is the endpoint ("" for AWS itself), with `port` applied.
 * @example driverOptions({ key: "site:1", protocol: "ftp", host: "ftp.example.com", username: "me", password: "…", home: "/www" }, [])
 */
export function driverOptions(spec: ConnectionSpec, allowHosts: readonly string[]): RemoteFsOptions {
  const common = { home: spec.home, allowHosts };
  switch (spec.protocol) {
    case "ftp":
    case "ftps":
      return { ...common, protocol: spec.protocol, host: spec.host, port: spec.port, username: spec.username, password: spec.password ?? "", certificateFingerprint256: spec.ftpsCertFingerprint };
    case "sftp":
      return {
        ...common, protocol: "sftp", host: spec.host, port: spec.port, username: spec.username, password: spec.password,
        privateKey: spec.privateKey, passphrase: spec.passphrase, hostKeyFingerprint: spec.sftpHostKey,
      };
    case "s3": {
      let endpoint = spec.host || undefined;
      if (endpoint && spec.port) {
        const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`);
        url.port = String(spec.port);
        endpoint = url.toString().replace(/\/$/, "");
      }
      return {
        ...common, protocol: "s3", endpoint, region: spec.s3Region || "us-east-1", bucket: spec.s3Bucket ?? "",
        accessKeyId: spec.s3AccessKey ?? "", secretAccessKey: spec.s3SecretKey ?? "", acl: spec.s3Acl,
      };
    }
    case "webdav":
      return { ...common, protocol: "webdav", host: spec.host, port: spec.port, username: spec.username, password: spec.password ?? "" };
  }
}

/** What a connection learned for the Worker to pin (the SFTP host key, the FTPS certificate). */
export function observedPins(fs: RemoteFs): ObservedPins {
  if (fs instanceof SftpFs && fs.hostKeyFingerprint) return { sftpHostKey: fs.hostKeyFingerprint };
  if (fs instanceof FtpFs && fs.protocol === "ftps" && fs.certificateFingerprint256) return { ftpsCertFingerprint: fs.certificateFingerprint256 };
  return {};
}

/** Everything but the key, in a fixed order: two specs with the same fingerprint open the same connections. */
function fingerprintOf(spec: ConnectionSpec): string {
  return JSON.stringify(Object.entries(spec).filter(([name]) => name !== "key").sort(([a], [b]) => (a < b ? -1 : 1)));
}

interface Slot {
  fs: RemoteFs;
  busy: boolean;
  idleTimer: ReturnType<typeof setTimeout> | null;
}

interface KeyPool {
  fingerprint: string;
  spec: ConnectionSpec;
  slots: Slot[];
  waiters: ((slot: Slot) => void)[];
}

export interface PoolOptions {
  /** Hosts allowed although not public (development and tests only; production never sets it). */
  allowHosts: readonly string[];
  maxPerKey?: number;
  idleMs?: number;
  /** Creates a driver (tests replace it). */
  create?: (spec: ConnectionSpec, allowHosts: readonly string[]) => RemoteFs;
}

export class ConnectionPool {
  private readonly pools = new Map<string, KeyPool>();
  private readonly allowHosts: readonly string[];
  private readonly maxPerKey: number;
  private readonly idleMs: number;
  private readonly create: (spec: ConnectionSpec, allowHosts: readonly string[]) => RemoteFs;

  constructor(options: PoolOptions) {
    this.allowHosts = options.allowHosts;
    this.maxPerKey = options.maxPerKey ?? MAX_PER_KEY;
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.create = options.create ?? ((spec, allowHosts) => createRemoteFs(driverOptions(spec, allowHosts)));
  }

  /** How many connections a key holds now (tests, logs). */
  size(key: string): number {
    return this.pools.get(key)?.slots.length ?? 0;
  }

  /**
   * Runs `work` on one of the key's connections (waiting for one when all MAX_PER_KEY are busy)
   * and answers its result with the pins the connection observed.
   */
  async use<T>(spec: ConnectionSpec, work: (fs: RemoteFs) => Promise<T>): Promise<{ value: T; pins: ObservedPins }> {
    const slot = await this.acquire(spec);
    try {
      const value = await work(slot.fs);
      return { value, pins: observedPins(slot.fs) };
    } catch (error) {
      Object.assign(error as object, { pins: observedPins(slot.fs) });
      throw error;
    } finally {
      this.release(spec.key, slot);
    }
  }

  /**
   * The key's pool for this spec. A changed spec replaces the pool: idle connections close now,
   * busy ones when released (release() no longer finds them), and the old pool's waiters queue on
   * the new one (the Worker's latest word on the key wins).
   */
  private poolFor(spec: ConnectionSpec): KeyPool {
    const fingerprint = fingerprintOf(spec);
    const existing = this.pools.get(spec.key);
    if (existing && existing.fingerprint === fingerprint) return existing;
    const pool: KeyPool = { fingerprint, spec, slots: [], waiters: [] };
    this.pools.set(spec.key, pool);
    if (existing) {
      for (const slot of existing.slots) if (!slot.busy) this.closeSlot(slot);
      for (const waiter of existing.waiters.splice(0)) void this.acquireFrom(pool).then(waiter);
    }
    return pool;
  }

  private acquire(spec: ConnectionSpec): Promise<Slot> {
    return this.acquireFrom(this.poolFor(spec));
  }

  private acquireFrom(pool: KeyPool): Promise<Slot> {
    const idle = pool.slots.find((slot) => !slot.busy);
    if (idle) {
      this.take(idle);
      return Promise.resolve(idle);
    }
    if (pool.slots.length < this.maxPerKey) {
      const slot: Slot = { fs: this.create(pool.spec, this.allowHosts), busy: false, idleTimer: null };
      pool.slots.push(slot);
      this.take(slot);
      return Promise.resolve(slot);
    }
    return new Promise((resolve) => pool.waiters.push(resolve));
  }

  private take(slot: Slot): void {
    slot.busy = true;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
  }

  private release(key: string, slot: Slot): void {
    const pool = this.pools.get(key);
    if (!pool || !pool.slots.includes(slot)) {
      // The spec changed while this connection worked: it belongs to a retired pool.
      this.closeSlot(slot);
      return;
    }
    const waiter = pool.waiters.shift();
    if (waiter) {
      waiter(slot);
      return;
    }
    slot.busy = false;
    slot.idleTimer = setTimeout(() => {
      pool.slots = pool.slots.filter((other) => other !== slot);
      if (pool.slots.length === 0 && pool.waiters.length === 0 && this.pools.get(key) === pool) this.pools.delete(key);
      this.closeSlot(slot);
    }, this.idleMs);
    slot.idleTimer.unref?.();
  }

  private closeSlot(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    void slot.fs.close().catch(() => undefined);
  }

  /** Closes every connection (the agent is stopping). */
  async closeAll(): Promise<void> {
    const slots = [...this.pools.values()].flatMap((pool) => pool.slots);
    this.pools.clear();
    await Promise.all(slots.map(async (slot) => {
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      await slot.fs.close().catch(() => undefined);
    }));
  }
}
