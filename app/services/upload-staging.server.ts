/**
 * The staging area of uploads on their way to a customer's server (ARCHITECTURE.md, Files): the
 * Worker puts a browser's upload into R2 under `staging/<hub>/<random>`, the site's connection
 * agent downloads it from `/agent/staged/<hub>/<random>` with its own token (`writeStaged`), and
 * the object is removed once the write has finished, whatever its outcome. The key names the hub,
 * so one agent can never fetch what was staged for another.
 *
 * Objects orphaned by a Worker that died mid-upload are removed by the bucket's lifecycle rule on
 * the `staging/` prefix (1 day; docs/decisions/004-agent-link.md).
 *
 * @example
 * const staged = await stageUpload(env.UPLOADS, "hosted", bytes);
 * try { await fs.writeStaged("img/a.png", staged); } finally { await removeStaged(env.UPLOADS, staged.key); }
 */
import type { StagedUpload } from "./agent-link.server";

const PREFIX = "staging/";

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Puts bytes into the staging area for `hub`'s agent. */
export async function stageUpload(bucket: R2Bucket, hub: string, bytes: Uint8Array<ArrayBuffer>): Promise<StagedUpload> {
  const key = `${hub}/${randomId()}`;
  const sha256 = await sha256Hex(bytes);
  await bucket.put(PREFIX + key, bytes, { sha256 });
  return { key, size: bytes.byteLength, sha256 };
}

export async function removeStaged(bucket: R2Bucket, key: string): Promise<void> {
  await bucket.delete(PREFIX + key);
}

/**
 * The staged object `key` for the agent of `hub`, or null when the key is not that hub's or is gone.
 * @example await openStaged(env.UPLOADS, "hosted", "hosted/abc…")
 */
export async function openStaged(bucket: R2Bucket, hub: string, key: string): Promise<R2ObjectBody | null> {
  if (!key.startsWith(`${hub}/`)) return null;
  return bucket.get(PREFIX + key);
}
