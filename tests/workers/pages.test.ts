// The page list and its operations in workerd, on a demo site whose "server" is the demo store in R2
// (the same RemoteFs path a real site takes through its agent): enabling files (Homepage pinned,
// only the spec's extensions), the list's order and paging, rename and duplicate (the file moves or
// is copied), pin, disable and delete (the file goes too), new pages from a template, and who may do
// each (admins, client users by the site's flags and their grant, another account), lockdown.
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createDemoStore } from "~/services/demo-store.server";
import { createTenant, db, signIn, type Tenant } from "./fixtures";

type PageItem = { id: string; siteId: string; name: string; path: string; isPinned: boolean };
type Answer = { status: number; body: Record<string, unknown> & { code?: string; invalid?: string[]; page?: PageItem; pages?: PageItem[]; count?: number } };

let t: Tenant;
let other: Tenant;
let demo: schema.Site;
let owner = "";
let admin = "";
let client = "";
let stranger = "";

const store = () => createDemoStore(env.UPLOADS, demo.id, { home: "/" });
const text = (value: string) => new TextEncoder().encode(value);
const read = async (path: string) => (await store().read(path)).toString();

async function call(cookie: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await SELF.fetch(`http://localhost/api/sites/${demo.id}${path}`, {
    method,
    headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin", ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

const enable = (cookie: string, path: string, extra: Record<string, unknown> = {}) => call(cookie, "POST", "/pages", { path, createOnServer: false, isPinned: false, ...extra });
const names = async (cookie: string, query = "") => ((await call(cookie, "GET", `/pages?limit=1000${query}`)).body.pages ?? []).map((p) => p.name);
const pageAt = (path: string) => db().select().from(schema.pages).where(and(eq(schema.pages.siteId, demo.id), eq(schema.pages.path, path))).get();
const setSite = (fields: Partial<schema.Site>) => db().update(schema.sites).set(fields).where(eq(schema.sites.id, demo.id));

beforeAll(async () => {
  t = await createTenant("Pages");
  other = await createTenant("Elsewhere");
  [demo] = await db().insert(schema.sites).values({
    accountId: t.account.id, name: "Demo", url: "https://demo.example", classification: "personal", protocol: "demo", isDemo: true, homeFolder: "/", uploadFolder: "/uploads",
  }).returning();
  for (const [path, body] of Object.entries({
    "/index.html": "<h1>Home</h1>", "/about.html": "<h1>About</h1>", "/contact.html": "<h1>Contact</h1>", "/menu.html": "<h1>Menu</h1>",
    "/blog/index.html": "<h1>Blog</h1>", "/css/site.css": "body{}", "/logo.png": "png", "/uploads/photo.jpg": "jpg",
  })) await store().writeAtomic(path, text(body));
  // The client user's grant on the demo site names selected pages (filled in as pages are enabled).
  await db().insert(schema.sitePermissions).values({ accountId: t.account.id, userId: t.client.id, siteId: demo.id, allPages: false });
  [owner, admin, client, stranger] = await Promise.all([signIn(t.owner.email), signIn(t.admin.email), signIn(t.client.email), signIn(other.owner.email)]);
});

async function grantToClient(pageId: string) {
  const grant = await db().select().from(schema.sitePermissions).where(and(eq(schema.sitePermissions.userId, t.client.id), eq(schema.sitePermissions.siteId, demo.id))).get();
  await db().insert(schema.permissionPages).values({ permissionId: grant!.id, pageId, accountId: t.account.id }).onConflictDoNothing();
}

describe("enabling files as pages", () => {
  it("names the home folder's index file Homepage and pins it; other files keep the chosen name", async () => {
    const home = await enable(admin, "/index.html", { name: "Index" });
    expect(home.status).toBe(200);
    expect(home.body.page).toEqual({ id: expect.any(String), siteId: demo.id, name: "Homepage", path: "/index.html", isPinned: true });
    expect((await enable(admin, "about.html", { name: "About" })).body.page).toMatchObject({ name: "About", path: "/about.html", isPinned: false });
    expect((await enable(owner, "/contact.html", { name: "Contact" })).body.page).toMatchObject({ name: "Contact", isPinned: false });
    // Without a name, one is made from the file name; a subfolder's index is not the Homepage.
    expect((await call(admin, "POST", "/pages", { path: "/blog/index.html", createOnServer: false })).body.page).toMatchObject({ name: "Blog", isPinned: false });
    const listed = await SELF.fetch(`http://localhost/api/sites/${demo.id}/files?showEnabled=true`, { headers: { Cookie: admin } });
    const files = ((await listed.json()) as { files: { name: string; isEnabled?: boolean }[] }).files;
    expect(Object.fromEntries(files.map((f) => [f.name, f.isEnabled]))).toMatchObject({ "index.html": true, "about.html": true, "menu.html": false, "logo.png": false });
  });

  it("enables only the spec's page extensions, inside the home folder, and only files that exist", async () => {
    expect(await enable(admin, "/logo.png")).toEqual({ status: 400, body: { code: "FILE_TYPE_NOT_SUPPORTED", invalid: ["path"] } });
    expect(await enable(admin, "/../etc/passwd.html")).toEqual({ status: 400, body: { code: "PATH_OUTSIDE_OF_HOME_FOLDER", invalid: ["path"] } });
    expect(await enable(admin, "/missing.html")).toEqual({ status: 404, body: { code: "NOT_FOUND", invalid: ["path"] } });
    expect((await enable(admin, "/css/site.css")).body.page).toMatchObject({ path: "/css/site.css" });
    expect(await pageAt("/logo.png")).toBeUndefined();
  });

  it("answers an already enabled file with its page, and creates a missing file on request", async () => {
    const first = await pageAt("/about.html");
    expect((await enable(admin, "/about.html", { name: "Renamed?" })).body.page).toMatchObject({ id: first!.id, name: "About" });
    const created = await call(admin, "POST", "/pages", { name: "Landing", path: "/landing.html", createOnServer: true });
    expect(created.body.page).toMatchObject({ name: "Landing", path: "/landing.html" });
    expect(await read("/landing.html")).toBe("");
    expect((await call(admin, "POST", "/pages", { name: "Again", path: "/landing.html", createOnServer: true })).body).toEqual({ code: "FILE_ALREADY_EXISTS", invalid: ["path"] });
  });

  it("is for admins: a client user cannot enable pages", async () => {
    expect(await enable(client, "/menu.html")).toEqual({ status: 403, body: { code: "FORBIDDEN", invalid: [] } });
    expect(await pageAt("/menu.html")).toBeUndefined();
  });
});

describe("GET /api/sites/{siteId}/pages", () => {
  it("puts pinned pages first, then names case-insensitively, and pages through them without repeats", async () => {
    await db().insert(schema.pages).values(["beta", "Alpha", "gamma", "Delta", "alpha two"].map((name, i) => ({
      siteId: demo.id, accountId: t.account.id, name, path: `/extra-${i}.html`, isPinned: name === "Delta",
    })));
    const all = await names(admin, "&sortBy=pinned");
    expect(all).toEqual(["Delta", "Homepage", "About", "Alpha", "alpha two", "beta", "Blog", "Contact", "gamma", "Landing", "Site"]);
    const walked: string[] = [];
    for (let offset = 0; offset < all.length; offset += 3) {
      const page = await call(admin, "GET", `/pages?limit=3&offset=${offset}&sortBy=pinned`);
      expect(page.body).toMatchObject({ count: all.length, offset, limit: 3 });
      walked.push(...page.body.pages!.map((p) => p.name));
    }
    expect(walked).toEqual(all);
    expect(await names(admin, "&sortBy=name")).toEqual(["About", "Alpha", "alpha two", "beta", "Blog", "Contact", "Delta", "gamma", "Homepage", "Landing", "Site"]);
    expect((await call(admin, "GET", "/pages?limit=0")).body).toEqual({ pages: [], count: all.length, offset: 0, limit: 0 });
  });

  it("searches names and paths", async () => {
    expect(await names(admin, "&search=ALPHA")).toEqual(["Alpha", "alpha two"]);
    expect(await names(admin, "&search=blog%2Findex")).toEqual(["Blog"]);
    expect(await names(admin, "&search=%25")).toEqual([]);
    expect((await call(admin, "GET", "/pages?limit=0&search=extra-")).body.count).toBe(5);
  });

  it("shows a client user the pages of their grant only, and another account nothing", async () => {
    expect(await names(client)).toEqual([]);
    expect((await call(client, "GET", "/pages?limit=0")).body.count).toBe(0);
    await grantToClient((await pageAt("/about.html"))!.id);
    expect(await names(client)).toEqual(["About"]);
    expect((await call(stranger, "GET", "/pages")).status).toBe(404);
    const page = (await pageAt("/about.html"))!;
    expect((await call(client, "GET", `/pages/${page.id}`)).body.page).toMatchObject({ name: "About" });
    expect((await call(client, "GET", `/pages/${(await pageAt("/index.html"))!.id}`)).status).toBe(404);
  });
});

describe("rename and pin", () => {
  it("renames a page and moves its file on the server", async () => {
    const about = (await pageAt("/about.html"))!;
    const renamed = await call(admin, "PUT", `/pages/${about.id}`, { name: "About Us", path: "/about-us.html" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.page).toEqual({ id: about.id, siteId: demo.id, name: "About Us", path: "/about-us.html", isPinned: false });
    expect(await read("/about-us.html")).toBe("<h1>About</h1>");
    expect(await store().stat("/about.html")).toBeNull();
    // A name alone changes nothing on the server.
    expect((await call(admin, "PUT", `/pages/${about.id}`, { name: "About" })).body.page).toMatchObject({ name: "About", path: "/about-us.html" });
  });

  it("never renames over an existing file, to another type or out of the home folder", async () => {
    const about = (await pageAt("/about-us.html"))!;
    expect((await call(admin, "PUT", `/pages/${about.id}`, { path: "/contact.html" })).body).toEqual({ code: "FILE_ALREADY_EXISTS", invalid: ["path"] });
    expect((await call(admin, "PUT", `/pages/${about.id}`, { path: "/uploads/photo.jpg" })).body).toEqual({ code: "FILE_TYPE_NOT_SUPPORTED", invalid: ["path"] });
    expect((await call(admin, "PUT", `/pages/${about.id}`, { path: "/../about.html" })).body.code).toBe("PATH_OUTSIDE_OF_HOME_FOLDER");
    expect(await read("/about-us.html")).toBe("<h1>About</h1>");
    expect(await read("/contact.html")).toBe("<h1>Contact</h1>");
    expect((await pageAt("/about-us.html"))?.id).toBe(about.id);
  });

  it("pins and unpins; client users may do neither, nor rename", async () => {
    const contact = (await pageAt("/contact.html"))!;
    expect((await call(admin, "PUT", `/pages/${contact.id}`, { isPinned: true })).body.page?.isPinned).toBe(true);
    expect((await names(admin)).slice(0, 3)).toEqual(["Contact", "Delta", "Homepage"]);
    expect((await call(admin, "PUT", `/pages/${contact.id}`, { isPinned: false })).body.page?.isPinned).toBe(false);
    const about = (await pageAt("/about-us.html"))!;
    expect((await call(client, "PUT", `/pages/${about.id}`, { isPinned: true })).status).toBe(403);
    expect((await call(client, "PUT", `/pages/${about.id}`, { name: "Mine", path: "/mine.html" })).status).toBe(403);
    expect(await store().stat("/mine.html")).toBeNull();
    expect((await call(admin, "PUT", `/pages/${about.id}`, {})).body.code).toBe("VALIDATION_ERROR");
  });
});

describe("duplicate", () => {
  it("copies the page's file on the server and makes the copy a page", async () => {
    const contact = (await pageAt("/contact.html"))!;
    const copy = await call(admin, "POST", "/pages", { name: "Contact (Copy)", path: "/contact-copy.html", pageId: contact.id });
    expect(copy.status).toBe(200);
    expect(copy.body.page).toMatchObject({ name: "Contact (Copy)", path: "/contact-copy.html", isPinned: false });
    expect(copy.body.page!.id).not.toBe(contact.id);
    expect(await read("/contact-copy.html")).toBe("<h1>Contact</h1>");
    expect((await call(admin, "POST", "/pages", { name: "Again", path: "/contact-copy.html", pageId: contact.id })).body).toEqual({ code: "FILE_ALREADY_EXISTS", invalid: ["path"] });
    expect((await call(admin, "POST", "/pages", { name: "Picture", path: "/copy.png", pageId: contact.id })).body.code).toBe("FILE_TYPE_NOT_SUPPORTED");
  });

  it("lets a client user duplicate only when the site allows it, only their pages, and adds the copy to their grant", async () => {
    const about = (await pageAt("/about-us.html"))!;
    const contact = (await pageAt("/contact.html"))!;
    expect((await call(client, "POST", "/pages", { name: "Mine", path: "/mine.html", pageId: about.id })).body.code).toBe("FORBIDDEN");
    await setSite({ canDuplicatePages: true });
    expect((await call(client, "POST", "/pages", { name: "Theirs", path: "/theirs.html", pageId: contact.id })).status).toBe(404);
    const mine = await call(client, "POST", "/pages", { name: "Mine", path: "/mine.html", pageId: about.id });
    expect(mine.status).toBe(200);
    expect(await names(client)).toEqual(["About", "Mine"]);
    expect(await store().stat("/theirs.html")).toBeNull();
    await setSite({ canDuplicatePages: false });
  });
});

describe("new pages from a template", () => {
  it("writes the template's source to the new file; any user who reaches the site may", async () => {
    const [template] = await db().insert(schema.templates).values({ siteId: demo.id, accountId: t.account.id, name: "Basic", extension: ".html", source: "<main class=\"editable\" id=\"main\"></main>" }).returning();
    const created = await call(client, "POST", "/pages", { name: "News", path: "/news.html", templateId: template.id });
    expect(created.status).toBe(200);
    expect(await read("/news.html")).toBe("<main class=\"editable\" id=\"main\"></main>");
    expect(await names(client)).toContain("News");
    const [foreign] = await db().insert(schema.templates).values({ siteId: other.site.id, accountId: other.account.id, name: "Theirs", extension: ".html", source: "x" }).returning();
    expect((await call(admin, "POST", "/pages", { name: "X", path: "/x.html", templateId: foreign.id })).body).toEqual({ code: "VALIDATION_ERROR", invalid: ["templateId"] });
    expect((await call(admin, "POST", "/pages", { name: "", path: "/x.html", templateId: template.id })).body.code).toBe("VALIDATION_ERROR");
    expect(await store().stat("/x.html")).toBeNull();
  });
});

describe("POST /api/sites/{siteId}/pages/delete", () => {
  it("disables pages: gone from the product, files kept; enabling again brings the same page back", async () => {
    const menu = (await enable(admin, "/menu.html", { name: "Menu" })).body.page!;
    const removed = await call(admin, "POST", "/pages/delete", { pageIds: [menu.id, "no-such-page", other.pages[0].id], deleteFromServer: false });
    expect(removed.body).toEqual({ succeeded: [{ id: menu.id }], failed: [{ id: "no-such-page", code: "NOT_FOUND" }, { id: other.pages[0].id, code: "NOT_FOUND" }] });
    expect(await names(admin)).not.toContain("Menu");
    expect(await read("/menu.html")).toBe("<h1>Menu</h1>");
    expect((await call(admin, "GET", `/pages/${menu.id}`)).status).toBe(404);
    expect((await enable(admin, "/menu.html", { name: "Menu again" })).body.page).toMatchObject({ id: menu.id, name: "Menu again" });
  });

  it("deletes pages from the server too", async () => {
    const copy = (await pageAt("/contact-copy.html"))!;
    const removed = await call(admin, "POST", "/pages/delete", { pageIds: [copy.id], deleteFromServer: true });
    expect(removed.body).toEqual({ succeeded: [{ id: copy.id }], failed: [] });
    expect(await store().stat("/contact-copy.html")).toBeNull();
    expect(await pageAt("/contact-copy.html")).toBeUndefined();
  });

  it("lets a client user delete only with the site's canDeletePages, only their pages, and never disable", async () => {
    const mine = (await pageAt("/mine.html"))!;
    const contact = (await pageAt("/contact.html"))!;
    expect((await call(client, "POST", "/pages/delete", { pageIds: [mine.id], deleteFromServer: true })).body.code).toBe("FORBIDDEN");
    await setSite({ canDeletePages: true });
    expect((await call(client, "POST", "/pages/delete", { pageIds: [mine.id], deleteFromServer: false })).body.code).toBe("FORBIDDEN");
    const removed = await call(client, "POST", "/pages/delete", { pageIds: [mine.id, contact.id], deleteFromServer: true });
    expect(removed.body).toEqual({ succeeded: [{ id: mine.id }], failed: [{ id: contact.id, code: "NOT_FOUND" }] });
    expect(await store().stat("/mine.html")).toBeNull();
    expect(await read("/contact.html")).toBe("<h1>Contact</h1>");
    await setSite({ canDeletePages: false });
    expect((await call(stranger, "POST", "/pages/delete", { pageIds: [contact.id], deleteFromServer: true })).status).toBe(404);
    expect(await pageAt("/contact.html")).toBeDefined();
  });
});

describe("lockdown", () => {
  it("refuses every page change with SITE_IS_LOCKED while the list stays readable", async () => {
    await setSite({ isLocked: true });
    try {
      const contact = (await pageAt("/contact.html"))!;
      const locked = { code: "SITE_IS_LOCKED", invalid: [] };
      expect((await enable(admin, "/robots.html")).body).toEqual(locked);
      expect((await call(admin, "PUT", `/pages/${contact.id}`, { isPinned: true })).body).toEqual(locked);
      expect((await call(admin, "PUT", `/pages/${contact.id}`, { name: "X", path: "/x.html" })).body).toEqual(locked);
      expect((await call(admin, "POST", "/pages", { name: "Copy", path: "/copy.html", pageId: contact.id })).body).toEqual(locked);
      expect((await call(admin, "POST", "/pages/delete", { pageIds: [contact.id], deleteFromServer: true })).body).toEqual(locked);
      expect(await read("/contact.html")).toBe("<h1>Contact</h1>");
      expect(await store().stat("/copy.html")).toBeNull();
      expect((await pageAt("/contact.html"))?.isPinned).toBe(false);
      expect((await call(admin, "GET", "/pages?limit=0")).status).toBe(200);
    } finally {
      await setSite({ isLocked: false });
    }
  });
});
