import { describe, expect, it } from "vitest";
import {
  base32Decode,
  base32Encode,
  generateSecret,
  hotp,
  otpauthUrl,
  totpAt,
  totpStep,
  verifyTotp,
} from "~/lib/totp";

const ascii = (text: string) => new TextEncoder().encode(text);

// RFC 6238 Appendix B, SHA-1 rows: the seed is the ASCII string "12345678901234567890".
const RFC_SECRET = ascii("12345678901234567890");
const RFC_VECTORS: [seconds: number, code: string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("RFC 6238 TOTP", () => {
  for (const [seconds, code] of RFC_VECTORS) {
    it(`gives ${code} at T=${seconds} s (8 digits) and its last six digits in the 6-digit variant`, async () => {
      expect(await totpAt(RFC_SECRET, seconds * 1000, { digits: 8 })).toBe(code);
      expect(await totpAt(RFC_SECRET, seconds * 1000)).toBe(code.slice(-6));
    });
  }

  it("matches the RFC 4226 Appendix D HOTP values", async () => {
    const expected = ["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"];
    for (const [counter, code] of expected.entries()) expect(await hotp(RFC_SECRET, counter)).toBe(code);
  });

  it("counts 30-second steps from the epoch", () => {
    expect(totpStep(0)).toBe(0);
    expect(totpStep(29_999)).toBe(0);
    expect(totpStep(30_000)).toBe(1);
    expect(totpStep(new Date(59_000))).toBe(1);
  });
});

describe("verifyTotp", () => {
  const now = 1_700_000_015_000; // 15 s into a step
  const step = totpStep(now);

  it("answers the step of a current code", async () => {
    expect(await verifyTotp(RFC_SECRET, await hotp(RFC_SECRET, step), now)).toBe(step);
  });

  it("accepts one step either side and answers which one matched", async () => {
    expect(await verifyTotp(RFC_SECRET, await hotp(RFC_SECRET, step - 1), now)).toBe(step - 1);
    expect(await verifyTotp(RFC_SECRET, await hotp(RFC_SECRET, step + 1), now)).toBe(step + 1);
  });

  it("refuses codes two steps away", async () => {
    expect(await verifyTotp(RFC_SECRET, await hotp(RFC_SECRET, step - 2), now)).toBeNull();
    expect(await verifyTotp(RFC_SECRET, await hotp(RFC_SECRET, step + 2), now)).toBeNull();
  });

  it("moves the window exactly at the step boundary", async () => {
    const lastMsOfStep = (step + 1) * 30_000 - 1;
    const firstMsOfNext = (step + 1) * 30_000;
    const old = await hotp(RFC_SECRET, step - 1);
    expect(await verifyTotp(RFC_SECRET, old, lastMsOfStep)).toBe(step - 1);
    expect(await verifyTotp(RFC_SECRET, old, firstMsOfNext)).toBeNull();
  });

  it("ignores spaces but refuses anything that is not six digits", async () => {
    const code = await hotp(RFC_SECRET, step);
    expect(await verifyTotp(RFC_SECRET, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toBe(step);
    expect(await verifyTotp(RFC_SECRET, code.slice(1), now)).toBeNull();
    expect(await verifyTotp(RFC_SECRET, `${code}0`, now)).toBeNull();
    expect(await verifyTotp(RFC_SECRET, "abcdef", now)).toBeNull();
    expect(await verifyTotp(RFC_SECRET, "", now)).toBeNull();
  });

  it("refuses a code of another secret", async () => {
    const other = generateSecret();
    const code = await hotp(other, step);
    const own = await Promise.all([step - 1, step, step + 1].map((s) => hotp(RFC_SECRET, s)));
    if (!own.includes(code)) expect(await verifyTotp(RFC_SECRET, code, now)).toBeNull();
  });
});

describe("RFC 4648 base32", () => {
  // RFC 4648 section 10 test vectors.
  const vectors: [string, string][] = [
    ["", ""],
    ["f", "MY======"],
    ["fo", "MZXQ===="],
    ["foo", "MZXW6==="],
    ["foob", "MZXW6YQ="],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI======"],
  ];
  for (const [plain, encoded] of vectors) {
    it(`encodes ${JSON.stringify(plain)} as ${JSON.stringify(encoded)} and back`, () => {
      expect(base32Encode(ascii(plain))).toBe(encoded);
      expect(new TextDecoder().decode(base32Decode(encoded))).toBe(plain);
    });
  }

  it("round-trips random secrets of every length up to 40 bytes, padded and unpadded", () => {
    for (let length = 0; length <= 40; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length));
      expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
      expect(base32Decode(base32Encode(bytes, { padding: false }))).toEqual(bytes);
    }
  });

  it("reads what people type: lower case, spaces and hyphens", () => {
    expect(new TextDecoder().decode(base32Decode("mzxw 6ytb-oi"))).toBe("foobar");
  });

  it("refuses characters outside the alphabet and impossible lengths", () => {
    expect(() => base32Decode("MZXW1")).toThrow();
    expect(() => base32Decode("M")).toThrow();
    expect(() => base32Decode("MZX")).toThrow();
    expect(() => base32Decode("MZ")).toThrow(); // trailing bits must be zero ("MY" is the real "f")
  });

  it("encodes the 20-byte RFC secret as the familiar 32-character key", () => {
    expect(base32Encode(RFC_SECRET, { padding: false })).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  });
});

describe("secrets and otpauth URLs", () => {
  it("generates 20 random bytes each time", () => {
    const a = generateSecret();
    expect(a).toHaveLength(20);
    expect(a).not.toEqual(generateSecret());
  });

  it("builds the URL authenticator apps read", () => {
    const url = otpauthUrl(RFC_SECRET, { issuer: "Brightside Sites", account: "alex@example.com" });
    expect(url).toBe(
      "otpauth://totp/Brightside%20Sites:alex%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Brightside%20Sites&algorithm=SHA1&digits=6&period=30",
    );
  });
});
