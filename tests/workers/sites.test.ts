// The sites API in workerd: the list (search, paging, limit 0, favorites), one site, the site form's
// create and update (normalisation, the connection test through a fake agent on the real AgentHub,
// secrets sealed and never answered), delete, screenshots, reclassification, change notifications
// and the site's activity. The same form against a real SFTP server is driven in tests/e2e/sites.test.ts.
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createDemoStore } from "~/services/demo-store.server";
import { openSiteSecrets, sealSiteSecrets } from "~/services/site-files.server";
import { connectFakeAgent, type FakeReply } from "./fake-agent";
import { createTenant, db, signIn, type Tenant } from "./fixtures";

const CANARY = "canary-secret-7c1e9b";

async function call(path: string, cookie: string | null, { method = "GET", body, headers = {} }: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await SELF.fetch(`http://localhost/api${path}`, {
    method,
    headers: { "Sec-Fetch-Site": "same-origin", ...(cookie ? { Cookie: cookie } : {}), ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, text, body: (text ? JSON.parse(text) : null) as Record<string, unknown> & { code?: string; invalid?: string[] } };
}

type Listed = { sites: { id: string; name: string; isFavorite: boolean; screenshot: string | null }[]; count: number; offset: number; limit: number };

let a: Tenant;
let b: Tenant;
let owner = "";
let admin = "";
let client = "";
let ownerB = "";
let agent: Awaited<ReturnType<typeof connectFakeAgent>> | null = null;

const siteRow = (id: string) => db().select().from(schema.sites).where(eq(schema.sites.id, id)).get();
const siteCount = async (accountId: string) => (await db().select().from(schema.sites).where(eq(schema.sites.accountId, accountId))).length;

/** A well-formed NewSite form for an SFTP server, as the browser sends it. */
const form = (fields: Record<string, unknown> = {}) => ({
  name: "Tidewater Bakery", url: "tidewater.example", classification: "", protocol: "sftp", host: "sftp.tidewater.example", port: null,
  username: "baker", password: "right-password", homeFolder: "/var/www//", uploadFolder: "/somewhere/else", s3Acl: null, agentId: null,
  isLocked: false, canDuplicatePages: false, canDeletePages: false, ...fields,
});

/** A server at sftp.tidewater.example: the right password lists the home folder, anything else is refused. */
function tidewater(homePage = "<h1>Fresh bread</h1>"): (call: { op: string; spec: { password?: string; home: string }; args: unknown }) => FakeReply {
  return (call) => {
    if (call.spec.password !== "right-password" && call.spec.password !== "new-password") return { ok: false, error: { code: "CONNECTION_AGENT_AUTH" } };
    if (call.op === "test") {
      return { ok: true, value: [{ name: "index.html", path: `${call.spec.home}/index.html`, type: "file", size: homePage.length, modifiedAt: null }], pins: { sftpHostKey: "SHA256:tidewater-key" } };
    }
    if (call.op === "read") return { ok: true, value: null, body: new TextEncoder().encode(homePage) };
    return { ok: true, value: [] };
  };
}

beforeAll(async () => {
  a = await createTenant("Sitesa");
  b = await createTenant("Sitesb", "business");
  // More sites in A, named so that case-insensitive order differs from byte order.
  await db().insert(schema.sites).values(["bravo", "Charlie", "alpha", "Delta", "echo"].map((name) => ({
    accountId: a.account.id, name, url: `https://${name.toLowerCase()}.example`, classification: "personal" as const, protocol: "sftp" as const,
    host: "sftp.example", homeFolder: "/", uploadFolder: "/",
  })));
  [owner, admin, client, ownerB] = await Promise.all([signIn(a.owner.email), signIn(a.admin.email), signIn(a.client.email), signIn(b.owner.email)]);
});

afterEach(async () => {
  await agent?.disconnect();
  agent = null;
});

describe("GET /api/sites", () => {
  it("lists the account's sites by name, case-insensitively, in pages without gaps or repeats; limit 0 counts", async () => {
    const all = (await call("/sites?limit=100", admin)).body as unknown as Listed;
    expect(all.count).toBe(6);
    expect(all.sites.map((s) => s.name)).toEqual(["alpha", "bravo", "Charlie", "Delta", "echo", "Sitesa site"]);
    const walked: string[] = [];
    for (let offset = 0; offset < 6; offset += 4) {
      const page = (await call(`/sites?limit=4&offset=${offset}&sortBy=name`, admin)).body as unknown as Listed;
      expect([page.count, page.offset, page.limit]).toEqual([6, offset, 4]);
      walked.push(...page.sites.map((s) => s.name));
    }
    expect(walked).toEqual(all.sites.map((s) => s.name));
    expect((await call("/sites?limit=0", admin)).body).toEqual({ sites: [], count: 6, offset: 0, limit: 0 });
    expect((await call("/sites?limit=0&search=CHAR", admin)).body).toEqual({ sites: [], count: 1, offset: 0, limit: 0 });
  });

  it("searches by name or URL, with LIKE wildcards taken literally", async () => {
    const names = async (search: string) => ((await call(`/sites?search=${encodeURIComponent(search)}`, owner)).body as unknown as Listed).sites.map((s) => s.name);
    expect(await names("ta")).toEqual(["Delta"]);
    expect(await names("echo.example")).toEqual(["echo"]);
    expect(await names("%")).toEqual([]);
    expect(await names("_lpha")).toEqual([]);
  });

  it("shows a client user only the granted sites, and no other account's", async () => {
    const mine = (await call("/sites", client)).body as unknown as Listed;
    expect(mine.sites.map((s) => s.id)).toEqual([a.site.id]);
    expect(mine.count).toBe(1);
    const theirs = (await call("/sites", ownerB)).body as unknown as Listed;
    expect(theirs.sites.map((s) => s.id)).toEqual([b.site.id]);
  });

  it("marks each site the user made a favorite, for that user only", async () => {
    expect((await call(`/users/${a.admin.id}/favorites/${a.site.id}`, admin, { method: "POST" })).status).toBe(204);
    const forAdmin = (await call("/sites?limit=100", admin)).body as unknown as Listed;
    expect(forAdmin.sites.filter((s) => s.isFavorite).map((s) => s.id)).toEqual([a.site.id]);
    const forOwner = (await call("/sites?limit=100", owner)).body as unknown as Listed;
    expect(forOwner.sites.some((s) => s.isFavorite)).toBe(false);
    expect(((await call(`/sites/${a.site.id}`, admin)).body.site as { isFavorite: boolean }).isFavorite).toBe(true);
  });

  it("refuses a limit above 100 and anonymous callers", async () => {
    expect((await call("/sites?limit=101", owner)).body.code).toBe("VALIDATION_ERROR");
    expect((await call("/sites", null)).status).toBe(401);
  });
});

describe("secrets are write-only", () => {
  it("never answers a stored secret, and says only which are stored, to those who manage sites", async () => {
    const [site] = await db().insert(schema.sites).values({
      accountId: a.account.id, name: "Zulu secrets", url: "https://zulu.example", classification: "personal", protocol: "sftp",
      host: "sftp.zulu.example", username: "zulu", homeFolder: "/www", uploadFolder: "/www/uploads",
    }).returning();
    await db().update(schema.sites).set(await sealSiteSecrets(env, site, { password: CANARY })).where(eq(schema.sites.id, site.id));
    const detail = await call(`/sites/${site.id}`, owner);
    expect(detail.status).toBe(200);
    expect(detail.text).not.toContain(CANARY);
    expect(detail.body.site).toMatchObject({ host: "sftp.zulu.example", username: "zulu", storedSecrets: { password: true, privateKey: false, s3SecretKey: false } });
    expect(detail.body.site).not.toHaveProperty("password");
    expect(detail.body.site).not.toHaveProperty("secretsCiphertext");
    const listed = await call("/sites?limit=100", owner);
    expect(listed.text).not.toContain(CANARY);
    expect(listed.text).not.toContain("secretsCiphertext");
    // A client user reaches no connection at all.
    await db().insert(schema.sitePermissions).values({ accountId: a.account.id, userId: a.client.id, siteId: site.id, allPages: true });
    const asClient = await call(`/sites/${site.id}`, client);
    expect(asClient.status).toBe(200);
    expect(asClient.body.site).not.toHaveProperty("host");
    expect(asClient.body.site).not.toHaveProperty("storedSecrets");
    // An update without a password keeps the stored one and answers none.
    const updated = await call(`/sites/${site.id}`, owner, { method: "PUT", body: { name: "Zulu", password: "" } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.text).not.toContain(CANARY);
    expect((await openSiteSecrets(env, (await siteRow(site.id))!)).password).toBe(CANARY);
    await db().delete(schema.sites).where(eq(schema.sites.id, site.id));
  });
});

describe("POST /api/sites", () => {
  it("names every missing field of an empty form and saves nothing", async () => {
    const before = await siteCount(a.account.id);
    const empty = await call("/sites", admin, { method: "POST", body: form({ name: "", url: "", host: "", username: "", password: "", homeFolder: "/", uploadFolder: "/" }) });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe("VALIDATION_ERROR");
    expect(empty.body.invalid).toEqual(expect.arrayContaining(["name", "url", "host", "username", "password"]));
    // A bare scheme is empty; a folder climbing out of the root is refused.
    const bare = await call("/sites", admin, { method: "POST", body: form({ url: "https://", homeFolder: "/var/../etc" }) });
    expect([bare.status, bare.body.invalid]).toEqual([400, ["url", "homeFolder"]]);
    const s3 = await call("/sites", admin, { method: "POST", body: form({ protocol: "s3", host: "" }) });
    expect(s3.body.invalid).toEqual(["s3AccessKey", "s3SecretKey", "s3Bucket"]);
    expect(await siteCount(a.account.id)).toBe(before);
  });

  it("is for those who can manage sites", async () => {
    const [limited] = await db().insert(schema.users).values({
      accountId: a.account.id, name: "Limited admin", email: "limited@sitesa.test", isAdmin: true, canManageUsers: true,
      passwordHash: (await db().select().from(schema.users).where(eq(schema.users.id, a.admin.id)).get())!.passwordHash,
    }).returning();
    const limitedCookie = await signIn(limited.email);
    for (const cookie of [client, limitedCookie]) {
      expect((await call("/sites", cookie, { method: "POST", body: form() })).body.code).toBe("FORBIDDEN");
      expect((await call(`/sites/${a.site.id}`, cookie, { method: "PUT", body: { name: "Taken over" } })).status).toBe(403);
      expect((await call(`/sites/${a.site.id}`, cookie, { method: "DELETE" })).status).toBe(403);
      expect((await call(`/sites/${a.site.id}/screenshot`, cookie, { method: "PUT" })).status).toBe(403);
    }
    expect((await siteRow(a.site.id))?.name).toBe("Sitesa site");
  });

  it("answers CONNECTION_AGENT_OFFLINE when no agent is connected, saving nothing", async () => {
    const before = await siteCount(a.account.id);
    const response = await call("/sites", admin, { method: "POST", body: form() });
    expect([response.status, response.body]).toEqual([503, { code: "CONNECTION_AGENT_OFFLINE", invalid: [] }]);
    expect(await siteCount(a.account.id)).toBe(before);
  });

  it("tests the connection through the agent first: a wrong password is CONNECTION_AGENT_AUTH and nothing is saved", async () => {
    agent = await connectFakeAgent(tidewater());
    const before = await siteCount(a.account.id);
    const refused = await call("/sites", admin, { method: "POST", body: form({ password: "wrong-password" }) });
    expect([refused.status, refused.body]).toEqual([502, { code: "CONNECTION_AGENT_AUTH", invalid: [] }]);
    expect(await siteCount(a.account.id)).toBe(before);
    expect(agent.calls.map((c) => c.op)).toEqual(["test"]);
  });

  it("saves a site whose connection works: URL and folders normalised, default port, secrets sealed, host key pinned", async () => {
    agent = await connectFakeAgent(tidewater());
    const created = await call("/sites", admin, { method: "POST", body: form({ classification: "personal" }) });
    expect(created.status, created.text).toBe(200);
    expect(created.text).not.toContain("right-password");
    const site = created.body.site as { id: string } & Record<string, unknown>;
    expect(site).toMatchObject({
      name: "Tidewater Bakery", url: "https://tidewater.example", protocol: "sftp", port: 22, homeFolder: "/var/www", uploadFolder: "/var/www",
      classification: "personal", isFavorite: false, screenshot: null, storedSecrets: { password: true, privateKey: false, s3SecretKey: false },
      sftpHostKey: "SHA256:tidewater-key",
    });
    // The agent was asked under the site's own key, with the normalised home folder.
    expect(agent.calls[0]).toMatchObject({ op: "test", spec: { key: `site:${site.id}`, protocol: "sftp", host: "sftp.tidewater.example", port: 22, home: "/var/www" } });
    const row = (await siteRow(site.id))!;
    expect(row.accountId).toBe(a.account.id);
    expect(JSON.stringify(row)).not.toContain("right-password");
    expect(await openSiteSecrets(env, row)).toEqual({ password: "right-password" });
    expect((await call(`/sites/${site.id}`, admin)).text).not.toContain("right-password");
  });

  it("classifies a site from its URL and home page when no classification is chosen", async () => {
    agent = await connectFakeAgent(tidewater("<nav><a href=/shop>Shop</a> <a href=/cart>Cart</a></nav><h1>Fresh bread</h1>"));
    const shop = await call("/sites", admin, { method: "POST", body: form({ name: "Shop", url: "https://bread.example" }) });
    expect((shop.body.site as { classification: string }).classification).toBe("commercial");
    const chosen = await call("/sites", admin, { method: "POST", body: form({ name: "Chosen", url: "https://bread.example", classification: "personal" }) });
    expect((chosen.body.site as { classification: string }).classification).toBe("personal");
    // The owner's choice stands, and what the check saw is on record for the superuser.
    const [entry] = await db().select().from(schema.auditLog).where(and(eq(schema.auditLog.action, "site.create"), eq(schema.auditLog.entityId, (chosen.body.site as { id: string }).id)));
    expect(entry.details).toMatchObject({ classification: "personal", detectedClassification: "commercial" });
    await agent.disconnect();
    agent = await connectFakeAgent(tidewater());
    const school = await call("/sites", admin, { method: "POST", body: form({ name: "School", url: "https://maths.ac.uk" }) });
    expect((school.body.site as { classification: string }).classification).toBe("educational");
  });

  it("refuses another account's agent", async () => {
    const response = await call("/sites", admin, { method: "POST", body: form({ agentId: b.agent.id }) });
    expect([response.status, response.body.invalid]).toEqual([400, ["agentId"]]);
  });
});

describe("PUT /api/sites/{siteId}", () => {
  async function createTidewater(): Promise<string> {
    agent = await connectFakeAgent(tidewater());
    const created = await call("/sites", owner, { method: "POST", body: form({ name: "Editable", classification: "personal" }) });
    expect(created.status, created.text).toBe(200);
    await agent.disconnect();
    agent = null;
    return (created.body.site as { id: string }).id;
  }

  it("saves lockdown and page flags without reaching the server, keeping the stored password", async () => {
    const id = await createTidewater();
    // No agent is connected now: a change that does not touch the connection still saves.
    const saved = await call(`/sites/${id}`, owner, { method: "PUT", body: form({ name: "Editable", password: "", isLocked: true, canDeletePages: true, classification: "personal" }) });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.site).toMatchObject({ isLocked: true, canDeletePages: true, canDuplicatePages: false, storedSecrets: { password: true } });
    expect((await openSiteSecrets(env, (await siteRow(id))!)).password).toBe("right-password");
  });

  it("tests a changed connection first; a refused one changes nothing", async () => {
    const id = await createTidewater();
    const offline = await call(`/sites/${id}`, owner, { method: "PUT", body: { password: "new-password", name: "Renamed" } });
    expect(offline.body.code).toBe("CONNECTION_AGENT_OFFLINE");
    agent = await connectFakeAgent(tidewater());
    const refused = await call(`/sites/${id}`, owner, { method: "PUT", body: { password: "bad-password", name: "Renamed" } });
    expect(refused.body.code).toBe("CONNECTION_AGENT_AUTH");
    expect((await siteRow(id))?.name).toBe("Editable");
    expect((await openSiteSecrets(env, (await siteRow(id))!)).password).toBe("right-password");
    const changed = await call(`/sites/${id}`, owner, { method: "PUT", body: { password: "new-password", name: "Renamed" } });
    expect(changed.status, changed.text).toBe(200);
    expect((await openSiteSecrets(env, (await siteRow(id))!)).password).toBe("new-password");
    // The same server keeps its pinned key: the agent was asked to check it.
    expect(agent.calls.at(-1)).toMatchObject({ op: "test", spec: { sftpHostKey: "SHA256:tidewater-key", password: "new-password" } });
  });

  it("moves to another protocol with its own defaults: FTP port 21, a WebDAV host with http://, no stale S3 fields", async () => {
    const id = await createTidewater();
    agent = await connectFakeAgent(tidewater());
    const ftp = await call(`/sites/${id}`, owner, { method: "PUT", body: { protocol: "ftp", host: "ftp.tidewater.example", port: null, password: "right-password" } });
    expect(ftp.body.site).toMatchObject({ protocol: "ftp", port: 21, sftpHostKey: null });
    const dav = await call(`/sites/${id}`, owner, { method: "PUT", body: { protocol: "webdav", host: "dav.tidewater.example", port: null, password: "right-password" } });
    expect(dav.body.site).toMatchObject({ protocol: "webdav", host: "http://dav.tidewater.example", port: null });
    // The upload folder must lie under the home folder, else it is the home folder.
    const folders = await call(`/sites/${id}`, owner, { method: "PUT", body: { homeFolder: "/var/www/", uploadFolder: "/var/www/uploads///" } });
    expect(folders.body.site).toMatchObject({ homeFolder: "/var/www", uploadFolder: "/var/www/uploads" });
    const outside = await call(`/sites/${id}`, owner, { method: "PUT", body: { uploadFolder: "/tmp" } });
    expect(outside.body.site).toMatchObject({ uploadFolder: "/var/www" });
  });

  it("refuses the demo site, another account's site and a classification the superuser locked", async () => {
    const [demo] = await db().insert(schema.sites).values({
      accountId: a.account.id, name: "Demo", url: "https://demo.example", classification: "personal", protocol: "demo", isDemo: true, homeFolder: "/", uploadFolder: "/uploads",
    }).returning();
    expect((await call(`/sites/${demo.id}`, owner, { method: "PUT", body: { name: "Not a demo" } })).status).toBe(403);
    expect((await call(`/sites/${b.site.id}`, owner, { method: "PUT", body: { name: "Mine now" } })).status).toBe(404);
    expect((await siteRow(b.site.id))?.name).toBe("Sitesb site");
    await db().delete(schema.sites).where(eq(schema.sites.id, demo.id));
  });
});

describe("PUT /api/admin/sites/{siteId}/classify", () => {
  it("lets the superuser reclassify any account's site and lock it; the owner can no longer change it", async () => {
    const platform = await createTenant("Platformsites");
    await db().update(schema.users).set({ isSuperuser: true }).where(eq(schema.users.id, platform.owner.id));
    const superuser = await signIn(platform.owner.email);
    expect((await call(`/admin/sites/${b.site.id}/classify`, ownerB, { method: "PUT", body: { classification: "commercial" } })).status).toBe(404);
    const done = await call(`/admin/sites/${b.site.id}/classify`, superuser, { method: "PUT", body: { classification: "commercial" } });
    expect(done.status, done.text).toBe(200);
    expect(done.body.site).toMatchObject({ id: b.site.id, classification: "commercial", classificationLocked: true });
    expect((await call(`/admin/sites/${b.site.id}/classify`, superuser, { method: "PUT", body: { classification: "shop" } })).body).toEqual({ code: "VALIDATION_ERROR", invalid: ["classification"] });
    const refused = await call(`/sites/${b.site.id}`, ownerB, { method: "PUT", body: { classification: "personal" } });
    expect([refused.status, refused.body]).toEqual([403, { code: "FORBIDDEN", invalid: ["classification"] }]);
    expect((await siteRow(b.site.id))?.classification).toBe("commercial");
  });
});

describe("DELETE /api/sites/{siteId}", () => {
  it("removes the site with its pages, and a demo site's files in R2", async () => {
    const [demo] = await db().insert(schema.sites).values({
      accountId: a.account.id, name: "Old demo", url: "https://demo.example", classification: "personal", protocol: "demo", isDemo: true, homeFolder: "/", uploadFolder: "/uploads",
    }).returning();
    await db().insert(schema.pages).values({ siteId: demo.id, accountId: a.account.id, name: "Homepage", path: "/index.html" });
    const store = createDemoStore(env.UPLOADS, demo.id);
    await store.writeAtomic("/index.html", new TextEncoder().encode("<h1>Demo</h1>"));
    expect((await call(`/sites/${demo.id}`, ownerB, { method: "DELETE" })).status).toBe(404);
    expect((await call(`/sites/${demo.id}`, admin, { method: "DELETE" })).status).toBe(204);
    expect(await siteRow(demo.id)).toBeUndefined();
    expect(await db().select().from(schema.pages).where(eq(schema.pages.siteId, demo.id))).toEqual([]);
    expect((await env.UPLOADS.list({ prefix: `demo-sites/${demo.id}/` })).objects).toEqual([]);
    expect((await call(`/sites/${demo.id}`, admin)).status).toBe(404);
  });
});

describe("screenshots", () => {
  it("takes a screenshot request with the spec's message, in the user's language", async () => {
    const english = await call(`/sites/${a.site.id}/screenshot`, owner, { method: "PUT" });
    expect([english.status, english.body]).toEqual([202, { message: "A new screenshot is being generated." }]);
    const german = await call(`/sites/${a.site.id}/screenshot`, owner, { method: "PUT", headers: { "Accept-Language": "de" } });
    expect(german.body.message).not.toBe("A new screenshot is being generated.");
    // No Browser Rendering account is configured here: the site keeps having none.
    expect((await siteRow(a.site.id))?.screenshotKey).toBeNull();
  });

  it("serves a stored screenshot, versioned by its key, to those who reach the site", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const key = `screenshots/${a.account.id}/${a.site.id}/1700000000000.png`;
    await env.UPLOADS.put(key, png, { httpMetadata: { contentType: "image/png" } });
    await db().update(schema.sites).set({ screenshotKey: key }).where(eq(schema.sites.id, a.site.id));
    const listed = (await call("/sites", client)).body as unknown as Listed;
    expect(listed.sites[0].screenshot).toBe(`/api/sites/${a.site.id}/screenshot?v=1700000000000`);
    const response = await SELF.fetch(`http://localhost${listed.sites[0].screenshot}`, { headers: { Cookie: client } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png);
    expect((await SELF.fetch(`http://localhost/api/sites/${a.site.id}/screenshot`, { headers: { Cookie: ownerB } })).status).toBe(404);
    await db().update(schema.sites).set({ screenshotKey: null }).where(eq(schema.sites.id, a.site.id));
  });
});

describe("change notifications", () => {
  it("are an agency-plan feature, shown on the site", async () => {
    expect((await call(`/users/${a.owner.id}/change-notifications/${a.site.id}`, owner, { method: "POST" })).status).toBe(204);
    expect(((await call(`/sites/${a.site.id}`, owner)).body.site as { hasChangeNotification: boolean }).hasChangeNotification).toBe(true);
    const business = await call(`/users/${b.owner.id}/change-notifications/${b.site.id}`, ownerB, { method: "POST" });
    expect([business.status, business.body.code]).toEqual([403, "UPGRADE_REQUIRED"]);
    expect(((await call(`/sites/${b.site.id}`, ownerB)).body.site as { hasChangeNotification: boolean }).hasChangeNotification).toBe(false);
    // Someone else's notifications are not reachable.
    expect((await call(`/users/${a.admin.id}/change-notifications/${a.site.id}`, owner, { method: "POST" })).status).toBe(404);
  });
});

describe("GET /api/sites/{siteId}/revisions", () => {
  it("answers the site's activity newest first, paged, with author and page; a client user sees their pages' only", async () => {
    const base = Date.parse("2026-03-01T10:00:00Z");
    await db().insert(schema.revisions).values([
      { pageId: a.pages[0].id, siteId: a.site.id, accountId: a.account.id, userId: a.owner.id, isDraft: false, createdAt: new Date(base) },
      { pageId: a.pages[1].id, siteId: a.site.id, accountId: a.account.id, userId: a.admin.id, isDraft: true, createdAt: new Date(base + 1000) },
      { pageId: a.pages[0].id, siteId: a.site.id, accountId: a.account.id, userId: a.client.id, isDraft: true, createdAt: new Date(base + 2000) },
    ]);
    const all = await call(`/sites/${a.site.id}/revisions?limit=2`, admin);
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ count: 3, offset: 0, limit: 2 });
    const revisions = all.body.revisions as { createdAt: string; isDraft: boolean; user: { id: string }; site: { id: string }; page: { id: string; name: string } }[];
    expect(revisions.map((r) => [r.user.id, r.page.name, r.isDraft])).toEqual([[a.client.id, "Homepage", true], [a.admin.id, "About", true]]);
    expect(revisions[0]).toEqual({ id: expect.any(String), createdAt: new Date(base + 2000).toISOString(), isDraft: true, user: { id: a.client.id, name: a.client.name, avatar: null }, site: { id: a.site.id, name: a.site.name }, page: { id: a.pages[0].id, name: "Homepage" } });
    expect(((await call(`/sites/${a.site.id}/revisions?offset=2`, admin)).body.revisions as unknown[]).length).toBe(1);
    // The client user's grant names the homepage only.
    const mine = await call(`/sites/${a.site.id}/revisions`, client);
    expect((mine.body.revisions as { page: { id: string } }[]).map((r) => r.page.id)).toEqual([a.pages[0].id, a.pages[0].id]);
    expect((await call(`/sites/${a.site.id}/revisions`, ownerB)).status).toBe(404);
    expect((await call(`/users/${a.admin.id}/revisions`, admin)).body).toMatchObject({ count: 1 });
  });
});
