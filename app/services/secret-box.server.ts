/**
 * Secrets at rest (SECURITY.md 14): AES-256-GCM with a random 96-bit IV per encryption and
 * additional authenticated data (AAD) that names the row the ciphertext belongs to, so a
 * ciphertext copied into another account's row, or altered by one bit, fails to decrypt.
 *
 * Keys come from the Worker secret `SECRET_KEYS`, a JSON object of version → base64 key of 32
 * bytes, e.g. `{ "1": "…", "2": "…" }`. The highest version encrypts; every listed version still
 * decrypts, so rotation is: add a key, re-encrypt the rows, then drop the old key. Each row stores
 * the version it was sealed with, and the caller puts the version into the AAD too.
 *
 * One random IV per message keeps AES-GCM safe up to about 2^32 encryptions per key; a rotation
 * long before that is the operator's job (the row counts here are far smaller).
 *
 * @example
 * const sealed = await sealSecret(env, bytes, (v) => `${accountId}|${userId}|tfa|${v}`);
 * const bytes = await openSecret(env, sealed, (v) => `${accountId}|${userId}|tfa|${v}`);
 */

/** The bindings this module reads; `Env` has them (SECRET_KEYS only where the secret is set). */
export interface SecretBoxEnv {
  SECRET_KEYS?: string;
  ENVIRONMENT?: string;
}

/** What a row stores: base64 ciphertext (with the GCM tag), base64 IV, the key version. */
export interface SealedSecret {
  ciphertext: string;
  iv: string;
  keyVersion: number;
}

/** Builds the AAD for a key version; callers name the row, e.g. `accountId|userId|tfa|keyVersion`. */
export type AadBuilder = (keyVersion: number) => string;

/**
 * The development key: a fixed, public value in this file, so `npm start`, the seed and the tests
 * work without any secret. It exists only while the Worker runs with `ENVIRONMENT = "development"`
 * (wrangler.toml's local default). It is version 0, below any real key: when `SECRET_KEYS` is set
 * locally too, the real key encrypts and version 0 still opens what the seed sealed. With any other
 * ENVIRONMENT it is never accepted: production sets `ENVIRONMENT = "production"` and the
 * `SECRET_KEYS` secret, and without that secret the Worker refuses to seal or open anything.
 */
const DEVELOPMENT_KEY_VERSION = 0;
const DEVELOPMENT_KEY_BASE64 = "ZVP1Sbk+S0zHbICAR8APZ56/wk60IgZ/uAKiNMV4QaI=";

const IV_BYTES = 12;
const KEY_BYTES = 32;

/** Parses the keyring: version → raw key bytes. Throws on a malformed or missing configuration. */
export function readKeyring(env: SecretBoxEnv): Map<number, Uint8Array> {
  const keys = new Map<number, Uint8Array>();
  if (env.SECRET_KEYS) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(env.SECRET_KEYS);
    } catch {
      throw new Error("SECRET_KEYS is not valid JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("SECRET_KEYS must be a JSON object");
    for (const [version, value] of Object.entries(parsed)) {
      const number = Number(version);
      if (!Number.isInteger(number) || number < 1) throw new Error(`SECRET_KEYS: version ${JSON.stringify(version)} is not a positive integer`);
      const bytes = typeof value === "string" ? fromBase64(value) : null;
      if (!bytes || bytes.length !== KEY_BYTES) throw new Error(`SECRET_KEYS: key ${number} is not ${KEY_BYTES} bytes of base64`);
      keys.set(number, bytes);
    }
  }
  if (env.ENVIRONMENT === "development") keys.set(DEVELOPMENT_KEY_VERSION, fromBase64(DEVELOPMENT_KEY_BASE64)!);
  if (keys.size === 0) throw new Error("SECRET_KEYS is not set: secrets cannot be stored outside development");
  return keys;
}

/** The key version new ciphertexts are sealed with: the highest configured. */
export function currentKeyVersion(env: SecretBoxEnv): number {
  return Math.max(...readKeyring(env).keys());
}

/**
 * Encrypts with the newest key and a fresh random IV.
 *
 * @example const { ciphertext, iv, keyVersion } = await sealSecret(env, secret, (v) => `${a}|${u}|tfa|${v}`);
 */
export async function sealSecret(env: SecretBoxEnv, plaintext: Uint8Array, aad: AadBuilder): Promise<SealedSecret> {
  const keyring = readKeyring(env);
  const keyVersion = Math.max(...keyring.keys());
  const key = await importKey(keyring.get(keyVersion)!, "encrypt");
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(aad(keyVersion)), tagLength: 128 },
    key,
    copy(plaintext),
  );
  return { ciphertext: toBase64(new Uint8Array(ciphertext)), iv: toBase64(iv), keyVersion };
}

/**
 * Decrypts a stored secret. Throws when the key version is unknown, the AAD differs (another row,
 * another account) or a byte of ciphertext, IV or tag was changed.
 */
export async function openSecret(env: SecretBoxEnv, sealed: SealedSecret, aad: AadBuilder): Promise<Uint8Array> {
  const raw = readKeyring(env).get(sealed.keyVersion);
  if (!raw) throw new Error(`secret-box: no key of version ${sealed.keyVersion}`);
  const iv = fromBase64(sealed.iv);
  const ciphertext = fromBase64(sealed.ciphertext);
  if (!iv || iv.length !== IV_BYTES || !ciphertext) throw new Error("secret-box: malformed sealed secret");
  try {
    const plaintext = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: copy(iv), additionalData: new TextEncoder().encode(aad(sealed.keyVersion)), tagLength: 128 },
      await importKey(raw, "decrypt"),
      copy(ciphertext),
    );
    return new Uint8Array(plaintext);
  } catch (cause) {
    // Never include the ciphertext or the AAD: error messages end up in logs.
    throw new Error("secret-box: the secret could not be decrypted", { cause });
  }
}

function importKey(raw: Uint8Array, usage: "encrypt" | "decrypt"): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", copy(raw), { name: "AES-GCM" }, false, [usage]);
}

/** WebCrypto wants ArrayBuffer-backed views; a copy also keeps callers' buffers untouched. */
function copy(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes);
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array | null {
  try {
    const binary = atob(text);
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}
