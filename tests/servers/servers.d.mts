// Types for servers.mjs (plain ESM, so that install.mjs and run.mjs need no TypeScript tooling).

export type ServerName = "ftp" | "ftps" | "sftp" | "s3" | "webdav";

/** vsftpd. `ftp` accepts plain FTP and explicit TLS (AUTH TLS) on one port; `ftps` refuses plain logins (530). */
export interface FtpServer {
  host: "127.0.0.1";
  port: number;
  username: string;
  password: string;
  /** The file root on this machine's disk. */
  root: string;
  /** The same folder as the protocol names it (the session is chrooted to it). */
  remoteRoot: "/";
  tls: "optional" | "required";
  /** The self-signed certificate (PEM; subjectAltName DNS:localhost, IP:127.0.0.1), to pin as the only CA. */
  ca: string;
  caFile: string;
  /** As Node's `X509Certificate#fingerprint256` and `tls` `getPeerCertificate().fingerprint256` print it. */
  certificateFingerprint256: string;
}

/** OpenSSH sshd with internal-sftp; password and key authentication. */
export interface SftpServer {
  host: "127.0.0.1";
  port: number;
  username: string;
  password: string;
  /** The client's ed25519 private key, OpenSSH format, no passphrase. */
  privateKey: string;
  privateKeyFile: string;
  /** The client's public key line (in the server's authorized_keys). */
  publicKey: string;
  /** The server's host key, "ssh-ed25519 AAAA…" (a known_hosts line without the host). */
  hostKey: string;
  /** "SHA256:…" (base64, no padding) as `ssh-keygen -l` and `ssh` print it. */
  hostKeyFingerprint: string;
  /** The file root on disk; sessions start there (not chrooted, so `remoteRoot` is the same path). */
  root: string;
  remoteRoot: string;
}

/** Ceph radosgw, path-style; objects live in the OSD's memory (nothing to inspect on disk). */
export interface S3Server {
  endpoint: string;
  host: "127.0.0.1";
  port: number;
  region: string;
  forcePathStyle: true;
  accessKeyId: string;
  secretAccessKey: string;
  /** Created at start, empty. */
  bucket: string;
}

/** Apache mod_dav with Basic auth on the whole server. */
export interface WebDavServer {
  /** "http://127.0.0.1:PORT/" */
  url: string;
  host: "127.0.0.1";
  port: number;
  username: string;
  password: string;
  /** The file root on disk (files there belong to www-data). */
  root: string;
  remoteRoot: "/";
}

export interface ServerDescriptions {
  ftp: FtpServer;
  ftps: FtpServer;
  sftp: SftpServer;
  s3: S3Server;
  webdav: WebDavServer;
}

export type Servers<N extends ServerName = ServerName> = { [K in N]: ServerDescriptions[K] } & {
  /** The scratch folder: configs, keys, certificate, logs/ and the file roots. Removed by stop(). */
  dir: string;
  /** One process group per server process (Ceph: monitor, OSD and gateway). */
  processGroups: number[];
  /** Ends every process group (SIGTERM, then SIGKILL; Ceph in order) and removes the scratch folder. */
  stop(): Promise<void>;
};

export const TEST_USER: string;
export const TEST_USER_SHELL: string;
export const PASSWORD_FILE: string;
export const SERVER_NAMES: ServerName[];
export const SCRATCH_PREFIX: string;
export const STATE_FILE: string;

/**
 * Starts the named servers (default: all) on free loopback ports, as root.
 * @example
 * const servers = await startServers({ which: ["sftp", "webdav"] });
 * servers.sftp.hostKeyFingerprint; // "SHA256:…"
 * await servers.stop();
 */
export function startServers<const N extends ServerName = ServerName>(options?: {
  which?: readonly N[];
  /** Where the scratch folder is created; default the OS temp folder. */
  baseDir?: string;
}): Promise<Servers<N>>;

/** Processes (zombies excluded) still alive in the given process groups. */
export function liveProcesses(pgids: readonly number[]): { pid: number; pgid: number; command: string }[];

export function readProcStat(pid: number): { command: string; state: string; pgrp: number; startTime: string } | null;

/** "SHA256:…" of an OpenSSH public key line. */
export function sshFingerprint(publicKeyLine: string): string;

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number>;

/** A minimal signed (SigV4) path-style S3 request. */
export function s3Request(
  s3: Pick<S3Server, "endpoint" | "region" | "accessKeyId" | "secretAccessKey">,
  method: string,
  pathName: string,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>;

/** Hands files a test wrote on disk (as root) to the FTP/SFTP servers' OS user, recursively. */
export function ownByTestUser(target: string): void;
