// POST, PUT and DELETE /api/sites/{siteId}/files on a demo site (its files in R2), and the staged
// download an agent makes for an upload (/agent/staged/…). The same calls through a real agent to a
// real SFTP server are in tests/agent/link.test.ts.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createDemoStore } from "~/services/demo-store.server";
import { removeStaged, stageUpload } from "~/services/upload-staging.server";
import { createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let demo: schema.Site;
let owner = "";
let client = "";

const store = () => createDemoStore(env.UPLOADS, demo.id, { home: "/" });
const text = (value: string) => new TextEncoder().encode(value);

beforeAll(async () => {
  tenant = await createTenant("Files");
  [demo] = await db().insert(schema.sites).values({
    accountId: tenant.account.id, name: "Demo", url: "https://demo.example", classification: "personal",
    protocol: "demo", isDemo: true, homeFolder: "/", uploadFolder: "/uploads",
  }).returning();
  const [permission] = await db().insert(schema.sitePermissions).values({ accountId: tenant.account.id, userId: tenant.client.id, siteId: demo.id, allPages: true }).returning();
  expect(permission).toBeTruthy();
  await store().writeAtomic("/index.html", text("<h1>Home</h1>"));
  await store().writeAtomic("/uploads/logo.png", text("png-bytes"));
  owner = await signIn(tenant.owner.email);
  client = await signIn(tenant.client.email);
});

async function call(cookie: string, method: string, body?: unknown, siteId = demo.id) {
  const init: RequestInit = { method, headers: { Cookie: cookie } };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  const response = await SELF.fetch(`http://localhost/api/sites/${siteId}/files`, init);
  return { status: response.status, body: (await response.json()) as { files?: { name: string; path: string }[]; code?: string; invalid?: string[] } };
}

function upload(folder: string, ...files: File[]): FormData {
  const form = new FormData();
  form.set("path", folder);
  for (const file of files) form.append("files", file);
  return form;
}

describe("POST /api/sites/{siteId}/files", () => {
  it("creates a folder inside the upload folder", async () => {
    expect(await call(owner, "POST", { path: "/uploads/team/2026" })).toEqual({ status: 200, body: { files: [{ name: "2026", path: "/uploads/team/2026" }] } });
    expect((await store().stat("/uploads/team/2026"))?.type).toBe("directory");
    expect((await call(owner, "POST", { path: "/uploads/team/2026" })).body.code).toBe("FILE_ALREADY_EXISTS");
  });

  it("uploads files from a multipart body, byte for byte, and answers their paths", async () => {
    const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251);
    const { status, body } = await call(client, "POST", upload("/uploads/team", new File([bytes], "photo one.jpg"), new File(["hello"], "notes.txt")));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.files).toEqual([{ name: "photo one.jpg", path: "/uploads/team/photo one.jpg" }, { name: "notes.txt", path: "/uploads/team/notes.txt" }]);
    expect(new Uint8Array(await store().read("/uploads/team/photo one.jpg"))).toEqual(bytes);
    expect((await store().read("/uploads/team/notes.txt")).toString()).toBe("hello");
  });

  it("keeps uploads inside the upload folder and the home folder", async () => {
    expect(await call(owner, "POST", upload("/", new File(["x"], "a.png")))).toEqual({ status: 400, body: { code: "INVALID_UPLOAD_PATH", invalid: ["path"] } });
    expect(await call(owner, "POST", upload("/uploads/../etc", new File(["x"], "a.png")))).toEqual({ status: 400, body: { code: "PATH_OUTSIDE_OF_HOME_FOLDER", invalid: ["path"] } });
    expect(await call(owner, "POST", { path: "/css/new" })).toEqual({ status: 400, body: { code: "INVALID_UPLOAD_PATH", invalid: ["path"] } });
    // A path-like file name from a script is cut to its last segment.
    const { body } = await call(owner, "POST", upload("/uploads", new File(["x"], "../../index.png")));
    expect(body.files).toEqual([{ name: "index.png", path: "/uploads/index.png" }]);
    expect((await store().read("/index.html")).toString()).toBe("<h1>Home</h1>");
  });

  it("refuses script types, hidden files, existing files, and writes nothing for them", async () => {
    for (const name of ["shell.php", "x.PHTML", "run.cgi", ".htaccess"]) {
      const { status, body } = await call(client, "POST", upload("/uploads", new File(["<?php system($_GET['c']);"], name)));
      expect([status, body.code], name).toEqual([400, name.startsWith(".") ? "INVALID_UPLOAD_PATH" : "FILE_TYPE_NOT_SUPPORTED"]);
      expect(await store().stat(`/uploads/${name}`)).toBeNull();
    }
    const { status, body } = await call(client, "POST", upload("/uploads", new File(["other"], "logo.png")));
    expect([status, body.code]).toEqual([409, "FILE_ALREADY_EXISTS"]);
    expect((await store().read("/uploads/logo.png")).toString()).toBe("png-bytes");
  });

  it("refuses a file over 25 MB with FILE_TOO_LARGE, leaving nothing behind", async () => {
    const big = new File([new Uint8Array(25 * 1024 * 1024 + 1)], "big.bin");
    const { status, body } = await call(owner, "POST", upload("/uploads", big));
    expect([status, body.code]).toEqual([413, "FILE_TOO_LARGE"]);
    expect(await store().stat("/uploads/big.bin")).toBeNull();
    const { objects } = await env.UPLOADS.list({ prefix: "staging/" });
    expect(objects).toEqual([]);
  });

  it("answers VALIDATION_ERROR for an upload without files or without a folder", async () => {
    const form = new FormData();
    form.append("files", new File(["x"], "a.png"));
    expect(await call(owner, "POST", form)).toEqual({ status: 400, body: { code: "VALIDATION_ERROR", invalid: ["path"] } });
    expect(await call(owner, "POST", upload("/uploads"))).toEqual({ status: 400, body: { code: "VALIDATION_ERROR", invalid: ["files"] } });
  });

  it("changes nothing while the site is on lockdown, and nothing on a site the user cannot reach", async () => {
    await db().update(schema.sites).set({ isLocked: true }).where(eq(schema.sites.id, demo.id));
    try {
      expect(await call(owner, "POST", upload("/uploads", new File(["x"], "locked.png")))).toEqual({ status: 403, body: { code: "SITE_IS_LOCKED", invalid: [] } });
      expect(await store().stat("/uploads/locked.png")).toBeNull();
    } finally {
      await db().update(schema.sites).set({ isLocked: false }).where(eq(schema.sites.id, demo.id));
    }
    const other = await createTenant("Other");
    const stranger = await signIn(other.owner.email);
    expect((await call(stranger, "POST", upload("/uploads", new File(["x"], "x.png")))).status).toBe(404);
    expect(await store().stat("/uploads/x.png")).toBeNull();
  });
});

describe("PUT and DELETE /api/sites/{siteId}/files", () => {
  it("renames and moves inside the upload folder, never over an existing file", async () => {
    await store().writeAtomic("/uploads/a.png", text("a"));
    await store().writeAtomic("/uploads/b.png", text("b"));
    expect(await call(owner, "PUT", { files: [{ path: "/uploads/a.png", newPath: "/uploads/archive/a-old.png" }] })).toEqual({
      status: 200, body: { files: [{ name: "a-old.png", path: "/uploads/archive/a-old.png" }] },
    });
    expect((await store().read("/uploads/archive/a-old.png")).toString()).toBe("a");
    expect(await store().stat("/uploads/a.png")).toBeNull();
    expect((await call(owner, "PUT", { files: [{ path: "/uploads/b.png", newPath: "/uploads/archive/a-old.png" }] })).body.code).toBe("FILE_ALREADY_EXISTS");
    expect((await call(owner, "PUT", { files: [{ path: "/uploads/b.png", newPath: "/index.png" }] })).body).toEqual({ code: "INVALID_UPLOAD_PATH", invalid: ["files.0.newPath"] });
    expect((await call(owner, "PUT", { files: [{ path: "/uploads/b.png", newPath: "/uploads/b.php" }] })).body.code).toBe("FILE_TYPE_NOT_SUPPORTED");
    expect((await store().read("/uploads/b.png")).toString()).toBe("b");
  });

  it("deletes files and folders inside the upload folder only", async () => {
    await store().writeAtomic("/uploads/old/one.png", text("1"));
    expect(await call(owner, "DELETE", { paths: ["/uploads/old", "/uploads/b.png"] })).toEqual({
      status: 200, body: { files: [{ name: "old", path: "/uploads/old" }, { name: "b.png", path: "/uploads/b.png" }] },
    });
    expect(await store().stat("/uploads/old/one.png")).toBeNull();
    expect(await call(owner, "DELETE", { paths: ["/uploads"] })).toEqual({ status: 400, body: { code: "INVALID_UPLOAD_PATH", invalid: ["paths.0"] } });
    expect(await call(owner, "DELETE", { paths: ["/index.html"] })).toEqual({ status: 400, body: { code: "INVALID_UPLOAD_PATH", invalid: ["paths.0"] } });
    expect((await store().read("/index.html")).toString()).toBe("<h1>Home</h1>");
  });
});

describe("GET /agent/staged/<hub>/<id>", () => {
  it("serves a staged upload only to the agent of its hub", async () => {
    const staged = await stageUpload(env.UPLOADS, "hosted", text("staged bytes"));
    try {
      const url = `http://localhost/agent/staged/${staged.key}`;
      expect((await SELF.fetch(url)).status).toBe(401);
      expect((await SELF.fetch(url, { headers: { Authorization: "Bearer wrong" } })).status).toBe(401);
      const response = await SELF.fetch(url, { headers: { Authorization: `Bearer ${env.HOSTED_AGENT_TOKEN}` } });
      expect(response.status).toBe(200);
      expect(new TextDecoder().decode(await response.arrayBuffer())).toBe("staged bytes");
      // Another hub's key, or a key that is not one, is not found for this agent.
      const other = await stageUpload(env.UPLOADS, "someone-else", text("not yours"));
      expect((await SELF.fetch(`http://localhost/agent/staged/${other.key}`, { headers: { Authorization: `Bearer ${env.HOSTED_AGENT_TOKEN}` } })).status).toBe(404);
      expect((await SELF.fetch("http://localhost/agent/staged/hosted/..%2F..%2Fdemo", { headers: { Authorization: `Bearer ${env.HOSTED_AGENT_TOKEN}` } })).status).toBe(404);
      await removeStaged(env.UPLOADS, other.key);
    } finally {
      await removeStaged(env.UPLOADS, staged.key);
    }
  });
});
