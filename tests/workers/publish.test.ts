// Publishing on a demo site (its files in R2, the same RemoteFs as a real server): the publish
// queue Durable Object, the byte-preserving merge into the live file, the global-region fan-out,
// drift and concurrency refusals, the plan and lockdown rules, resume after a cut, and rollback.
// The same publish through a real agent to real servers, with the agent killed, is in
// tests/agent/publish-faults.test.ts.
import { env, SELF } from "cloudflare:test";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createDemoStore } from "~/services/demo-store.server";
import { runPublishJob } from "~/services/publish-runner.server";
import { createDemoSite, createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let site: schema.Site;
let owner = "";
let client = "";
const pageOf: Record<string, schema.Page> = {};

const store = () => createDemoStore(env.UPLOADS, site.id, { home: "/" });
const bytesOf = async (path: string) => new Uint8Array(await store().read(path));
const textOf = async (path: string) => (await store().read(path)).toString();
const write = (path: string, text: string) => store().writeAtomic(path, new TextEncoder().encode(text));

async function sha256(bytes: Uint8Array): Promise<string> {
  return [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const page = (title: string, body: string, extra = "") =>
  `<!DOCTYPE html>\r\n<HTML lang=en>\r\n<head>\r\n  <title>${title}</title>\r\n</head>\r\n<body>\r\n  <header class="editable global" id=banner>Spring sale</header>\r\n` +
  `  <main class="editable" id="main">${body}</main>\r\n  ${extra}\r\n  <footer class="cms-editable cms-global" id="footer"><p>© 2026 Demo</p></footer>\r\n</body>\r\n</HTML>\r\n`;

const FILES: Record<string, string> = {
  "/index.html": page("Home", "<h1>Welcome</h1>\n<p>Café &amp; bakery</p>", "<!-- cms-ignore --><script>var a = 1 < 2;</script><!-- /cms-ignore -->"),
  "/about.html": page("About", "<p>About us</p>"),
  "/contact.html": page("Contact", "<p>Write to us</p>"),
  // No global footer: a fan-out must leave it alone.
  "/plain.html": "<html><head><title>Plain</title></head><body><div class=editable id=main>Plain</div></body></html>",
};

beforeAll(async () => {
  tenant = await createTenant("Publishing", "agency");
  const demo = await createDemoSite(tenant, FILES);
  site = demo.site;
  Object.assign(pageOf, demo.pageOf);
  const [grant] = await db().insert(schema.sitePermissions).values({ accountId: tenant.account.id, userId: tenant.client.id, siteId: site.id, allPages: false }).returning();
  await db().insert(schema.permissionPages).values({ permissionId: grant.id, pageId: pageOf["/about.html"].id, accountId: tenant.account.id });
  owner = await signIn(tenant.owner.email);
  client = await signIn(tenant.client.email);
});

async function resetFiles() {
  for (const [path, text] of Object.entries(FILES)) await write(path, text);
}

async function api(cookie: string, method: string, path: string, body?: unknown) {
  const response = await SELF.fetch(`http://localhost/api/sites/${site.id}${path}`, {
    method,
    headers: { Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface Status {
  queue: { id: string; name: string; path: string; isProcessed: boolean; errorCode: string | null }[];
  unpublishedRegions: string[];
  isRequestComplete: boolean;
  errorCode: string | null;
  total: number;
  processed: number;
}

/** Polls the status as the editor does (every 500 ms here: 50 ms) until the publish is complete. */
async function waitForStatus(pagePath: string, statusId: string, cookie = owner): Promise<Status> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { status, body } = await api(cookie, "GET", `/pages/${pageOf[pagePath].id}/publish/${statusId}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const publishStatus = body.publishStatus as Status;
    if (publishStatus.isRequestComplete) return publishStatus;
    if (Date.now() > deadline) throw new Error(`publish ${statusId} did not complete: ${JSON.stringify(publishStatus)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function publish(pagePath: string, body: unknown, cookie = owner) {
  const started = await api(cookie, "POST", `/pages/${pageOf[pagePath].id}/publish`, body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const statusId = started.body.statusId as string;
  return { statusId, status: await waitForStatus(pagePath, statusId, cookie) };
}

async function draftOf(pagePath: string, fields: Partial<schema.Revision> = {}) {
  const [draft] = await db().insert(schema.revisions).values({
    pageId: pageOf[pagePath].id, siteId: site.id, accountId: tenant.account.id, userId: tenant.owner.id, isDraft: true,
    regions: {}, metadata: {}, ...fields,
  }).returning();
  return draft;
}

describe("publishing a page", () => {
  it("writes the identical bytes when nothing changed, and records the published revision", async () => {
    await resetFiles();
    const before = await bytesOf("/index.html");
    const current = { type: "block" as const, content: "<h1>Welcome</h1>\n<p>Café &amp; bakery</p>" };
    const { statusId, status } = await publish("/index.html", { regions: { main: current }, metadata: { title: "Home" }, baseHash: await sha256(before) });
    expect(status).toMatchObject({ isRequestComplete: true, errorCode: null, total: 1, processed: 1, unpublishedRegions: [] });
    expect(status.queue).toEqual([{ id: expect.any(String), name: "index", path: "/index.html", isProcessed: true, errorCode: null }]);
    expect(await bytesOf("/index.html")).toEqual(before);
    const published = await db().select().from(schema.revisions).where(eq(schema.revisions.publishJobId, statusId)).get();
    expect(published).toMatchObject({ isDraft: false, beforeHash: await sha256(before), afterHash: await sha256(before) });
  });

  it("changes only the edited region's bytes and the edited metadata, and deletes the draft it published", async () => {
    await resetFiles();
    const before = await textOf("/index.html");
    const draft = await draftOf("/index.html", { baseHash: await sha256(new TextEncoder().encode(before)) });
    const { status } = await publish("/index.html", {
      revisionId: draft.id,
      regions: { main: { type: "block", content: "<h2>New</h2><p>Fresh <b>bread</b> daily</p>" } },
      metadata: { title: "Home – Bakery" },
    });
    expect(status).toMatchObject({ errorCode: null, total: 1, processed: 1 });
    const after = await textOf("/index.html");
    const expected = before
      .replace("<h1>Welcome</h1>\n<p>Café &amp; bakery</p>", "<h2>New</h2><p>Fresh <b>bread</b> daily</p>")
      .replace("<title>Home</title>\r\n", '<title>Home – Bakery</title>\r\n  <meta property="og:title" content="Home – Bakery">\r\n');
    expect(after).toBe(expected);
    expect(await db().select().from(schema.revisions).where(eq(schema.revisions.id, draft.id)).get()).toBeUndefined();
    const published = await db().select().from(schema.revisions).where(and(eq(schema.revisions.pageId, pageOf["/index.html"].id), eq(schema.revisions.isDraft, false))).all();
    expect(published.at(-1)?.regions).toEqual({ main: { type: "block", content: "<h2>New</h2><p>Fresh <b>bread</b> daily</p>" } });
  });

  it("reports a region the file does not have as unpublished and writes the rest", async () => {
    await resetFiles();
    const { status } = await publish("/about.html", { regions: { main: { type: "block", content: "<p>New about</p>" }, sidebar: { type: "block", content: "<p>x</p>" } } });
    expect(status).toMatchObject({ errorCode: null, unpublishedRegions: ["sidebar"], processed: 1 });
    expect(await textOf("/about.html")).toContain('<main class="editable" id="main"><p>New about</p></main>');
  });

  it("publishes an edited global region to every enabled page that has it, and only there", async () => {
    await resetFiles();
    const plain = await bytesOf("/plain.html");
    const contactBefore = await textOf("/contact.html");
    const { status } = await publish("/index.html", { regions: { footer: { type: "block", content: "<p>© 2027 Demo Bakery</p>" } } });
    expect(status).toMatchObject({ errorCode: null, total: 3, processed: 3 });
    expect(status.queue.map((item) => item.path)).toEqual(["/index.html", "/about.html", "/contact.html"]);
    for (const path of ["/index.html", "/about.html", "/contact.html"]) expect(await textOf(path)).toContain("<p>© 2027 Demo Bakery</p></footer>");
    expect(await textOf("/contact.html")).toBe(contactBefore.replace("<p>© 2026 Demo</p>", "<p>© 2027 Demo Bakery</p>"));
    expect(await bytesOf("/plain.html")).toEqual(plain);
  });

  it("does not overwrite a file changed on the server since the draft was made, and keeps the draft", async () => {
    await resetFiles();
    const base = await sha256(await bytesOf("/index.html"));
    const draft = await draftOf("/index.html", { baseHash: base });
    const changedOverFtp = FILES["/index.html"].replace("Spring sale", "Summer sale");
    await write("/index.html", changedOverFtp);
    const { status } = await publish("/index.html", { revisionId: draft.id, regions: { main: { type: "block", content: "<p>Mine</p>" } } });
    expect(status).toMatchObject({ isRequestComplete: true, errorCode: "PAGE_CHANGED_ON_SERVER", processed: 1 });
    expect(status.queue[0].errorCode).toBe("PAGE_CHANGED_ON_SERVER");
    expect(await textOf("/index.html")).toBe(changedOverFtp);
    expect(await db().select().from(schema.revisions).where(eq(schema.revisions.id, draft.id)).get()).toBeTruthy();
  });

  it("lets one of two concurrent publishes of a page through; the other is refused or finds the page changed", async () => {
    await resetFiles();
    const baseHash = await sha256(await bytesOf("/contact.html"));
    const id = pageOf["/contact.html"].id;
    const attempts = await Promise.all(
      ["<p>First</p>", "<p>Second</p>"].map((content) => api(owner, "POST", `/pages/${id}/publish`, { baseHash, regions: { main: { type: "block", content } } })),
    );
    const outcomes: string[] = [];
    for (const attempt of attempts) {
      if (attempt.status === 409) outcomes.push(String(attempt.body.code));
      else outcomes.push((await waitForStatus("/contact.html", attempt.body.statusId as string)).errorCode ?? "ok");
    }
    expect(outcomes.filter((outcome) => outcome === "ok")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome !== "ok")[0]).toMatch(/^(PUBLISH_IN_PROGRESS|PAGE_CHANGED_ON_SERVER)$/);
    const text = await textOf("/contact.html");
    expect(text.includes("<p>First</p>") !== text.includes("<p>Second</p>")).toBe(true);
  });

  it("refuses region content that carries a region marker, writing nothing", async () => {
    await resetFiles();
    const before = await bytesOf("/about.html");
    const { status } = await publish("/about.html", { regions: { main: { type: "block", content: '<div class="editable" id="nested">x</div>' } } });
    expect(status.errorCode).toBe("INVALID_REGION_CONTENT");
    expect(await bytesOf("/about.html")).toEqual(before);
  });
});

describe("change notifications", () => {
  it("emails everyone with change notifications on the site but the publisher, with a link to the live page (agency plan only)", async () => {
    await resetFiles();
    await db().insert(schema.changeNotifications).values([
      { userId: tenant.admin.id, siteId: site.id, accountId: tenant.account.id },
      { userId: tenant.owner.id, siteId: site.id, accountId: tenant.account.id },
    ]);
    const outbox = () => db().select().from(schema.emailOutbox).where(eq(schema.emailOutbox.kind, "change-notification")).all();
    const before = (await outbox()).length;
    await publish("/about.html", { regions: { main: { type: "block", content: "<p>Notified</p>" } } });
    const sent = (await outbox()).slice(before);
    expect(sent.map((mail) => mail.to)).toEqual([tenant.admin.email]);
    expect(sent[0].subject).toBe("about was published on Demo");
    expect(sent[0].text).toContain("https://demo.example/about.html");
    expect(sent[0].text).toContain(`${tenant.owner.name} published changes to about on Demo.`);

    await db().update(schema.accounts).set({ plan: "business" }).where(eq(schema.accounts.id, tenant.account.id));
    try {
      await publish("/about.html", { regions: { main: { type: "block", content: "<p>Not notified</p>" } } });
      expect((await outbox()).length).toBe(before + 1);
    } finally {
      await db().update(schema.accounts).set({ plan: "agency" }).where(eq(schema.accounts.id, tenant.account.id));
      await db().delete(schema.changeNotifications).where(eq(schema.changeNotifications.siteId, site.id));
    }
  });
});

describe("who may publish, and when", () => {
  it("lets a client user publish a granted page and nothing else", async () => {
    await resetFiles();
    const { status } = await publish("/about.html", { regions: { main: { type: "block", content: "<p>By the client</p>" } } }, client);
    expect(status.errorCode).toBeNull();
    const refused = await api(client, "POST", `/pages/${pageOf["/index.html"].id}/publish`, { regions: {} });
    expect(refused).toEqual({ status: 404, body: { code: "NOT_FOUND", invalid: [] } });
  });

  it("refuses a site in lockdown (SITE_IS_LOCKED) and a commercial site on the personal plan (UPGRADE_REQUIRED)", async () => {
    const id = pageOf["/index.html"].id;
    await db().update(schema.sites).set({ isLocked: true }).where(eq(schema.sites.id, site.id));
    expect((await api(owner, "POST", `/pages/${id}/publish`, { regions: {} })).body.code).toBe("SITE_IS_LOCKED");
    await db().update(schema.sites).set({ isLocked: false, classification: "commercial" }).where(eq(schema.sites.id, site.id));
    await db().update(schema.accounts).set({ plan: "personal" }).where(eq(schema.accounts.id, tenant.account.id));
    try {
      expect(await api(owner, "POST", `/pages/${id}/publish`, { regions: {} })).toEqual({ status: 403, body: { code: "UPGRADE_REQUIRED", invalid: [] } });
    } finally {
      await db().update(schema.sites).set({ classification: "personal" }).where(eq(schema.sites.id, site.id));
      await db().update(schema.accounts).set({ plan: "agency" }).where(eq(schema.accounts.id, tenant.account.id));
    }
  });

  it("answers 400 for a payload that is not the region payload", async () => {
    const id = pageOf["/index.html"].id;
    const bad = await api(owner, "POST", `/pages/${id}/publish`, { regions: { main: { type: "image", content: "x" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
  });
});

describe("resuming and rolling back", () => {
  it("resumes a job cut after its write: the file that already has the new bytes is not written again", async () => {
    await resetFiles();
    const path = "/contact.html";
    const before = await bytesOf(path);
    const newText = FILES[path].replace("<p>Write to us</p>", "<p>Resumed</p>");
    const [job] = await db().insert(schema.publishJobs).values({ siteId: site.id, pageId: pageOf[path].id, accountId: tenant.account.id, userId: tenant.owner.id, status: "running", total: 1 }).returning();
    await env.UPLOADS.put(`publish/${job.id}/payload.json`, JSON.stringify({ metadata: {}, regions: { main: { type: "block", content: "<p>Resumed</p>" } }, baseHash: null }));
    await db().insert(schema.publishItems).values({
      jobId: job.id, accountId: tenant.account.id, pageId: pageOf[path].id, position: 0, name: "contact", path,
      beforeHash: await sha256(before), afterHash: await sha256(new TextEncoder().encode(newText)),
    });
    // The write landed, then the run was cut before it was recorded.
    await write(path, newText);
    const stamp = (await store().stat(path))?.modifiedAt;
    expect(await runPublishJob(env, job.id)).toEqual({ kind: "finished" });
    const done = await db().select().from(schema.publishJobs).where(eq(schema.publishJobs.id, job.id)).get();
    expect(done).toMatchObject({ status: "done", processed: 1, errorCode: null });
    expect((await store().stat(path))?.modifiedAt).toEqual(stamp);
    expect(await textOf(path)).toBe(newText);
  });

  it("waits while the site's agent is away, then fails the job with CONNECTION_AGENT_OFFLINE and keeps the draft", async () => {
    // The fixture's own site is an SFTP site whose agent never connects in these tests.
    const sftpPage = tenant.pages[0];
    const [draft] = await db().insert(schema.revisions).values({ pageId: sftpPage.id, siteId: tenant.site.id, accountId: tenant.account.id, isDraft: true, regions: {} }).returning();
    const [job] = await db().insert(schema.publishJobs).values({ siteId: tenant.site.id, pageId: sftpPage.id, accountId: tenant.account.id, revisionId: draft.id }).returning();
    await env.UPLOADS.put(`publish/${job.id}/payload.json`, JSON.stringify({ metadata: {}, regions: {}, baseHash: null }));
    const startedAt = job.createdAt.getTime();
    const first = await runPublishJob(env, job.id, startedAt + 1_000);
    expect(first.kind).toBe("retry");
    expect((await db().select().from(schema.publishJobs).where(eq(schema.publishJobs.id, job.id)).get())?.status).toBe("running");
    expect(await runPublishJob(env, job.id, startedAt + 10 * 60 * 1000)).toEqual({ kind: "finished" });
    expect(await db().select().from(schema.publishJobs).where(eq(schema.publishJobs.id, job.id)).get()).toMatchObject({ status: "failed", errorCode: "CONNECTION_AGENT_OFFLINE" });
    expect(await db().select().from(schema.revisions).where(eq(schema.revisions.id, draft.id)).get()).toBeTruthy();
  });

  it("rolls back every file a fan-out wrote, except one changed on the server since", async () => {
    await resetFiles();
    const originals = Object.fromEntries(await Promise.all(["/index.html", "/about.html", "/contact.html"].map(async (path) => [path, await bytesOf(path)] as const)));
    const { statusId } = await publish("/index.html", { regions: { footer: { type: "block", content: "<p>Rolled</p>" } } });
    const changedLater = (await textOf("/contact.html")).replace("Write to us", "Edited over FTP");
    await write("/contact.html", changedLater);

    expect((await api(client, "POST", `/pages/${pageOf["/about.html"].id}/publish/${statusId}/rollback`)).body.code).toBe("FORBIDDEN");
    const rollback = await api(owner, "POST", `/pages/${pageOf["/index.html"].id}/publish/${statusId}/rollback`);
    expect(rollback.status, JSON.stringify(rollback.body)).toBe(200);
    const status = await waitForStatus("/index.html", rollback.body.statusId as string);
    expect(status.total).toBe(3);
    expect(status.queue.map((item) => [item.path, item.errorCode])).toEqual([["/index.html", null], ["/about.html", null], ["/contact.html", "PAGE_CHANGED_ON_SERVER"]]);
    expect(await bytesOf("/index.html")).toEqual(originals["/index.html"]);
    expect(await bytesOf("/about.html")).toEqual(originals["/about.html"]);
    expect(await textOf("/contact.html")).toBe(changedLater);
    const again = await api(owner, "POST", `/pages/${pageOf["/index.html"].id}/publish/${statusId}/rollback`);
    expect(again.status).toBe(400);
  });
});
