/**
 * S3 driver on @aws-sdk/client-s3 for any S3-compatible endpoint. Folders are key prefixes (a
 * zero-byte "folder/" marker keeps an empty folder visible); the home folder is a key prefix.
 * Checksums only when the API requires them (radosgw and many S3-compatible hosts refuse
 * aws-chunked uploads); every socket goes through the address guard; optional ACL public-read.
 * Atomic replace: PUT is atomic by nature (readers see the old or the new object); the size is
 * verified with HEAD afterwards.
 *
 * @example
 * const fs = createS3Fs({ endpoint: "https://s3.eu-central-1.amazonaws.com", region: "eu-central-1", bucket: "site", accessKeyId, secretAccessKey });
 * await fs.writeAtomic("index.html", Buffer.from("<h1>Hi</h1>"));
 */
import type { Readable } from "node:stream";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type ObjectCannedACL,
} from "@aws-sdk/client-s3";
import { AgentError, mapS3Error, type OperationCode } from "../errors.ts";
import { collect, guardedAgents, isSafeEntryName } from "../guards.ts";
import { sortEntries, type CommonOptions, type ReadOptions, type RemoteEntry } from "../remote-fs.ts";
import { BaseFs } from "./base.ts";

export interface S3Options extends CommonOptions {
  /** "https://s3.example.com" (a host without a scheme gets https://); unset for AWS itself. */
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Path-style URLs (most S3-compatible servers); default true when an endpoint is set. */
  forcePathStyle?: boolean;
  /** "public-read" makes written objects world-readable (sites served straight from the bucket). */
  acl?: "public-read";
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

function contentTypeOf(path: string): string {
  const extension = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return CONTENT_TYPES[extension] ?? "application/octet-stream";
}

export class S3Fs extends BaseFs {
  readonly protocol = "s3" as const;
  private client: S3Client | null = null;

  private readonly options: S3Options;

  constructor(options: S3Options) {
    super(options);
    this.options = options;
  }

  protected mapError(error: unknown, operation: OperationCode): AgentError {
    return mapS3Error(error, operation);
  }

  protected drop(): void {
    const client = this.client;
    this.client = null;
    client?.destroy();
  }

  private get s3(): S3Client {
    if (this.client) return this.client;
    const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle } = this.options;
    const { httpAgent, httpsAgent } = guardedAgents(this.allowHosts);
    this.client = new S3Client({
      endpoint: endpoint ? (/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`) : undefined,
      region,
      credentials: { accessKeyId, secretAccessKey },
      forcePathStyle: forcePathStyle ?? Boolean(endpoint),
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
      followRegionRedirects: false,
      maxAttempts: 2,
      requestHandler: { httpAgent, httpsAgent, connectionTimeout: this.commandTimeoutMs, requestTimeout: this.commandTimeoutMs },
    });
    return this.client;
  }

  /** "/a/b.txt" → "a/b.txt"; "/" → "". */
  private key(path: string): string {
    return path.replace(/^\/+/, "");
  }

  /** The prefix of a folder's contents: "" for "/", "a/b/" for "/a/b". */
  private prefix(folder: string): string {
    const key = this.key(folder);
    return key === "" ? "" : `${key}/`;
  }

  private async *keysUnder(prefix: string): AsyncGenerator<string> {
    let token: string | undefined;
    do {
      const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) if (object.Key) yield object.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async list(path: string): Promise<RemoteEntry[]> {
    const folder = this.resolve(path);
    return this.run("CONNECTION_AGENT_LIST", async () => {
      const prefix = this.prefix(folder);
      const base = folder === "/" ? "" : folder;
      const entries = new Map<string, RemoteEntry>();
      let token: string | undefined;
      do {
        const page = await this.s3.send(
          new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: prefix, Delimiter: "/", ContinuationToken: token }),
        );
        for (const common of page.CommonPrefixes ?? []) {
          const name = (common.Prefix ?? "").slice(prefix.length).replace(/\/$/, "");
          if (isSafeEntryName(name)) entries.set(name, this.entry(`${base}/${name}`, "directory", 0, null));
        }
        for (const object of page.Contents ?? []) {
          const name = (object.Key ?? "").slice(prefix.length);
          if (!isSafeEntryName(name) || entries.has(name)) continue;
          entries.set(name, this.entry(`${base}/${name}`, "file", object.Size ?? 0, object.LastModified ?? null));
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return sortEntries([...entries.values()]);
    });
  }

  async stat(path: string): Promise<RemoteEntry | null> {
    const full = this.resolve(path);
    return this.run("CONNECTION_AGENT_LIST", () => this.statNow(full));
  }

  private async statNow(full: string): Promise<RemoteEntry | null> {
    if (full === "/") return this.entry("/", "directory", 0, null);
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(full) }));
      return this.entry(full, "file", head.ContentLength ?? 0, head.LastModified ?? null);
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status !== 404) throw error;
    }
    const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.prefix(full), MaxKeys: 1 }));
    return page.KeyCount || page.Contents?.length ? this.entry(full, "directory", 0, null) : null;
  }

  async read(path: string, options?: ReadOptions): Promise<Buffer> {
    const full = this.resolve(path);
    const cap = this.readCap(options);
    return this.run("CONNECTION_AGENT_DOWNLOAD", async () => {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.options.bucket, Key: this.key(full) }));
      const body = object.Body as Readable;
      if ((object.ContentLength ?? 0) > cap) {
        body.destroy();
        throw new AgentError("FILE_TOO_LARGE", `${full} is larger than ${cap} bytes`);
      }
      return collect(body, cap, full);
    });
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    const full = this.resolve(path);
    this.checkWriteSize(full, data);
    return this.run("CONNECTION_AGENT_UPLOAD", async () => {
      // One PUT: S3 replaces objects atomically, so no temporary key (a copy would double the cost).
      await this.s3.send(
        new PutObjectCommand({
          Bucket: this.options.bucket,
          Key: this.key(full),
          Body: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
          ContentLength: data.byteLength,
          ContentType: contentTypeOf(full),
          ACL: this.options.acl as ObjectCannedACL | undefined,
        }),
      );
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(full) }));
      if (head.ContentLength !== data.byteLength) {
        throw new AgentError("CONNECTION_AGENT_UPLOAD", `${full}: ${head.ContentLength} bytes stored of ${data.byteLength}`, { reason: "SIZE_MISMATCH" });
      }
    });
  }

  async mkdirp(path: string): Promise<void> {
    const full = this.resolve(path);
    if (full === "/") return Promise.resolve();
    return this.run("CONNECTION_AGENT_MKDIR", async () => {
      const existing = await this.statNow(full);
      if (existing?.type === "directory") return;
      if (existing) throw new AgentError("FILE_ALREADY_EXISTS", `${full} is a file`);
      await this.s3.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.prefix(full), Body: Buffer.alloc(0), ContentLength: 0 }));
    });
  }

  private copySource(key: string): string {
    return `${this.options.bucket}/${key.split("/").map(encodeURIComponent).join("/")}`;
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.resolve(from);
    const target = this.resolve(to);
    return this.run("CONNECTION_AGENT_MOVE", async () => {
      const existing = await this.statNow(source);
      if (!existing) throw new AgentError("NOT_FOUND", `${source} does not exist`);
      if (await this.statNow(target)) throw new AgentError("FILE_ALREADY_EXISTS", `${target} already exists`);
      const moves: [string, string][] = [];
      if (existing.type === "file") moves.push([this.key(source), this.key(target)]);
      else for await (const key of this.keysUnder(this.prefix(source))) moves.push([key, this.prefix(target) + key.slice(this.prefix(source).length)]);
      // Copy everything first, then delete: a failure half-way leaves both, never neither.
      for (const [from, to] of moves) {
        await this.s3.send(new CopyObjectCommand({ Bucket: this.options.bucket, Key: to, CopySource: this.copySource(from), ACL: this.options.acl as ObjectCannedACL | undefined }));
      }
      for (const [from] of moves) await this.s3.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: from }));
    });
  }

  async remove(path: string): Promise<void> {
    const full = this.resolve(path);
    if (full === this.home) return Promise.reject(new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", "The home folder itself cannot be removed"));
    return this.run("CONNECTION_AGENT_DELETE", async () => {
      const existing = await this.statNow(full);
      if (!existing) return;
      if (existing.type === "file") {
        await this.s3.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(full) }));
        return;
      }
      const keys: string[] = [];
      for await (const key of this.keysUnder(this.prefix(full))) keys.push(key);
      for (let i = 0; i < keys.length; i += 8) {
        await Promise.all(keys.slice(i, i + 8).map((Key) => this.s3.send(new DeleteObjectCommand({ Bucket: this.options.bucket, Key }))));
      }
    });
  }

  async close(): Promise<void> {
    this.drop();
  }
}

/** @example createS3Fs({ endpoint: "http://127.0.0.1:7480", region: "us-east-1", bucket: "b", accessKeyId, secretAccessKey, allowHosts: ["127.0.0.1"] }) */
export function createS3Fs(options: S3Options): S3Fs {
  return new S3Fs(options);
}
