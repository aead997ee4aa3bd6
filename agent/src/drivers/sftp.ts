/**
 * SFTP driver on ssh2-sftp-client: password or private key; the host key pinned by its SHA256
 * fingerprint (first use: accepted and exposed in `hostKeyFingerprint` for the caller to store);
 * the socket opened through the address guard with TCP_NODELAY; atomic replace with OpenSSH's
 * posix-rename@openssh.com.
 *
 * @example
 * const fs = createSftpFs({ host: "example.com", username: "me", privateKey, hostKeyFingerprint: "SHA256:…", home: "/var/www" });
 * await fs.writeAtomic("index.html", Buffer.from("<h1>Hi</h1>"));
 */
import { createHash } from "node:crypto";
import SftpClient from "ssh2-sftp-client";
import { AgentError, mapSftpError, type OperationCode } from "../errors.ts";
import { collect, connectGuarded, isSafeEntryName, parentOf } from "../guards.ts";
import { sortEntries, type CommonOptions, type ReadOptions, type RemoteEntry } from "../remote-fs.ts";
import { BaseFs } from "./base.ts";

export interface SftpOptions extends CommonOptions {
  host: string;
  /** Default 22. */
  port?: number;
  username: string;
  password?: string;
  /** OpenSSH or PEM private key. */
  privateKey?: string;
  passphrase?: string;
  /** "SHA256:…" as `ssh-keygen -l` prints it; unset on first use (then read `hostKeyFingerprint`). */
  hostKeyFingerprint?: string;
}

/** "SHA256:<base64 without padding>" of a raw host key blob. */
export function sshKeyFingerprint(key: Buffer): string {
  return `SHA256:${createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

export class SftpFs extends BaseFs {
  readonly protocol = "sftp" as const;
  /** The fingerprint of the host key seen on the last connection (store it on first use). */
  hostKeyFingerprint: string | undefined;
  private client: SftpClient | null = null;
  private connecting: Promise<SftpClient> | null = null;

  private readonly options: SftpOptions;

  constructor(options: SftpOptions) {
    super(options);
    this.options = options;
  }

  protected mapError(error: unknown, operation: OperationCode): AgentError {
    return mapSftpError(error, operation);
  }

  /** Bumped on every drop, so a connection that completes after a timeout or close() is ended, not kept. */
  private generation = 0;

  protected drop(): void {
    const client = this.client;
    this.generation += 1;
    this.client = null;
    this.connecting = null;
    if (client) void client.end().catch(() => undefined);
  }

  /** The server ended or broke this connection: the next operation opens a new one. */
  private dropIfCurrent(client: SftpClient): void {
    if (this.client === client) this.drop();
  }

  private connection(): Promise<SftpClient> {
    if (this.client) return Promise.resolve(this.client);
    const generation = this.generation;
    this.connecting ??= this.open().then(
      (client) => {
        if (generation !== this.generation) {
          void client.end().catch(() => undefined);
          throw new AgentError("CONNECTION_AGENT_CONNECT", "The connection was dropped while it opened");
        }
        this.client = client;
        this.connecting = null;
        return client;
      },
      (error: unknown) => {
        if (generation === this.generation) this.connecting = null;
        throw error;
      },
    );
    return this.connecting;
  }

  private async open(): Promise<SftpClient> {
    const { host, port = 22, username, password, privateKey, passphrase } = this.options;
    const sock = await connectGuarded({ host, port, allowHosts: this.allowHosts, timeoutMs: this.commandTimeoutMs });
    // Errors after the connection is given up (a late "No response from server" once end() ran)
    // must not crash the agent: the operation in flight already failed through its own promise.
    sock.on("error", () => undefined);
    const client = new SftpClient("sftp", { error: () => this.dropIfCurrent(client), end: () => this.dropIfCurrent(client), close: () => this.dropIfCurrent(client) });
    let refusedKey: string | undefined;
    try {
      await client.connect({
        sock,
        host,
        port,
        username,
        password,
        privateKey,
        passphrase,
        readyTimeout: this.commandTimeoutMs,
        hostVerifier: (key: Buffer) => {
          const seen = sshKeyFingerprint(key);
          this.hostKeyFingerprint = seen;
          const pinned = this.options.hostKeyFingerprint;
          if (pinned && pinned !== seen) {
            refusedKey = seen;
            return false;
          }
          return true;
        },
      });
    } catch (error) {
      sock.destroy();
      void client.end().catch(() => undefined);
      if (refusedKey) {
        throw new AgentError("CONNECTION_AGENT_CONNECT", `The server's host key ${refusedKey} is not the pinned one`, { cause: error, reason: "HOST_KEY_CHANGED" });
      }
      throw mapSftpError(error, "CONNECTION_AGENT_CONNECT");
    }
    sock.setNoDelay(true);
    return client;
  }

  private realHome: string | null = null;

  /**
   * SECURITY.md 5: re-check with the server's realpath, so a symlink inside the home folder cannot
   * lead outside it. A path that does not exist (yet) passes; its parent is checked by the caller.
   */
  private async assertRealInsideHome(client: SftpClient, path: string): Promise<void> {
    this.realHome ??= (await client.realPath(this.home)) || this.home;
    const real = await client.realPath(path);
    if (!real) return;
    const home = this.realHome;
    if (home === "/" || real === home || real.startsWith(`${home}/`)) return;
    throw new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", `${path} leads to ${real}, outside of ${home}`);
  }

  private toEntry(path: string, stats: { isDirectory: boolean; size: number; modifyTime: number }): RemoteEntry {
    return this.entry(path, stats.isDirectory ? "directory" : "file", stats.size, stats.modifyTime ? new Date(stats.modifyTime) : null);
  }

  async list(path: string): Promise<RemoteEntry[]> {
    const folder = this.resolve(path);
    return this.run("CONNECTION_AGENT_LIST", async () => {
      const client = await this.connection();
      await this.assertRealInsideHome(client, folder);
      const items = await client.list(folder);
      const base = folder === "/" ? "" : folder;
      return sortEntries(
        items
          .filter((item) => isSafeEntryName(item.name))
          .map((item) => this.entry(`${base}/${item.name}`, item.type === "d" ? "directory" : "file", item.size, item.modifyTime ? new Date(item.modifyTime) : null)),
      );
    });
  }

  async stat(path: string): Promise<RemoteEntry | null> {
    const full = this.resolve(path);
    return this.run("CONNECTION_AGENT_LIST", async () => {
      const client = await this.connection();
      try {
        return this.toEntry(full, await client.stat(full));
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 2 || code === "ENOENT" || /No such file/i.test(String((error as Error).message))) return null;
        throw error;
      }
    });
  }

  async read(path: string, options?: ReadOptions): Promise<Buffer> {
    const full = this.resolve(path);
    const cap = this.readCap(options);
    return this.run("CONNECTION_AGENT_DOWNLOAD", async () => {
      const client = await this.connection();
      await this.assertRealInsideHome(client, full);
      const stats = await client.stat(full);
      if (stats.isDirectory) throw new AgentError("CONNECTION_AGENT_DOWNLOAD", `${full} is a folder`);
      if (stats.size > cap) throw new AgentError("FILE_TOO_LARGE", `${full} is larger than ${cap} bytes`);
      return collect(client.createReadStream(full, { highWaterMark: 256 * 1024 } as never), cap, full);
    });
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    const full = this.resolve(path);
    this.checkWriteSize(full, data);
    const temporary = this.temporaryPath(full);
    return this.run("CONNECTION_AGENT_UPLOAD", async () => {
      const client = await this.connection();
      await this.assertRealInsideHome(client, parentOf(full));
      await client.mkdir(parentOf(full), true).catch(async (error: unknown) => {
        const existing = await client.exists(parentOf(full));
        if (existing !== "d" && existing !== "l") throw new AgentError("CONNECTION_AGENT_MKDIR", String(error), { cause: error });
      });
      await this.assertRealInsideHome(client, parentOf(full));
      await this.assertRealInsideHome(client, full);
      try {
        await client.put(Buffer.from(data.buffer, data.byteOffset, data.byteLength), temporary);
        const written = await client.stat(temporary);
        if (written.size !== data.byteLength) {
          throw new AgentError("CONNECTION_AGENT_UPLOAD", `${temporary}: ${written.size} bytes written of ${data.byteLength}`, { reason: "SIZE_MISMATCH" });
        }
        try {
          await client.posixRename(temporary, full);
        } catch (error) {
          throw new AgentError("CONNECTION_AGENT_MOVE", `posix-rename ${temporary} → ${full} failed`, { cause: error });
        }
      } catch (error) {
        await client.delete(temporary, true).catch(() => undefined);
        throw error;
      }
    });
  }

  async mkdirp(path: string): Promise<void> {
    const full = this.resolve(path);
    return this.run("CONNECTION_AGENT_MKDIR", async () => {
      const client = await this.connection();
      const existing = await client.exists(full);
      if (existing === "d") return;
      if (existing) throw new AgentError("FILE_ALREADY_EXISTS", `${full} is a file`);
      await client.mkdir(full, true);
    });
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.resolve(from);
    const target = this.resolve(to);
    return this.run("CONNECTION_AGENT_MOVE", async () => {
      await this.requireExisting(source);
      await this.refuseExisting(target);
      const client = await this.connection();
      await this.assertRealInsideHome(client, parentOf(source));
      await this.assertRealInsideHome(client, parentOf(target));
      await client.rename(source, target);
    });
  }

  async remove(path: string): Promise<void> {
    const full = this.resolve(path);
    if (full === this.home) return Promise.reject(new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", "The home folder itself cannot be removed"));
    return this.run("CONNECTION_AGENT_DELETE", async () => {
      const client = await this.connection();
      await this.assertRealInsideHome(client, parentOf(full));
      const existing = await client.exists(full);
      if (!existing) return;
      if (existing === "d") await client.rmdir(full, true);
      else await client.delete(full);
    });
  }

  async close(): Promise<void> {
    const client = this.client;
    this.generation += 1;
    this.client = null;
    this.connecting = null;
    if (client) await client.end().catch(() => undefined);
  }
}

/** @example createSftpFs({ host: "127.0.0.1", port: 2222, username, password, allowHosts: ["127.0.0.1"] }) */
export function createSftpFs(options: SftpOptions): SftpFs {
  return new SftpFs(options);
}
