// GET /api/sites/{siteId}/files on the seeded data: the demo site's files come from R2 through the
// demo store, other sites through their agent (the link's placeholder answers OFFLINE).
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { seed, type DemoFile } from "../../db/seed/seed";
import { SEEDED_SIGN_INS } from "../../scripts/seeded-sign-ins.mjs";
import { getDb } from "~/services/db.server";
import { openSiteSecrets, recordObservedPins, sealSiteSecrets, siteConnectionSpec } from "~/services/site-files.server";
import { db, signIn } from "./fixtures";

const demoSources = import.meta.glob("../../db/seed/demo-site/**/*", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const demoFiles: DemoFile[] = Object.entries(demoSources).map(([file, text]) => ({
  path: file.replace("../../db/seed/demo-site/", ""),
  body: new TextEncoder().encode(text),
  contentType: "text/plain",
}));

const PASSWORD = SEEDED_SIGN_INS.password;
let agency: schema.Account;
let demoSite: schema.Site;
let sftpSite: schema.Site;

beforeAll(async () => {
  await seed(db(), env.UPLOADS, { password: PASSWORD, demoFiles });
  const owner = await db().select().from(schema.users).where(eq(schema.users.email, "owner@agency.test")).get();
  agency = (await db().select().from(schema.accounts).where(eq(schema.accounts.id, owner!.accountId)).get())!;
  demoSite = (await db().select().from(schema.sites).where(and(eq(schema.sites.accountId, agency.id), eq(schema.sites.isDemo, true))).get())!;
  sftpSite = (await db().select().from(schema.sites).where(and(eq(schema.sites.accountId, agency.id), eq(schema.sites.protocol, "sftp"))).get())!;
});

type Files = { files: { name: string; path: string; type: string; size: number; modifiedAt: string | null; isEnabled?: boolean }[] };

async function files(email: string, siteId: string, query = "") {
  const cookie = await signIn(email, PASSWORD);
  const response = await SELF.fetch(`http://localhost/api/sites/${siteId}/files${query}`, { headers: { Cookie: cookie } });
  return { status: response.status, body: (await response.json()) as Files & { code?: string; invalid?: string[] } };
}

describe("GET /api/sites/{siteId}/files", () => {
  it("lists the demo site's home folder from R2, folders first", async () => {
    const { status, body } = await files("owner@agency.test", demoSite.id);
    expect(status).toBe(200);
    const names = body.files.map((file) => [file.name, file.type]);
    expect(names.slice(0, 5)).toEqual([["blog", "folder"], ["css", "folder"], ["images", "folder"], ["js", "folder"], ["uploads", "folder"]]);
    expect(names.slice(5)).toEqual([["about.html", "file"], ["contact.html", "file"], ["index.html", "file"], ["menu.html", "file"], ["robots.txt", "file"]]);
    const index = body.files.find((file) => file.name === "index.html")!;
    expect(index).toMatchObject({ path: "/index.html", type: "file" });
    expect(index.size).toBe(new TextEncoder().encode(demoSources["../../db/seed/demo-site/index.html"]).byteLength);
    expect(Number.isNaN(Date.parse(index.modifiedAt!))).toBe(false);
    expect(index).not.toHaveProperty("isEnabled");
  });

  it("lists a subfolder, by absolute or relative path", async () => {
    for (const path of ["/images", "images", "/images/"]) {
      const { status, body } = await files("admin@agency.test", demoSite.id, `?path=${encodeURIComponent(path)}`);
      expect(status).toBe(200);
      expect(body.files.every((file) => file.type === "file" && file.path.startsWith("/images/"))).toBe(true);
      expect(body.files.map((file) => file.name)).toContain("hero.svg");
    }
  });

  it("marks the files that are enabled pages with showEnabled", async () => {
    const { body } = await files("owner@agency.test", demoSite.id, "?showEnabled=true");
    const enabled = Object.fromEntries(body.files.map((file) => [file.name, file.isEnabled]));
    expect(enabled).toMatchObject({ "index.html": true, "about.html": true, "menu.html": true, "contact.html": true, "robots.txt": false, blog: false });
    // A disabled page is not an enabled page.
    await db().update(schema.pages).set({ isEnabled: false }).where(and(eq(schema.pages.siteId, demoSite.id), eq(schema.pages.path, "/menu.html")));
    const again = await files("owner@agency.test", demoSite.id, "?showEnabled=1");
    expect(again.body.files.find((file) => file.name === "menu.html")?.isEnabled).toBe(false);
    const blog = await files("owner@agency.test", demoSite.id, "?path=/blog&showEnabled=true");
    expect(blog.body.files).toEqual([expect.objectContaining({ name: "first-post.html", path: "/blog/first-post.html", isEnabled: true })]);
  });

  it("refuses a path outside the home folder with 400 PATH_OUTSIDE_OF_HOME_FOLDER", async () => {
    for (const path of ["../etc", "/a/../../etc", "%2e%2e/x"]) {
      const { status, body } = await files("owner@agency.test", demoSite.id, `?path=${encodeURIComponent(path)}`);
      expect(status, path).toBe(400);
      expect(body).toEqual({ code: "PATH_OUTSIDE_OF_HOME_FOLDER", invalid: ["path"] });
    }
    // A site whose home folder is /public_html: "/" lies outside it (checked before the agent is asked).
    const { status, body } = await files("owner@agency.test", sftpSite.id, "?path=/");
    expect(status).toBe(400);
    expect(body.code).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
  });

  it("lets a granted client list the site, and answers 404 to users who cannot reach it", async () => {
    expect((await files("client@agency.test", demoSite.id)).status).toBe(200);
    // A client of the same account without a grant on the site.
    const ungranted = await files("client@agency.test", sftpSite.id);
    expect(ungranted).toEqual({ status: 404, body: { code: "NOT_FOUND", invalid: [] } });
    // Another account's owner.
    expect((await files("owner@business.test", demoSite.id)).status).toBe(404);
    expect((await files("owner@agency.test", "no-such-site")).status).toBe(404);
  });

  it("answers 503 CONNECTION_AGENT_OFFLINE for a server site while no agent is connected", async () => {
    const { status, body } = await files("owner@agency.test", sftpSite.id);
    expect(status).toBe(503);
    expect(body).toEqual({ code: "CONNECTION_AGENT_OFFLINE", invalid: [] });
  });
});

describe("a site's connection spec", () => {
  it("opens the sealed secrets only in their own row, and carries the pins", async () => {
    const sealed = await sealSiteSecrets(env, sftpSite, { password: "s3cret", privateKey: "-----BEGIN KEY-----" });
    await db().update(schema.sites).set(sealed).where(eq(schema.sites.id, sftpSite.id));
    const row = (await db().select().from(schema.sites).where(eq(schema.sites.id, sftpSite.id)).get())!;
    const spec = await siteConnectionSpec(env, row);
    expect(spec).toMatchObject({ key: `site:${row.id}`, protocol: "sftp", host: "sftp.harbordental.example", port: 22, username: "harbor", password: "s3cret", privateKey: "-----BEGIN KEY-----", home: "/public_html" });
    expect(spec.sftpHostKey).toBeUndefined();
    // Copied into another site's row, the ciphertext does not open.
    await expect(openSiteSecrets(env, { ...row, id: demoSite.id })).rejects.toThrow(/could not be decrypted/);
    // A site without stored secrets has none.
    expect(await openSiteSecrets(env, { ...row, secretsCiphertext: null, secretsIv: null, secretsKeyVersion: null })).toEqual({});
  });

  it("pins an SFTP host key on first use only", async () => {
    const database = getDb(env);
    expect(await recordObservedPins(database, sftpSite, { sftpHostKey: "SHA256:first" })).toEqual({ sftpHostKey: "SHA256:first" });
    expect(await recordObservedPins(database, sftpSite, { sftpHostKey: "SHA256:second" })).toEqual({});
    // Another account cannot pin this site.
    expect(await recordObservedPins(database, { id: sftpSite.id, accountId: "someone-else" }, { ftpsCertFingerprint: "AA:BB" })).toEqual({});
    const row = (await db().select().from(schema.sites).where(eq(schema.sites.id, sftpSite.id)).get())!;
    expect([row.sftpHostKey, row.ftpsCertFingerprint]).toEqual(["SHA256:first", null]);
    expect((await siteConnectionSpec(env, row)).sftpHostKey).toBe("SHA256:first");
  });
});
