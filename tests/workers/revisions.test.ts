// A page's revisions through the API: drafts first, the draft version check (REVISION_CONFLICT),
// large bodies in R2, who may read and delete what, and lockdown.
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import type { RevisionDetail, RevisionSummary } from "~/lib/schemas/revisions";
import { createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let owner = "";
let client = "";
let homepage = "";
let about = "";

beforeAll(async () => {
  tenant = await createTenant("Revisions");
  owner = await signIn(tenant.owner.email);
  client = await signIn(tenant.client.email);
  homepage = tenant.pages[0].id;
  about = tenant.pages[1].id;
});

async function api(cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await SELF.fetch(`http://localhost/api/sites/${tenant.site.id}/pages${path}`, {
    method,
    headers: { Cookie: cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer };
}

/** The answers of these calls, by field (each call fills some). */
interface Answer {
  revision: RevisionDetail;
  revisions: RevisionSummary[];
  count: number;
  offset: number;
  limit: number;
  code: string;
  invalid: string[];
}

const regions = (text: string) => ({ intro: { type: "inline", content: text } });
const HASH = "a".repeat(64);

describe("revisions", () => {
  it("saves a draft and reads it back with its metadata, regions and base hash", async () => {
    const created = await api(owner, "POST", `/${about}/revisions`, { isDraft: true, metadata: { title: "About us" }, regions: regions("Hello"), baseHash: HASH });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const revision = created.body.revision;
    expect(revision).toMatchObject({ pageId: about, isDraft: true, version: 1, metadata: { title: "About us" }, regions: regions("Hello"), baseHash: HASH, user: { id: tenant.owner.id, name: tenant.owner.name } });
    const read = await api(owner, "GET", `/${about}/revisions/${revision.id}`);
    expect(read.body.revision).toEqual(revision);
  });

  it("lists drafts first, then published revisions, newest first within each, and counts with limit 0", async () => {
    const page = tenant.pages[1];
    const base = Date.now();
    await db().insert(schema.revisions).values([
      { pageId: page.id, siteId: page.siteId, accountId: page.accountId, userId: tenant.admin.id, isDraft: false, regions: {}, createdAt: new Date(base - 3000) },
      { pageId: page.id, siteId: page.siteId, accountId: page.accountId, userId: tenant.admin.id, isDraft: false, regions: {}, createdAt: new Date(base - 1000) },
      { pageId: page.id, siteId: page.siteId, accountId: page.accountId, userId: tenant.admin.id, isDraft: true, regions: {}, createdAt: new Date(base - 5000) },
    ]);
    const { body } = await api(owner, "GET", `/${about}/revisions`);
    const flags = body.revisions.map((r) => r.isDraft);
    expect(flags.indexOf(false)).toBe(flags.lastIndexOf(true) + 1);
    for (let i = 1; i < body.revisions.length; i++) {
      if (body.revisions[i].isDraft === body.revisions[i - 1].isDraft) expect(body.revisions[i].createdAt <= body.revisions[i - 1].createdAt).toBe(true);
    }
    expect(body.limit).toBe(100);
    const counted = await api(owner, "GET", `/${about}/revisions?limit=0`);
    expect(counted.body).toEqual({ revisions: [], count: body.revisions.length, drafts: flags.filter(Boolean).length, offset: 0, limit: 0 });
  });

  it("refuses a save over a draft someone else saved first (REVISION_CONFLICT), body version or If-Match", async () => {
    const { body } = await api(owner, "POST", `/${about}/revisions`, { isDraft: true, metadata: {}, regions: regions("v1") });
    const id = body.revision.id;
    const first = await api(owner, "PUT", `/${about}/revisions/${id}`, { isDraft: true, metadata: {}, regions: regions("mine"), version: 1 });
    expect(first.status).toBe(200);
    expect(first.body.revision.version).toBe(2);
    const stale = await api(owner, "PUT", `/${about}/revisions/${id}`, { isDraft: true, metadata: {}, regions: regions("theirs"), version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ code: "REVISION_CONFLICT", invalid: [] });
    const staleHeader = await api(owner, "PUT", `/${about}/revisions/${id}`, { isDraft: true, metadata: {}, regions: regions("theirs") }, { "If-Match": '"1"' });
    expect(staleHeader.status).toBe(409);
    expect((await api(owner, "GET", `/${about}/revisions/${id}`)).body.revision.regions).toEqual(regions("mine"));
  });

  it("lets exactly one of two concurrent saves from the same version win", async () => {
    const { body } = await api(owner, "POST", `/${about}/revisions`, { isDraft: true, metadata: {}, regions: regions("base") });
    const id = body.revision.id;
    const answers = await Promise.all(["A", "B"].map((who) => api(owner, "PUT", `/${about}/revisions/${id}`, { isDraft: true, metadata: {}, regions: regions(who), version: 1 })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.status === 200)!.body.revision.regions;
    expect((await api(owner, "GET", `/${about}/revisions/${id}`)).body.revision.regions).toEqual(winner);
  });

  it("keeps a large body in R2 and reads it back whole", async () => {
    const big = { main: { type: "block", content: `<p>${"x".repeat(600 * 1024)}</p>` } };
    const { status, body } = await api(owner, "POST", `/${about}/revisions`, { isDraft: true, metadata: {}, regions: big });
    expect(status).toBe(200);
    const row = await db().select().from(schema.revisions).where(eq(schema.revisions.id, body.revision.id)).get();
    expect(row?.regions).toBeNull();
    expect(row?.bodyKey).toMatch(/^revisions\/[0-9a-f]{64}$/);
    expect(await env.UPLOADS.head(row!.bodyKey!)).not.toBeNull();
    expect((await api(owner, "GET", `/${about}/revisions/${body.revision.id}`)).body.revision.regions).toEqual(big);
    await api(owner, "DELETE", `/${about}/revisions/${body.revision.id}`);
    expect(await env.UPLOADS.head(row!.bodyKey!)).toBeNull();
  });

  it("saves only drafts: isDraft false is a validation error", async () => {
    const answer = await api(owner, "POST", `/${about}/revisions`, { isDraft: false, metadata: {}, regions: {} });
    expect(answer.status).toBe(400);
    expect(answer.body.invalid).toContain("isDraft");
  });

  it("gives a client user the revisions of granted pages only; they delete drafts, not published revisions", async () => {
    expect((await api(client, "GET", `/${about}/revisions`)).status).toBe(404);
    expect((await api(client, "POST", `/${about}/revisions`, { isDraft: true, metadata: {}, regions: {} })).status).toBe(404);
    const draft = await api(client, "POST", `/${homepage}/revisions`, { isDraft: true, metadata: {}, regions: regions("client") });
    expect(draft.status).toBe(200);
    const page = tenant.pages[0];
    const [published] = await db().insert(schema.revisions).values({ pageId: page.id, siteId: page.siteId, accountId: page.accountId, userId: tenant.owner.id, isDraft: false, regions: {} }).returning();
    expect((await api(client, "DELETE", `/${homepage}/revisions/${published.id}`)).status).toBe(403);
    expect((await api(client, "DELETE", `/${homepage}/revisions/${draft.body.revision.id}`)).status).toBe(200);
    expect((await api(client, "GET", `/${homepage}/revisions/${draft.body.revision.id}`)).status).toBe(404);
    const removed = await api(owner, "DELETE", `/${homepage}/revisions/${published.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.revision).toMatchObject({ id: published.id, isDraft: false });
  });

  it("takes no draft while the site is on lockdown (SITE_IS_LOCKED)", async () => {
    await db().update(schema.sites).set({ isLocked: true }).where(eq(schema.sites.id, tenant.site.id));
    try {
      const answer = await api(owner, "POST", `/${about}/revisions`, { isDraft: true, metadata: {}, regions: {} });
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe("SITE_IS_LOCKED");
    } finally {
      await db().update(schema.sites).set({ isLocked: false }).where(eq(schema.sites.id, tenant.site.id));
    }
  });
});
