/**
 * Primary keys for every table: 128 random bits as 32 lowercase hex characters.
 *
 * Random rather than sequential so an id reveals nothing about how many rows exist or when one was
 * made, and guessing another tenant's id is hopeless (SECURITY.md 1 still scopes every query).
 * Only the Web Crypto global is used, so this runs unchanged in workerd, Node 24 and browsers.
 *
 * @example const id = newId(); // "3f9c0b6e5a7d41e28c0f1b2a9d4e6c13"
 */
export function newId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}
