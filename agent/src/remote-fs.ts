/**
 * The one interface every protocol driver implements (HOUSE-STYLE.md 11). Everything above it —
 * the link to the Worker, publishing, the file browser — is protocol-blind.
 *
 * Paths are POSIX paths on the server: absolute ("/www/index.html") or relative to the site's home
 * folder ("index.html"). Every path is normalised and must lie inside the home folder, else
 * PATH_OUTSIDE_OF_HOME_FOLDER before anything is sent. Failures are `AgentError`s with a catalogue
 * code (`errors.ts`).
 *
 * @example
 * const fs: RemoteFs = createSftpFs({ host: "example.com", username: "me", password: "…", home: "/var/www" });
 * await fs.writeAtomic("index.html", Buffer.from("<h1>Hi</h1>"));
 * (await fs.read("index.html")).toString(); // "<h1>Hi</h1>"
 * await fs.close();
 */

/** The agent's protocols, plus "demo": the Worker's own store of a demo site's files in R2. */
export type Protocol = "ftp" | "ftps" | "sftp" | "s3" | "webdav" | "demo";

/** One file or folder. `path` is absolute and normalised; `modifiedAt` is null when the server does not say. */
export interface RemoteEntry {
  name: string;
  path: string;
  type: "file" | "directory";
  /** Bytes; 0 for folders. */
  size: number;
  modifiedAt: Date | null;
}

export interface ReadOptions {
  /** Refuse with FILE_TOO_LARGE past this many bytes (counted as they arrive). Default: the driver's `maxReadBytes` (5 MB). */
  maxBytes?: number;
}

export interface RemoteFs {
  readonly protocol: Protocol;
  /** The site's home folder, normalised ("/" or "/www"). */
  readonly home: string;

  /**
   * The entries of a folder (not recursive; "." and ".." and unsafe names left out), folders first, then by name.
   * @example await fs.list("/") // [{ name: "blog", type: "directory", … }, { name: "index.html", type: "file", … }]
   */
  list(path: string): Promise<RemoteEntry[]>;

  /**
   * One entry, or null when nothing exists at `path`.
   * @example (await fs.stat("index.html"))?.size // 1234
   */
  stat(path: string): Promise<RemoteEntry | null>;

  /**
   * A file's bytes. NOT_FOUND when missing; FILE_TOO_LARGE past the cap.
   * @example await fs.read("big.zip", { maxBytes: 25 * 1024 * 1024 })
   */
  read(path: string, options?: ReadOptions): Promise<Buffer>;

  /**
   * Writes a file so that readers see the old or the new content, never a part: the bytes go to
   * `.<name>.<random>.tmp` in the same folder, the size is verified, then the temporary file
   * replaces the target (SFTP posix-rename, FTP RNFR/RNTO, S3 PUT, WebDAV MOVE Overwrite: T). The
   * temporary file is removed on failure; the original is never deleted first. Missing parent
   * folders are created (every driver). FILE_TOO_LARGE past `maxWriteBytes` (25 MB).
   * @example await fs.writeAtomic("blog/new post.html", Buffer.from("…"))
   */
  writeAtomic(path: string, data: Uint8Array): Promise<void>;

  /**
   * Creates a folder and its missing parents; an existing folder is fine.
   * @example await fs.mkdirp("assets/img/2026")
   */
  mkdirp(path: string): Promise<void>;

  /**
   * Renames or moves a file or folder. FILE_ALREADY_EXISTS when `to` exists; NOT_FOUND when `from` does not.
   * @example await fs.rename("old.html", "new.html")
   */
  rename(from: string, to: string): Promise<void>;

  /**
   * Removes a file, or a folder with everything in it. Removing nothing is not an error.
   * @example await fs.remove("old-folder")
   */
  remove(path: string): Promise<void>;

  /**
   * Connects (if not connected) and lists the home folder: the site form's connection test.
   * @example await fs.test() // entries of the home folder, or an AgentError (AUTH, CONNECT, …)
   */
  test(): Promise<RemoteEntry[]>;

  /** Ends the connection; the next call connects again. */
  close(): Promise<void>;
}

/** Options every driver takes besides its protocol's own. */
export interface CommonOptions {
  /** The site's home folder; default "/". */
  home?: string;
  /** Hosts allowed although not global unicast (tests and development only). */
  allowHosts?: readonly string[];
  /** Per-command timeout; default 45 s. */
  commandTimeoutMs?: number;
  /** Default read cap; default 5 MB. */
  maxReadBytes?: number;
  /** Write cap; default 25 MB. */
  maxWriteBytes?: number;
}

/** Folders first, then by name (code-point order, stable across drivers). */
export function sortEntries(entries: RemoteEntry[]): RemoteEntry[] {
  return entries.sort((a, b) => (a.type === b.type ? (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.type === "directory" ? -1 : 1));
}
