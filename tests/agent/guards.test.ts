// The agent's guards without servers: the path corpus, the address vetting (SSRF list) with zero
// connections reaching a listener, the allow-list, a PASV reply pointing elsewhere, and the
// command timeout. SECURITY.md items 3, 5 and 17.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFtpFs } from "../../agent/src/drivers/ftp.ts";
import { createS3Fs } from "../../agent/src/drivers/s3.ts";
import { createSftpFs } from "../../agent/src/drivers/sftp.ts";
import { createWebDavFs } from "../../agent/src/drivers/webdav.ts";
import { AgentError } from "../../agent/src/errors.ts";
import { connectGuarded, isPublicAddress, literalAddress, resolveAllowed, resolveRemotePath, temporaryPathFor } from "../../agent/src/guards.ts";
import type { RemoteFs } from "../../agent/src/remote-fs.ts";

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return (error as AgentError).code;
  }
  return "resolved";
}

function codeOfSync(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentError);
    return (error as AgentError).code;
  }
  return "returned";
}

describe("paths", () => {
  test("good paths are normalised inside the home folder", () => {
    expect(resolveRemotePath("/", "index.html")).toBe("/index.html");
    expect(resolveRemotePath("/www/", "blog//a.html")).toBe("/www/blog/a.html");
    expect(resolveRemotePath("/www", "/www/./blog/")).toBe("/www/blog");
    expect(resolveRemotePath("/www", "/www")).toBe("/www");
    expect(resolveRemotePath("/www", "")).toBe("/www");
    expect(resolveRemotePath("www", "ü b/ファイル.html")).toBe("/www/ü b/ファイル.html");
    expect(resolveRemotePath("/www", "..hidden/...")).toBe("/www/..hidden/...");
    expect(temporaryPathFor("/www/a b.html", "abc")).toBe("/www/.a b.html.abc.tmp");
    expect(temporaryPathFor("/index.html", "abc")).toBe("/.index.html.abc.tmp");
  });

  const corpus = [
    "../etc/passwd",
    "/www/../etc/passwd",
    "a/../../x",
    "/etc/passwd",
    "/wwwx/file",
    "/ww",
    "/",
    "..",
    "./..",
    "a/b/../../..",
    "%2e%2e/x",
    "%2E%2E%2Fx",
    "..%2fx",
    "%2e./x",
    "a%5c..%5cx",
    "a\\..\\x",
    "..\\x",
    "C:\\Windows",
    "x\u0000.html",
    "x%00.html",
    "line\nbreak",
  ];
  test.each(corpus)("%j is refused with PATH_OUTSIDE_OF_HOME_FOLDER", (path) => {
    expect(codeOfSync(() => resolveRemotePath("/www", path))).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
  });
});

describe("addresses", () => {
  const refused = [
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0177.0.0.1",
    "0x7f.0.0.1",
    "0x7f000001",
    "017700000001",
    "0.0.0.0",
    "0",
    "10.0.0.1",
    "172.16.5.4",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "224.0.0.1",
    "255.255.255.255",
    "192.0.2.1",
    "::1",
    "::",
    "[::1]",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "64:ff9b::7f00:1",
    "64:ff9b::a9fe:a9fe",
    "2002:7f00:1::1",
    "2001:db8::1",
  ];
  test.each(refused)("%s is not a public address", async (host) => {
    const literal = literalAddress(host);
    expect(literal).not.toBeNull();
    expect(isPublicAddress(literal!)).toBe(false);
    expect(await codeOf(resolveAllowed(host))).toBe("CONNECTION_AGENT_HOST_NOT_ALLOWED");
  });

  test("decimal, octal and hex forms decode to the address the OS would use", () => {
    expect(literalAddress("2130706433")).toBe("127.0.0.1");
    expect(literalAddress("0177.0.0.1")).toBe("127.0.0.1");
    expect(literalAddress("0x7f.0.0.1")).toBe("127.0.0.1");
    expect(literalAddress("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(literalAddress("example.com")).toBeNull();
  });

  test.each(["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111"])("%s is public", async (host) => {
    expect(isPublicAddress(host)).toBe(true);
    expect((await resolveAllowed(host)).address).toBe(host);
  });

  test("a name that resolves to a private address is refused", async () => {
    expect(await codeOf(resolveAllowed("localhost"))).toBe("CONNECTION_AGENT_HOST_NOT_ALLOWED");
  });

  test("the allow-list admits a listed host or address only", async () => {
    expect((await resolveAllowed("127.0.0.1", ["127.0.0.1"])).address).toBe("127.0.0.1");
    expect((await resolveAllowed("localhost", ["localhost"])).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(await codeOf(resolveAllowed("10.0.0.1", ["127.0.0.1"]))).toBe("CONNECTION_AGENT_HOST_NOT_ALLOWED");
  });
});

describe("no connection is made to a refused address", () => {
  let listener: net.Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    listener = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    // Dual stack: 127.0.0.1 and ::1 both reach it.
    await new Promise<void>((resolve) => listener.listen({ port: 0, host: "::", ipv6Only: false }, resolve));
    port = (listener.address() as net.AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  const hosts = ["127.0.0.1", "2130706433", "0177.0.0.1", "0x7f.0.0.1", "127.1", "localhost", "::1", "::ffff:127.0.0.1", "10.0.0.1", "169.254.169.254", "100.64.0.1"];
  const bracket = (host: string) => (host.includes(":") ? `[${host}]` : host);
  const drivers: Record<string, (host: string) => RemoteFs> = {
    ftp: (host) => createFtpFs({ host, port, username: "u", password: "p", commandTimeoutMs: 3000 }),
    ftps: (host) => createFtpFs({ host, port, username: "u", password: "p", secure: true, commandTimeoutMs: 3000 }),
    sftp: (host) => createSftpFs({ host, port, username: "u", password: "p", commandTimeoutMs: 3000 }),
    s3: (host) => createS3Fs({ endpoint: `http://${bracket(host)}:${port}`, region: "us-east-1", bucket: "b", accessKeyId: "a", secretAccessKey: "s", commandTimeoutMs: 3000 }),
    webdav: (host) => createWebDavFs({ host: `${bracket(host)}:${port}`, username: "u", password: "p", commandTimeoutMs: 3000 }),
  };

  for (const [name, create] of Object.entries(drivers)) {
    test(`${name}: every refused form answers HOST_NOT_ALLOWED and nothing connects`, async () => {
      for (const host of hosts) {
        const fs = create(host);
        try {
          expect(await codeOf(fs.test()), `${name} ${host}`).toBe("CONNECTION_AGENT_HOST_NOT_ALLOWED");
        } finally {
          await fs.close();
        }
      }
      expect(connections).toBe(0);
    });
  }

  test("with the allow-list the same listener is reached (the guard, not the network, refused)", async () => {
    const socket = await connectGuarded({ host: "127.0.0.1", port, allowHosts: ["127.0.0.1"] });
    socket.destroy();
    await expect.poll(() => connections).toBe(1);
    expect(await codeOf(connectGuarded({ host: "127.0.0.1", port }))).toBe("CONNECTION_AGENT_HOST_NOT_ALLOWED");
    expect(connections).toBe(1);
  });
});

describe("FTP passive mode and the command timeout", () => {
  test("a PASV reply pointing elsewhere is ignored: data goes to the control address; unsafe LIST names are dropped", async () => {
    let dataConnections = 0;
    const data = net.createServer((socket) => {
      dataConnections += 1;
      socket.end("-rw-r--r-- 1 u g 5 Jan 01 2026 ok.txt\r\n-rw-r--r-- 1 u g 5 Jan 01 2026 ../evil.txt\r\ndrwxr-xr-x 2 u g 0 Jan 01 2026 ..\r\n");
    });
    await new Promise<void>((resolve) => data.listen(0, "127.0.0.1", resolve));
    const dataPort = (data.address() as net.AddressInfo).port;
    // A scripted FTP server whose PASV names 10.0.0.1 (inside someone's network) and refuses EPSV.
    const control = net.createServer((socket) => {
      socket.write("220 fake\r\n");
      let buffer = "";
      socket.on("data", (chunk) => {
        buffer += chunk.toString();
        let end;
        while ((end = buffer.indexOf("\r\n")) >= 0) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const command = line.split(" ")[0].toUpperCase();
          const replies: Record<string, string> = {
            USER: "331 password\r\n",
            PASS: "230 ok\r\n",
            FEAT: "211 end\r\n",
            TYPE: "200 ok\r\n",
            STRU: "200 ok\r\n",
            OPTS: "200 ok\r\n",
            EPSV: "500 no\r\n",
            PASV: `227 Entering Passive Mode (10,0,0,1,${dataPort >> 8},${dataPort & 255})\r\n`,
            LIST: "150 here\r\n",
          };
          socket.write(replies[command] ?? "502 no\r\n");
          if (command === "LIST") setTimeout(() => socket.write("226 done\r\n"), 50);
        }
      });
    });
    await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
    const fs = createFtpFs({ host: "127.0.0.1", port: (control.address() as net.AddressInfo).port, username: "u", password: "p", allowHosts: ["127.0.0.1"] });
    try {
      const entries = await fs.list("/");
      expect(entries.map((entry) => entry.name)).toEqual(["ok.txt"]);
      expect(dataConnections).toBe(1);
    } finally {
      await fs.close();
      control.close();
      data.close();
    }
  });

  test("a server that never answers hits the command timeout (CONNECTION_AGENT_TIMEOUT)", async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const started = Date.now();
    const ftp = createFtpFs({ host: "127.0.0.1", port, username: "u", password: "p", allowHosts: ["127.0.0.1"], commandTimeoutMs: 400 });
    const sftp = createSftpFs({ host: "127.0.0.1", port, username: "u", password: "p", allowHosts: ["127.0.0.1"], commandTimeoutMs: 400 });
    try {
      expect(await codeOf(ftp.test())).toBe("CONNECTION_AGENT_TIMEOUT");
      expect(await codeOf(sftp.test())).toBe("CONNECTION_AGENT_TIMEOUT");
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await ftp.close();
      await sftp.close();
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
