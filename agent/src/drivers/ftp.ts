/**
 * FTP and explicit FTPS driver on basic-ftp. The host is resolved once and vetted, the control
 * connection goes to that address, and every passive data connection goes to the control
 * connection's address (the PASV address is ignored; EPSV has none). FTPS validates the server
 * certificate against `ca` (pin a self-signed one) and/or checks its SHA-256 fingerprint. Atomic
 * replace: STOR to a temporary name, SIZE, then RNFR/RNTO — a server that refuses to rename over
 * an existing file fails the write (CONNECTION_AGENT_MOVE) with the original untouched.
 *
 * @example
 * const fs = createFtpFs({ host: "ftp.example.com", username: "me", password: "…", secure: true, home: "/htdocs" });
 * await fs.writeAtomic("index.html", Buffer.from("<h1>Hi</h1>"));
 */
import { Readable, Writable } from "node:stream";
import { TLSSocket } from "node:tls";
import { Client, type FileInfo } from "basic-ftp";
import { parsePasvResponse, connectForPassiveTransfer, enterPassiveModeIPv6 } from "basic-ftp/dist/transfer.js";
import type { FTPContext, FTPResponse } from "basic-ftp";
import { AgentError, mapFtpError, type OperationCode } from "../errors.ts";
import { assertAddressAllowed, baseName, isSafeEntryName, parentOf, resolveAllowed } from "../guards.ts";
import { sortEntries, type CommonOptions, type ReadOptions, type RemoteEntry } from "../remote-fs.ts";
import { BaseFs } from "./base.ts";

export interface FtpOptions extends CommonOptions {
  host: string;
  /** Default 21 (explicit FTPS too). */
  port?: number;
  username: string;
  password: string;
  /** Explicit TLS (AUTH TLS). */
  secure?: boolean;
  /** PEM certificate(s) to trust instead of the system CAs (pin a self-signed certificate). */
  ca?: string;
  /** "AA:BB:…" as `getPeerCertificate().fingerprint256` prints it; when set, it must match (with or without `ca`). */
  certificateFingerprint256?: string;
}

/** PASV, but the data connection goes to the control connection's address, whatever the reply says. */
async function passiveToControlAddress(ftp: FTPContext): Promise<FTPResponse> {
  const response = await ftp.request("PASV");
  const target = parsePasvResponse(response.message);
  const controlAddress = ftp.socket.remoteAddress?.replace(/^::ffff:/i, "");
  if (!controlAddress) throw new Error("The control connection is closed");
  await connectForPassiveTransfer(controlAddress, target.port, ftp);
  return response;
}

export class FtpFs extends BaseFs {
  readonly protocol: "ftp" | "ftps";
  /** The SHA-256 fingerprint of the certificate seen on the last FTPS connection. */
  certificateFingerprint256: string | undefined;
  private client: Client | null = null;
  /** basic-ftp runs one command at a time: operations queue here. */
  private queue: Promise<unknown> = Promise.resolve();

  private readonly options: FtpOptions;

  constructor(options: FtpOptions) {
    super(options);
    this.options = options;
    this.protocol = options.secure ? "ftps" : "ftp";
  }

  protected mapError(error: unknown, operation: OperationCode): AgentError {
    return mapFtpError(error, operation);
  }

  /** Bumped on every drop, so a connection that completes after a timeout or close() is closed, not kept. */
  private generation = 0;

  protected drop(): void {
    const client = this.client;
    this.generation += 1;
    this.client = null;
    client?.close();
  }

  /** One operation at a time on the connection, each with the command timeout. */
  private exclusive<T>(operation: OperationCode, work: (client: Client) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => this.run(operation, async () => work(await this.connection())));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async connection(): Promise<Client> {
    if (this.client && !this.client.closed) return this.client;
    const { host, port = 21, username, password, secure, ca, certificateFingerprint256 } = this.options;
    const generation = this.generation;
    const { address } = await resolveAllowed(host, this.allowHosts);
    const client = new Client(this.commandTimeoutMs);
    client.prepareTransfer = async (ftp) => {
      // The control address was vetted; check again in case the connection was replaced.
      assertAddressAllowed(host, (ftp.socket.remoteAddress ?? "").replace(/^::ffff:/i, ""), this.allowHosts);
      let response: FTPResponse;
      try {
        response = await enterPassiveModeIPv6(ftp);
      } catch {
        response = await passiveToControlAddress(ftp);
      }
      // A certificate pinned by fingerprint only (no CA) is checked on each data connection too,
      // unless the data connection resumed the control connection's (already checked) TLS session.
      const data = ftp.dataSocket;
      if (secure && certificateFingerprint256 && data instanceof TLSSocket) {
        data.once("secureConnect", () => {
          const seen = data.getPeerCertificate()?.fingerprint256;
          if (!data.isSessionReused() && seen?.toUpperCase() !== certificateFingerprint256.toUpperCase()) {
            data.destroy(new AgentError("CONNECTION_AGENT_CONNECT", `The data connection's certificate ${seen} is not the pinned one`, { reason: "TLS_CERTIFICATE" }));
          }
        });
      }
      return response;
    };
    try {
      const isName = address !== host && !/^[\d.:[\]a-fx]+$/i.test(host);
      await client.access({
        host: address,
        port,
        user: username,
        password,
        secure: secure ? true : false,
        secureOptions: secure
          ? {
              ca,
              host: isName ? host : address,
              servername: isName ? host : undefined,
              minVersion: "TLSv1.2",
              rejectUnauthorized: ca !== undefined || certificateFingerprint256 === undefined,
            }
          : undefined,
      });
      if (secure) {
        const socket = client.ftp.socket as TLSSocket;
        const seen = socket.getPeerCertificate?.().fingerprint256;
        this.certificateFingerprint256 = seen;
        if (certificateFingerprint256 && seen?.toUpperCase() !== certificateFingerprint256.toUpperCase()) {
          throw new AgentError("CONNECTION_AGENT_CONNECT", `The server certificate ${seen} is not the pinned one`, { reason: "TLS_CERTIFICATE" });
        }
      }
    } catch (error) {
      client.close();
      throw error instanceof AgentError ? error : mapFtpError(error, "CONNECTION_AGENT_CONNECT");
    }
    if (generation !== this.generation) {
      client.close();
      throw new AgentError("CONNECTION_AGENT_CONNECT", "The connection was dropped while it opened");
    }
    this.client = client;
    return client;
  }

  private fromInfo(folder: string, info: FileInfo): RemoteEntry {
    const path = `${folder === "/" ? "" : folder}/${info.name}`;
    return this.entry(path, info.isDirectory ? "directory" : "file", info.size, info.modifiedAt ?? null);
  }

  private async listWith(client: Client, folder: string): Promise<RemoteEntry[]> {
    const items = await client.list(folder);
    return sortEntries(items.filter((item) => isSafeEntryName(item.name) && (item.isFile || item.isDirectory)).map((item) => this.fromInfo(folder, item)));
  }

  private async statWith(client: Client, full: string): Promise<RemoteEntry | null> {
    if (full === "/") return this.entry("/", "directory", 0, null);
    let items: RemoteEntry[];
    try {
      items = await this.listWith(client, parentOf(full));
    } catch (error) {
      if (Number((error as { code?: unknown }).code) === 550) return null;
      throw error;
    }
    return items.find((item) => item.name === baseName(full)) ?? null;
  }

  async list(path: string): Promise<RemoteEntry[]> {
    const folder = this.resolve(path);
    return this.exclusive("CONNECTION_AGENT_LIST", (client) => this.listWith(client, folder));
  }

  async stat(path: string): Promise<RemoteEntry | null> {
    const full = this.resolve(path);
    return this.exclusive("CONNECTION_AGENT_LIST", (client) => this.statWith(client, full));
  }

  async read(path: string, options?: ReadOptions): Promise<Buffer> {
    const full = this.resolve(path);
    const cap = this.readCap(options);
    return this.exclusive("CONNECTION_AGENT_DOWNLOAD", async (client) => {
      const size = await client.size(full);
      if (size > cap) throw new AgentError("FILE_TOO_LARGE", `${full} is larger than ${cap} bytes`);
      const chunks: Buffer[] = [];
      let total = 0;
      const sink = new Writable({
        write(chunk: Buffer, _encoding, done) {
          total += chunk.length;
          if (total > cap) return done(new AgentError("FILE_TOO_LARGE", `${full} is larger than ${cap} bytes`));
          chunks.push(chunk);
          done();
        },
      });
      await client.downloadTo(sink, full);
      return Buffer.concat(chunks, total);
    });
  }

  async writeAtomic(path: string, data: Uint8Array): Promise<void> {
    const full = this.resolve(path);
    this.checkWriteSize(full, data);
    const temporary = this.temporaryPath(full);
    return this.exclusive("CONNECTION_AGENT_UPLOAD", async (client) => {
      await this.ensureFolder(client, parentOf(full));
      try {
        await client.uploadFrom(Readable.from([Buffer.from(data.buffer, data.byteOffset, data.byteLength)]), temporary);
        const size = await client.size(temporary);
        if (size !== data.byteLength) {
          throw new AgentError("CONNECTION_AGENT_UPLOAD", `${temporary}: ${size} bytes written of ${data.byteLength}`, { reason: "SIZE_MISMATCH" });
        }
        try {
          // RNFR/RNTO over the existing file. Never delete the original first: a server that
          // refuses (IIS, Apache FtpServer: 550) fails the write and keeps the old version.
          await client.rename(temporary, full);
        } catch (error) {
          throw new AgentError("CONNECTION_AGENT_MOVE", `RNFR/RNTO ${temporary} → ${full} refused`, { cause: error });
        }
      } catch (error) {
        if (!client.closed) await client.remove(temporary, true).catch(() => undefined);
        throw error;
      }
    });
  }

  private async ensureFolder(client: Client, folder: string): Promise<void> {
    if (folder === "/") return;
    try {
      await client.ensureDir(folder);
    } catch (error) {
      throw new AgentError("CONNECTION_AGENT_MKDIR", `Cannot create ${folder}`, { cause: error });
    } finally {
      await client.cd("/").catch(() => undefined);
    }
  }

  async mkdirp(path: string): Promise<void> {
    const full = this.resolve(path);
    return this.exclusive("CONNECTION_AGENT_MKDIR", async (client) => {
      const existing = await this.statWith(client, full);
      if (existing?.type === "directory") return;
      if (existing) throw new AgentError("FILE_ALREADY_EXISTS", `${full} is a file`);
      await this.ensureFolder(client, full);
    });
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.resolve(from);
    const target = this.resolve(to);
    return this.exclusive("CONNECTION_AGENT_MOVE", async (client) => {
      if (!(await this.statWith(client, source))) throw new AgentError("NOT_FOUND", `${source} does not exist`);
      if (await this.statWith(client, target)) throw new AgentError("FILE_ALREADY_EXISTS", `${target} already exists`);
      await client.rename(source, target);
    });
  }

  async remove(path: string): Promise<void> {
    const full = this.resolve(path);
    if (full === this.home) return Promise.reject(new AgentError("PATH_OUTSIDE_OF_HOME_FOLDER", "The home folder itself cannot be removed"));
    return this.exclusive("CONNECTION_AGENT_DELETE", async (client) => {
      const existing = await this.statWith(client, full);
      if (!existing) return;
      if (existing.type === "directory") {
        await client.removeDir(full);
        await client.cd("/").catch(() => undefined);
      } else {
        await client.remove(full);
      }
    });
  }

  async close(): Promise<void> {
    await this.queue;
    this.drop();
  }
}

/** @example createFtpFs({ host: "127.0.0.1", port: 2121, username, password, secure: true, ca, allowHosts: ["127.0.0.1"] }) */
export function createFtpFs(options: FtpOptions): FtpFs {
  return new FtpFs(options);
}
