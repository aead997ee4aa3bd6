/**
 * What the Worker tells the agent about a site's server, in every call: the protocol, where it is,
 * the credentials (decrypted by the Worker just for this call) and the pins of earlier connections.
 * Shared by the Worker (which builds it from a site or from the site form) and the agent (which
 * turns it into driver options). `allowHosts` is never part of it: that is the agent's own setting.
 *
 * @example
 * const spec = connectionSpec.parse({ key: "site:01H…", protocol: "sftp", host: "example.com", username: "me", password: "…", home: "/var/www" });
 */
import { z } from "zod";

export const PROTOCOLS = ["ftp", "ftps", "sftp", "s3", "webdav"] as const;

export const connectionSpec = z.object({
  /**
   * Which connections may be reused for this call: "site:<id>" for a saved site, "form:<sha256 of
   * the settings>" for the site form's browse and test. The agent keeps at most 3 connections per
   * key and closes idle ones.
   */
  key: z.string().min(1).max(200),
  protocol: z.enum(PROTOCOLS),
  /** Host name or address; for WebDAV it may be a URL ("https://dav.example.com/base"). S3: the endpoint, empty for AWS. */
  host: z.string().max(2048).default(""),
  port: z.number().int().min(1).max(65535).optional(),
  username: z.string().max(512).default(""),
  password: z.string().max(4096).optional(),
  /** SFTP: an OpenSSH or PEM private key, instead of or beside the password. */
  privateKey: z.string().max(16_384).optional(),
  passphrase: z.string().max(1024).optional(),
  s3AccessKey: z.string().max(512).optional(),
  s3SecretKey: z.string().max(512).optional(),
  s3Region: z.string().max(64).optional(),
  s3Bucket: z.string().max(255).optional(),
  s3Acl: z.literal("public-read").optional(),
  /** The site's home folder on the server. */
  home: z.string().max(1024).default("/"),
  /** SFTP host key pinned on first use ("SHA256:…"); a different key is refused. */
  sftpHostKey: z.string().max(200).optional(),
  /** FTPS certificate pinned on first use ("AA:BB:…", SHA-256); a different certificate is refused. */
  ftpsCertFingerprint: z.string().max(200).optional(),
});

export type ConnectionSpec = z.infer<typeof connectionSpec>;
export type ConnectionSpecInput = z.input<typeof connectionSpec>;

/** What a connection learned that the Worker should pin on the site (first use). */
export interface ObservedPins {
  sftpHostKey?: string;
  ftpsCertFingerprint?: string;
}
