import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createTenant, db, PASSWORD, signIn, type Tenant } from "./fixtures";

async function call(path: string, cookie: string | null, { method = "GET", body, raw, contentType }: { method?: string; body?: unknown; raw?: BodyInit; contentType?: string } = {}) {
  return SELF.fetch(`http://localhost/api${path}`, {
    method,
    headers: {
      "Sec-Fetch-Site": "same-origin",
      ...(cookie ? { Cookie: cookie } : {}),
      ...(body !== undefined ? { "Content-Type": "application/json" } : contentType ? { "Content-Type": contentType } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : raw,
  });
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

let a: Tenant;
let b: Tenant;
let ownerA: string;
let adminA: string;
let clientA: string;

beforeAll(async () => {
  a = await createTenant("Alpha");
  b = await createTenant("Beta", "business");
  [ownerA, adminA, clientA] = await Promise.all([signIn(a.owner.email), signIn(a.admin.email), signIn(a.client.email)]);
});

const user = (id: string) => db().select().from(schema.users).where(eq(schema.users.id, id)).get();

describe("listing and reading users", () => {
  it("lists the account's people, owner first, with search and paging", async () => {
    const response = await call("/users", adminA);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { users: { email: string; isOwner: boolean }[]; count: number; limit: number };
    expect(body.count).toBe(3);
    expect(body.limit).toBe(50);
    expect(body.users[0].email).toBe(a.owner.email);
    expect(body.users.map((u) => u.email)).not.toContain(b.owner.email);
    const searched = (await (await call("/users?search=CLIENT", adminA)).json()) as { users: { email: string }[] };
    expect(searched.users.map((u) => u.email)).toEqual([a.client.email]);
    const paged = (await (await call("/users?limit=1&offset=1", adminA)).json()) as { users: unknown[]; count: number };
    expect(paged.users).toHaveLength(1);
    expect(paged.count).toBe(3);
  });

  it("refuses the list to a client user", async () => {
    expect((await call("/users", clientA)).status).toBe(403);
  });

  it("answers another account's user with 404", async () => {
    expect((await call(`/users/${b.owner.id}`, ownerA)).status).toBe(404);
    expect((await call(`/users/${b.client.id}/permissions`, ownerA)).status).toBe(404);
    expect((await call(`/users/${b.client.id}/revisions`, ownerA)).status).toBe(404);
  });

  it("lets a client read only themself", async () => {
    expect((await call(`/users/${a.client.id}`, clientA)).status).toBe(200);
    expect((await call(`/users/${a.admin.id}`, clientA)).status).toBe(403);
  });

  it("answers an empty activity timeline until something is published", async () => {
    const body = (await (await call(`/users/${a.client.id}/revisions`, adminA)).json()) as { revisions: unknown[]; count: number };
    expect(body).toMatchObject({ revisions: [], count: 0 });
  });

  it("lists a revision with its page and site", async () => {
    const [revision] = await db().insert(schema.revisions).values({ pageId: a.pages[0].id, siteId: a.site.id, accountId: a.account.id, userId: a.admin.id, isDraft: true }).returning();
    const body = (await (await call(`/users/${a.admin.id}/revisions`, ownerA)).json()) as { revisions: { id: string; page: { name: string }; site: { id: string } }[] };
    expect(body.revisions[0]).toMatchObject({ id: revision.id, page: { name: "Homepage" }, site: { id: a.site.id } });
  });
});

describe("creating users", () => {
  it("creates a client with permissions and queues the welcome email", async () => {
    const response = await call("/users", adminA, {
      method: "POST",
      body: { name: "Casey New", email: "Casey@Alpha.test", permissions: [{ siteId: a.site.id, pages: [a.pages[1].id] }] },
    });
    expect(response.status).toBe(200);
    const created = (await response.json()) as { id: string; email: string; isConfirmed: boolean; permissions: { siteId: string; pages: string[] | null }[] };
    expect(created.email).toBe("casey@alpha.test");
    expect(created.isConfirmed).toBe(false);
    expect(created.permissions).toEqual([expect.objectContaining({ siteId: a.site.id, pages: [a.pages[1].id] })]);
    const mail = await env.DB.prepare("SELECT kind FROM email_outbox WHERE to_address = ?").bind("casey@alpha.test").first<{ kind: string }>();
    expect(mail?.kind).toBe("welcome");
  });

  it("answers EMAIL_IN_USE for an address any account uses, whatever its case", async () => {
    for (const email of [a.client.email, b.owner.email.toUpperCase()]) {
      const response = await call("/users", ownerA, { method: "POST", body: { name: "Dup", email } });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({ code: "EMAIL_IN_USE", invalid: ["email"] });
    }
    const response = await call(`/users/${a.admin.id}`, ownerA, { method: "PUT", body: { email: a.client.email } });
    expect(await response.json()).toEqual({ code: "EMAIL_IN_USE", invalid: ["email"] });
  });

  it("refuses creation to those who do not manage users, and an admin cannot hand out privileges they lack", async () => {
    expect((await call("/users", clientA, { method: "POST", body: { name: "X", email: "x@alpha.test" } })).status).toBe(403);
    const response = await call("/users", adminA, { method: "POST", body: { name: "Y", email: "y@alpha.test", isAdmin: true, canManageBilling: true } });
    expect(response.status).toBe(403);
  });

  it("clears admin-only flags when the new user is not an admin", async () => {
    const response = await call("/users", ownerA, { method: "POST", body: { name: "Flags", email: "flags@alpha.test", isAdmin: false, canManageSites: true, canManageUsers: true } });
    const { id } = (await response.json()) as { id: string };
    expect(await user(id)).toMatchObject({ isAdmin: false, canManageSites: false, canManageUsers: false });
  });
});

describe("permissions", () => {
  it("stores null pages as all pages, a list as those pages, and reads them back", async () => {
    const response = await call(`/users/${a.client.id}/permissions`, adminA, { method: "PUT", body: { permissions: [{ siteId: a.site.id, pages: null }] } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { permissions: { pages: unknown }[] }).permissions).toEqual([expect.objectContaining({ siteId: a.site.id, pages: null, site: expect.objectContaining({ name: "Alpha site" }) })]);
    const row = await db().select().from(schema.sitePermissions).where(eq(schema.sitePermissions.userId, a.client.id)).get();
    expect(row?.allPages).toBe(true);

    const both = [a.pages[0].id, a.pages[1].id];
    await call(`/users/${a.client.id}/permissions`, adminA, { method: "PUT", body: { permissions: [{ siteId: a.site.id, pages: both }] } });
    const read = (await (await call(`/users/${a.client.id}/permissions`, adminA)).json()) as { permissions: { pages: string[] }[] };
    expect([...read.permissions[0].pages].sort()).toEqual([...both].sort());
    // The client sees their own grants too.
    expect((await call(`/users/${a.client.id}/permissions`, clientA)).status).toBe(200);
  });

  it("rejects other accounts' sites and pages, and a site twice", async () => {
    const foreignSite = await call(`/users/${a.client.id}/permissions`, adminA, { method: "PUT", body: { permissions: [{ siteId: b.site.id, pages: null }] } });
    expect(await foreignSite.json()).toEqual({ code: "VALIDATION_ERROR", invalid: ["permissions.0.siteId"] });
    const foreignPage = await call(`/users/${a.client.id}/permissions`, adminA, { method: "PUT", body: { permissions: [{ siteId: a.site.id, pages: [b.pages[0].id] }] } });
    expect(await foreignPage.json()).toEqual({ code: "VALIDATION_ERROR", invalid: ["permissions.0.pages"] });
    const twice = await call(`/users/${a.client.id}/permissions`, adminA, { method: "PUT", body: { permissions: [{ siteId: a.site.id, pages: null }, { siteId: a.site.id, pages: null }] } });
    expect(((await twice.json()) as { invalid: string[] }).invalid).toContain("permissions.1.siteId");
    const shape = await call(`/users/${a.client.id}/permissions`, adminA, { method: "PUT", body: { permissions: [{ siteId: a.site.id }] } });
    expect(shape.status).toBe(400);
  });

  it("refuses a client changing permissions, and an admin changing their own", async () => {
    expect((await call(`/users/${a.client.id}/permissions`, clientA, { method: "PUT", body: { permissions: [] } })).status).toBe(403);
    expect((await call(`/users/${a.admin.id}/permissions`, adminA, { method: "PUT", body: { permissions: [] } })).status).toBe(403);
  });
});

describe("updating users", () => {
  it("clears the sub-privileges when admin is turned off", async () => {
    const [target] = await db().insert(schema.users).values({ accountId: a.account.id, name: "Temp Admin", email: "temp-admin@alpha.test", isAdmin: true, canManageSites: true, canManageUsers: true, canManageBilling: true }).returning();
    const response = await call(`/users/${target.id}`, ownerA, { method: "PUT", body: { isAdmin: false } });
    expect(response.status).toBe(200);
    expect(await user(target.id)).toMatchObject({ isAdmin: false, canManageSites: false, canManageUsers: false, canManageBilling: false });
  });

  it("does not let a client edit another user", async () => {
    const response = await call(`/users/${a.admin.id}`, clientA, { method: "PUT", body: { name: "Hijacked" } });
    expect(response.status).toBe(403);
    expect((await user(a.admin.id))?.name).toBe("Alpha admin");
  });

  it("ignores admin fields on oneself and owner-only fields from anyone", async () => {
    const response = await call(`/users/${a.client.id}`, clientA, { method: "PUT", body: { name: "Client Renamed", isAdmin: true, canManageUsers: true } });
    expect(response.status).toBe(200);
    expect(await user(a.client.id)).toMatchObject({ name: "Client Renamed", isAdmin: false, canManageUsers: false });
    await call(`/users/${a.owner.id}`, adminA, { method: "PUT", body: { isAdmin: false, isOwner: false } });
    expect((await user(a.owner.id))?.isOwner).toBe(true);
  });

  it("changes the password only with the current one, and opens a new session", async () => {
    const [person] = await db().insert(schema.users).values({ accountId: a.account.id, name: "Pass Word", email: "pw@alpha.test", passwordHash: (await user(a.client.id))!.passwordHash }).returning();
    const cookie = await signIn(person.email);
    const wrong = await call(`/users/${person.id}`, cookie, { method: "PUT", body: { currentPassword: "nope-nope-nope", password: "new-password-1" } });
    expect(await wrong.json()).toEqual({ code: "INCORRECT_PASSWORD", invalid: ["currentPassword"] });
    const short = await call(`/users/${person.id}`, cookie, { method: "PUT", body: { currentPassword: PASSWORD, password: "short" } });
    expect(await short.json()).toEqual({ code: "PASSWORD_TOO_SHORT", invalid: ["password"] });
    const ok = await call(`/users/${person.id}`, cookie, { method: "PUT", body: { currentPassword: PASSWORD, password: "new-password-1" } });
    expect(ok.status).toBe(200);
    const fresh = (ok.headers.get("Set-Cookie") ?? "").split(";")[0];
    expect(fresh).not.toBe("");
    expect(fresh).not.toBe(cookie);
    expect((await call(`/users/${person.id}`, cookie)).status).toBe(401);
    expect((await call(`/users/${person.id}`, fresh)).status).toBe(200);
    await signIn(person.email, "new-password-1");
  });

  it("only removes an avatar through PUT; pictures arrive through the upload, as PNG", async () => {
    const bad = await call(`/users/${a.admin.id}`, adminA, { method: "PUT", body: { avatar: "https://evil.example/pixel.gif" } });
    expect(bad.status).toBe(400);
    const notPng = await call(`/users/${a.admin.id}/avatar`, adminA, { method: "PUT", raw: "GIF89a", contentType: "image/png" });
    expect(await notPng.json()).toEqual({ code: "VALIDATION_ERROR", invalid: ["avatar"] });
    const uploaded = await call(`/users/${a.admin.id}/avatar`, adminA, { method: "PUT", raw: PNG, contentType: "image/png" });
    expect(uploaded.status).toBe(200);
    const { avatar } = (await uploaded.json()) as { avatar: string };
    expect(avatar).toMatch(/^\/api\/users\/.+\/avatar\?v=[0-9a-f]+$/);
    const served = await call(avatar.replace(/^\/api/, ""), clientA);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    expect((await call(`/users/${a.admin.id}/avatar`, await signIn(b.owner.email))).status).toBe(404);
    expect((await call(`/users/${a.admin.id}/avatar`, clientA, { method: "PUT", raw: PNG, contentType: "image/png" })).status).toBe(403);
    const removed = await call(`/users/${a.admin.id}`, adminA, { method: "PUT", body: { avatar: null } });
    expect(((await removed.json()) as { avatar: unknown }).avatar).toBeNull();
    expect(await env.UPLOADS.get(`avatars/${a.account.id}/${a.admin.id}.png`)).toBeNull();
  });
});

describe("deleting users", () => {
  it("does not let a non-owner delete the owner, nor anyone themself", async () => {
    expect((await call(`/users/${a.owner.id}`, adminA, { method: "DELETE" })).status).toBe(403);
    expect((await call(`/users/${a.admin.id}`, adminA, { method: "DELETE" })).status).toBe(403);
    expect((await call(`/users/${a.admin.id}`, clientA, { method: "DELETE" })).status).toBe(403);
    expect(await user(a.owner.id)).toBeDefined();
  });

  it("deletes a person of the account", async () => {
    const [target] = await db().insert(schema.users).values({ accountId: a.account.id, name: "Leaving", email: "leaving@alpha.test" }).returning();
    expect((await call(`/users/${target.id}`, adminA, { method: "DELETE" })).status).toBe(204);
    expect(await user(target.id)).toBeUndefined();
    expect((await call(`/users/${b.client.id}`, ownerA, { method: "DELETE" })).status).toBe(404);
  });
});

describe("favorites and change notifications", () => {
  it("keeps favorites per user per site, on visible sites only", async () => {
    expect((await call(`/users/${a.client.id}/favorites/${a.site.id}`, clientA, { method: "POST" })).status).toBe(204);
    expect(await (await call(`/users/${a.client.id}/favorites/${a.site.id}`, clientA)).json()).toEqual({ isFavorite: true });
    const list = (await (await call(`/users/${a.client.id}/favorites`, clientA)).json()) as { favorites: { site: { id: string } }[] };
    expect(list.favorites.map((f) => f.site.id)).toEqual([a.site.id]);
    expect(await (await call(`/users/${a.admin.id}/favorites/${a.site.id}`, adminA)).json()).toEqual({ isFavorite: false });
    expect((await call(`/users/${a.client.id}/favorites/${b.site.id}`, clientA, { method: "POST" })).status).toBe(404);
    expect((await call(`/users/${a.client.id}/favorites/${a.site.id}`, adminA, { method: "POST" })).status).toBe(404);
    expect((await call(`/users/${a.client.id}/favorites/${a.site.id}`, clientA, { method: "DELETE" })).status).toBe(204);
  });

  it("allows change notifications on the agency plan only", async () => {
    expect((await call(`/users/${a.admin.id}/change-notifications/${a.site.id}`, adminA, { method: "POST" })).status).toBe(204);
    expect(await (await call(`/users/${a.admin.id}/change-notifications/${a.site.id}`, adminA)).json()).toEqual({ hasChangeNotification: true });
    const businessOwner = await signIn(b.owner.email);
    const refused = await call(`/users/${b.owner.id}/change-notifications/${b.site.id}`, businessOwner, { method: "POST" });
    expect(await refused.json()).toEqual({ code: "UPGRADE_REQUIRED", invalid: [] });
  });
});
