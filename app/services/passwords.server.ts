import { scrypt as scryptCallback, randomBytes, timingSafeEqual } from "node:crypto";
import { AppError } from "~/lib/errors";

/**
 * scrypt parameters (SECURITY.md, "Password hashing on Workers"): N=2^14, r=8, p=5 is an OWASP
 * minimum at 16 MiB. They are stored with every hash so they can be raised later and old hashes
 * rehashed on the next sign-in.
 */
export const SCRYPT_PARAMS = { N: 2 ** 14, r: 8, p: 5, keyLength: 32, saltLength: 16 } as const;
export const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024; // bounds the hashing cost an attacker can ask for

function scrypt(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scryptCallback(password.normalize("NFKC"), salt, keyLength, { N, r, p, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Throws PASSWORD_TOO_SHORT (on `password`) for a password the product does not accept. */
export function assertAcceptablePassword(password: string, field = "password"): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new AppError("PASSWORD_TOO_SHORT", { invalid: [field] });
  if (password.length > MAX_PASSWORD_LENGTH) throw new AppError("VALIDATION_ERROR", { invalid: [field] });
}

/** @example const stored = await hashPassword("correct horse battery") // "scrypt$16384$8$5$…$…" */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = SCRYPT_PARAMS;
  const salt = randomBytes(saltLength);
  const key = await scrypt(password, salt, N, r, p, keyLength);
  return ["scrypt", N, r, p, salt.toString("base64"), key.toString("base64")].join("$");
}

/** Compares in constant time; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], "base64");
  const expected = Buffer.from(parts[5], "base64");
  if (!N || !r || !p || expected.length === 0 || password.length > MAX_PASSWORD_LENGTH) return false;
  const key = await scrypt(password, salt, N, r, p, expected.length);
  return timingSafeEqual(key, expected);
}

/** True when a stored hash was made with weaker parameters than today's. */
export function needsRehash(stored: string): boolean {
  const [, N, r, p] = stored.split("$");
  return Number(N) !== SCRYPT_PARAMS.N || Number(r) !== SCRYPT_PARAMS.r || Number(p) !== SCRYPT_PARAMS.p;
}

/** Burns the same time as a real check, so unknown accounts answer like known ones. */
export async function verifyAgainstDummy(password: string): Promise<false> {
  await scrypt(password, Buffer.alloc(SCRYPT_PARAMS.saltLength), SCRYPT_PARAMS.N, SCRYPT_PARAMS.r,
    SCRYPT_PARAMS.p, SCRYPT_PARAMS.keyLength);
  return false;
}
