// Connection agents per account: GET, POST and DELETE /api/account/agents.
import { SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { sha256Hex } from "~/lib/tokens";
import { createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let other: Tenant;

beforeAll(async () => {
  tenant = await createTenant("Agents");
  other = await createTenant("Elsewhere");
});

async function call(email: string, method: string, path: string, body?: unknown) {
  const cookie = await signIn(email);
  const response = await SELF.fetch(`http://localhost/api${path}`, {
    method,
    headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin", ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

type AgentView = { id: string | null; name: string | null; isHosted: boolean; lastSeenAt: string | null; createdAt: string | null };

describe("connection agents of an account", () => {
  it("registers an agent, shows its token once and stores only its hash", async () => {
    const { status, body } = await call(tenant.owner.email, "POST", "/account/agents", { name: "  Office NAS  " });
    expect(status).toBe(200);
    expect(body.agent).toMatchObject({ name: "Office NAS", isHosted: false, lastSeenAt: null });
    expect(body.token).toMatch(/^sca_[A-Za-z0-9_-]{43}$/);
    const row = (await db().select().from(schema.agents).where(eq(schema.agents.id, body.agent.id)).get())!;
    expect(row.accountId).toBe(tenant.account.id);
    expect(row.tokenHash).toBe(await sha256Hex(body.token));
    expect(JSON.stringify(row)).not.toContain(body.token);
    // The list never shows a token again.
    const list = await call(tenant.owner.email, "GET", "/account/agents");
    expect(JSON.stringify(list.body)).not.toContain(body.token);
    expect(list.body.agents.find((agent: AgentView) => agent.id === body.agent.id)).toEqual(body.agent);
    // Audited, without the token.
    const entry = await db().select().from(schema.auditLog).where(eq(schema.auditLog.entityId, body.agent.id)).get();
    expect(entry).toMatchObject({ action: "agent.create", actorUserId: tenant.owner.id, accountId: tenant.account.id });
    expect(JSON.stringify(entry)).not.toContain(body.token);
  });

  it("lists the hosted agent first, then the account's own agents by name", async () => {
    const { status, body } = await call(tenant.owner.email, "GET", "/account/agents");
    expect(status).toBe(200);
    expect(body.agents[0]).toEqual({ id: null, name: null, isHosted: true, lastSeenAt: null, createdAt: null });
    const names = body.agents.slice(1).map((agent: AgentView) => agent.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain("Agents agent");
    expect(names).not.toContain("Elsewhere agent");
  });

  it("validates the name", async () => {
    for (const name of ["", "   ", "x".repeat(101)]) {
      const { status, body } = await call(tenant.owner.email, "POST", "/account/agents", { name });
      expect(status).toBe(400);
      expect(body).toEqual({ code: "VALIDATION_ERROR", invalid: ["name"] });
    }
  });

  it("removes an agent; its sites fall back to the hosted agent", async () => {
    const { body } = await call(tenant.owner.email, "POST", "/account/agents", { name: "Temporary" });
    await db().update(schema.sites).set({ agentId: body.agent.id }).where(eq(schema.sites.id, tenant.site.id));
    const removed = await call(tenant.owner.email, "DELETE", `/account/agents/${body.agent.id}`);
    expect(removed.status).toBe(204);
    expect(await db().select().from(schema.agents).where(eq(schema.agents.id, body.agent.id)).get()).toBeUndefined();
    expect((await db().select().from(schema.sites).where(eq(schema.sites.id, tenant.site.id)).get())?.agentId).toBeNull();
    expect((await call(tenant.owner.email, "DELETE", `/account/agents/${body.agent.id}`)).status).toBe(404);
  });

  it("answers another account's agent with 404 and leaves it alone", async () => {
    const response = await call(tenant.owner.email, "DELETE", `/account/agents/${other.agent.id}`);
    expect(response).toEqual({ status: 404, body: { code: "NOT_FOUND", invalid: [] } });
    expect(await db().select().from(schema.agents).where(eq(schema.agents.id, other.agent.id)).get()).toBeDefined();
  });

  it("refuses client users and admins without canManageSettings with 403; an admin with it may", async () => {
    for (const email of [tenant.client.email, tenant.admin.email]) {
      expect((await call(email, "GET", "/account/agents")).status, email).toBe(403);
      expect((await call(email, "POST", "/account/agents", { name: "Mine" })).status, email).toBe(403);
      expect((await call(email, "DELETE", `/account/agents/${tenant.agent.id}`)).status, email).toBe(403);
    }
    await db().update(schema.users).set({ canManageSettings: true }).where(eq(schema.users.id, tenant.admin.id));
    expect((await call(tenant.admin.email, "GET", "/account/agents")).status).toBe(200);
    const created = await call(tenant.admin.email, "POST", "/account/agents", { name: "Admin's agent" });
    expect(created.status).toBe(200);
    expect((await call(tenant.admin.email, "DELETE", `/account/agents/${created.body.agent.id}`)).status).toBe(204);
  });
});
