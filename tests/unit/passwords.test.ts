import { describe, expect, it } from "vitest";
import { AppError } from "~/lib/errors";
import { assertAcceptablePassword, hashPassword, needsRehash, SCRYPT_PARAMS, verifyPassword } from "~/services/passwords.server";

describe("password hashing", () => {
  it("keeps the memory-hard parameters SECURITY.md asks for", () => {
    // scrypt N=2^14, r=8, p=5: an OWASP minimum (16 MiB) that production Workers accept.
    expect(SCRYPT_PARAMS.N).toBeGreaterThanOrEqual(2 ** 14);
    expect(SCRYPT_PARAMS.r).toBeGreaterThanOrEqual(8);
    expect(SCRYPT_PARAMS.p).toBeGreaterThanOrEqual(5);
    expect(128 * SCRYPT_PARAMS.N * SCRYPT_PARAMS.r).toBeLessThanOrEqual(64 * 1024 * 1024);
  });

  it("verifies the right password, refuses a wrong one, and salts every hash", async () => {
    const a = await hashPassword("correct horse battery");
    const b = await hashPassword("correct horse battery");
    expect(a).not.toBe(b);
    expect(a.startsWith("scrypt$16384$8$5$")).toBe(true);
    expect(await verifyPassword("correct horse battery", a)).toBe(true);
    expect(await verifyPassword("correct horse batterY", a)).toBe(false);
    expect(await verifyPassword("anything", "not-a-hash")).toBe(false);
    expect(needsRehash(a)).toBe(false);
    expect(needsRehash(a.replace("$16384$", "$1024$"))).toBe(true);
  });

  it("refuses passwords shorter than eight characters with PASSWORD_TOO_SHORT", () => {
    expect(() => assertAcceptablePassword("short12")).toThrow(AppError);
    try {
      assertAcceptablePassword("1234567", "password");
    } catch (error) {
      expect((error as AppError).code).toBe("PASSWORD_TOO_SHORT");
      expect((error as AppError).invalid).toEqual(["password"]);
    }
    expect(() => assertAcceptablePassword("12345678")).not.toThrow();
  });
});
