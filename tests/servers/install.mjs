// Installs what tests/servers/servers.mjs needs on Debian 12, idempotently, as root:
// the server packages (vsftpd, OpenSSH, Apache with mod_dav, Ceph radosgw), the command-line
// clients the server test uses (lftp, sftp, curl), and the OS user the FTP and SFTP servers log in.
//
//   node tests/servers/install.mjs
//
// Installs never start the system's own daemons (a policy-rc.d that says no), `apt-get update` runs
// at most once, and on a machine booted with systemd the units of the packages installed here are
// disabled, so no FTP, SSH or HTTP daemon appears on the machine's public ports after a reboot.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { TEST_USER, TEST_USER_SHELL, PASSWORD_FILE } from "./servers.mjs";

/** Debian package → a file it provides, which tells whether it is installed. */
const PACKAGES = {
  vsftpd: "/usr/sbin/vsftpd",
  "openssh-server": "/usr/sbin/sshd",
  "openssh-client": "/usr/bin/sftp",
  apache2: "/usr/sbin/apache2",
  "apache2-utils": "/usr/bin/htpasswd",
  "ceph-mon": "/usr/bin/ceph-mon",
  "ceph-osd": "/usr/bin/ceph-osd",
  radosgw: "/usr/bin/radosgw",
  openssl: "/usr/bin/openssl",
  lftp: "/usr/bin/lftp",
  curl: "/usr/bin/curl",
};
/** systemd units the packages above enable; disabled again when this script installed the package. */
const UNITS = { vsftpd: ["vsftpd.service"], "openssh-server": ["ssh.service", "ssh.socket"], apache2: ["apache2.service", "apache-htcacheclean.service"] };
const POLICY_RC_D = "/usr/sbin/policy-rc.d";

function fail(message) {
  console.error(`✖ ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  console.log(`$ ${command} ${args.join(" ")}`);
  const result = spawnSync(command, args, { stdio: "inherit", ...options });
  if (result.error) fail(`${command}: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${args.join(" ")} failed (exit ${result.status ?? result.signal})`);
}

function isInstalled(pkg) {
  const result = spawnSync("dpkg-query", ["-W", "-f=${Status}", pkg], { encoding: "utf8" });
  return result.status === 0 && result.stdout.includes("install ok installed") && existsSync(PACKAGES[pkg]);
}

if (process.platform !== "linux" || typeof process.getuid !== "function") fail("tests/servers/install.mjs runs on Debian Linux only.");
if (process.getuid() !== 0) {
  fail("tests/servers/install.mjs must run as root: it installs Debian packages and creates the OS user "
    + `"${TEST_USER}". Run: sudo node tests/servers/install.mjs`);
}
if (!existsSync("/usr/bin/apt-get")) fail("apt-get not found: the test servers are installed from Debian 12 packages.");

const started = Date.now();
const missing = Object.keys(PACKAGES).filter((pkg) => !isInstalled(pkg));
if (missing.length === 0) {
  console.log("✔ packages already installed");
} else {
  console.log(`Installing ${missing.join(", ")}…`);
  // Package scripts ask policy-rc.d before starting a daemon; exit 101 means "not now".
  const ownPolicy = !existsSync(POLICY_RC_D);
  if (ownPolicy) {
    console.log(`Writing ${POLICY_RC_D} for the install (no daemon starts)`);
    writeFileSync(POLICY_RC_D, "#!/bin/sh\n# written by tests/servers/install.mjs for the duration of an install\nexit 101\n", { mode: 0o755 });
  }
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = ["-o", "DPkg::Lock::Timeout=300", "-o", "Dpkg::Use-Pty=0"];
  try {
    run("apt-get", [...apt, "update", "-qq"], { env });
    run("apt-get", [...apt, "install", "-y", "-qq", "--no-install-recommends", ...missing], { env });
  } finally {
    if (ownPolicy) rmSync(POLICY_RC_D, { force: true });
  }
  if (existsSync("/run/systemd/system")) {
    const units = missing.flatMap((pkg) => UNITS[pkg] ?? []);
    if (units.length) {
      console.log(`$ systemctl disable --now ${units.join(" ")}`);
      const disabled = spawnSync("systemctl", ["disable", "--now", "--quiet", ...units], { stdio: "inherit" });
      if (disabled.status !== 0) console.warn(`⚠ could not disable ${units.join(", ")}: check that no system FTP, SSH or HTTP daemon now starts at boot.`);
    }
  }
}

// The FTP and SFTP servers authenticate a real account: vsftpd through PAM (shell listed in
// /etc/shells, user absent from /etc/ftpusers), sshd through the shadow file.
if (spawnSync("id", ["-u", TEST_USER]).status !== 0) {
  run("useradd", ["--create-home", "--user-group", "--shell", TEST_USER_SHELL, "--comment", "cms test servers", TEST_USER]);
} else {
  console.log(`✔ user ${TEST_USER} exists`);
}
const shells = readFileSync("/etc/shells", "utf8").split("\n").map((line) => line.trim());
if (!shells.includes(TEST_USER_SHELL)) fail(`${TEST_USER_SHELL} is not listed in /etc/shells; vsftpd's PAM check would refuse ${TEST_USER}.`);
const passwd = spawnSync("getent", ["passwd", TEST_USER], { encoding: "utf8" }).stdout.trim().split(":");
if (passwd[6] !== TEST_USER_SHELL) run("usermod", ["--shell", TEST_USER_SHELL, TEST_USER]);
if (existsSync("/etc/ftpusers")) {
  const lines = readFileSync("/etc/ftpusers", "utf8").split("\n");
  if (lines.some((line) => line.trim() === TEST_USER)) {
    console.log(`Removing ${TEST_USER} from /etc/ftpusers`);
    writeFileSync("/etc/ftpusers", lines.filter((line) => line.trim() !== TEST_USER).join("\n"));
  }
}

// A random password per machine, readable by root only: the account must not have a password that
// anyone could read in this repository, since a system sshd or vsftpd may also accept it.
mkdirSync(path.dirname(PASSWORD_FILE), { recursive: true, mode: 0o700 });
let password = existsSync(PASSWORD_FILE) ? readFileSync(PASSWORD_FILE, "utf8").trim() : "";
if (!password) {
  password = randomBytes(16).toString("hex"); // hex: safe unquoted in FTP URLs and lftp commands
  writeFileSync(PASSWORD_FILE, `${password}\n`, { mode: 0o600 });
  console.log(`Wrote a new password for ${TEST_USER} to ${PASSWORD_FILE}`);
}
chmodSync(PASSWORD_FILE, 0o600);
const chpasswd = spawnSync("chpasswd", [], { input: `${TEST_USER}:${password}\n`, stdio: ["pipe", "inherit", "inherit"] });
if (chpasswd.status !== 0) fail(`chpasswd for ${TEST_USER} failed`);

console.log(`✔ test servers installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
