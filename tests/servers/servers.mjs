// Real FTP, FTPS, SFTP, S3 and WebDAV servers on loopback for the connection agent's tests.
// Installed by tests/servers/install.mjs (Debian 12, root); started here, each in its own process
// group, on free ports, with every config, key, certificate, log and file root in one fresh scratch
// folder that stop() removes.
//
//   const servers = await startServers({ which: ["ftp", "sftp"] });
//   servers.ftp; // { host: "127.0.0.1", port, username, password, root, … }
//   await servers.stop();
//
// Node's standard library only: the agent's own dependencies must not be needed to test it.
import { Buffer } from "node:buffer";
import { execFile, spawn, spawnSync } from "node:child_process";
import { createHash, createHmac, randomBytes, randomUUID, X509Certificate } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export const TEST_USER = "cmstest";
export const TEST_USER_SHELL = "/bin/sh";
/** The OS user's password, random per machine, written by install.mjs (root only). */
export const PASSWORD_FILE = "/var/lib/cms-test-servers/cmstest.password";
export const SERVER_NAMES = ["ftp", "ftps", "sftp", "s3", "webdav"];
/** Scratch folders are named so that `run.mjs stop` can find the ones a crashed run left behind. */
export const SCRATCH_PREFIX = "cms-test-servers-";
export const STATE_FILE = "servers.json";

const HOST = "127.0.0.1";
const BINARIES = {
  ftp: ["/usr/sbin/vsftpd", "/usr/bin/openssl"],
  ftps: ["/usr/sbin/vsftpd", "/usr/bin/openssl"],
  sftp: ["/usr/sbin/sshd", "/usr/bin/ssh-keygen"],
  s3: ["/usr/bin/monmaptool", "/usr/bin/ceph-mon", "/usr/bin/ceph-osd", "/usr/bin/ceph", "/usr/bin/radosgw", "/usr/bin/radosgw-admin"],
  webdav: ["/usr/sbin/apache2", "/usr/bin/htpasswd", "/usr/lib/apache2/modules/mod_dav_fs.so"],
};
const START_TIMEOUT_MS = 20_000;
const CEPH_TIMEOUT_MS = 60_000;

/**
 * Starts the named servers and answers how to reach each one, plus `stop()`.
 * @param {{ which?: string[], baseDir?: string }} [options] `baseDir` holds the scratch folder (default: the OS temp folder).
 */
export async function startServers({ which: names = SERVER_NAMES, baseDir = os.tmpdir() } = {}) {
  const which = [...new Set(names)];
  const unknown = which.filter((name) => !SERVER_NAMES.includes(name));
  if (unknown.length) throw new Error(`Unknown test server ${unknown.join(", ")}; choose from ${SERVER_NAMES.join(", ")}.`);
  // Paths go unquoted into sshd's ForceCommand.
  if (/\s/.test(path.resolve(baseDir))) throw new Error(`The base folder must not contain spaces: ${path.resolve(baseDir)}`);
  const password = preflight(which);

  const dir = fs.mkdtempSync(path.join(path.resolve(baseDir), SCRATCH_PREFIX));
  // The FTP and SFTP sessions run as the test user and Apache as www-data: all must traverse it.
  fs.chmodSync(dir, 0o755);
  fs.mkdirSync(path.join(dir, "logs"));
  const owner = { pid: process.pid, startTime: readProcStat(process.pid)?.startTime, argv: process.argv };
  const state = { dir, owner, processes: [], stopped: null };
  saveState(state);
  const onExit = () => killEverythingNow(state);
  process.on("exit", onExit);

  const stop = () => {
    state.stopped ??= (async () => {
      process.off("exit", onExit);
      await stopAll(state);
      fs.rmSync(dir, { recursive: true, force: true });
    })();
    return state.stopped;
  };

  const result = { dir, processGroups: [], stop };
  try {
    const user = lookupUser(TEST_USER);
    const tls = which.includes("ftp") || which.includes("ftps") ? await makeCertificate(dir) : null;
    const starts = {
      ftp: () => startVsftpd(state, "ftp", { tls, user, password, tlsRequired: false }),
      ftps: () => startVsftpd(state, "ftps", { tls, user, password, tlsRequired: true }),
      sftp: () => startSshd(state, { user, password }),
      s3: () => startCeph(state),
      webdav: () => startApache(state),
    };
    const outcomes = await Promise.allSettled(which.map((name) => starts[name]()));
    const failures = outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => outcome.reason);
    if (failures.length) throw new AggregateError(failures, failures.map((error) => error.message).join("\n\n"));
    which.forEach((name, i) => (result[name] = outcomes[i].value));
  } catch (error) {
    const stopError = await stop().then(() => null, (failure) => failure);
    throw stopError ? new AggregateError([error, stopError], `${error.message}\n\nStopping the others failed too: ${stopError.message}`) : error;
  }
  result.processGroups = state.processes.map((proc) => proc.pgid);
  saveState(state, result);
  return result;
}

/** Processes (not zombies) still alive in the given process groups. */
export function liveProcesses(pgids) {
  const wanted = new Set(pgids);
  const alive = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(Number(entry));
    if (stat && wanted.has(stat.pgrp) && stat.state !== "Z") alive.push({ pid: Number(entry), pgid: stat.pgrp, command: stat.command });
  }
  return alive;
}

/** /proc/PID/stat: the command, state, process group and start time (clock ticks since boot). */
export function readProcStat(pid) {
  let text;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 2).split(" "); // fields[0] is field 3 of proc(5)
  return { command: text.slice(text.indexOf("(") + 1, close), state: fields[0], pgrp: Number(fields[2]), startTime: fields[19] };
}

// ── preparation ──────────────────────────────────────────────────────────────────────────────────

function preflight(which) {
  const hint = "Install them with: sudo node tests/servers/install.mjs";
  if (typeof process.getuid !== "function" || process.getuid() !== 0) {
    throw new Error("The test servers must be started as root: sshd, vsftpd and Apache switch to the test users.");
  }
  const missing = [...new Set(which.flatMap((name) => BINARIES[name]))].filter((file) => !fs.existsSync(file));
  if (missing.length) throw new Error(`Missing ${missing.join(", ")}. ${hint}`);
  if (!which.some((name) => ["ftp", "ftps", "sftp"].includes(name))) return "";
  if (!fs.existsSync(PASSWORD_FILE)) throw new Error(`No password for ${TEST_USER} (${PASSWORD_FILE}). ${hint}`);
  return fs.readFileSync(PASSWORD_FILE, "utf8").trim();
}

/**
 * Hands files a test wrote on disk (as root) to the OS user the FTP and SFTP servers log in as, so
 * the servers may replace and remove them as they would the user's own files. Recursive.
 */
export function ownByTestUser(target) {
  const owner = lookupUser(TEST_USER);
  const visit = (entry) => {
    fs.chownSync(entry, owner.uid, owner.gid);
    if (fs.statSync(entry).isDirectory()) for (const child of fs.readdirSync(entry)) visit(path.join(entry, child));
  };
  visit(target);
}

function lookupUser(name) {
  const result = spawnSync("getent", ["passwd", name], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`No OS user ${name}. Create it with: sudo node tests/servers/install.mjs`);
  const [, , uid, gid] = result.stdout.trim().split(":");
  return { name, uid: Number(uid), gid: Number(gid) };
}

function run(command, args, { timeout = 30_000 } = {}) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(" ")} failed: ${error.message}\n${stderr}${stdout}`.trim()));
      else resolve(stdout);
    });
  });
}

/** A free TCP port on loopback, chosen by the kernel (never a fixed one: runs may overlap). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A self-signed certificate for 127.0.0.1 and localhost, shared by the FTP servers of one start. */
async function makeCertificate(dir) {
  const tlsDir = path.join(dir, "tls");
  fs.mkdirSync(tlsDir);
  const certFile = path.join(tlsDir, "cert.pem");
  const keyFile = path.join(tlsDir, "key.pem");
  await run("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "30",
    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
    "-keyout", keyFile, "-out", certFile,
  ]);
  fs.chmodSync(keyFile, 0o600);
  const ca = fs.readFileSync(certFile, "utf8");
  return { certFile, keyFile, ca, fingerprint256: new X509Certificate(ca).fingerprint256 };
}

function makeRoot(dir, name, owner) {
  const root = path.join(dir, `${name}-root`);
  fs.mkdirSync(root, { mode: 0o755 });
  if (owner) fs.chownSync(root, owner.uid, owner.gid);
  return root;
}

/** Hex: safe unquoted in every config file and command line here. */
const secret = (bytes = 16) => randomBytes(bytes).toString("hex");

// ── processes ────────────────────────────────────────────────────────────────────────────────────

/**
 * Spawns a server in its own process group with stdout and stderr (and, for vsftpd, stdin) going to
 * its log file in the scratch folder.
 */
function launch(state, name, command, args, { log, stdinToLog = false }) {
  const fd = fs.openSync(log, "a");
  let child;
  try {
    child = spawn(command, args, { cwd: state.dir, detached: true, stdio: [stdinToLog ? fd : "ignore", fd, fd] });
  } finally {
    fs.closeSync(fd);
  }
  const proc = { name, command, child, pgid: child.pid, startTime: child.pid && readProcStat(child.pid)?.startTime, log, exit: null };
  proc.exited = new Promise((resolve) => {
    child.once("exit", (code, signal) => resolve((proc.exit = { code, signal })));
    child.once("error", (error) => resolve((proc.exit = { code: null, signal: null, error })));
  });
  if (child.pid) {
    state.processes.push(proc);
    saveState(state);
  }
  return proc;
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

function startError(name, reason, logs) {
  const tails = logs.map((log) => `--- ${log} (last lines) ---\n${tail(log)}`).join("\n");
  return new Error(`The ${name} test server did not start: ${reason}\n${tails}`);
}

/**
 * Polls `check` until it answers truthy; fails early when one of `procs` exits, and after `timeout`.
 */
async function waitUntil(name, procs, check, { timeout = START_TIMEOUT_MS, logs = procs.map((proc) => proc.log) } = {}) {
  const deadline = Date.now() + timeout;
  let lastError;
  for (;;) {
    const dead = procs.find((proc) => proc.exit);
    if (dead) {
      const how = dead.exit.error?.message ?? (dead.exit.signal ? `signal ${dead.exit.signal}` : `exit ${dead.exit.code}`);
      throw startError(name, `${dead.command} exited (${how})`, logs);
    }
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) throw startError(name, `not ready after ${timeout / 1000} s${lastError ? ` (${lastError.message})` : ""}`, logs);
    await sleep(20);
  }
}

/** The first line the server sends on a new connection (FTP and SSH greet first). */
function readGreeting(port) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, HOST);
    let text = "";
    socket.setTimeout(2000, () => socket.destroy(new Error("no greeting")));
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      if (text.includes("\n")) {
        socket.destroy();
        resolve(text.trim());
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(text.trim()));
  });
}

function httpRequest(url, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, timeout: 5000 }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
    request.end(body);
  });
}

/**
 * Who owns the scratch folder and which process groups it started, rewritten at every launch, so
 * that `run.mjs stop` can clean up after an owner that died without calling stop().
 */
function saveState(state, servers) {
  const groups = state.processes.map(({ name, pgid, startTime }) => ({ name, pgid, startTime }));
  fs.writeFileSync(path.join(state.dir, STATE_FILE), JSON.stringify({ owner: state.owner, groups, servers }, null, 2), { mode: 0o600 });
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if (error.code !== "ESRCH") throw error;
  }
}

/** Signals a process group, then waits until the leader has exited and no member is left; SIGKILL after `graceMs`. */
async function stopGroup(proc, signal = "SIGTERM", graceMs = 3000) {
  const gone = () => proc.exit && liveProcesses([proc.pgid]).length === 0;
  const waitGone = async (ms) => {
    const deadline = Date.now() + ms;
    while (!gone() && Date.now() < deadline) await sleep(20);
    return gone();
  };
  signalGroup(proc.pgid, signal);
  if (await waitGone(graceMs)) return;
  signalGroup(proc.pgid, "SIGKILL");
  if (!(await waitGone(3000))) throw new Error(`${proc.name}: process group ${proc.pgid} survived SIGKILL`);
}

async function stopAll(state) {
  const byName = (name) => state.processes.filter((proc) => proc.name === name);
  // Ceph in order: the gateway and the OSD before the monitor (an OSD without its monitor retries for
  // seconds). Its data is scratch, so SIGKILL: nothing needs flushing.
  const ceph = (async () => {
    await Promise.all([...byName("radosgw"), ...byName("ceph-osd")].map((proc) => stopGroup(proc, "SIGKILL")));
    await Promise.all(byName("ceph-mon").map((proc) => stopGroup(proc, "SIGKILL")));
  })();
  const others = state.processes.filter((proc) => !["radosgw", "ceph-osd", "ceph-mon"].includes(proc.name));
  const outcomes = await Promise.allSettled([ceph, ...others.map((proc) => stopGroup(proc))]);
  const failures = outcomes.filter((outcome) => outcome.status === "rejected").map((outcome) => outcome.reason);
  if (failures.length) throw new AggregateError(failures, failures.map((error) => error.message).join("\n"));
}

/** Last resort when the owning process exits without calling stop(): synchronous, SIGKILL. */
function killEverythingNow(state) {
  for (const proc of state.processes) signalGroup(proc.pgid, "SIGKILL");
  fs.rmSync(state.dir, { recursive: true, force: true });
}

// ── FTP and FTPS: vsftpd ─────────────────────────────────────────────────────────────────────────

async function startVsftpd(state, name, { tls, user, password, tlsRequired }) {
  fs.mkdirSync("/var/run/vsftpd/empty", { recursive: true, mode: 0o755 });
  const confDir = path.join(state.dir, name);
  fs.mkdirSync(confDir);
  const root = makeRoot(state.dir, name, user);
  const port = await freePort();
  const log = path.join(state.dir, "logs", `${name}.log`);
  const token = secret(8);
  const userList = path.join(confDir, "users");
  fs.writeFileSync(userList, `${user.name}\n`);
  const options = {
    listen: "YES", listen_ipv6: "NO", listen_address: HOST, listen_port: port, background: "NO",
    ftpd_banner: `cms test ${name} ${token}`,
    anonymous_enable: "NO", local_enable: "YES", write_enable: "YES", local_umask: "022",
    pam_service_name: "vsftpd",
    // Only the test user, whatever else the machine's accounts allow.
    userlist_enable: "YES", userlist_deny: "NO", userlist_file: userList,
    // local_root is both the start folder and, with chroot_local_user, the chroot.
    local_root: root, chroot_local_user: "YES", allow_writeable_chroot: "YES", secure_chroot_dir: "/var/run/vsftpd/empty",
    // Passive data ports from the kernel's ephemeral range: no fixed range to collide with another run.
    pasv_enable: "YES", pasv_address: HOST, pasv_min_port: 0, pasv_max_port: 0, port_enable: "NO",
    seccomp_sandbox: "NO", isolate_network: "NO", isolate: "NO", utf8_filesystem: "YES",
    // ssl_tlsv1=NO would hide AUTH TLS from FEAT (TLS 1.3 is still negotiated).
    ssl_enable: "YES", ssl_tlsv1: "YES", ssl_sslv2: "NO", ssl_sslv3: "NO", ssl_ciphers: "HIGH",
    rsa_cert_file: tls.certFile, rsa_private_key_file: tls.keyFile,
    require_ssl_reuse: tlsRequired ? "YES" : "NO",
    force_local_logins_ssl: tlsRequired ? "YES" : "NO", force_local_data_ssl: tlsRequired ? "YES" : "NO",
    xferlog_enable: "YES", vsftpd_log_file: path.join(state.dir, "logs", `${name}-transfers.log`),
  };
  const conf = path.join(confDir, "vsftpd.conf");
  fs.writeFileSync(conf, Object.entries(options).map(([key, value]) => `${key}=${value}\n`).join(""));
  // vsftpd reports configuration errors ("500 OOPS") on fd 0 and exits silently when that is /dev/null.
  const proc = launch(state, name, "/usr/sbin/vsftpd", [conf], { log, stdinToLog: true });
  await waitUntil(name, [proc], async () => (await readGreeting(port)).includes(token));
  return {
    host: HOST, port, username: user.name, password, root, remoteRoot: "/",
    tls: tlsRequired ? "required" : "optional", ca: tls.ca, caFile: tls.certFile, certificateFingerprint256: tls.fingerprint256,
  };
}

// ── SFTP: OpenSSH sshd ───────────────────────────────────────────────────────────────────────────

/** "SHA256:…" as `ssh-keygen -l` prints it, from an OpenSSH public key line. */
export function sshFingerprint(publicKeyLine) {
  const blob = Buffer.from(publicKeyLine.trim().split(/\s+/)[1], "base64");
  return `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

async function startSshd(state, { user, password }) {
  fs.mkdirSync("/run/sshd", { recursive: true, mode: 0o755 }); // "Missing privilege separation directory"
  const confDir = path.join(state.dir, "sftp");
  const keysDir = path.join(confDir, "authorized_keys");
  fs.mkdirSync(keysDir, { recursive: true, mode: 0o755 });
  const root = makeRoot(state.dir, "sftp", user);
  const hostKeyFile = path.join(confDir, "ssh_host_ed25519_key");
  const clientKeyFile = path.join(confDir, "client_ed25519_key");
  await Promise.all([
    run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "cms-test-host", "-f", hostKeyFile]),
    run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "cms-test-client", "-f", clientKeyFile]),
  ]);
  const publicKey = fs.readFileSync(`${clientKeyFile}.pub`, "utf8").trim();
  fs.writeFileSync(path.join(keysDir, user.name), `${publicKey}\n`, { mode: 0o644 });
  const hostKey = fs.readFileSync(`${hostKeyFile}.pub`, "utf8").trim().split(/\s+/).slice(0, 2).join(" ");
  const port = await freePort();
  const token = secret(8);
  const conf = path.join(confDir, "sshd_config");
  fs.writeFileSync(conf, [
    `Port ${port}`, `ListenAddress ${HOST}`, `HostKey ${hostKeyFile}`, `PidFile ${path.join(confDir, "sshd.pid")}`,
    `VersionAddendum cms-test-${token}`,
    "UsePAM no", "PermitRootLogin no", "PasswordAuthentication yes", "KbdInteractiveAuthentication no",
    "PubkeyAuthentication yes", `AuthorizedKeysFile ${keysDir}/%u`,
    // The key files sit in a scratch folder under a world-writable /tmp, which StrictModes refuses.
    "StrictModes no", `AllowUsers ${user.name}`, "Subsystem sftp internal-sftp", "MaxStartups 50:30:100",
    "LogLevel VERBOSE", "PrintMotd no",
    `Match User ${user.name}`,
    `  ForceCommand internal-sftp -d ${root}`,
    "  AllowTcpForwarding no", "  AllowAgentForwarding no", "  X11Forwarding no", "  PermitTTY no", "  PermitTunnel no",
    "",
  ].join("\n"));
  const log = path.join(state.dir, "logs", "sftp.log");
  // sshd re-executes itself, which needs its absolute path.
  const proc = launch(state, "sftp", "/usr/sbin/sshd", ["-D", "-e", "-f", conf], { log });
  await waitUntil("sftp", [proc], async () => (await readGreeting(port)).includes(token));
  return {
    host: HOST, port, username: user.name, password,
    privateKey: fs.readFileSync(clientKeyFile, "utf8"), privateKeyFile: clientKeyFile, publicKey,
    hostKey, hostKeyFingerprint: sshFingerprint(hostKey), root, remoteRoot: root,
  };
}

// ── WebDAV: Apache mod_dav ───────────────────────────────────────────────────────────────────────

async function startApache(state) {
  const www = lookupUser("www-data");
  const confDir = path.join(state.dir, "webdav");
  const runDir = path.join(confDir, "run");
  const lockDir = path.join(confDir, "lock");
  fs.mkdirSync(runDir, { recursive: true });
  fs.mkdirSync(lockDir, { recursive: true });
  fs.chownSync(lockDir, www.uid, www.gid);
  const root = makeRoot(state.dir, "webdav", www);
  const username = TEST_USER;
  const password = secret();
  const realm = `cms test webdav ${secret(8)}`;
  const htpasswd = path.join(confDir, "htpasswd");
  await run("htpasswd", ["-b", "-c", htpasswd, username, password]);
  fs.chmodSync(htpasswd, 0o644);
  const port = await freePort();
  const logs = path.join(state.dir, "logs");
  const modules = ["mpm_event", "authz_core", "authz_user", "authn_core", "authn_file", "auth_basic", "mime", "dav", "dav_fs", "setenvif"];
  const conf = path.join(confDir, "httpd.conf");
  fs.writeFileSync(conf, [
    `ServerRoot "${confDir}"`, "ServerName localhost", `Listen ${HOST}:${port}`,
    `PidFile "${path.join(runDir, "httpd.pid")}"`, `DefaultRuntimeDir "${runDir}"`,
    `ErrorLog "${path.join(logs, "webdav-error.log")}"`, "LogLevel warn",
    'LogFormat "%h %u %t \\"%r\\" %>s %b" common', `CustomLog "${path.join(logs, "webdav-access.log")}" common`,
    ...modules.map((mod) => `LoadModule ${mod}_module /usr/lib/apache2/modules/mod_${mod}.so`),
    "User www-data", "Group www-data",
    "StartServers 1", "MinSpareThreads 10", "MaxSpareThreads 50", "ThreadsPerChild 25", "MaxRequestWorkers 100",
    "TypesConfig /etc/mime.types", `DavLockDB "${path.join(lockDir, "DavLock")}"`,
    "LimitRequestBody 0", "Timeout 60", "KeepAliveTimeout 15",
    `DocumentRoot "${root}"`,
    `<Directory "${root}">`,
    "  Dav On", "  Options None", "  AllowOverride None",
    `  AuthType Basic`, `  AuthName "${realm}"`, "  AuthBasicProvider file", `  AuthUserFile "${htpasswd}"`,
    "  Require valid-user",
    "</Directory>",
    "",
  ].join("\n"));
  const log = path.join(logs, "webdav.log");
  const proc = launch(state, "webdav", "/usr/sbin/apache2", ["-f", conf, "-DFOREGROUND"], { log });
  await waitUntil("webdav", [proc], async () => {
    const response = await httpRequest(`http://${HOST}:${port}/`);
    return response.status === 401 && String(response.headers["www-authenticate"]).includes(realm);
  }, { logs: [log, path.join(logs, "webdav-error.log")] });
  return { url: `http://${HOST}:${port}/`, host: HOST, port, username, password, root, remoteRoot: "/" };
}

// ── S3: Ceph radosgw ─────────────────────────────────────────────────────────────────────────────

/**
 * A minimal AWS Signature V4 request (path-style), enough to create and check the test bucket.
 * @example await s3Request(servers.s3, "PUT", `/${servers.s3.bucket}/a.txt`, "hello")
 */
export function s3Request({ endpoint, region, accessKeyId, secretAccessKey }, method, pathName, body = "") {
  const url = new URL(pathName, endpoint);
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, "");
  const day = amzDate.slice(0, 8);
  const sha256 = (data) => createHash("sha256").update(data).digest("hex");
  const hmac = (key, data) => createHmac("sha256", key).update(data).digest();
  const payloadHash = sha256(body);
  const headers = { host: url.host, "x-amz-content-sha256": payloadHash, "x-amz-date": amzDate };
  const signedHeaders = Object.keys(headers).join(";");
  const query = [...url.searchParams].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).sort().join("&");
  const canonical = [method, url.pathname, query, ...Object.entries(headers).map(([k, v]) => `${k}:${v}`), "", signedHeaders, payloadHash].join("\n");
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, day), region), "s3"), "aws4_request");
  const signature = createHmac("sha256", key).update(toSign).digest("hex");
  return httpRequest(url, {
    method, body,
    headers: {
      ...headers, "content-length": Buffer.byteLength(body),
      authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    },
  });
}

async function startCeph(state) {
  const cephDir = path.join(state.dir, "ceph");
  const logs = path.join(state.dir, "logs");
  for (const sub of ["run", "mon", "osd/0", "rgw"]) fs.mkdirSync(path.join(cephDir, sub), { recursive: true });
  const [monV1, monV2, rgwPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const fsid = randomUUID();
  const osdUuid = randomUUID();
  const monAddrs = `[v2:${HOST}:${monV2},v1:${HOST}:${monV1}]`;
  const conf = path.join(cephDir, "ceph.conf");
  fs.writeFileSync(conf, `[global]
fsid = ${fsid}
mon host = ${monAddrs}
mon initial members = a
public addr = ${HOST}
# else the OSD also listens on 0.0.0.0
cluster addr = ${HOST}
auth cluster required = none
auth service required = none
auth client required = none
# required with auth none, else radosgw loops on -13
ms mon client mode = crc secure
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0
run dir = ${cephDir}/run
admin socket = ${cephDir}/run/$name.asok
log file = ${logs}/ceph-$name.log
mon cluster log file = ${logs}/ceph-cluster.log
mon data = ${cephDir}/mon/$id
osd data = ${cephDir}/osd/$id
keyring = ${cephDir}/keyring
[mon]
# cold start 15 s → under 4 s
paxos propose interval = 0.05
paxos min wait = 0.01
[osd]
# objects live in the OSD's RAM, up to this many bytes
osd objectstore = memstore
memstore device bytes = 1073741824
osd max object name len = 460
osd max object namespace len = 64
[client.rgw.gw]
rgw frontends = beast endpoint=${HOST}:${rgwPort}
rgw data = ${cephDir}/rgw
`);
  const c = ["-c", conf];
  await run("monmaptool", ["--create", "--addv", "a", monAddrs, "--fsid", fsid, path.join(cephDir, "monmap")]);
  await run("ceph-mon", [...c, "--mkfs", "-i", "a", "--monmap", path.join(cephDir, "monmap")]);
  const out = (name) => path.join(logs, `${name}.out`);
  const monLogs = [out("ceph-mon"), path.join(logs, "ceph-mon.a.log")];
  const mon = launch(state, "ceph-mon", "/usr/bin/ceph-mon", [...c, "-f", "-i", "a"], { log: out("ceph-mon") });
  // Registering the OSD needs the monitor; its mkfs is local (the fsid is in ceph.conf).
  const monExit = mon.exited.then(() => Promise.reject(startError("s3", "ceph-mon exited", monLogs)));
  monExit.catch(() => {}); // it also settles, harmlessly, when stop() ends the monitor later
  await Promise.race([monExit, Promise.all([
    run("ceph", [...c, "--connect-timeout", "30", "osd", "new", osdUuid], { timeout: CEPH_TIMEOUT_MS }),
    run("ceph-osd", [...c, "-i", "0", "--mkfs", "--osd-uuid", osdUuid]),
  ])]);
  const osd = launch(state, "ceph-osd", "/usr/bin/ceph-osd", [...c, "-f", "-i", "0"], { log: out("ceph-osd") });
  const rgw = launch(state, "radosgw", "/usr/bin/radosgw", [...c, "-f", "-n", "client.rgw.gw"], { log: out("radosgw") });
  const procs = [mon, osd, rgw];
  const allLogs = [...monLogs, out("ceph-osd"), path.join(logs, "ceph-osd.0.log"), out("radosgw"), path.join(logs, "ceph-client.rgw.gw.log")];
  const endpoint = `http://${HOST}:${rgwPort}`;
  // The gateway opens its port once it has created its pools, which needs the OSD up.
  await waitUntil("s3", procs, async () => (await httpRequest(`${endpoint}/`)).status > 0, { timeout: CEPH_TIMEOUT_MS, logs: allLogs });
  const s3 = {
    endpoint, host: HOST, port: rgwPort, region: "us-east-1", forcePathStyle: true,
    accessKeyId: randomBytes(10).toString("hex").toUpperCase(), secretAccessKey: secret(20), bucket: "cms-test",
  };
  // `-n` must differ from the gateway's own name.
  await run("radosgw-admin", [...c, "-n", "client.admin", "user", "create", "--uid=cms-test", "--display-name=cms test",
    `--access-key=${s3.accessKeyId}`, `--secret-key=${s3.secretAccessKey}`], { timeout: CEPH_TIMEOUT_MS });
  await waitUntil("s3", procs, async () => {
    const created = await s3Request(s3, "PUT", `/${s3.bucket}`);
    if (created.status !== 200) throw new Error(`create bucket: HTTP ${created.status} ${created.body}`);
    return (await s3Request(s3, "HEAD", `/${s3.bucket}`)).status === 200;
  }, { timeout: CEPH_TIMEOUT_MS, logs: allLogs });
  return s3;
}
