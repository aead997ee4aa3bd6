// Runs the RemoteFs contract (contract.ts) unchanged against every driver on real servers
// (tests/servers: vsftpd plain and FTPS, OpenSSH with password and with key, Ceph radosgw, Apache
// mod_dav), plus the trust checks that only some protocols have (SFTP host key, FTPS certificate).
// Needs root and the packages of tests/servers/install.mjs.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import nodeFs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFtpFs, type FtpOptions } from "../../agent/src/drivers/ftp.ts";
import { createS3Fs } from "../../agent/src/drivers/s3.ts";
import { createSftpFs, type SftpOptions } from "../../agent/src/drivers/sftp.ts";
import { createWebDavFs } from "../../agent/src/drivers/webdav.ts";
import { AgentError } from "../../agent/src/errors.ts";
import { freePort, type Servers, startServers } from "../servers/servers.mjs";
import { runContract, type NetworkContractSubject } from "./contract.ts";

let servers: Servers;
const allowHosts = ["127.0.0.1"];
const suffix = randomBytes(4).toString("hex");

beforeAll(async () => {
  servers = await startServers();
});

afterAll(async () => {
  await servers?.stop();
});

function ftpSubject(kind: "ftp" | "ftps"): NetworkContractSubject {
  const server = servers[kind];
  const base = (): FtpOptions => ({
    host: server.host,
    port: server.port,
    username: server.username,
    password: server.password,
    secure: kind === "ftps",
    ca: kind === "ftps" ? server.ca : undefined,
    allowHosts,
  });
  const home = `/contract-${kind}-${suffix}`;
  return {
    home,
    create: (options) => createFtpFs({ ...base(), home: options?.home ?? home }),
    root: () => createFtpFs(base()),
    wrongPassword: () => createFtpFs({ ...base(), password: "wrong-password" }),
    closedPort: async () => createFtpFs({ ...base(), port: await freePort() }),
  };
}

function sftpSubject(auth: "password" | "key"): NetworkContractSubject {
  const server = servers.sftp;
  const base = (): SftpOptions => ({
    host: server.host,
    port: server.port,
    username: server.username,
    ...(auth === "password" ? { password: server.password } : { privateKey: server.privateKey }),
    hostKeyFingerprint: server.hostKeyFingerprint,
    allowHosts,
  });
  const home = `${server.remoteRoot}/contract-sftp-${auth}-${suffix}`;
  return {
    home,
    create: (options) => createSftpFs({ ...base(), home: options?.home ?? home }),
    root: () => createSftpFs({ ...base(), home: server.remoteRoot }),
    wrongPassword: () =>
      auth === "password"
        ? createSftpFs({ ...base(), password: "wrong-password" })
        : // A key the server does not know.
          createSftpFs({ ...base(), password: undefined, privateKey: otherKey().privateKey }),
    closedPort: async () => createSftpFs({ ...base(), port: await freePort() }),
  };
}

/** An RSA key (PKCS#1 PEM, which ssh2 reads) the server has never seen. */
function otherKey(): { privateKey: string } {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs1", format: "pem" }, publicKeyEncoding: { type: "pkcs1", format: "pem" } });
  return { privateKey };
}

function s3Subject(): NetworkContractSubject {
  const server = servers.s3;
  const base = () => ({
    endpoint: server.endpoint,
    region: server.region,
    bucket: server.bucket,
    accessKeyId: server.accessKeyId,
    secretAccessKey: server.secretAccessKey,
    forcePathStyle: true,
    allowHosts,
  });
  const home = `/contract-s3-${suffix}`;
  return {
    home,
    create: (options) => createS3Fs({ ...base(), home: options?.home ?? home }),
    root: () => createS3Fs(base()),
    wrongPassword: () => createS3Fs({ ...base(), secretAccessKey: "wrong-secret-key-0000000000000000000000" }),
    closedPort: async () => createS3Fs({ ...base(), endpoint: `http://127.0.0.1:${await freePort()}` }),
  };
}

function webDavSubject(): NetworkContractSubject {
  const server = servers.webdav;
  // No scheme on purpose: the driver adds http://.
  const base = () => ({ host: `${server.host}:${server.port}`, username: server.username, password: server.password, allowHosts });
  const home = `/contract-webdav-${suffix}`;
  return {
    home,
    create: (options) => createWebDavFs({ ...base(), home: options?.home ?? home }),
    root: () => createWebDavFs(base()),
    wrongPassword: () => createWebDavFs({ ...base(), password: "wrong-password" }),
    closedPort: async () => createWebDavFs({ ...base(), host: `127.0.0.1:${await freePort()}` }),
    // Measured: MOVE with Overwrite: T deletes the target, then renames (4 of 244 concurrent reads got 404).
    replaceMayBrieflyMissTarget: true,
  };
}

runContract("FTP", () => ftpSubject("ftp"));
runContract("FTPS (explicit TLS, pinned certificate)", () => ftpSubject("ftps"));
runContract("SFTP with password", () => sftpSubject("password"));
runContract("SFTP with private key", () => sftpSubject("key"));
runContract("S3 (radosgw)", () => s3Subject());
runContract("WebDAV (Apache mod_dav)", () => webDavSubject());

async function failure(promise: Promise<unknown>): Promise<AgentError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AgentError);
  return error as AgentError;
}

describe("trust on first use and pinning", () => {
  test("SFTP: first use accepts the host key and exposes its fingerprint", async () => {
    const fs = createSftpFs({ host: servers.sftp.host, port: servers.sftp.port, username: servers.sftp.username, password: servers.sftp.password, allowHosts, home: servers.sftp.remoteRoot });
    try {
      await fs.test();
      expect(fs.hostKeyFingerprint).toBe(servers.sftp.hostKeyFingerprint);
    } finally {
      await fs.close();
    }
  });

  test("SFTP: a changed host key is refused before authenticating", async () => {
    const pinned = `SHA256:${randomBytes(32).toString("base64").replace(/=+$/, "")}`;
    const fs = createSftpFs({
      host: servers.sftp.host,
      port: servers.sftp.port,
      username: servers.sftp.username,
      password: servers.sftp.password,
      hostKeyFingerprint: pinned,
      allowHosts,
      home: servers.sftp.remoteRoot,
    });
    try {
      const error = await failure(fs.test());
      expect(error.code).toBe("CONNECTION_AGENT_CONNECT");
      expect(error.reason).toBe("HOST_KEY_CHANGED");
      expect(fs.hostKeyFingerprint).toBe(servers.sftp.hostKeyFingerprint);
    } finally {
      await fs.close();
    }
  });

  test("SFTP: a symlink inside the home folder that leads outside is refused (server realpath)", async () => {
    const home = `${servers.sftp.remoteRoot}/symlink-${suffix}`;
    nodeFs.mkdirSync(`${servers.sftp.root}/symlink-${suffix}`);
    nodeFs.symlinkSync("/etc", `${servers.sftp.root}/symlink-${suffix}/etc-link`);
    const fs = createSftpFs({ host: servers.sftp.host, port: servers.sftp.port, username: servers.sftp.username, password: servers.sftp.password, hostKeyFingerprint: servers.sftp.hostKeyFingerprint, allowHosts, home });
    try {
      expect((await failure(fs.read("etc-link/hostname"))).code).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
      expect((await failure(fs.list("etc-link"))).code).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
      expect((await failure(fs.writeAtomic("etc-link/cms-test.txt", Buffer.from("x")))).code).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
      expect(nodeFs.existsSync("/etc/cms-test.txt")).toBe(false);
    } finally {
      await fs.close();
    }
  });

  test("FTPS: a self-signed certificate is refused unless pinned; a wrong fingerprint is refused", async () => {
    const base = { host: servers.ftps.host, port: servers.ftps.port, username: servers.ftps.username, password: servers.ftps.password, secure: true, allowHosts };
    const unpinned = createFtpFs(base);
    expect((await failure(unpinned.test())).code).toBe("CONNECTION_AGENT_CONNECT");
    await unpinned.close();

    const wrongPin = createFtpFs({ ...base, certificateFingerprint256: "00:".repeat(31) + "00" });
    const error = await failure(wrongPin.test());
    expect(error.code).toBe("CONNECTION_AGENT_CONNECT");
    expect(error.reason).toBe("TLS_CERTIFICATE");
    await wrongPin.close();

    const byFingerprint = createFtpFs({ ...base, certificateFingerprint256: servers.ftps.certificateFingerprint256 });
    expect(Array.isArray(await byFingerprint.test())).toBe(true);
    expect(byFingerprint.certificateFingerprint256).toBe(servers.ftps.certificateFingerprint256);
    await byFingerprint.close();
  });

  test("S3: the public-read option makes written objects readable without credentials", async () => {
    const s3 = servers.s3;
    const base = { endpoint: s3.endpoint, region: s3.region, bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, allowHosts };
    const publicFs = createS3Fs({ ...base, acl: "public-read", home: `/acl-${suffix}` });
    const privateFs = createS3Fs({ ...base, home: `/acl-${suffix}` });
    try {
      await publicFs.writeAtomic("public.html", Buffer.from("<p>public</p>"));
      await privateFs.writeAtomic("private.html", Buffer.from("<p>private</p>"));
      const anonymous = async (name: string) => (await fetch(`${s3.endpoint}/${s3.bucket}/acl-${suffix}/${name}`)).status;
      expect(await anonymous("public.html")).toBe(200);
      expect(await anonymous("private.html")).toBe(403);
      await publicFs.remove(`/acl-${suffix}/public.html`);
      await privateFs.remove("private.html");
    } finally {
      await publicFs.close();
      await privateFs.close();
    }
  });

  test("FTPS server: a plain FTP login is refused with CONNECTION_AGENT_AUTH", async () => {
    const fs = createFtpFs({ host: servers.ftps.host, port: servers.ftps.port, username: servers.ftps.username, password: servers.ftps.password, allowHosts });
    expect((await failure(fs.test())).code).toBe("CONNECTION_AGENT_AUTH");
    await fs.close();
  });
});
