import { describe, expect, it } from "vitest";
import { currentKeyVersion, openSecret, readKeyring, sealSecret, type SealedSecret } from "~/services/secret-box.server";

const key = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64");
const production = (keys: Record<string, string>) => ({ ENVIRONMENT: "production", SECRET_KEYS: JSON.stringify(keys) });
const aadFor = (accountId: string, userId: string) => (v: number) => `${accountId}|${userId}|tfa|${v}`;
const secret = new TextEncoder().encode("a TOTP secret of 20b");

/** Flips one bit of a base64 field. */
function flip(base64: string, byte = 0): string {
  const bytes = Buffer.from(base64, "base64");
  bytes[byte] ^= 1;
  return bytes.toString("base64");
}

describe("the secret box (AES-256-GCM at rest)", () => {
  const env = production({ "1": key() });

  it("round-trips a secret and never stores the plaintext", async () => {
    const sealed = await sealSecret(env, secret, aadFor("acc1", "usr1"));
    expect(sealed.keyVersion).toBe(1);
    expect(Buffer.from(sealed.iv, "base64")).toHaveLength(12);
    expect(Buffer.from(sealed.ciphertext, "base64")).toHaveLength(secret.length + 16); // + the GCM tag
    expect(Buffer.from(sealed.ciphertext, "base64").toString()).not.toContain("TOTP");
    expect(await openSecret(env, sealed, aadFor("acc1", "usr1"))).toEqual(secret);
  });

  it("uses a fresh IV for every encryption", async () => {
    const a = await sealSecret(env, secret, aadFor("acc1", "usr1"));
    const b = await sealSecret(env, secret, aadFor("acc1", "usr1"));
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it("refuses a tampered ciphertext, tag or IV", async () => {
    const sealed = await sealSecret(env, secret, aadFor("acc1", "usr1"));
    const last = Buffer.from(sealed.ciphertext, "base64").length - 1;
    for (const tampered of [
      { ...sealed, ciphertext: flip(sealed.ciphertext, 0) },
      { ...sealed, ciphertext: flip(sealed.ciphertext, last) },
      { ...sealed, iv: flip(sealed.iv, 5) },
    ] satisfies SealedSecret[]) {
      await expect(openSecret(env, tampered, aadFor("acc1", "usr1"))).rejects.toThrow(/could not be decrypted/);
    }
  });

  it("refuses a ciphertext copied to another account's or user's row (wrong AAD)", async () => {
    const sealed = await sealSecret(env, secret, aadFor("acc1", "usr1"));
    await expect(openSecret(env, sealed, aadFor("acc2", "usr1"))).rejects.toThrow(/could not be decrypted/);
    await expect(openSecret(env, sealed, aadFor("acc1", "usr2"))).rejects.toThrow(/could not be decrypted/);
  });

  it("refuses a row whose stored key version was changed", async () => {
    const rotated = production({ "1": key(), "2": key() });
    const sealed = await sealSecret(rotated, secret, aadFor("acc1", "usr1"));
    await expect(openSecret(rotated, { ...sealed, keyVersion: 1 }, aadFor("acc1", "usr1"))).rejects.toThrow();
  });

  it("encrypts with the highest version and still opens rows of older keys after rotation", async () => {
    const k1 = key();
    const before = production({ "1": k1 });
    const old = await sealSecret(before, secret, aadFor("acc1", "usr1"));
    const after = production({ "1": k1, "2": key() });
    expect(currentKeyVersion(after)).toBe(2);
    expect((await sealSecret(after, secret, aadFor("acc1", "usr1"))).keyVersion).toBe(2);
    expect(await openSecret(after, old, aadFor("acc1", "usr1"))).toEqual(secret);
    await expect(openSecret(production({ "2": key() }), old, aadFor("acc1", "usr1"))).rejects.toThrow(/no key of version 1/);
  });

  it("uses the fixed development key only in development", async () => {
    const dev = { ENVIRONMENT: "development" };
    const sealed = await sealSecret(dev, secret, aadFor("acc1", "usr1"));
    expect(sealed.keyVersion).toBe(0);
    expect(await openSecret(dev, sealed, aadFor("acc1", "usr1"))).toEqual(secret);
    // A real key set locally takes over encryption; what the seed sealed with version 0 still opens.
    const devWithKeys = { ENVIRONMENT: "development", SECRET_KEYS: JSON.stringify({ "1": key() }) };
    expect(currentKeyVersion(devWithKeys)).toBe(1);
    expect(await openSecret(devWithKeys, sealed, aadFor("acc1", "usr1"))).toEqual(secret);
    // Outside development the development key does not exist.
    expect(() => readKeyring({ ENVIRONMENT: "production" })).toThrow(/SECRET_KEYS is not set/);
    expect(() => readKeyring({})).toThrow(/SECRET_KEYS is not set/);
    await expect(openSecret(production({ "1": key() }), sealed, aadFor("acc1", "usr1"))).rejects.toThrow(/no key of version 0/);
  });

  it("refuses malformed key configuration", () => {
    expect(() => readKeyring({ SECRET_KEYS: "not json" })).toThrow(/not valid JSON/);
    expect(() => readKeyring({ SECRET_KEYS: JSON.stringify({ "1": "c2hvcnQ=" }) })).toThrow(/32 bytes/);
    expect(() => readKeyring({ SECRET_KEYS: JSON.stringify({ zero: key() }) })).toThrow(/positive integer/);
    expect(() => readKeyring({ SECRET_KEYS: JSON.stringify({ "0": key() }) })).toThrow(/positive integer/);
  });
});
