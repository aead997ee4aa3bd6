/**
 * WebDAV driver on the `webdav` package: Basic auth; a host without a scheme gets `http://`;
 * sockets through the address guard, and only to the configured host (a redirect elsewhere is
 * refused); missing parent folders created with MKCOL level by level (Apache answers 409 to a PUT
 * into a missing folder); listings one level at a time (Depth: infinity is usually forbidden).
 * Atomic replace: PUT to a temporary name, PROPFIND to verify the size, then MOVE with
 * `Overwrite: T`.
 *
 * @example
 * const fs = createWebDavFs({ host: "dav.example.com/remote.php/dav/files/me", username: "me", password: "…" });
 * await fs.writeAtomic("index.html", Buffer.from("<h1>Hi</h1>"));
 */
import { AuthType, createClient, type FileStat, type WebDAVClient } from "webdav";
import { AgentError, mapWebDavError, type OperationCode } from "../errors.ts";
import { guardedAgents, isSafeEntryName, parentOf } from "../guards.ts";
import { sortEntries, type CommonOptions, type ReadOptions, type RemoteEntry } from "../remote-fs.ts";
import { BaseFs } from "./base.ts";

export interface WebDavOptions extends CommonOptions {
  /** "dav.example.com", "https://dav.example.com/base/path" (no scheme → http://). */
  host: string;
  /** Overrides the URL's port. */
  port?: number;
  username: string;
  password: string;
}

/** The server URL: a scheme added when missing, the port applied, no trailing slash. */
export function webDavUrl(host: string, port?: number): URL {
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new AgentError("CONNECTION_AGENT_CONNECT", `Unsupported scheme ${url.protocol}`);
  if (port) url.port = String(port);
  url.pathname = url.pathname.replace(/\/+$/, "");
  return url;
}

export class WebDavFs extends BaseFs {
  readonly protocol = "webdav" as const;
  private client: WebDAVClient | null = null;
  private agents: ReturnType<typeof guardedAgents> | null = null;

  private readonly options: WebDavOptions;

  constructor(options: WebDavOptions) {
    super(options);
    this.options = options;
  }

  protected mapError(error: unknown, operation: OperationCode): AgentError {
    return mapWebDavError(error, operation);
  }

  protected drop(): void {
    this.client = null;
    this.agents?.httpAgent.destroy();
    this.agents?.httpsAgent.destroy();
    this.agents = null;
  }

  private get dav(): WebDAVClient {
    if (this.client) return this.client;
    const url = webDavUrl(this.options.host, this.options.port);
    this.agents = guardedAgents(this.allowHosts, url.hostname.replace(/^\[|\]$/g, ""));
    this.client = createClient(url.toString().replace(/\/$/, ""), {
      authType: AuthType.Password,
      username: this.options.username,
      password: this.options.password,
      httpAgent: this.agents.httpAgent,
      httpsAgent: this.agents.httpsAgent,
    });
    return this.client;
  }

  private fromStat(folder: string, item: FileStat): RemoteEntry {
    const path = `${folder === "/" ? "" : folder}/${item.basename}`;
    const modified = item.lastmod ? new Date(item.lastmod) : null;
    return this.entry(path, item.type === "directory" ? "directory" : "file", item.size, modified && !Number.isNaN(modified.getTime()) ? modified : null);
  }

  async list(path: string): Promise<RemoteEntry[]> {
    const folder = this.resolve(path);
    return this.run("CONNECTION_AGENT_LIST", async () => {
      const items = (await this.dav.getDirectoryContents(folder)) as FileStat[];
      return sortEntries(items.filter((item) => isSafeEntryName(item.basename)).map((item) => this.fromStat(folder, item)));
    });
  }

  async stat(path: string): Promise<RemoteEntry | null> {
    const full = this.resolve(path);
    return this.run("CONNECTION_AGENT_LIST", () => this.statNow(full));
  }

  private async statNow(full: string): Promise<RemoteEntry | null> {
    try {
      const item = (await this.dav.stat(full)) as FileStat;
      return this.fromStat(parentOf(full), { ...item, basename: full === "/" ? "" : full.slice(full.lastIndexOf("/") + 1) });
    } catch (error) {
      if ((error as { status?: number }).status === 404) return null;
      throw error;
    }
  }

  async read(path: string, options?: ReadOptions): Promise<Buffer> {
    const full = this.resolve(path);
    const cap = this.readCap(options);
    return this.run("CONNECTION_AGENT_DOWNLOAD", async () => {
      const item = await this.statNow(full);
      if (!item) throw new AgentError("NOT_FOUND", `${full} does not exist`);
      if (item.type === "directory") throw new AgentError("CONNECTION_AGENT_DOWNLOAD", `${full} is a folder`);
      if (item.size > cap) throw new AgentError("FILE_TOO_LARGE", `${full} is larger than ${cap} bytes`);
      let body: ArrayBuffer | Buffer;
      try {
        body = (await this.dav.getFileContents(full, { format: "binary" })) as ArrayBuffer | Buffer;
      } catch (error) {
        // Apache's MOVE with Overwrite: T removes the target before renaming the new file in; a GET
        // in that window answers 404 or 403. Look again: gone → NOT_FOUND, back → read it once more.
        const status = (error as { status?: number }).status;
        if (status !== 403 && status !== 404) throw error;
        if (!(await this.statNow(full))) throw new AgentError("NOT_FOUND", `${full} does not exist`, { cause: error });
        body = (await this.dav.getFileContents(full, { format: "binary" })) as ArrayBuffer | Buffer;
      }
      const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body);
      if (buffer.length > cap) throw new AgentError("FILE_TOO_LARGE", `${full} is larger than ${cap} bytes`);
      return buffer;
    });
  }

  private async ensureFolder(folder: string): Promise<void> {
    if (folder === "/") return;
    const existing = await this.statNow(folder);
    if (existing?.type === "directory") return;
    if (existing) throw new AgentError("FILE_ALREADY_EXISTS", `${folder} is a file`);
    try {
      await this.dav.createDirectory(folder, { recursive: true });
    } catch (error) {
      // Another writer may have created it meanwhile.
      if ((await this.statNow(folder))?.type !== "directory") throw new AgentError("CONNECTION_AGENT_MKDIR", `Cannot create ${folder}`, { cause: error });
    }
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    const full = this.resolve(path);
    this.checkWriteSize(full, data);
    const temporary = this.temporaryPath(full);
    return this.run("CONNECTION_AGENT_UPLOAD", async () => {
      await this.ensureFolder(parentOf(full));
      try {
        const stored = await this.dav.putFileContents(temporary, Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
          overwrite: true,
          contentLength: data.byteLength,
        });
        if (!stored) throw new AgentError("CONNECTION_AGENT_UPLOAD", `${temporary} was not stored`);
        const written = await this.statNow(temporary);
        if (written?.size !== data.byteLength) {
          throw new AgentError("CONNECTION_AGENT_UPLOAD", `${temporary}: ${written?.size} bytes written of ${data.byteLength}`, { reason: "SIZE_MISMATCH" });
        }
        try {
          await this.dav.moveFile(temporary, full, { overwrite: true });
        } catch (error) {
          throw new AgentError("CONNECTION_AGENT_MOVE", `MOVE ${temporary} → ${full} failed`, { cause: error });
        }
      } catch (error) {
        await this.dav.deleteFile(temporary).catch(() => undefined);
        throw error;
      }
    });
  }

  async mkdirp(path: string): Promise<void> {
    const full = this.resolve(path);
    return this.run("CONNECTION_AGENT_MKDIR", () => this.ensureFolder(full));
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.resolve(from);
    const target = this.resolve(to);
    return this.run("CONNECTION_AGENT_MOVE", async () => {
      if (!(await this.statNow(source))) throw new AgentError("NOT_FOUND", `${source} does not exist`);
      if (await this.statNow(target)) throw new AgentError("FILE_ALREADY_EXISTS", `${target} already exists`);
      await this.dav.moveFile(source, target, { overwrite: false });
    });
  }

  async remove(path: string): Promise<void> {
    const full = this.resolve(path);
    if (full === this.home) return Promise.reject(new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", "The home folder itself cannot be removed"));
    return this.run("CONNECTION_AGENT_DELETE", async () => {
      try {
        await this.dav.deleteFile(full);
      } catch (error) {
        if ((error as { status?: number }).status !== 404) throw error;
      }
    });
  }

  async close(): Promise<void> {
    this.drop();
  }
}

/** @example createWebDavFs({ host: "127.0.0.1:8081", username, password, allowHosts: ["127.0.0.1"] }) */
export function createWebDavFs(options: WebDavOptions): WebDavFs {
  return new WebDavFs(options);
}
