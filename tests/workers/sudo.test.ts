import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let superuser: schema.User;

beforeAll(async () => {
  tenant = await createTenant("Sudoed");
  const platform = await createTenant("Platform");
  [superuser] = await db().update(schema.users).set({ isSuperuser: true }).where((await import("drizzle-orm")).eq(schema.users.id, platform.owner.id)).returning();
});

const call = (path: string, cookie: string, init: RequestInit = {}) =>
  SELF.fetch(`http://localhost${path}`, { ...init, headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin", ...(init.headers as Record<string, string>) } });
const cookieOf = (response: Response) => (response.headers.get("Set-Cookie") ?? "").split(";")[0];
const session = async (cookie: string) => (await (await call("/api/auth/session", cookie)).json()) as { metadata: { isSudo: boolean }; user: { id: string } | null };

describe("sudo mode", () => {
  it("lets a superuser act as a user with a new session id, audits start, every change and end, and blocks credential changes", async () => {
    const superCookie = await signIn(superuser.email);
    const found = (await (await call(`/api/admin/users?search=${encodeURIComponent(" mailto:" + tenant.admin.email)}`, superCookie)).json()) as { users: { id: string; role: string }[] };
    expect(found.users.map((u) => u.id)).toEqual([tenant.admin.id]);
    expect(found.users[0].role).toBe("admin");

    const entered = await call(`/api/admin/users/${tenant.admin.id}/sudo`, superCookie, { method: "POST" });
    expect(entered.status).toBe(204);
    const sudoCookie = cookieOf(entered);
    expect(sudoCookie).not.toBe(superCookie);
    expect((await session(superCookie)).user).toBeNull();
    const inSudo = await session(sudoCookie);
    expect(inSudo.user?.id).toBe(tenant.admin.id);
    expect(inSudo.metadata.isSudo).toBe(true);

    const blocked = await call(`/api/users/${tenant.admin.id}/api-token`, sudoCookie, { method: "POST" });
    expect(blocked.status).toBe(403);
    // Admin powers are the superuser's own, never usable from inside sudo.
    expect((await call("/api/admin/users?search=a", sudoCookie)).status).toBe(404);

    const left = await call("/api/admin/users/sudo", sudoCookie, { method: "DELETE" });
    expect(left.status).toBe(204);
    const backCookie = cookieOf(left);
    expect((await session(sudoCookie)).user).toBeNull();
    const back = await session(backCookie);
    expect(back.user?.id).toBe(superuser.id);
    expect(back.metadata.isSudo).toBe(false);

    const { results } = await env.DB.prepare("SELECT action, actor_user_id, sudo_user_id, details FROM audit_log WHERE sudo_user_id = ? OR actor_user_id = ? ORDER BY created_at, rowid")
      .bind(superuser.id, superuser.id).all<{ action: string; actor_user_id: string; sudo_user_id: string; details: string | null }>();
    // The exit request is itself a change made in sudo, recorded after the end it caused.
    expect(results.map((r) => r.action)).toEqual(["sudo.start", "sudo.request", "sudo.end", "sudo.request"]);
    for (const row of results) {
      expect(row.sudo_user_id).toBe(superuser.id);
      expect(row.actor_user_id).toBe(tenant.admin.id);
    }
    expect(JSON.parse(results[1].details!)).toMatchObject({ method: "POST", path: `/api/users/${tenant.admin.id}/api-token`, status: 403 });
  });

  it("is for superusers only, and never into oneself or another superuser", async () => {
    const ownerCookie = await signIn(tenant.owner.email);
    expect((await call(`/api/admin/users/${tenant.admin.id}/sudo`, ownerCookie, { method: "POST" })).status).toBe(404);
    expect((await call("/api/admin/users?search=a", ownerCookie)).status).toBe(404);
    const superCookie = await signIn(superuser.email);
    expect((await call(`/api/admin/users/${superuser.id}/sudo`, superCookie, { method: "POST" })).status).toBe(400);
    expect((await call("/api/admin/users/sudo", superCookie, { method: "DELETE" })).status).toBe(403);
  });
});
