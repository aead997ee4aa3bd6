import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { api } from "../../workers/api";

/** Hono's own routing table: every handler registered under /api, middleware excluded. */
function registeredRoutes(): string[] {
  return api.routes
    .filter((r) => r.method !== "ALL" && r.path !== "/api/openapi.json")
    .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
}

async function fetchDocument() {
  const response = await api.request("/api/openapi.json");
  expect(response.status).toBe(200);
  return (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
}

describe("/api/openapi.json", () => {
  it("is a valid OpenAPI 3 document", async () => {
    const document = await fetchDocument();
    expect(document.openapi).toMatch(/^3\./);
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it("lists every route the API serves, and nothing it does not serve", async () => {
    const document = await fetchDocument();
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    );
    const served = registeredRoutes();
    expect(served.length).toBeGreaterThan(0);
    expect(documented.sort()).toEqual([...new Set(served)].sort());
  });

  it("declares the error body and who may call each route", async () => {
    const document = (await fetchDocument()) as unknown as {
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    expect(document.components.schemas.Error).toBeDefined();
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(["bearerAuth", "cookieAuth"]);
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.security, `${method} ${path} has no security declaration`).toBeDefined();
      }
    }
  });
});
