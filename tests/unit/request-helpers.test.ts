import { describe, expect, it } from "vitest";
import { localeFromRequest } from "~/lib/locale";
import { safeRedirect } from "~/lib/safe-redirect";
import { assertSameOrigin } from "~/services/csrf.server";

describe("safeRedirect", () => {
  it("keeps same-origin paths and drops everything else", () => {
    expect(safeRedirect("/sites/1?tab=a")).toBe("/sites/1?tab=a");
    expect(safeRedirect("//evil.example/x")).toBe("/");
    expect(safeRedirect("/\\evil.example")).toBe("/");
    expect(safeRedirect("https://evil.example")).toBe("/");
    expect(safeRedirect(null, "/sites")).toBe("/sites");
  });
});

describe("localeFromRequest", () => {
  const request = (headers: Record<string, string>) => new Request("http://localhost/api/x", { headers });
  it("prefers the lng cookie as React Router writes it, then Accept-Language, then English", () => {
    const cookie = `lng=${encodeURIComponent(btoa(JSON.stringify("fr")))}`;
    expect(localeFromRequest(request({ Cookie: cookie, "Accept-Language": "de" }))).toBe("fr");
    expect(localeFromRequest(request({ "Accept-Language": "de-CH,de;q=0.9,en;q=0.8" }))).toBe("de");
    expect(localeFromRequest(request({ "Accept-Language": "es-ES" }))).toBe("en");
    expect(localeFromRequest(request({}))).toBe("en");
  });
});

describe("assertSameOrigin", () => {
  const post = (headers: Record<string, string>) => new Request("http://localhost:8787/login", { method: "POST", headers });
  it("refuses cross-site posts and allows same-origin ones", () => {
    expect(() => assertSameOrigin(post({ "Sec-Fetch-Site": "cross-site" }))).toThrow();
    expect(() => assertSameOrigin(post({ "Sec-Fetch-Site": "same-site" }))).toThrow();
    expect(() => assertSameOrigin(post({ Origin: "https://evil.example" }))).toThrow();
    expect(() => assertSameOrigin(post({ "Sec-Fetch-Site": "same-origin" }))).not.toThrow();
    expect(() => assertSameOrigin(post({ Origin: "http://localhost:8787" }))).not.toThrow();
    expect(() => assertSameOrigin(new Request("http://localhost:8787/x", { headers: { "Sec-Fetch-Site": "cross-site" } }))).not.toThrow();
  });
});
