import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { resolveActor } from "~/services/actor.server";
import type { ServiceContext } from "~/services/context.server";
import { getDb } from "~/services/db.server";
import { listSites } from "~/services/sites.server";
import { createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let ungranted: schema.Site;

beforeAll(async () => {
  tenant = await createTenant("Scoped");
  [ungranted] = await db().insert(schema.sites).values({
    accountId: tenant.account.id, name: "Another site", url: "https://another.example", classification: "personal",
    protocol: "ftp", homeFolder: "/", uploadFolder: "/", 
  }).returning();
});

async function contextOf(email: string): Promise<ServiceContext> {
  const cookie = await signIn(email);
  const database = getDb(env);
  const actor = await resolveActor(database, cookie.split("=")[1]);
  return { db: database, env, actor, locale: "en", request: { url: new URL("http://localhost/sites"), ip: null, userAgent: null } };
}

describe("which sites a user reaches", () => {
  it("gives a client user only the granted site, and an admin every site of the account", async () => {
    const client = await listSites(await contextOf(tenant.client.email), { limit: 50, offset: 0 });
    expect(client.sites.map((s) => s.id)).toEqual([tenant.site.id]);
    expect(client.count).toBe(1);
    const admin = await listSites(await contextOf(tenant.admin.email), { limit: 50, offset: 0 });
    expect(admin.sites.map((s) => s.id).sort()).toEqual([tenant.site.id, ungranted.id].sort());
  });

  it("never lists another account's sites", async () => {
    const other = await createTenant("Other");
    const owner = await listSites(await contextOf(other.owner.email), { limit: 50, offset: 0 });
    expect(owner.sites.map((s) => s.id)).toEqual([other.site.id]);
  });
});
