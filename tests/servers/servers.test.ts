// Proves that tests/servers/servers.mjs starts real, working servers: one round trip per protocol
// with an ordinary command-line client (lftp, OpenSSH sftp, curl), checked on the server's disk where
// the protocol allows, plus the trust checks the agent relies on (pinned FTPS certificate, pinned
// SFTP host key), and that stop() leaves no server process behind.
// Needs root and the packages of tests/servers/install.mjs.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { liveProcesses, type Servers, sshFingerprint, startServers } from "./servers.mjs";

let servers: Servers;
let work: string;

// Clients must reach loopback directly, whatever proxy the environment names.
const env = { ...process.env };
for (const key of Object.keys(env)) if (/_proxy$/i.test(key)) delete env[key];

function cli(command: string, args: string[], extraEnv: Record<string, string> = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", timeout: 30_000, env: { ...env, ...extraEnv }, stdio: ["ignore", "pipe", "pipe"] });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, output: `${result.stdout}\n${result.stderr}` };
}

/** A local file with unique content, to upload. */
function localFile(name: string) {
  const file = path.join(work, name);
  const content = `${name} ${randomBytes(16).toString("hex")}\n`;
  fs.writeFileSync(file, content);
  return { file, content };
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cms-servers-test-"));
  servers = await startServers({ which: ["ftp", "ftps", "sftp", "s3", "webdav"] });
});

afterAll(async () => {
  fs.rmSync(work, { recursive: true, force: true });
  if (!servers) return;
  await servers.stop();
  expect(liveProcesses(servers.processGroups)).toEqual([]);
  expect(fs.existsSync(servers.dir)).toBe(false);
});

test("every server process runs in its own, live process group", () => {
  // ftp, ftps, sftp, webdav, and Ceph's monitor, OSD and gateway
  expect(servers.processGroups).toHaveLength(7);
  expect(new Set(servers.processGroups).size).toBe(7);
  const leaders = liveProcesses(servers.processGroups).filter((proc) => proc.pid === proc.pgid);
  expect(leaders.map((proc) => proc.command).sort()).toEqual(["apache2", "ceph-mon", "ceph-osd", "radosgw", "sshd", "vsftpd", "vsftpd"]);
});

describe("FTP and FTPS (vsftpd) with lftp", () => {
  const lftp = (server: Servers["ftp"], settings: string[], commands: string[]) =>
    cli("lftp", ["-c", [
      "set cmd:fail-exit yes", "set net:max-retries 1", "set net:timeout 10", "set ssl:verify-certificate yes", ...settings,
      `open -u ${server.username},${server.password} ftp://${server.host}:${server.port}`, ...commands,
    ].join("; ")]);
  const plain = ["set ftp:ssl-allow no"];
  const pinned = (server: Servers["ftp"]) => ["set ftp:ssl-force yes", "set ftp:ssl-protect-data yes", `set ssl:ca-file ${server.caFile}`];

  test("plain FTP: upload, list, download, and the file is on disk", () => {
    const { file, content } = localFile("plain.txt");
    const result = lftp(servers.ftp, plain, [`put ${file} -o plain.txt`, "cls -1", "cat plain.txt"]);
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toBe(`plain.txt\n${content}`);
    expect(fs.readFileSync(path.join(servers.ftp.root, "plain.txt"), "utf8")).toBe(content);
  });

  test("explicit TLS on the same port, with the self-signed certificate pinned as the only CA", () => {
    const { file, content } = localFile("explicit.txt");
    const result = lftp(servers.ftp, pinned(servers.ftp), [`put ${file} -o explicit.txt`, "cls -1 explicit.txt", "cat explicit.txt"]);
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toBe(`explicit.txt\n${content}`);
    expect(fs.readFileSync(path.join(servers.ftp.root, "explicit.txt"), "utf8")).toBe(content);
  });

  test("a certificate not signed by a trusted CA is refused", () => {
    const result = lftp(servers.ftp, ["set ftp:ssl-force yes", "set ssl:ca-file /etc/ssl/certs/ca-certificates.crt"], ["cls"]);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/not trusted/i);
  });

  test("FTPS-only: plain logins are refused, TLS works, and the server presents the described certificate", () => {
    const refused = lftp(servers.ftps, plain, ["cls"]);
    expect(refused.status).not.toBe(0);
    expect(refused.output).toMatch(/530/);

    const { file, content } = localFile("secure.txt");
    const result = lftp(servers.ftps, pinned(servers.ftps), [`put ${file} -o secure.txt`, "cls -1", "cat secure.txt"]);
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toBe(`secure.txt\n${content}`);
    expect(fs.readFileSync(path.join(servers.ftps.root, "secure.txt"), "utf8")).toBe(content);

    const handshake = cli("sh", ["-c", `openssl s_client -starttls ftp -connect ${servers.ftps.host}:${servers.ftps.port} </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256`]);
    expect(handshake.stdout.trim()).toBe(`sha256 Fingerprint=${servers.ftps.certificateFingerprint256}`);
  });
});

describe("SFTP (OpenSSH) with sftp in batch mode", () => {
  let knownHosts: string;

  beforeAll(() => {
    knownHosts = path.join(work, "known_hosts");
    fs.writeFileSync(knownHosts, `[${servers.sftp.host}]:${servers.sftp.port} ${servers.sftp.hostKey}\n`);
  });

  function sftp(commands: string[], options: string[], extraEnv: Record<string, string> = {}, hosts = knownHosts) {
    const batch = path.join(work, `batch-${randomBytes(4).toString("hex")}`);
    fs.writeFileSync(batch, `${commands.join("\n")}\n`);
    // -o options before -b: sftp adds "BatchMode yes" for -b, and ssh keeps the first value it sees.
    return cli("sftp", [
      ...options, "-b", batch, "-o", "StrictHostKeyChecking=yes", "-o", `UserKnownHostsFile=${hosts}`, "-o", "GlobalKnownHostsFile=/dev/null",
      "-o", "ConnectTimeout=10", "-P", String(servers.sftp.port), `${servers.sftp.username}@${servers.sftp.host}`,
    ], extraEnv);
  }

  test("the described fingerprint is the host key's, as OpenSSH prints it", () => {
    const printed = cli("ssh-keygen", ["-l", "-f", knownHosts]);
    expect(printed.status, printed.output).toBe(0);
    expect(printed.stdout.split(" ")[1]).toBe(servers.sftp.hostKeyFingerprint);
    expect(sshFingerprint(servers.sftp.hostKey)).toBe(servers.sftp.hostKeyFingerprint);
  });

  test("key authentication: upload, list, download, and the file is on disk", () => {
    const { file, content } = localFile("by-key.txt");
    const back = path.join(work, "by-key.back");
    const result = sftp([`put ${file} by-key.txt`, "ls -1", `get by-key.txt ${back}`],
      ["-o", "IdentitiesOnly=yes", "-o", "PreferredAuthentications=publickey", "-i", servers.sftp.privateKeyFile]);
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toMatch(/^by-key\.txt$/m);
    expect(fs.readFileSync(back, "utf8")).toBe(content);
    expect(fs.readFileSync(path.join(servers.sftp.root, "by-key.txt"), "utf8")).toBe(content);
  });

  test("password authentication", () => {
    const askpass = path.join(work, "askpass.sh");
    fs.writeFileSync(askpass, `#!/bin/sh\nprintf '%s\\n' '${servers.sftp.password}'\n`, { mode: 0o700 });
    const { file, content } = localFile("by-password.txt");
    const result = sftp([`put ${file} by-password.txt`, "ls -1"],
      ["-o", "BatchMode=no", "-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=password", "-o", "NumberOfPasswordPrompts=1"],
      { SSH_ASKPASS: askpass, SSH_ASKPASS_REQUIRE: "force" });
    expect(result.status, result.output).toBe(0);
    expect(result.stdout).toMatch(/^by-password\.txt$/m);
    expect(fs.readFileSync(path.join(servers.sftp.root, "by-password.txt"), "utf8")).toBe(content);
  });

  test("a different host key for the same address is refused", () => {
    const otherKey = path.join(work, "other_host_key");
    expect(cli("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", otherKey]).status).toBe(0);
    const wrongHosts = path.join(work, "wrong_known_hosts");
    const otherPublic = fs.readFileSync(`${otherKey}.pub`, "utf8").split(" ").slice(0, 2).join(" ");
    fs.writeFileSync(wrongHosts, `[${servers.sftp.host}]:${servers.sftp.port} ${otherPublic}\n`);
    const result = sftp(["ls"], ["-o", "IdentitiesOnly=yes", "-i", servers.sftp.privateKeyFile], {}, wrongHosts);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/Host key verification failed/);
  });
});

describe("S3 (Ceph radosgw) with curl --aws-sigv4", () => {
  const curlS3 = (args: string[], secret = servers.s3.secretAccessKey) => cli("curl", [
    "--silent", "--show-error", "--max-time", "20", "--write-out", "\n%{http_code}",
    "--aws-sigv4", `aws:amz:${servers.s3.region}:s3`, "--user", `${servers.s3.accessKeyId}:${secret}`,
    "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD", ...args,
  ]);
  const split = (stdout: string) => ({ body: stdout.slice(0, stdout.lastIndexOf("\n")), status: Number(stdout.slice(stdout.lastIndexOf("\n") + 1)) });

  test("PUT an object, list the bucket, GET it back", () => {
    const { file, content } = localFile("object.txt");
    const base = `${servers.s3.endpoint}/${servers.s3.bucket}`;
    expect(split(curlS3(["-T", file, `${base}/folder/object.txt`]).stdout).status).toBe(200);
    const listed = split(curlS3([`${base}?list-type=2&prefix=folder%2F`]).stdout);
    expect(listed.status).toBe(200);
    expect(listed.body).toContain("<Key>folder/object.txt</Key>");
    const read = split(curlS3([`${base}/folder/object.txt`]).stdout);
    expect(read).toEqual({ status: 200, body: content });
    expect(split(curlS3(["-X", "DELETE", `${base}/folder/object.txt`]).stdout).status).toBe(204);
  });

  test("a wrong secret is refused", () => {
    const result = split(curlS3([`${servers.s3.endpoint}/${servers.s3.bucket}`], "not-the-secret").stdout);
    expect(result.status).toBe(403);
    expect(result.body).toContain("SignatureDoesNotMatch");
  });
});

describe("WebDAV (Apache mod_dav) with curl", () => {
  const curlDav = (args: string[], password = servers.webdav.password) => {
    const result = cli("curl", ["--silent", "--show-error", "--max-time", "20", "--write-out", "\n%{http_code}",
      "--user", `${servers.webdav.username}:${password}`, ...args]);
    const at = result.stdout.lastIndexOf("\n");
    return { status: Number(result.stdout.slice(at + 1)), body: result.stdout.slice(0, at), output: result.output };
  };

  test("PUT, PROPFIND, GET, and the file is on disk", () => {
    const { file, content } = localFile("page.html");
    expect(curlDav(["-X", "MKCOL", `${servers.webdav.url}site/`]).status).toBe(201);
    expect(curlDav(["-T", file, `${servers.webdav.url}site/page.html`]).status).toBe(201);
    const listed = curlDav(["-X", "PROPFIND", "-H", "Depth: 1", `${servers.webdav.url}site/`]);
    expect(listed.status, listed.output).toBe(207);
    expect(listed.body).toContain("<D:href>/site/page.html</D:href>");
    expect(curlDav([`${servers.webdav.url}site/page.html`])).toMatchObject({ status: 200, body: content });
    expect(fs.readFileSync(path.join(servers.webdav.root, "site", "page.html"), "utf8")).toBe(content);
  });

  test("a wrong password is refused", () => {
    expect(curlDav([`${servers.webdav.url}site/page.html`], "not-the-password").status).toBe(401);
  });
});
