/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP, HMAC-SHA1) and RFC 4648 base32, on
 * WebCrypto only, so the same module runs in the Worker, in Node tests and in the browser.
 *
 * The product's parameters are the authenticator apps' defaults: 30 s steps from the Unix epoch,
 * 6 digits, and a window of one step either side for clock drift. `verifyTotp` answers the step
 * that matched so the caller can store it and refuse that step (and older ones) next time: each
 * code is usable once.
 *
 * @example
 * const secret = generateSecret();
 * const code = await totpAt(secret, Date.now()); // "492039"
 * const step = await verifyTotp(secret, code, Date.now()); // 58_812_345, or null
 */

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted on either side of the current one. */
export const TOTP_WINDOW = 1;
/** 160 bits, the HMAC-SHA1 block-friendly size RFC 4226 recommends. */
export const TOTP_SECRET_BYTES = 20;

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/**
 * RFC 4648 section 6 base32. Padding with `=` is on by default as the RFC has it; authenticator
 * apps and otpauth URLs take the unpadded form (`{ padding: false }`).
 *
 * @example base32Encode(new TextEncoder().encode("foobar")) // "MZXW6YTBOI======"
 */
export function base32Encode(bytes: Uint8Array, { padding = true }: { padding?: boolean } = {}): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1; // keep only the bits not yet written, so the number never grows
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  if (padding) while (out.length % 8 !== 0) out += "=";
  return out;
}

/**
 * Decodes base32, forgiving what people type or copy: case, spaces, hyphens and trailing padding.
 * Throws on any other character, or on trailing bits a real encoder never leaves.
 *
 * @example base32Decode("mzxw 6ytb oi") // the bytes of "foobar"
 */
export function base32Decode(text: string): Uint8Array {
  const clean = text.replace(/[\s-]/g, "").replace(/=+$/, "").toUpperCase();
  const out = new Uint8Array(Math.floor((clean.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of clean) {
    const value = BASE32_ALPHABET.indexOf(char);
    if (value < 0) throw new Error(`Not a base32 character: ${JSON.stringify(char)}`);
    buffer = ((buffer << 5) | value) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out[index++] = (buffer >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  // A valid encoding leaves fewer than 5 bits over, all zero (RFC 4648 section 3.5).
  if (bits >= 5 || (buffer & ((1 << bits) - 1)) !== 0) throw new Error("Not a canonical base32 string");
  return out;
}

/** A new random TOTP secret of 20 bytes. */
export function generateSecret(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES));
}

/** The RFC 6238 time step of a moment (epoch milliseconds or a Date). */
export function totpStep(time: number | Date, stepSeconds = TOTP_STEP_SECONDS): number {
  const ms = typeof time === "number" ? time : time.getTime();
  return Math.floor(ms / 1000 / stepSeconds);
}

/**
 * RFC 4226 HOTP: HMAC-SHA1 of the 8-byte big-endian counter, dynamically truncated, mod 10^digits,
 * left-padded with zeros.
 */
export async function hotp(secret: Uint8Array, counter: number, digits = TOTP_DIGITS): Promise<string> {
  const message = new Uint8Array(8);
  // Counters fit in 53 bits; split into two 32-bit halves for the big-endian write.
  new DataView(message.buffer).setUint32(0, Math.floor(counter / 2 ** 32));
  new DataView(message.buffer).setUint32(4, counter >>> 0);
  const key = await crypto.subtle.importKey("raw", toArrayBuffer(secret), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  const offset = mac[mac.length - 1] & 0x0f;
  const binary =
    ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/**
 * The code an authenticator shows at a moment.
 *
 * @example await totpAt(secret, Date.now()) // "004211"
 */
export async function totpAt(
  secret: Uint8Array,
  time: number | Date,
  { digits = TOTP_DIGITS, stepSeconds = TOTP_STEP_SECONDS }: { digits?: number; stepSeconds?: number } = {},
): Promise<string> {
  return hotp(secret, totpStep(time, stepSeconds), digits);
}

/**
 * Checks a typed code against the steps `now - 1 … now + 1` and answers the step that matched, or
 * null. Spaces inside the code are ignored; anything but exactly six digits is refused. The caller
 * must refuse a step at or below the last one it accepted, so a code cannot be used twice.
 *
 * @example const step = await verifyTotp(secret, "492 039", Date.now());
 */
export async function verifyTotp(secret: Uint8Array, code: string, now: number | Date): Promise<number | null> {
  const typed = code.replace(/\s/g, "");
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(typed)) return null;
  const current = totpStep(now);
  let matched: number | null = null;
  // Every candidate is computed and compared in full, so timing does not tell which step matched.
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    if (constantTimeEqual(await hotp(secret, step), typed) && matched === null) matched = step;
  }
  return matched;
}

/**
 * The `otpauth://` URL authenticator apps read (usually from a QR code).
 *
 * @example otpauthUrl(secret, { issuer: "Sitecraft", account: "alex@example.com" })
 * // "otpauth://totp/Sitecraft:alex%40example.com?secret=…&issuer=Sitecraft&algorithm=SHA1&digits=6&period=30"
 */
export function otpauthUrl(secret: Uint8Array, { issuer, account }: { issuer: string; account: string }): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: base32Encode(secret, { padding: false }),
    issuer,
    algorithm: "SHA1",
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString().replace(/\+/g, "%20")}`;
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** WebCrypto wants an ArrayBuffer-backed view; a copy also detaches it from the caller's buffer. */
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.slice().buffer as ArrayBuffer;
}
