/**
 * What the agent benchmarks share: the five protocols' bare client libraries (the reference every
 * ratio is measured against: the same library the agent's driver uses, one connection, plain
 * calls) and the site form that points the app at the same loopback server.
 */
import { Readable, Writable } from "node:stream";
import { GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { Client as FtpClient } from "basic-ftp";
import SftpClient from "ssh2-sftp-client";
import { createClient as createWebdavClient } from "webdav";
import type { Servers } from "../tests/servers/servers.mjs";
import type { App } from "../tests/agent/app-harness.ts";

export type Protocol = "ftp" | "ftps" | "sftp" | "s3" | "webdav";
export const ALL_PROTOCOLS: Protocol[] = ["ftp", "ftps", "sftp", "s3", "webdav"];

/** The protocols named on the command line, or all five. */
export function chosenProtocols(argv = process.argv.slice(2)): Protocol[] {
  const chosen = argv.filter((name) => ALL_PROTOCOLS.includes(name as Protocol)) as Protocol[];
  return chosen.length > 0 ? chosen : ALL_PROTOCOLS;
}

/** Deterministic pseudo-random bytes (incompressible, reproducible between runs). */
export function payload(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  let x = seed * 2654435761;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

export async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

export interface Bare {
  get(path: string): Promise<Uint8Array>;
  put(path: string, bytes: Uint8Array): Promise<void>;
  mkdir(path: string): Promise<void>;
  close(): Promise<void>;
}

export async function bareClient(protocol: Protocol, servers: Servers): Promise<Bare> {
  if (protocol === "ftp" || protocol === "ftps") {
    const server = servers[protocol];
    const client = new FtpClient(45_000);
    await client.access({
      host: server.host, port: server.port, user: server.username, password: server.password,
      secure: protocol === "ftps", secureOptions: protocol === "ftps" ? { ca: server.ca } : undefined,
    });
    return {
      get: async (path) => {
        const chunks: Buffer[] = [];
        const sink = new Writable({
          write(chunk: Buffer, _encoding, done) {
            chunks.push(chunk);
            done();
          },
        });
        await client.downloadTo(sink, path);
        return Buffer.concat(chunks);
      },
      put: async (path, bytes) => {
        await client.uploadFrom(Readable.from(Buffer.from(bytes)), path);
      },
      mkdir: async (path) => {
        await client.ensureDir(path);
        await client.cd("/");
      },
      close: async () => client.close(),
    };
  }
  if (protocol === "sftp") {
    const server = servers.sftp;
    const client = new SftpClient();
    await client.connect({ host: server.host, port: server.port, username: server.username, password: server.password });
    return {
      get: async (path) => (await client.get(path)) as Buffer,
      put: async (path, bytes) => {
        await client.put(Buffer.from(bytes), path);
      },
      mkdir: async (path) => {
        await client.mkdir(path, true);
      },
      close: async () => {
        await client.end();
      },
    };
  }
  if (protocol === "s3") {
    const server = servers.s3;
    const client = new S3Client({
      endpoint: server.endpoint, region: server.region, forcePathStyle: true,
      credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
      requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED",
    });
    return {
      get: async (path) => {
        const answer = await client.send(new GetObjectCommand({ Bucket: server.bucket, Key: path.replace(/^\//, "") }));
        return new Uint8Array(await answer.Body!.transformToByteArray());
      },
      put: async (path, bytes) => {
        await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: path.replace(/^\//, ""), Body: bytes }));
      },
      mkdir: async () => {},
      close: async () => client.destroy(),
    };
  }
  const server = servers.webdav;
  const client = createWebdavClient(server.url, { username: server.username, password: server.password });
  return {
    get: async (path) => new Uint8Array((await client.getFileContents(path)) as ArrayBuffer),
    put: async (path, bytes) => {
      await client.putFileContents(path, Buffer.from(bytes), { overwrite: true });
    },
    mkdir: async (path) => {
      await client.createDirectory(path, { recursive: true });
    },
    close: async () => {},
  };
}

/** The folder a site of the protocol is rooted in: SFTP sessions are not chrooted, the others are. */
export function homeOf(protocol: Protocol, servers: Servers): string {
  return protocol === "sftp" ? servers.sftp.remoteRoot : "/";
}

/** The site form of a protocol, pointing at the loopback server (the agent runs with the development allow-list). */
export function siteForm(protocol: Protocol, servers: Servers): Record<string, unknown> {
  const common = { name: `Bench ${protocol}`, url: "https://bench.example", classification: "personal", protocol, homeFolder: "/", uploadFolder: "/" };
  switch (protocol) {
    case "ftp":
    case "ftps": {
      const server = servers[protocol];
      return { ...common, host: server.host, port: server.port, username: server.username, password: server.password };
    }
    case "sftp": {
      const server = servers.sftp;
      return { ...common, host: server.host, port: server.port, username: server.username, password: server.password, homeFolder: homeOf(protocol, servers), uploadFolder: homeOf(protocol, servers) };
    }
    case "s3": {
      const server = servers.s3;
      return { ...common, host: server.endpoint, s3AccessKey: server.accessKeyId, s3SecretKey: server.secretAccessKey, s3Region: server.region, s3Bucket: server.bucket };
    }
    case "webdav": {
      const server = servers.webdav;
      return { ...common, host: server.url, username: server.username, password: server.password };
    }
  }
}

export async function createSite(app: App, protocol: Protocol, servers: Servers): Promise<{ id: string; home: string }> {
  const form = siteForm(protocol, servers);
  if (protocol === "ftps") {
    // Trust on first use: the connection test answers the certificate it saw, the site pins it.
    const test = await app.api("POST", "/utilities/test-connection", { body: { ...form, ftpsCertFingerprint: servers.ftps.certificateFingerprint256 } });
    if (test.status !== 200) throw new Error(`FTPS connection test: ${test.status} ${JSON.stringify(test.body)}`);
    form.ftpsCertFingerprint = servers.ftps.certificateFingerprint256;
  }
  const created = await app.api("POST", "/sites", { body: form });
  if (created.status !== 200) throw new Error(`POST /sites (${protocol}): ${created.status} ${JSON.stringify(created.body)}`);
  const site = (created.body.site ?? created.body) as { id: string; homeFolder: string };
  return { id: site.id, home: site.homeFolder };
}

