/**
 * The demo store: a `RemoteFs` whose "server" is R2 (ARCHITECTURE.md, "Embedded defaults"). A demo
 * site's files live under `demoSitePrefix(siteId)`; the server path "/a/b.html" is the key
 * `demoSiteFileKey(siteId, "/a/b.html")` (demo sites have the home folder "/", so the key is also
 * the path relative to the home folder, as the seed writes it).
 *
 * Same promises as the agent's drivers (the contract suite tests/agent/contract.ts runs unchanged
 * against it in workerd): paths normalised and kept inside the home folder; folders are key
 * prefixes, with a zero-byte "folder/" marker so an empty folder still lists, and a folder left
 * empty by a remove or a rename keeps existing; reads capped (5 MB by default); a write is one R2
 * PUT, atomic by nature (a reader sees the old or the new object), its size verified; renames copy
 * everything, then delete (a failure half-way leaves both, never neither).
 *
 * @example
 * const fs = createDemoStore(env.UPLOADS, site.id, { home: site.homeFolder });
 * await fs.writeAtomic("index.html", new TextEncoder().encode("<h1>Hi</h1>"));
 */
import { Buffer } from "node:buffer";
import { AgentError } from "../../agent/src/errors.ts";
import { baseName, isSafeEntryName, MAX_READ_BYTES, MAX_WRITE_BYTES, normaliseFolder, parentOf, resolveRemotePath } from "../../agent/src/paths.ts";
import { sortEntries, type ReadOptions, type RemoteEntry, type RemoteFs } from "../../agent/src/remote-fs.ts";
import { demoSiteFileKey, demoSitePrefix } from "~/lib/storage-keys";

/** The R2 calls the store makes (an `R2Bucket` has them all). */
export type DemoBucket = Pick<R2Bucket, "head" | "get" | "put" | "list" | "delete">;

export interface DemoStoreOptions {
  /** The site's home folder; default "/". */
  home?: string;
  /** Default read cap; default 5 MB. */
  maxReadBytes?: number;
  /** Write cap; default 25 MB. */
  maxWriteBytes?: number;
}

const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  json: "application/json",
  txt: "text/plain; charset=utf-8",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
  pdf: "application/pdf",
  woff2: "font/woff2",
};

export function contentTypeOf(path: string): string {
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? "application/octet-stream";
}

/** R2 deletes up to 1000 keys per call. */
const DELETE_BATCH = 1000;

export class DemoStore implements RemoteFs {
  readonly protocol = "demo" as const;
  readonly home: string;
  private readonly bucket: DemoBucket;
  private readonly siteId: string;
  private readonly maxReadBytes: number;
  private readonly maxWriteBytes: number;

  constructor(bucket: DemoBucket, siteId: string, options: DemoStoreOptions = {}) {
    this.bucket = bucket;
    this.siteId = siteId;
    this.home = normaliseFolder(options.home ?? "/");
    this.maxReadBytes = options.maxReadBytes ?? MAX_READ_BYTES;
    this.maxWriteBytes = options.maxWriteBytes ?? MAX_WRITE_BYTES;
  }

  // ── keys ───────────────────────────────────────────────────────────────────────────────────────

  private resolve(path: string): string {
    return resolveRemotePath(this.home, path);
  }

  /** The object key of a file at a normalised server path. */
  private key(path: string): string {
    return demoSiteFileKey(this.siteId, path);
  }

  /** The prefix of a folder's contents (also its marker's key): "demo-sites/<id>/a/b/" for "/a/b". */
  private prefix(folder: string): string {
    return folder === "/" ? demoSitePrefix(this.siteId) : `${this.key(folder)}/`;
  }

  private entry(path: string, type: RemoteEntry["type"], size: number, modifiedAt: Date | null): RemoteEntry {
    return { name: baseName(path), path, type, size: type === "directory" ? 0 : size, modifiedAt };
  }

  /** Every key under a prefix (all pages). */
  private async keysUnder(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.bucket.list({ prefix, cursor });
      for (const object of page.objects) keys.push(object.key);
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return keys;
  }

  /** Runs one R2 operation; anything that is not already an AgentError becomes the operation's code. */
  private async run<T>(operation: "CONNECTION_AGENT_LIST" | "CONNECTION_AGENT_DOWNLOAD" | "CONNECTION_AGENT_UPLOAD" | "CONNECTION_AGENT_MKDIR" | "CONNECTION_AGENT_MOVE" | "CONNECTION_AGENT_DELETE", work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AgentError) throw error;
      throw new AgentError(operation, error instanceof Error ? error.message : String(error), { cause: error });
    }
  }

  private async statNow(full: string): Promise<RemoteEntry | null> {
    if (full === "/") return this.entry("/", "directory", 0, null);
    const head = await this.bucket.head(this.key(full));
    if (head) return this.entry(full, "file", head.size, head.uploaded);
    const page = await this.bucket.list({ prefix: this.prefix(full), limit: 1 });
    return page.objects.length > 0 ? this.entry(full, "directory", 0, null) : null;
  }

  /** Keeps a folder in existence (a zero-byte marker), e.g. after its last file moved away. */
  private async keepFolder(folder: string): Promise<void> {
    if (folder === "/") return;
    await this.bucket.put(this.prefix(folder), new Uint8Array(0));
  }

  // ── RemoteFs ───────────────────────────────────────────────────────────────────────────────────

  async list(path: string): Promise<RemoteEntry[]> {
    const folder = this.resolve(path);
    return this.run("CONNECTION_AGENT_LIST", async () => {
      const prefix = this.prefix(folder);
      const base = folder === "/" ? "" : folder;
      const entries = new Map<string, RemoteEntry>();
      let cursor: string | undefined;
      do {
        const page = await this.bucket.list({ prefix, delimiter: "/", cursor });
        for (const common of page.delimitedPrefixes) {
          const name = common.slice(prefix.length).replace(/\/$/, "");
          if (isSafeEntryName(name)) entries.set(name, this.entry(`${base}/${name}`, "directory", 0, null));
        }
        for (const object of page.objects) {
          // The folder's own marker has the empty name and is left out here.
          const name = object.key.slice(prefix.length);
          if (!isSafeEntryName(name) || entries.has(name)) continue;
          entries.set(name, this.entry(`${base}/${name}`, "file", object.size, object.uploaded));
        }
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return sortEntries([...entries.values()]);
    });
  }

  async stat(path: string): Promise<RemoteEntry | null> {
    const full = this.resolve(path);
    return this.run("CONNECTION_AGENT_LIST", () => this.statNow(full));
  }

  async read(path: string, options?: ReadOptions): Promise<Buffer> {
    const full = this.resolve(path);
    const cap = options?.maxBytes ?? this.maxReadBytes;
    return this.run("CONNECTION_AGENT_DOWNLOAD", async () => {
      const object = await this.bucket.get(this.key(full));
      if (!object) throw new AgentError("NOT_FOUND", `${full} does not exist`);
      if (object.size > cap) {
        await object.body.cancel();
        throw new AgentError("FILE_TOO_LARGE", `${full} is larger than ${cap} bytes`);
      }
      const bytes = await object.arrayBuffer();
      if (bytes.byteLength > cap) throw new AgentError("FILE_TOO_LARGE", `${full} is larger than ${cap} bytes`);
      return Buffer.from(bytes);
    });
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    const full = this.resolve(path);
    if (full === "/") throw new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", "The root folder is not a file");
    if (data.byteLength > this.maxWriteBytes) throw new AgentError("FILE_TOO_LARGE", `${full}: ${data.byteLength} bytes is over ${this.maxWriteBytes}`);
    return this.run("CONNECTION_AGENT_UPLOAD", async () => {
      // One PUT: R2 replaces an object atomically, so no temporary key is needed. Missing parent
      // folders exist implicitly (they are prefixes of the new key).
      const stored = await this.bucket.put(this.key(full), data, { httpMetadata: { contentType: contentTypeOf(full) } });
      if (!stored || stored.size !== data.byteLength) {
        throw new AgentError("CONNECTION_AGENT_UPLOAD", `${full}: ${stored?.size} bytes stored of ${data.byteLength}`, { reason: "SIZE_MISMATCH" });
      }
    });
  }

  async mkdirp(path: string): Promise<void> {
    const full = this.resolve(path);
    if (full === "/") return;
    return this.run("CONNECTION_AGENT_MKDIR", async () => {
      // Markers on every missing level, so removing the deepest folder leaves its parents.
      const levels: string[] = [];
      for (let folder = full; folder !== "/"; folder = parentOf(folder)) levels.unshift(folder);
      for (const folder of levels) {
        const existing = await this.statNow(folder);
        if (existing?.type === "file") throw new AgentError("FILE_ALREADY_EXISTS", `${folder} is a file`);
        if (!existing) await this.bucket.put(this.prefix(folder), new Uint8Array(0));
      }
    });
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.resolve(from);
    const target = this.resolve(to);
    if (source === this.home || source === "/") throw new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", "The home folder itself cannot be moved");
    return this.run("CONNECTION_AGENT_MOVE", async () => {
      const existing = await this.statNow(source);
      if (!existing) throw new AgentError("NOT_FOUND", `${source} does not exist`);
      if (await this.statNow(target)) throw new AgentError("FILE_ALREADY_EXISTS", `${target} already exists`);
      if (target.startsWith(`${source}/`)) throw new AgentError("CONNECTION_AGENT_MOVE", `${source} cannot move into itself`, { reason: "INTO_ITSELF" });
      const moves: [string, string][] = [];
      if (existing.type === "file") moves.push([this.key(source), this.key(target)]);
      else {
        const from = this.prefix(source);
        const into = this.prefix(target);
        for (const key of await this.keysUnder(from)) moves.push([key, into + key.slice(from.length)]);
      }
      // Copy everything first, then delete: a failure half-way leaves both, never neither.
      for (const [fromKey, toKey] of moves) {
        const object = await this.bucket.get(fromKey);
        if (!object) throw new AgentError("NOT_FOUND", `${fromKey} vanished during the move`);
        const body = await object.arrayBuffer();
        const stored = await this.bucket.put(toKey, body, { httpMetadata: object.httpMetadata, customMetadata: object.customMetadata });
        if (!stored || stored.size !== body.byteLength) throw new AgentError("CONNECTION_AGENT_MOVE", `${toKey}: size mismatch`, { reason: "SIZE_MISMATCH" });
      }
      for (let i = 0; i < moves.length; i += DELETE_BATCH) await this.bucket.delete(moves.slice(i, i + DELETE_BATCH).map(([fromKey]) => fromKey));
      await this.keepFolder(parentOf(source));
    });
  }

  async remove(path: string): Promise<void> {
    const full = this.resolve(path);
    if (full === this.home || full === "/") throw new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", "The home folder itself cannot be removed");
    return this.run("CONNECTION_AGENT_DELETE", async () => {
      const existing = await this.statNow(full);
      if (!existing) return;
      if (existing.type === "file") await this.bucket.delete(this.key(full));
      else {
        const keys = await this.keysUnder(this.prefix(full));
        for (let i = 0; i < keys.length; i += DELETE_BATCH) await this.bucket.delete(keys.slice(i, i + DELETE_BATCH));
      }
      await this.keepFolder(parentOf(full));
    });
  }

  test(): Promise<RemoteEntry[]> {
    return this.list(this.home);
  }

  /** Nothing to close: every call is a request to R2. */
  async close(): Promise<void> {}
}

/**
 * The demo store of one demo site.
 * @example const fs = createDemoStore(env.UPLOADS, site.id, { home: site.homeFolder });
 */
export function createDemoStore(bucket: DemoBucket, siteId: string, options: DemoStoreOptions = {}): DemoStore {
  return new DemoStore(bucket, siteId, options);
}
