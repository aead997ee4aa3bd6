import { afterEach, describe, expect, it, vi } from "vitest";
import type { ConnectionSpec } from "../../agent/src/connection.ts";
import { ConnectionPool, driverOptions } from "../../agent/src/pool.ts";
import type { RemoteFs } from "../../agent/src/remote-fs.ts";

const spec: ConnectionSpec = { key: "site:1", protocol: "ftp", host: "ftp.example.com", username: "me", password: "one", home: "/" };

function fakeFs(log: string[], name: string): RemoteFs {
  const nothing = async () => undefined as never;
  return {
    protocol: "ftp", home: "/", list: nothing, stat: nothing, read: nothing, writeAtomic: nothing, mkdirp: nothing, rename: nothing, remove: nothing, test: nothing,
    close: async () => {
      log.push(`close ${name}`);
    },
  };
}

function pool(options: { idleMs?: number } = {}) {
  const log: string[] = [];
  let created = 0;
  const instance = new ConnectionPool({
    allowHosts: [],
    idleMs: options.idleMs,
    create: (s) => {
      created += 1;
      const name = `${s.password}#${created}`;
      log.push(`open ${name}`);
      return Object.assign(fakeFs(log, name), { name });
    },
  });
  return { instance, log };
}

const nameOf = (fs: RemoteFs) => (fs as RemoteFs & { name: string }).name;

afterEach(() => {
  vi.useRealTimers();
});

describe("the agent's connection pool", () => {
  it("reuses a connection between calls", async () => {
    const { instance, log } = pool();
    await instance.use(spec, async () => 1);
    await instance.use(spec, async () => 2);
    expect(log).toEqual(["open one#1"]);
    await instance.closeAll();
  });

  it("opens at most 3 connections per key and queues the rest in order", async () => {
    const { instance } = pool();
    const releases: (() => void)[] = [];
    const order: string[] = [];
    const calls = Array.from({ length: 5 }, (_, index) =>
      instance.use(spec, (fs) => new Promise<void>((resolve) => {
        order.push(`${index}:${nameOf(fs)}`);
        releases.push(resolve);
      })),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(instance.size(spec.key)).toBe(3);
    expect(order).toEqual(["0:one#1", "1:one#2", "2:one#3"]);
    releases[0]();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order[3]).toBe("3:one#1");
    releases.slice(1).forEach((release) => release());
    await new Promise((resolve) => setTimeout(resolve, 10));
    releases.forEach((release) => release());
    await Promise.all(calls);
    expect(order).toHaveLength(5);
    expect(instance.size(spec.key)).toBe(3);
    await instance.closeAll();
  });

  it("closes idle connections after the idle time", async () => {
    vi.useFakeTimers();
    const { instance, log } = pool({ idleMs: 60_000 });
    await instance.use(spec, async () => 1);
    vi.advanceTimersByTime(59_000);
    expect(log).toEqual(["open one#1"]);
    vi.advanceTimersByTime(2_000);
    expect(log).toEqual(["open one#1", "close one#1"]);
    expect(instance.size(spec.key)).toBe(0);
  });

  it("replaces the key's connections when its spec changes", async () => {
    const { instance, log } = pool();
    await instance.use(spec, async () => 1);
    await instance.use({ ...spec, password: "two" }, async () => 2);
    expect(log).toEqual(["open one#1", "close one#1", "open two#2"]);
    await instance.closeAll();
  });

  it("maps a spec to its driver's options", () => {
    expect(driverOptions({ ...spec, protocol: "sftp", sftpHostKey: "SHA256:x", port: 2222 }, ["127.0.0.1"])).toMatchObject({
      protocol: "sftp", host: "ftp.example.com", port: 2222, hostKeyFingerprint: "SHA256:x", allowHosts: ["127.0.0.1"], home: "/",
    });
    expect(driverOptions({ ...spec, protocol: "s3", host: "s3.example.com", port: 9000, s3Bucket: "b", s3AccessKey: "a", s3SecretKey: "s" }, [])).toMatchObject({
      protocol: "s3", endpoint: "https://s3.example.com:9000", region: "us-east-1", bucket: "b", accessKeyId: "a", secretAccessKey: "s",
    });
    expect(driverOptions({ ...spec, protocol: "ftps", ftpsCertFingerprint: "AA:BB" }, [])).toMatchObject({ protocol: "ftps", certificateFingerprint256: "AA:BB" });
  });
});
