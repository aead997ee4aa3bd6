/**
 * Where a revision's regions live: inline in its D1 row while small, otherwise in R2 under a key
 * named by the SHA-256 of the body (D1 rows stay well under their 1 MB limit, and identical bodies,
 * a draft and the revision its publish records, are stored once).
 */
import { and, eq, ne } from "drizzle-orm";
import { revisions, type RevisionRegions } from "../../db/schema";
import { sha256Hex } from "~/lib/tokens";
import type { Db } from "./db.server";

/** Bodies larger than this (bytes of JSON) go to R2. */
export const INLINE_BODY_LIMIT = 512 * 1024;

/**
 * The columns a revision row stores for these regions: `regions` inline, or `bodyKey` once the body
 * is written to R2.
 * @example await db.insert(revisions).values({ ...other, ...(await storeRevisionBody(env, regions)) });
 */
export async function storeRevisionBody(env: Pick<Env, "UPLOADS">, regions: RevisionRegions): Promise<{ regions: RevisionRegions | null; bodyKey: string | null }> {
  const body = JSON.stringify(regions);
  if (new TextEncoder().encode(body).length <= INLINE_BODY_LIMIT) return { regions, bodyKey: null };
  const bodyKey = `revisions/${await sha256Hex(body)}`;
  await env.UPLOADS.put(bodyKey, body, { httpMetadata: { contentType: "application/json" } });
  return { regions: null, bodyKey };
}

/** A revision's regions, wherever they are. A body missing from R2 reads as no regions. */
export async function loadRevisionBody(env: Pick<Env, "UPLOADS">, row: { regions: RevisionRegions | null; bodyKey: string | null }): Promise<RevisionRegions> {
  if (row.regions) return row.regions;
  if (!row.bodyKey) return {};
  const object = await env.UPLOADS.get(row.bodyKey);
  return object ? ((await object.json()) as RevisionRegions) : {};
}

/**
 * Removes an R2 body once no revision other than `exceptRevisionId` names it (bodies are shared by
 * content). Called after the row that named it was deleted or moved to another body.
 */
export async function releaseRevisionBody(db: Db, env: Pick<Env, "UPLOADS">, bodyKey: string | null, exceptRevisionId: string): Promise<void> {
  if (!bodyKey) return;
  const other = await db.select({ id: revisions.id }).from(revisions).where(and(eq(revisions.bodyKey, bodyKey), ne(revisions.id, exceptRevisionId))).get();
  if (!other) await env.UPLOADS.delete(bodyKey);
}
