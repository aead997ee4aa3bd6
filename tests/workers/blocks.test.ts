// A site's blocks for the editor's Blocks panel: by name, searched, counted; readable by everyone
// who reaches the site, nobody else.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import type { BlockList, BlockView } from "~/lib/schemas/blocks";
import { createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let other: Tenant;
let owner = "";
let client = "";
let outsider = "";
const blockIds: Record<string, string> = {};

beforeAll(async () => {
  tenant = await createTenant("Blocks");
  other = await createTenant("Elsewhere");
  const rows = await db().insert(schema.blocks).values([
    { siteId: tenant.site.id, accountId: tenant.account.id, name: "opening Hours", description: "When we are open", source: "<table><tr><td>9–5</td></tr></table>" },
    { siteId: tenant.site.id, accountId: tenant.account.id, name: "Call to Action", source: "<aside><p>Come in!</p></aside>" },
    { siteId: tenant.site.id, accountId: tenant.account.id, name: "Address", description: "Where to find us", source: "<p>14 Linden Lane</p>" },
  ]).returning();
  for (const row of rows) blockIds[row.name] = row.id;
  owner = await signIn(tenant.owner.email);
  client = await signIn(tenant.client.email);
  outsider = await signIn(other.owner.email);
});

async function get<T>(cookie: string, path: string) {
  const response = await SELF.fetch(`http://localhost/api/sites/${tenant.site.id}${path}`, { headers: { Cookie: cookie } });
  return { status: response.status, body: (await response.json()) as T };
}

describe("a site's blocks", () => {
  it("lists them by name, case-insensitively, with their sources; searches names and descriptions; limit 0 counts", async () => {
    const { status, body } = await get<BlockList>(owner, "/blocks?limit=1000&sortBy=name");
    expect(status).toBe(200);
    expect(body.blocks.map((b) => b.name)).toEqual(["Address", "Call to Action", "opening Hours"]);
    expect(body.blocks[0]).toEqual({ id: blockIds.Address, siteId: tenant.site.id, name: "Address", description: "Where to find us", source: "<p>14 Linden Lane</p>" });
    expect((await get<BlockList>(owner, "/blocks?search=open")).body.blocks.map((b) => b.name)).toEqual(["opening Hours"]);
    expect((await get<BlockList>(owner, "/blocks?search=find")).body.blocks.map((b) => b.name)).toEqual(["Address"]);
    expect((await get<BlockList>(owner, "/blocks?limit=0")).body).toEqual({ blocks: [], count: 3, offset: 0, limit: 0 });
  });

  it("reads one block", async () => {
    const { status, body } = await get<{ block: BlockView }>(owner, `/blocks/${blockIds["Call to Action"]}`);
    expect(status).toBe(200);
    expect(body.block.source).toBe("<aside><p>Come in!</p></aside>");
  });

  it("lets a client user of the site read them, and nobody of another account", async () => {
    expect((await get<BlockList>(client, "/blocks")).body.blocks).toHaveLength(3);
    expect((await get(outsider, "/blocks")).status).toBe(404);
    expect((await get(outsider, `/blocks/${blockIds.Address}`)).status).toBe(404);
  });
});
