// The page rendered for the editor frame (SECURITY.md 6): a redirect from the app origin to the
// preview origin with a sealed, short-lived render token; the page there byte for byte, with only
// the <base> and the editor script inserted; sandboxed and framed by the app only. Also the
// regions call for API clients and the demo site's live pages.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import * as schema from "../../db/schema";
import { RENDER_TOKEN_TTL_MS } from "~/services/page-render.server";
import { createDemoSite, createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let site: schema.Site;
let owner = "";
let client = "";
const pageOf: Record<string, schema.Page> = {};

const ABOUT = "<!DOCTYPE html>\r\n<html lang=en>\r\n<head>\r\n  <meta charset=utf-8>\r\n  <title>About</title>\r\n  <script src=js/site.js></script>\r\n</head>\r\n<body>\r\n" +
  '  <h1 class="editable" id="heading">About us</h1>\r\n  <div class="editable" id="main"><p>Café &amp; bakery</p></div>\r\n  <p class=editable>no id</p>\r\n</body>\r\n</html>\r\n';
const BARE = "<p class='editable' id=only>Only a paragraph</p>";

async function sha256(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

beforeAll(async () => {
  tenant = await createTenant("Render", "agency");
  const demo = await createDemoSite(tenant, { "/about.html": ABOUT, "/bare.html": BARE });
  site = demo.site;
  pageOf.About = demo.pageOf["/about.html"];
  pageOf.Bare = demo.pageOf["/bare.html"];
  const [grant] = await db().insert(schema.sitePermissions).values({ accountId: tenant.account.id, userId: tenant.client.id, siteId: site.id, allPages: false }).returning();
  await db().insert(schema.permissionPages).values({ permissionId: grant.id, pageId: pageOf.Bare.id, accountId: tenant.account.id });
  owner = await signIn(tenant.owner.email);
  client = await signIn(tenant.client.email);
});

async function renderLocation(cookie: string, path: string): Promise<Response> {
  return SELF.fetch(`http://localhost/api/sites/${site.id}/pages${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
}

async function rendered(path: string, cookie = owner): Promise<{ location: string; response: Response; text: string }> {
  const redirect = await renderLocation(cookie, path);
  expect(redirect.status, await redirect.clone().text()).toBe(302);
  const location = redirect.headers.get("Location")!;
  const response = await SELF.fetch(location);
  return { location, response, text: await response.text() };
}

describe("the page render for the editor", () => {
  it("redirects from the app origin to the preview origin with a render token", async () => {
    const redirect = await renderLocation(owner, `/${pageOf.About.id}/render`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Location")).toMatch(/^http:\/\/127\.0\.0\.1\/api\/render\/[A-Za-z0-9_-]{40,}$/);
  });

  it("answers the file as it is, with only a <base> to the live page and the editor script inserted first in the head", async () => {
    const { response, text } = await rendered(`/${pageOf.About.id}/render`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("Content-Security-Policy")).toBe("sandbox allow-scripts; frame-ancestors http://localhost");
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(response.headers.get("Set-Cookie")).toBeNull();
    const insertAt = ABOUT.indexOf("<head>") + "<head>".length;
    const inserted = text.slice(insertAt, text.length - (ABOUT.length - insertAt));
    expect(text.slice(0, insertAt) + text.slice(insertAt + inserted.length)).toBe(ABOUT);
    expect(inserted).toMatch(new RegExp(`^<base href="http://127\\.0\\.0\\.1/demo/${site.id}/about\\.html"><script src="http://localhost/api/editor/frame\\.js\\?v=[0-9a-f]{16}" data-parent-origin="http://localhost" data-base-hash="${await sha256(new TextEncoder().encode(ABOUT))}" data-metadata="[^"]*"></script>$`));
    expect(inserted).toContain("&quot;title&quot;:&quot;About&quot;");
  });

  it("puts the head where it would begin in a page with no <html> or <head>", async () => {
    const { text } = await rendered(`/${pageOf.Bare.id}/render`);
    expect(text).toMatch(/^<base href="[^"]+bare\.html"><script [^>]+><\/script><p class='editable' id=only>Only a paragraph<\/p>$/);
  });

  it("applies a revision's regions and metadata to the current file", async () => {
    const saved = await SELF.fetch(`http://localhost/api/sites/${site.id}/pages/${pageOf.About.id}/revisions`, {
      method: "POST", headers: { Cookie: owner, "Content-Type": "application/json" },
      body: JSON.stringify({ isDraft: true, metadata: { title: "About the bakery" }, regions: { heading: { type: "inline", content: "Who we <b>are</b>" } } }),
    });
    const body = await saved.json<{ revision: { id: string } }>();
    const { text } = await rendered(`/${pageOf.About.id}/revisions/${body.revision.id}/render`);
    expect(text).toContain('<h1 class="editable" id="heading">Who we <b>are</b></h1>');
    expect(text).toContain("<title>About the bakery</title>");
    expect(text).toContain(`data-revision-id="${body.revision.id}"`);
    expect(text).toContain('<div class="editable" id="main"><p>Café &amp; bakery</p></div>');
  });

  it("refuses pages the user may not edit, and anonymous callers", async () => {
    expect((await renderLocation(client, `/${pageOf.About.id}/render`)).status).toBe(404);
    expect((await renderLocation(client, `/${pageOf.Bare.id}/render`)).status).toBe(302);
    expect((await renderLocation("", `/${pageOf.About.id}/render`)).status).toBe(401);
  });

  it("answers a forged or altered token with 404 and an expired one with 410 RENDER_EXPIRED, never the page", async () => {
    const redirect = await renderLocation(owner, `/${pageOf.About.id}/render`);
    const location = redirect.headers.get("Location")!;
    const token = location.slice(location.lastIndexOf("/") + 1);
    const altered = token.slice(0, 30) + (token[30] === "A" ? "B" : "A") + token.slice(31);
    for (const bad of [altered, "bm90LWEtdG9rZW4", "x"]) {
      const response = await SELF.fetch(`http://127.0.0.1/api/render/${bad}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain("About us");
    }
    vi.useFakeTimers({ now: Date.now() + RENDER_TOKEN_TTL_MS + 1000, toFake: ["Date"] });
    try {
      const expired = await SELF.fetch(location);
      expect(expired.status).toBe(410);
      const text = await expired.text();
      expect(text).toContain('data-error="RENDER_EXPIRED"');
      expect(text).not.toContain("About us");
    } finally {
      vi.useRealTimers();
    }
  });

  it("renders nothing of a locked site", async () => {
    await db().update(schema.sites).set({ isLocked: true }).where(eq(schema.sites.id, site.id));
    try {
      const redirect = await renderLocation(owner, `/${pageOf.About.id}/render`);
      expect(redirect.status).toBe(403);
      expect(await redirect.json()).toEqual({ code: "SITE_IS_LOCKED", invalid: [] });
    } finally {
      await db().update(schema.sites).set({ isLocked: false }).where(eq(schema.sites.id, site.id));
    }
  });
});

describe("the regions of a page, for API clients", () => {
  it("answers metadata, regions by id, problems and the file's hash", async () => {
    const response = await SELF.fetch(`http://localhost/api/sites/${site.id}/pages/${pageOf.About.id}/regions`, { headers: { Cookie: owner } });
    expect(response.status).toBe(200);
    const body = await response.json<Record<string, unknown>>();
    expect(body).toEqual({
      metadata: { title: "About", description: "", image: "", robots: false, type: "website", url: "" },
      regions: {
        heading: { type: "inline", global: false, content: "About us" },
        main: { type: "block", global: false, content: "<p>Café &amp; bakery</p>" },
      },
      problems: [{ id: null, problem: "MISSING_ID", element: "p" }],
      baseHash: await sha256(new TextEncoder().encode(ABOUT)),
    });
  });
});

describe("a demo site's live pages", () => {
  it("serves the site's files sandboxed, and nothing of other sites", async () => {
    const page = await SELF.fetch(`http://127.0.0.1/demo/${site.id}/about.html`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("Content-Security-Policy")).toMatch(/^sandbox allow-scripts/);
    expect(await page.text()).toBe(ABOUT);
    expect((await SELF.fetch(`http://127.0.0.1/demo/${site.id}/missing.html`)).status).toBe(404);
    expect((await SELF.fetch(`http://127.0.0.1/demo/${tenant.site.id}/index.html`)).status).toBe(404);
    // Encoded, so the URL parser leaves the dots for the handler to refuse.
    expect((await SELF.fetch(`http://127.0.0.1/demo/${site.id}/%2e%2e%2f%2e%2e%2fdemo-sites%2f${tenant.site.id}%2findex.html`)).status).toBe(404);
  });
});
