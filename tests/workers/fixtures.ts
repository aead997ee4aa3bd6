import { env, SELF } from "cloudflare:test";
import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../db/schema";
import { createDemoStore } from "~/services/demo-store.server";
import { hashPassword } from "~/services/passwords.server";

export const PASSWORD = "fixture-password-1";
export const db = () => drizzle(env.DB, { schema });

let passwordHash: Promise<string> | null = null;

/** An account with an owner, an admin, a client user, a site with two pages (the client is granted one) and a connection agent. */
export async function createTenant(name: string, plan: "personal" | "business" | "agency" = "agency") {
  passwordHash ??= hashPassword(PASSWORD);
  const hash = await passwordHash;
  const d = db();
  const [account] = await d.insert(schema.accounts).values({ plan, organization: name }).returning();
  const person = (role: string, fields: Partial<schema.NewUser> = {}) => ({
    accountId: account.id, name: `${name} ${role}`, email: `${role}@${name.toLowerCase()}.test`, passwordHash: hash, ...fields,
  });
  const [owner, admin, client] = await d.insert(schema.users).values([
    person("owner", { isOwner: true }),
    person("admin", { isAdmin: true, canManageSites: true, canManageUsers: true }),
    person("client"),
  ]).returning();
  const [site] = await d.insert(schema.sites).values({
    accountId: account.id, name: `${name} site`, url: `https://${name.toLowerCase()}.example`, classification: "personal",
    protocol: "sftp", host: "sftp.example", homeFolder: "/", uploadFolder: "/uploads",
  }).returning();
  const pages = await d.insert(schema.pages).values([
    { siteId: site.id, accountId: account.id, name: "Homepage", path: "/index.html", isPinned: true },
    { siteId: site.id, accountId: account.id, name: "About", path: "/about.html" },
  ]).returning();
  const [permission] = await d.insert(schema.sitePermissions).values({ accountId: account.id, userId: client.id, siteId: site.id, allPages: false }).returning();
  await d.insert(schema.permissionPages).values({ permissionId: permission.id, pageId: pages[0].id, accountId: account.id });
  const [agent] = await d.insert(schema.agents).values({ accountId: account.id, name: `${name} agent`, tokenHash: `fixture-${account.id}` }).returning();
  // A finished publish of the homepage, so routes with a {statusId} have a real id to aim at.
  const [publishJob] = await d.insert(schema.publishJobs).values({
    siteId: site.id, pageId: pages[0].id, accountId: account.id, userId: owner.id, status: "done", total: 1, processed: 1,
  }).returning();
  return { account, owner, admin, client, site, pages, agent, publishJob };
}
export type Tenant = Awaited<ReturnType<typeof createTenant>>;

/** Signs in through the API and answers the cookie header to send with later requests. */
export async function signIn(email: string, password = PASSWORD): Promise<string> {
  const response = await SELF.fetch("http://localhost/api/auth/login", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ email, password }),
  });
  if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.get("Set-Cookie") ?? "";
  return cookie.split(";")[0];
}

/** Every row of every tenant-owned table that belongs to the account, for before/after comparisons. */
export async function snapshotAccount(accountId: string): Promise<string> {
  const { results } = await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%account_id%' ORDER BY name").all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}" WHERE account_id = ? ORDER BY rowid`).bind(accountId).all();
    parts.push(`${name}:${JSON.stringify(rows.results)}`);
  }
  const users = await env.DB.prepare("SELECT u.* FROM users u WHERE u.account_id = ? ORDER BY rowid").bind(accountId).all();
  const tokens = await env.DB.prepare("SELECT t.* FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE u.account_id = ?").bind(accountId).all();
  const tfa = await env.DB.prepare("SELECT t.* FROM tfa_secrets t JOIN users u ON u.id = t.user_id WHERE u.account_id = ?").bind(accountId).all();
  // last_seen_at moves with sign-ins, which is not a change made by the request under test.
  const stable = (rows: Record<string, unknown>[]) => rows.map(({ last_seen_at: _seen, ...rest }) => rest);
  parts.push(`users*:${JSON.stringify(stable(users.results))}`, `tokens:${JSON.stringify(tokens.results)}`, `tfa:${JSON.stringify(tfa.results)}`);
  return parts.join("\n");
}

/**
 * A demo site of the tenant's account (its files in R2, through the demo store) with `files`
 * written and each enabled as a page named after its path, e.g. "/about.html" → "about".
 * @example const { site, pageOf } = await createDemoSite(tenant, { "/index.html": "<h1>Hi</h1>" });
 */
export async function createDemoSite(tenant: Tenant, files: Record<string, string>, fields: Partial<schema.NewSite> = {}) {
  const [site] = await db().insert(schema.sites).values({
    accountId: tenant.account.id, name: "Demo", url: "https://demo.example/", classification: "personal",
    protocol: "demo", isDemo: true, homeFolder: "/", uploadFolder: "/uploads", ...fields,
  }).returning();
  const store = createDemoStore(env.UPLOADS, site.id, { home: "/" });
  for (const [path, text] of Object.entries(files)) await store.writeAtomic(path, new TextEncoder().encode(text));
  const rows = await db().insert(schema.pages).values(
    Object.keys(files).map((path) => ({ siteId: site.id, accountId: tenant.account.id, name: path.slice(1).replace(/\.[a-z]+$/, ""), path })),
  ).returning();
  const pageOf: Record<string, schema.Page> = {};
  for (const row of rows) pageOf[row.path] = row;
  return { site, store, pageOf };
}
