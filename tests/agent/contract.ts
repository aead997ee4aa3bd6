// The RemoteFs contract: one suite, run unchanged against every driver (HOUSE-STYLE.md 11).
// Every driver promises the same behaviour, including one decision worth naming:
//   writeAtomic into a missing parent folder CREATES the parent (on every driver).
// and one the servers force: during an atomic replace a reader sees the old or the new content in
// full; on a server whose MOVE deletes the target first (Apache mod_dav) it may also briefly see
// NOT_FOUND (the subject says so); a partial file fails every driver.
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { AgentError } from "../../agent/src/errors.ts";
import type { RemoteFs } from "../../agent/src/remote-fs.ts";

export interface ContractSubject {
  /** A driver with good credentials whose home folder is `home` (created by the suite). */
  create(options?: { home?: string }): RemoteFs;
  /** A driver on the root of the server, to create the suite's home folder. */
  root(): RemoteFs;
  /** The suite's home folder (absolute, on the server). */
  home: string;
  /**
   * The same server with a wrong password (or secret key). Every network driver has one; only a
   * store without credentials (the demo store in R2) leaves it out, run with `network: false`.
   */
  wrongPassword?(): RemoteFs;
  /** A driver aimed at a port where nothing listens. Left out only where there is no network (`network: false`). */
  closedPort?(): Promise<RemoteFs>;
  /**
   * The server's replace removes the target before moving the new file in (Apache mod_dav's MOVE
   * with Overwrite: T), so a reader may briefly get NOT_FOUND — never a partial file.
   */
  replaceMayBrieflyMissTarget?: boolean;
}

/** What every network driver must provide: its subject type makes the credential and port tests required. */
export type NetworkContractSubject = ContractSubject & Required<Pick<ContractSubject, "wrongPassword" | "closedPort">>;

const MB = 1024 * 1024;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return (error as AgentError).code;
  }
  return "resolved";
}

/**
 * Random bytes in 64 KB slices: Web Crypto's getRandomValues (in Node and in workerd alike) fills
 * at most 64 KB per call, and workerd's node:crypto randomBytes has the same limit.
 */
function randomData(size: number): Buffer {
  const data = Buffer.alloc(size);
  for (let offset = 0; offset < size; offset += 65_536) crypto.getRandomValues(data.subarray(offset, Math.min(size, offset + 65_536)));
  return data;
}

const sha = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/**
 * Registers the contract tests for one driver. `subject` is read lazily (servers start in beforeAll).
 * @example runContract("sftp", () => ({ create: … }))
 */
export function runContract(name: string, subject: () => ContractSubject, { network = true }: { network?: boolean } = {}): void {
  describe(`RemoteFs contract: ${name}`, () => {
    let fs: RemoteFs;
    const use = () => {
      fs ??= subject().create();
      return fs;
    };

    test("test() connects and lists the home folder", async () => {
      const root = subject().root();
      try {
        await root.mkdirp(subject().home);
      } finally {
        await root.close();
      }
      expect(await use().test()).toEqual([]);
    });

    test("write, read, stat and list a file; no temporary file left behind", async () => {
      const fs = use();
      await fs.writeAtomic("hello.txt", Buffer.from("hello world\n"));
      expect((await fs.read("hello.txt")).toString()).toBe("hello world\n");
      const entry = await fs.stat("hello.txt");
      expect(entry).toMatchObject({ name: "hello.txt", path: `${fs.home}/hello.txt`, type: "file", size: 12 });
      expect(entry?.modifiedAt === null || entry?.modifiedAt instanceof Date).toBe(true);
      const listing = await fs.list(fs.home);
      expect(listing.map((item) => [item.name, item.type, item.size])).toEqual([["hello.txt", "file", 12]]);
      // Overwrite replaces the content.
      await fs.writeAtomic(`${fs.home}/hello.txt`, Buffer.from("second"));
      expect((await fs.read("hello.txt")).toString()).toBe("second");
      expect((await fs.list(".")).map((item) => item.name)).toEqual(["hello.txt"]);
    });

    test("a missing file: stat answers null, read answers NOT_FOUND", async () => {
      expect(await use().stat("nope.txt")).toBeNull();
      expect(await codeOf(use().read("nope.txt"))).toBe("NOT_FOUND");
    });

    test("mkdirp creates nested folders and is idempotent", async () => {
      const fs = use();
      await fs.mkdirp("a/b/c");
      await fs.mkdirp("a/b/c");
      expect(await fs.stat("a/b/c")).toMatchObject({ type: "directory", name: "c", size: 0 });
      expect((await fs.list("a")).map((item) => [item.name, item.type])).toEqual([["b", "directory"]]);
      await fs.writeAtomic("a/file.txt", Buffer.from("x"));
      expect((await fs.list("a")).map((item) => [item.name, item.type])).toEqual([
        ["b", "directory"],
        ["file.txt", "file"],
      ]);
    });

    test("writing into a missing parent creates the parent", async () => {
      const fs = use();
      await fs.writeAtomic("missing/deeper/page.html", Buffer.from("<p>deep</p>"));
      expect((await fs.read("missing/deeper/page.html")).toString()).toBe("<p>deep</p>");
      expect(await fs.stat("missing/deeper")).toMatchObject({ type: "directory" });
    });

    test("rename a file and a folder; never over an existing target", async () => {
      const fs = use();
      await fs.writeAtomic("r/one.txt", Buffer.from("1"));
      await fs.writeAtomic("r/two.txt", Buffer.from("2"));
      expect(await codeOf(fs.rename("r/one.txt", "r/two.txt"))).toBe("FILE_ALREADY_EXISTS");
      expect((await fs.read("r/two.txt")).toString()).toBe("2");
      await fs.rename("r/one.txt", "r/three.txt");
      expect(await fs.stat("r/one.txt")).toBeNull();
      expect((await fs.read("r/three.txt")).toString()).toBe("1");
      expect(await codeOf(fs.rename("r/absent.txt", "r/four.txt"))).toBe("NOT_FOUND");
      await fs.rename("r", "renamed");
      expect(await fs.stat("r")).toBeNull();
      expect((await fs.list("renamed")).map((item) => item.name)).toEqual(["three.txt", "two.txt"]);
    });

    test("remove a file, a folder with contents, and nothing", async () => {
      const fs = use();
      await fs.writeAtomic("gone/inner/x.txt", Buffer.from("x"));
      await fs.writeAtomic("gone/y.txt", Buffer.from("y"));
      await fs.writeAtomic("single.txt", Buffer.from("s"));
      await fs.remove("single.txt");
      expect(await fs.stat("single.txt")).toBeNull();
      await fs.remove("gone");
      expect(await fs.stat("gone")).toBeNull();
      expect(await fs.stat("gone/inner/x.txt")).toBeNull();
      await fs.remove("never-existed.txt");
      expect(await codeOf(fs.remove(fs.home))).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
    });

    test("unicode and spaces in names", async () => {
      const fs = use();
      const folder = "Ördner mit Leer";
      const file = `${folder}/ファイル über ✓.html`;
      await fs.writeAtomic(file, Buffer.from("<p>ünïcode</p>"));
      expect((await fs.read(file)).toString()).toBe("<p>ünïcode</p>");
      expect((await fs.list(folder)).map((item) => item.name)).toEqual(["ファイル über ✓.html"]);
      expect((await fs.list(".")).some((item) => item.name === folder && item.type === "directory")).toBe(true);
      await fs.rename(file, `${folder}/zweite Datei é.html`);
      expect((await fs.stat(`${folder}/zweite Datei é.html`))?.size).toBe(Buffer.byteLength("<p>ünïcode</p>"));
      await fs.remove(folder);
      expect(await fs.stat(folder)).toBeNull();
    });

    test("a 20 MB file round trip; caps on read (5 MB default) and write (25 MB)", async () => {
      const fs = use();
      const data = randomData(20 * MB);
      await fs.writeAtomic("big/twenty.bin", data);
      expect((await fs.stat("big/twenty.bin"))?.size).toBe(20 * MB);
      const back = await fs.read("big/twenty.bin", { maxBytes: 25 * MB });
      expect(back.length).toBe(20 * MB);
      expect(sha(back)).toBe(sha(data));
      expect(await codeOf(fs.read("big/twenty.bin"))).toBe("FILE_TOO_LARGE");
      expect(await codeOf(fs.writeAtomic("big/too-big.bin", Buffer.alloc(25 * MB + 1)))).toBe("FILE_TOO_LARGE");
      expect(await fs.stat("big/too-big.bin")).toBeNull();
      expect((await fs.list("big")).map((item) => item.name)).toEqual(["twenty.bin"]);
      await fs.remove("big");
    });

    test("atomic write: a concurrent reader sees the old or the new content in full, never a part", async () => {
      const writer = use();
      const reader = subject().create();
      try {
        const before = Buffer.alloc(2 * MB, "o");
        const after = Buffer.alloc(20 * MB, "n");
        await writer.writeAtomic("atomic/page.html", before);
        // The reader is connected and has seen the old version before the write starts.
        expect((await reader.read("atomic/page.html", { maxBytes: 25 * MB })).equals(before)).toBe(true);
        let done = false;
        const seen = { before: 1, after: 0, missing: 0 };
        const mayMiss = subject().replaceMayBrieflyMissTarget === true;
        const reading = (async () => {
          while (!done || seen.after === 0) {
            let content: Buffer;
            try {
              content = await reader.read("atomic/page.html", { maxBytes: 25 * MB });
            } catch (error) {
              if (mayMiss && error instanceof AgentError && error.code === "NOT_FOUND") {
                seen.missing += 1;
                continue;
              }
              throw error;
            }
            if (content.equals(before)) seen.before += 1;
            else if (content.equals(after)) seen.after += 1;
            else throw new Error(`A reader saw a partial file of ${content.length} bytes`);
          }
        })();
        await writer.writeAtomic("atomic/page.html", after);
        done = true;
        await reading;
        expect(seen.before).toBeGreaterThan(0);
        expect(seen.after).toBeGreaterThan(0);
        expect((await writer.list("atomic")).map((item) => item.name)).toEqual(["page.html"]);
      } finally {
        await reader.close();
      }
    });

    test("paths outside the home folder are refused before anything is sent", async () => {
      const fs = use();
      for (const path of ["/etc/passwd", "../outside.txt", "a/../../x", "%2e%2e/x", "a\\..\\x", "x\u0000y", "/"]) {
        expect(await codeOf(fs.read(path)), path).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
      }
      expect(await codeOf(fs.writeAtomic("../escape.txt", Buffer.from("x")))).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
      expect(await codeOf(fs.list("/"))).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
      expect(await codeOf(fs.rename("hello.txt", "../hello.txt"))).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
      expect(await codeOf(fs.remove(".."))).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
    });

    // A store without credentials or a network (the demo store in R2) has neither of these two.
    if (network) test("a wrong password answers CONNECTION_AGENT_AUTH", async () => {
      const current = subject();
      if (!current.wrongPassword) throw new Error(`${name}: a network driver's subject needs wrongPassword()`);
      const fs = current.wrongPassword();
      try {
        expect(await codeOf(fs.test())).toBe("CONNECTION_AGENT_AUTH");
      } finally {
        await fs.close();
      }
    });

    if (network) test("a closed port answers CONNECTION_AGENT_CONNECT", async () => {
      const current = subject();
      if (!current.closedPort) throw new Error(`${name}: a network driver's subject needs closedPort()`);
      const fs = await current.closedPort();
      try {
        expect(await codeOf(fs.test())).toBe("CONNECTION_AGENT_CONNECT");
      } finally {
        await fs.close();
      }
    });

    test("close() ends the connection and the next call connects again", async () => {
      const fs = use();
      await fs.close();
      expect((await fs.read("hello.txt")).toString()).toBe("second");
      await fs.close();
    });
  });
}
