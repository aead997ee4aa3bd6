import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

describe("the API error mapper", () => {
  it("answers a schema violation with 400 VALIDATION_ERROR and the invalid field names", async () => {
    const response = await SELF.fetch("http://localhost/api/auth/login", json({ password: "" }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body).toEqual({ code: "VALIDATION_ERROR", invalid: expect.arrayContaining(["email", "password"]) });
    expect((body as { invalid: string[] }).invalid).toHaveLength(2);
  });

  it("answers malformed JSON with 400 VALIDATION_ERROR, not a crash", async () => {
    const response = await SELF.fetch("http://localhost/api/auth/login", json("{not json"));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: "VALIDATION_ERROR", invalid: ["body"] });
  });

  it("answers an AppError with its catalogue code and status", async () => {
    const response = await SELF.fetch("http://localhost/api/auth/login", json({ email: "nobody@example.test", password: "whatever-123" }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: "INCORRECT_PASSWORD", invalid: ["email", "password"] });
  });

  it("answers unknown API paths with 404 NOT_FOUND as JSON", async () => {
    const response = await SELF.fetch("http://localhost/api/no/such/thing");
    expect(response.status).toBe(404);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(await response.json()).toEqual({ code: "NOT_FOUND", invalid: [] });
  });

  it("refuses a cross-site request that carries a session cookie with 403 FORBIDDEN", async () => {
    const response = await SELF.fetch("http://localhost/api/auth/logout", {
      method: "POST",
      headers: { Cookie: "sid=abc", "Sec-Fetch-Site": "cross-site" },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: "FORBIDDEN", invalid: [] });
  });
});
