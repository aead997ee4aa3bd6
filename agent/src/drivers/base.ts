/**
 * What every driver shares: path resolution inside the home folder, caps, the command timeout and
 * error mapping around each operation.
 */
import { randomBytes } from "node:crypto";
import { AgentError, lostDuring, type OperationCode } from "../errors.ts";
import { baseName, COMMAND_TIMEOUT_MS, MAX_READ_BYTES, MAX_WRITE_BYTES, normaliseFolder, resolveRemotePath, temporaryPathFor, withTimeout } from "../guards.ts";
import type { CommonOptions, Protocol, ReadOptions, RemoteEntry, RemoteFs } from "../remote-fs.ts";

export abstract class BaseFs implements RemoteFs {
  abstract readonly protocol: Protocol;
  readonly home: string;
  protected readonly allowHosts: readonly string[] | undefined;
  protected readonly commandTimeoutMs: number;
  protected readonly maxReadBytes: number;
  protected readonly maxWriteBytes: number;

  constructor(options: CommonOptions) {
    this.home = normaliseFolder(options.home ?? "/");
    this.allowHosts = options.allowHosts;
    this.commandTimeoutMs = options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
    this.maxReadBytes = options.maxReadBytes ?? MAX_READ_BYTES;
    this.maxWriteBytes = options.maxWriteBytes ?? MAX_WRITE_BYTES;
  }

  /** Maps a library error to an AgentError. */
  protected abstract mapError(error: unknown, operation: OperationCode): AgentError;
  /** Drops the connection (after a timeout or a broken connection); the next call reconnects. */
  protected abstract drop(): void;

  /** A path inside the home folder, or PATH_OUTSIDE_OF_HOME_FOLDER. */
  protected resolve(path: string): string {
    return resolveRemotePath(this.home, path);
  }

  /** Runs one operation with the command timeout and maps its failure. */
  protected async run<T>(operation: OperationCode, work: () => Promise<T>): Promise<T> {
    try {
      return await withTimeout(work, this.commandTimeoutMs, () => this.drop());
    } catch (error) {
      // Our own errors (the connect step's among them) are final; a library's is mapped, and a
      // connection lost in the middle counts against the operation, not as a failure to connect.
      const mapped = error instanceof AgentError ? error : lostDuring(this.mapError(error, operation), error, operation);
      const broken = mapped.code === "CONNECTION_AGENT_CONNECT" || mapped.code === "CONNECTION_AGENT_TIMEOUT" || mapped.code === "CONNECTION_AGENT_AUTH" || mapped.reason === "CONNECTION_LOST";
      if (broken) this.drop();
      throw mapped;
    }
  }

  protected entry(path: string, type: RemoteEntry["type"], size: number, modifiedAt: Date | null): RemoteEntry {
    return { name: baseName(path), path, type, size: type === "directory" ? 0 : size, modifiedAt };
  }

  protected readCap(options?: ReadOptions): number {
    return options?.maxBytes ?? this.maxReadBytes;
  }

  protected checkWriteSize(path: string, data: Uint8Array): void {
    if (data.byteLength > this.maxWriteBytes) throw new AgentError("FILE_TOO_LARGE", `${path}: ${data.byteLength} bytes is over ${this.maxWriteBytes}`);
  }

  protected temporaryPath(path: string): string {
    return temporaryPathFor(path, randomBytes(6).toString("hex"));
  }

  protected async refuseExisting(to: string): Promise<void> {
    if (await this.stat(to)) throw new AgentError("FILE_ALREADY_EXISTS", `${to} already exists`);
  }

  protected async requireExisting(from: string): Promise<RemoteEntry> {
    const entry = await this.stat(from);
    if (!entry) throw new AgentError("NOT_FOUND", `${from} does not exist`);
    return entry;
  }

  abstract list(path: string): Promise<RemoteEntry[]>;
  abstract stat(path: string): Promise<RemoteEntry | null>;
  abstract read(path: string, options?: ReadOptions): Promise<Buffer>;
  abstract writeAtomic(path: string, data: Uint8Array): Promise<void>;
  abstract mkdirp(path: string): Promise<void>;
  abstract rename(from: string, to: string): Promise<void>;
  abstract remove(path: string): Promise<void>;
  abstract close(): Promise<void>;

  test(): Promise<RemoteEntry[]> {
    return this.list(this.home);
  }
}
