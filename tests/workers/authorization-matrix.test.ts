import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createTenant, db, signIn, snapshotAccount, type Tenant } from "./fixtures";

/**
 * The cross-tenant matrix of SECURITY.md 1, generated from the API's own route registry (the
 * OpenAPI document): a route added without a policy check, without an id source for its path
 * parameters, or without a sample body fails here.
 */

type Operation = { security?: Record<string, string[]>[]; requestBody?: unknown };
type Document = { paths: Record<string, Record<string, Operation>> };

/** Routes anyone may call. Adding one here is a deliberate, reviewed decision. */
const PUBLIC_ROUTES = new Set(["get /api/auth/session", "post /api/auth/login", "post /api/auth/logout", "post /api/auth/password/recover", "post /api/auth/password/reset", "post /api/auth/confirm",
  // The in-frame editor script: the same static file for everyone, loaded by the sandboxed preview frame (no credentials).
  "get /api/editor/frame.js",
  // The page for the editor frame on the preview origin: the sealed render token in the path is the credential (SECURITY.md 6).
  "get /api/render/{token}"]);

/** Where each path parameter takes the victim's id from. */
function victimId(param: string, path: string, victim: Tenant): string | undefined {
  if (param === "userId" || (param === "id" && path.startsWith("/api/admin/users/"))) return victim.owner.id;
  if (param === "siteId") return victim.site.id;
  if (param === "pageId") return victim.pages[0].id;
  if (param === "agentId") return victim.agent.id;
  if (param === "statusId") return victim.publishJob.id;
  if (param === "revisionId") return victimRevisionId;
  if (param === "token") return "not-a-render-token";
  if (param === "blockId") return victimBlockId;
  return undefined;
}

/** A well-formed body per route, so the request gets past validation to the policy check. */
const SAMPLE_BODIES: Record<string, unknown> = {
  "post /api/auth/login": { email: "nobody@example.test", password: "whatever-123" },
  "post /api/auth/tfa": { userId: "not-my-id", token: "123456" },
  "post /api/auth/tfa/recover": { token: "AAAA-BBBB-CCCC-DDDD-EEEE-FFFF" },
  "put /api/users/{userId}/tfa": { token: "123456" },
  "delete /api/users/{userId}/tfa": { password: "fixture-password-1" },
  "post /api/auth/password/recover": { email: "nobody@example.test", message: { subject: "Reset", intro: "", callToAction: "Reset", outro: "" } },
  "post /api/auth/password/reset": { token: "not-a-token", password: "whatever-123" },
  "post /api/auth/confirm": { token: "not-a-token", password: "whatever-123" },
  "post /api/auth/password/verify": { email: "owner@victim.test", password: "whatever-123" },
  "post /api/utilities/test-connection": { protocol: "sftp", host: "sftp.example", username: "me", password: "whatever-123", homeFolder: "/" },
  "post /api/account/agents": { name: "Attacker's agent" },
  "post /api/sites/{siteId}/files": { path: "/uploads/attacker" },
  "put /api/sites/{siteId}/files": { files: [{ path: "/uploads/a.png", newPath: "/uploads/b.png" }] },
  "delete /api/sites/{siteId}/files": { paths: ["/uploads/a.png"] },
  "post /api/sites/{siteId}/files/thumbnails": { urls: ["images/a.png"], path: "/index.html" },
  "post /api/users": { name: "Mallory", email: "mallory@attacker.test", permissions: [] },
  "put /api/users/{userId}": { name: "Renamed", isAdmin: true, permissions: [] },
  "put /api/users/{userId}/permissions": { permissions: [] },
  "put /api/users/{userId}/avatar": { not: "a png" },
  "post /api/sites/{siteId}/pages/{pageId}/publish": { regions: { main: { type: "block", content: "<p>Defaced</p>" } } },
  "put /api/sites/{siteId}/pages/{pageId}/source": { source: "<h1>Defaced</h1>" },
  "post /api/sites/{siteId}/pages/{pageId}/revisions": { isDraft: true, metadata: { title: "Defaced" }, regions: {} },
  "put /api/sites/{siteId}/pages/{pageId}/revisions/{revisionId}": { isDraft: true, metadata: { title: "Defaced" }, regions: {} },
  "post /api/sites": { name: "Attacker site", url: "attacker.example", protocol: "sftp", host: "sftp.attacker.example", username: "me", password: "whatever-123" },
  "put /api/sites/{siteId}": { name: "Defaced", isLocked: true, password: "attacker-password" },
  "post /api/sites/{siteId}/pages": { name: "Defaced", path: "/defaced.html", createOnServer: true },
  "put /api/sites/{siteId}/pages/{pageId}": { name: "Defaced", isPinned: false },
  "post /api/sites/{siteId}/pages/delete": { pageIds: ["not-an-id"], deleteFromServer: true },
  "put /api/admin/sites/{siteId}/classify": { classification: "commercial" },
};

let attacker: Tenant;
let victim: Tenant;
let victimRevisionId: string;
let victimBlockId: string;
let routes: { key: string; method: string; path: string; operation: Operation }[];

beforeAll(async () => {
  attacker = await createTenant("Attacker");
  victim = await createTenant("Victim");
  // A draft of the victim's homepage, so routes with a {revisionId} have one to aim at.
  const [draft] = await db().insert(schema.revisions).values({
    pageId: victim.pages[0].id, siteId: victim.site.id, accountId: victim.account.id, userId: victim.owner.id, isDraft: true, metadata: { title: "Victim draft" }, regions: {},
  }).returning();
  victimRevisionId = draft.id;
  const [block] = await db().insert(schema.blocks).values({ siteId: victim.site.id, accountId: victim.account.id, name: "Victim block", source: "<p>Victim</p>" }).returning();
  victimBlockId = block.id;
  const document = (await (await SELF.fetch("http://localhost/api/openapi.json")).json()) as Document;
  routes = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ key: `${method} ${path}`, method, path, operation })),
  );
});

function buildRequest(route: (typeof routes)[number], cookie: string | null) {
  const url = route.path.replace(/\{(\w+)\}/g, (_, param: string) => {
    const id = victimId(param, route.path, victim);
    if (!id) throw new Error(`${route.key}: no id source for {${param}} — add one to victimId()`);
    return id;
  });
  const hasBody = Boolean(route.operation.requestBody);
  if (hasBody && !(route.key in SAMPLE_BODIES)) throw new Error(`${route.key}: add a sample body to SAMPLE_BODIES`);
  return new Request(`http://localhost${url}`, {
    method: route.method.toUpperCase(),
    headers: { ...(cookie ? { Cookie: cookie } : {}), ...(hasBody ? { "Content-Type": "application/json" } : {}), "Sec-Fetch-Site": "same-origin" },
    body: hasBody ? JSON.stringify(SAMPLE_BODIES[route.key]) : undefined,
  });
}

describe("the authorization matrix over every /api route", () => {
  it("knows every route's access level", () => {
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) {
      const isPublic = (route.operation.security ?? []).length === 0;
      expect(isPublic, `${route.key} is public in the registry but not in PUBLIC_ROUTES (or the other way round)`).toBe(PUBLIC_ROUTES.has(route.key));
    }
  });

  it("refuses every signed-in route to anonymous callers with 401", async () => {
    for (const route of routes.filter((r) => !PUBLIC_ROUTES.has(r.key))) {
      const response = await SELF.fetch(buildRequest(route, null));
      expect(response.status, route.key).toBe(401);
      expect(await response.json(), route.key).toEqual({ code: "UNAUTHORIZED", invalid: [] });
    }
  });

  for (const role of ["owner", "client"] as const) {
    it(`answers another account's ids with 403 or 404 and changes nothing, as the ${role} of an account`, async () => {
      const cookie = await signIn(attacker[role].email);
      const before = await snapshotAccount(victim.account.id);
      for (const route of routes.filter((r) => /\{\w+\}/.test(r.path))) {
        const response = await SELF.fetch(buildRequest(route, cookie));
        expect([403, 404], `${route.key} as ${role} answered ${response.status}`).toContain(response.status);
      }
      for (const route of routes.filter((r) => !/\{\w+\}/.test(r.path) && r.key !== "post /api/auth/logout")) {
        await SELF.fetch(buildRequest(route, cookie));
      }
      expect(await snapshotAccount(victim.account.id)).toBe(before);
    });
  }
});
