/**
 * The connection agent's file layer: one `RemoteFs` interface and a driver per protocol.
 * @example
 * import { createRemoteFs } from "./index.ts";
 * const fs = createRemoteFs({ protocol: "sftp", host: "example.com", username: "me", password: "…" });
 */
import { createFtpFs, type FtpOptions } from "./drivers/ftp.ts";
import { createS3Fs, type S3Options } from "./drivers/s3.ts";
import { createSftpFs, type SftpOptions } from "./drivers/sftp.ts";
import { createWebDavFs, type WebDavOptions } from "./drivers/webdav.ts";
import type { RemoteFs } from "./remote-fs.ts";

export type { RemoteFs, RemoteEntry, Protocol, ReadOptions, CommonOptions } from "./remote-fs.ts";
export { AgentError } from "./errors.ts";

export type RemoteFsOptions =
  | ({ protocol: "ftp" } & Omit<FtpOptions, "secure">)
  | ({ protocol: "ftps" } & Omit<FtpOptions, "secure">)
  | ({ protocol: "sftp" } & SftpOptions)
  | ({ protocol: "s3" } & S3Options)
  | ({ protocol: "webdav" } & WebDavOptions);

/** The driver for a site's protocol. */
export function createRemoteFs(options: RemoteFsOptions): RemoteFs {
  switch (options.protocol) {
    case "ftp":
      return createFtpFs({ ...options, secure: false });
    case "ftps":
      return createFtpFs({ ...options, secure: true });
    case "sftp":
      return createSftpFs(options);
    case "s3":
      return createS3Fs(options);
    case "webdav":
      return createWebDavFs(options);
  }
}
