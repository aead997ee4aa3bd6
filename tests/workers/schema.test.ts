import { env } from "cloudflare:test";
import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";

const declaredTables = Object.values(schema as Record<string, unknown>)
  .filter((value): value is SQLiteTable => is(value, SQLiteTable))
  .map((table) => getTableName(table))
  .sort();

describe("the D1 schema after the migrations", () => {
  it("has every table the drizzle schema declares, and no stray ones", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name != 'd1_migrations' ORDER BY name",
    ).all<{ name: string }>();
    expect(declaredTables.length).toBeGreaterThanOrEqual(25);
    expect(results.map((row) => row.name)).toEqual(declaredTables);
  });

  it("covers every entity of the spec", () => {
    for (const table of ["accounts", "users", "sessions", "sites", "pages", "revisions", "templates", "blocks", "publish_jobs",
      "publish_items", "payments", "invoices", "support_requests", "agents", "audit_log", "email_outbox", "api_tokens",
      "site_permissions", "favorites", "change_notifications", "trusted_devices", "one_time_tokens", "analytics_rollups"]) {
      expect(declaredTables, table).toContain(table);
    }
  });

  it("enforces foreign keys", async () => {
    const { results } = await env.DB.prepare("PRAGMA foreign_keys").all<{ foreign_keys: number }>();
    expect(results[0]?.foreign_keys).toBe(1);
    await expect(
      env.DB.prepare("INSERT INTO users (id, account_id, name, email, created_at) VALUES ('u1', 'no-such-account', 'X', 'x@example.test', 0)").run(),
    ).rejects.toThrow(/FOREIGN KEY/);
  });
});
