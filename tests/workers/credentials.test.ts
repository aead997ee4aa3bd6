import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant("Creds");
});

const call = (path: string, init: RequestInit & { cookie?: string; bearer?: string } = {}) =>
  SELF.fetch(`http://localhost${path}`, {
    ...init,
    headers: {
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...(init.bearer ? { Authorization: `Bearer ${init.bearer}` } : {}),
      "Sec-Fetch-Site": "same-origin",
      ...(init.headers as Record<string, string> | undefined),
    },
  });

describe("sessions", () => {
  it("gives every sign-in a new session id and never adopts a planted one", async () => {
    const planted = "sid=planted-by-an-attacker";
    const response = await SELF.fetch("http://localhost/api/auth/login", {
      method: "POST", headers: { "Content-Type": "application/json", Cookie: planted },
      body: JSON.stringify({ email: tenant.owner.email, password: "fixture-password-1" }),
    });
    const issued = (response.headers.get("Set-Cookie") ?? "").split(";")[0];
    expect(issued).toMatch(/^sid=[\w-]{40,}$/);
    expect(issued).not.toBe(planted);
    expect(await signIn(tenant.owner.email)).not.toBe(issued);
    const stored = await env.DB.prepare("SELECT id FROM sessions WHERE id = ?").bind(issued.slice(4)).first();
    expect(stored, "the raw token must not be stored").toBeNull();
  });

  it("is dead after logout", async () => {
    const cookie = await signIn(tenant.owner.email);
    expect(((await (await call("/api/auth/session", { cookie })).json()) as { user: unknown }).user).not.toBeNull();
    expect((await call("/api/auth/logout", { method: "POST", cookie })).status).toBe(204);
    expect(((await (await call("/api/auth/session", { cookie })).json()) as { user: unknown }).user).toBeNull();
  });

  it("refuses a cross-site state change made with the session cookie", async () => {
    const cookie = await signIn(tenant.owner.email);
    const response = await SELF.fetch(`http://localhost/api/users/${tenant.owner.id}/api-token`, {
      method: "POST", headers: { Cookie: cookie, "Sec-Fetch-Site": "cross-site" },
    });
    expect(response.status).toBe(403);
    const viaOrigin = await SELF.fetch(`http://localhost/api/users/${tenant.owner.id}/api-token`, {
      method: "POST", headers: { Cookie: cookie, Origin: "https://evil.example" },
    });
    expect(viaOrigin.status).toBe(403);
    const { results } = await env.DB.prepare("SELECT id FROM api_tokens WHERE user_id = ?").bind(tenant.owner.id).all();
    expect(results).toHaveLength(0);
  });
});

describe("API tokens", () => {
  it("are shown once, stored hashed, act as their user, ignore cookies, and stop working when revoked or regenerated", async () => {
    const cookie = await signIn(tenant.owner.email);
    const created = await call(`/api/users/${tenant.owner.id}/api-token`, { method: "POST", cookie });
    expect(created.status).toBe(200);
    const { apiToken } = (await created.json()) as { apiToken: string };
    expect(apiToken).toMatch(/^sct_[\w-]{40,}$/);

    const dump = JSON.stringify((await env.DB.prepare("SELECT * FROM api_tokens").all()).results);
    expect(dump).not.toContain(apiToken.slice(4));

    const status = (await (await call(`/api/users/${tenant.owner.id}/api-token`, { cookie })).json()) as { apiToken: { prefix: string } };
    expect(apiToken.startsWith(status.apiToken.prefix)).toBe(true);
    expect(JSON.stringify(status)).not.toContain(apiToken);

    const session = (await (await call("/api/auth/session", { bearer: apiToken })).json()) as { user: { id: string } };
    expect(session.user.id).toBe(tenant.owner.id);
    // A bearer request ignores cookies: another user's cookie changes nothing about who is asking.
    const clientCookie = await signIn(tenant.client.email);
    const mixed = (await (await call("/api/auth/session", { bearer: apiToken, cookie: clientCookie })).json()) as { user: { id: string } };
    expect(mixed.user.id).toBe(tenant.owner.id);
    // …and needs no same-origin header: scripts carry no ambient credentials.
    const scripted = await SELF.fetch(`http://localhost/api/users/${tenant.owner.id}/api-token`, { headers: { Authorization: `Bearer ${apiToken}`, "Sec-Fetch-Site": "cross-site" } });
    expect(scripted.status).toBe(200);

    const regenerated = (await (await call(`/api/users/${tenant.owner.id}/api-token`, { method: "POST", cookie })).json()) as { apiToken: string };
    expect((await call("/api/auth/session", { bearer: apiToken })).status).toBe(401);
    expect((await call("/api/auth/session", { bearer: regenerated.apiToken })).status).toBe(200);

    expect((await call(`/api/users/${tenant.owner.id}/api-token`, { method: "DELETE", cookie })).status).toBe(204);
    const revoked = await call("/api/auth/session", { bearer: regenerated.apiToken });
    expect(revoked.status).toBe(401);
    expect(await revoked.json()).toEqual({ code: "UNAUTHORIZED", invalid: [] });
  });

  it("are an agency-plan feature for admins", async () => {
    const business = await createTenant("Biz", "business");
    const ownerCookie = await signIn(business.owner.email);
    const upgrade = await call(`/api/users/${business.owner.id}/api-token`, { method: "POST", cookie: ownerCookie });
    expect(upgrade.status).toBe(403);
    expect(await upgrade.json()).toEqual({ code: "UPGRADE_REQUIRED", invalid: [] });
    const clientCookie = await signIn(tenant.client.email);
    const client = await call(`/api/users/${tenant.client.id}/api-token`, { method: "POST", cookie: clientCookie });
    expect(client.status).toBe(403);
    expect(await client.json()).toEqual({ code: "FORBIDDEN", invalid: [] });
  });

  it("stop working when the user is no longer an admin", async () => {
    const cookie = await signIn(tenant.admin.email);
    const { apiToken } = (await (await call(`/api/users/${tenant.admin.id}/api-token`, { method: "POST", cookie })).json()) as { apiToken: string };
    expect((await call("/api/auth/session", { bearer: apiToken })).status).toBe(200);
    await env.DB.prepare("UPDATE users SET is_admin = 0 WHERE id = ?").bind(tenant.admin.id).run();
    expect((await call("/api/auth/session", { bearer: apiToken })).status).toBe(401);
  });
});
