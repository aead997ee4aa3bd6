// A page's raw source (EditSource): read with its hash, written to the server atomically, never
// over a file changed since; admins edit any page's source, client users only source-only files.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createDemoStore } from "~/services/demo-store.server";
import { createDemoSite, createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let site: schema.Site;
let owner = "";
let client = "";
const pageOf: Record<string, schema.Page> = {};
const store = () => createDemoStore(env.UPLOADS, site.id, { home: "/" });

beforeAll(async () => {
  tenant = await createTenant("Source", "agency");
  const demo = await createDemoSite(tenant, { "/style.css": "body {\n  color: black;\n}\n", "/index.html": "<h1 class=editable id=t>Hi</h1>" });
  site = demo.site;
  pageOf.Style = demo.pageOf["/style.css"];
  pageOf.Home = demo.pageOf["/index.html"];
  await db().insert(schema.sitePermissions).values({ accountId: tenant.account.id, userId: tenant.client.id, siteId: site.id, allPages: true });
  owner = await signIn(tenant.owner.email);
  client = await signIn(tenant.client.email);
});

async function call(cookie: string, method: string, page: string, body?: unknown) {
  const response = await SELF.fetch(`http://localhost/api/sites/${site.id}/pages/${pageOf[page].id}/source`, {
    method, headers: { Cookie: cookie, ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as { source: string; baseHash: string; code?: string } };
}

describe("a page's source", () => {
  it("reads the file and writes it back, with the new hash; the file on the server is the new source", async () => {
    const read = await call(owner, "GET", "Style");
    expect(read.status).toBe(200);
    expect(read.body.source).toBe("body {\n  color: black;\n}\n");
    const written = await call(owner, "PUT", "Style", { source: "body {\n  color: navy;\n}\n", baseHash: read.body.baseHash });
    expect(written.status).toBe(200);
    expect(written.body.baseHash).not.toBe(read.body.baseHash);
    expect((await store().read("/style.css")).toString()).toBe("body {\n  color: navy;\n}\n");
  });

  it("never writes over a file changed on the server since it was opened (PAGE_CHANGED_ON_SERVER)", async () => {
    const read = await call(owner, "GET", "Style");
    await store().writeAtomic("/style.css", new TextEncoder().encode("/* changed over FTP */"));
    const refused = await call(owner, "PUT", "Style", { source: "mine", baseHash: read.body.baseHash });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("PAGE_CHANGED_ON_SERVER");
    expect((await store().read("/style.css")).toString()).toBe("/* changed over FTP */");
  });

  it("lets a client user edit source-only files, not the HTML of pages", async () => {
    expect((await call(client, "GET", "Style")).status).toBe(200);
    const html = await call(client, "GET", "Home");
    expect(html.status).toBe(403);
    expect((await call(client, "PUT", "Home", { source: "<h1>Defaced</h1>" })).status).toBe(403);
    expect((await store().read("/index.html")).toString()).toBe("<h1 class=editable id=t>Hi</h1>");
    expect((await call(owner, "GET", "Home")).status).toBe(200);
  });

  it("writes nothing while the site is on lockdown (SITE_IS_LOCKED)", async () => {
    await db().update(schema.sites).set({ isLocked: true }).where(eq(schema.sites.id, site.id));
    try {
      const refused = await call(owner, "PUT", "Style", { source: "locked" });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("SITE_IS_LOCKED");
    } finally {
      await db().update(schema.sites).set({ isLocked: false }).where(eq(schema.sites.id, site.id));
    }
  });
});
