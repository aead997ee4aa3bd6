/**
 * The work of one publish (or rollback) job, run by the site's publish queue
 * (workers/site-publisher.ts), one job of a site at a time.
 *
 * Every step is recorded in D1 before the next one starts, so a run cut short anywhere (the agent
 * killed, the Worker restarted) resumes where it stopped and never writes twice blindly:
 * - the queue (the page, plus every enabled page sharing an edited global region) is inserted in
 *   one batch, or not at all;
 * - before a file is written, its item records the hash of the bytes read (before), the hash of
 *   the bytes about to be written (after) and a backup of the old bytes in R2; on resume, a file
 *   that already has the after hash was written, one that still has the before hash is written
 *   again, and anything else was changed by someone else: PAGE_CHANGED_ON_SERVER, never an
 *   overwrite;
 * - the writes themselves are atomic on the server (RemoteFs.writeAtomic: temporary name, size
 *   check, replace), so a file is the old or the new bytes, never a part.
 */
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { AgentError } from "../../agent/src/errors.ts";
import { accounts, changeNotifications, pages, publishItems, publishJobs, revisions, sites, users, type Page, type PublishItem, type PublishJob, type RevisionMetadata, type RevisionRegions, type Site } from "../../db/schema";
import { newId } from "../../db/ids";
import { AppError } from "~/lib/errors";
import { extensionOf, livePageUrl } from "~/lib/page-url";
import { sha256Hex } from "~/lib/tokens";
import type { ErrorCode } from "~/lib/error-codes";
import { decodePageSource, encodePageSource, mergePage, parsePage, type ParsedPage, type RegionUpdates } from "~/lib/regions";
import type { Locale } from "~/lib/locale";
import { resources } from "~/locales";
import { getDb, type Db } from "./db.server";
import { releaseRevisionBody, storeRevisionBody } from "./revision-bodies.server";
import { enqueueEmail, renderLinkEmail } from "./email.server";
import { siteRemoteFs } from "./site-files.server";
import type { RemoteFs } from "../../agent/src/remote-fs.ts";

export interface PublishPayload {
  metadata: RevisionMetadata;
  regions: RevisionRegions;
  /** sha256 of the page file the edit was based on; null when the client did not say. */
  baseHash: string | null;
  /** The publisher's interface language: the change-notification emails are written in it. */
  locale?: Locale;
}

export const publishPayloadKey = (jobId: string) => `publish/${jobId}/payload.json`;
const backupKey = (jobId: string, itemId: string) => `publish/${jobId}/backup/${itemId}`;

/** While the site's agent is away, a job waits this long (from its start) before it gives up. */
const TRANSIENT_RETRY_WINDOW_MS = 3 * 60 * 1000;
const RETRY_DELAYS_MS = [1_000, 2_000, 5_000, 10_000];
/** Pages written at once in a fan-out: the agent keeps at most 3 connections per site. */
const FAN_OUT_CONCURRENCY = 3;

export type RunOutcome = { kind: "finished" } | { kind: "retry"; atMs: number };

/** Agent failures that say "not now" rather than "no": the job waits and resumes. */
function isTransient(error: unknown): boolean {
  return error instanceof AgentError && (error.code === "CONNECTION_AGENT_OFFLINE" || error.code === "CONNECTION_AGENT_TIMEOUT");
}

function errorCodeOf(error: unknown): ErrorCode {
  if (error instanceof AgentError || error instanceof AppError) return error.code;
  return "PUBLISHING_ERROR";
}

function parse(bytes: Uint8Array, path: string) {
  const { text, encoding } = decodePageSource(bytes);
  return { page: parsePage(text, extensionOf(path)), encoding };
}

/** The edited regions this page has as global regions: what a fan-out writes into it. */
function globalUpdates(page: ParsedPage, regions: RegionUpdates): RegionUpdates {
  const updates: RegionUpdates = {};
  for (const [id, update] of Object.entries(regions)) if (page.byId.get(id)?.global) updates[id] = update;
  return updates;
}

interface JobRun {
  db: Db;
  env: Env;
  job: PublishJob;
  site: Site;
  fs: RemoteFs;
  /** Bytes read while the queue was built, used once by the same run instead of a second read. */
  prefetched: Map<string, Uint8Array>;
}

/**
 * Runs (or resumes) one job to its end. Answers `retry` when the site's agent is away, so the
 * queue can try again later; any other failure is recorded on the item or the job.
 */
export async function runPublishJob(env: Env, jobId: string, now = Date.now()): Promise<RunOutcome> {
  const db = getDb(env);
  const job = await db.select().from(publishJobs).where(eq(publishJobs.id, jobId)).get();
  if (!job || job.status === "done" || job.status === "failed") return { kind: "finished" };
  const site = await db.select().from(sites).where(eq(sites.id, job.siteId)).get();
  if (!site) return { kind: "finished" };
  if (job.status === "queued") await db.update(publishJobs).set({ status: "running" }).where(eq(publishJobs.id, job.id));

  try {
    const run: JobRun = { db, env, job, site, fs: await siteRemoteFs(env, site), prefetched: new Map() };
    if (job.rollsBackJobId) await runRollback(run, job.rollsBackJobId);
    else await runPublish(run);
    return { kind: "finished" };
  } catch (error) {
    const waited = now - job.createdAt.getTime();
    if (isTransient(error) && waited < TRANSIENT_RETRY_WINDOW_MS) {
      const attempt = Math.min(RETRY_DELAYS_MS.length - 1, Math.floor(waited / 15_000));
      return { kind: "retry", atMs: now + RETRY_DELAYS_MS[attempt] };
    }
    if (!(error instanceof AgentError || error instanceof AppError)) console.error("publish job failed", job.id, error);
    await failJob(db, job, errorCodeOf(error));
    return { kind: "finished" };
  }
}

/** Ends a job that could not go on: its unprocessed items get the job's code; the draft stays. */
async function failJob(db: Db, job: PublishJob, code: ErrorCode): Promise<void> {
  await db.batch([
    db.update(publishItems).set({ isProcessed: true, errorCode: code, processedAt: new Date() }).where(and(eq(publishItems.jobId, job.id), eq(publishItems.isProcessed, false))),
    db
      .update(publishJobs)
      .set({ status: "failed", errorCode: code, finishedAt: new Date(), processed: sql`(SELECT count(*) FROM ${publishItems} WHERE job_id = ${job.id} AND is_processed = 1)` })
      .where(eq(publishJobs.id, job.id)),
  ]);
}

async function loadPayload(env: Env, jobId: string): Promise<PublishPayload> {
  const object = await env.UPLOADS.get(publishPayloadKey(jobId));
  if (!object) throw new AppError("PUBLISHING_ERROR");
  return (await object.json()) as PublishPayload;
}

// ── publish ──────────────────────────────────────────────────────────────────────────────────────

async function runPublish(run: JobRun): Promise<void> {
  const { db, env, job } = run;
  const payload = await loadPayload(env, job.id);
  let items = await jobItems(db, job.id);
  if (items.length === 0) items = await buildPublishQueue(run, payload);

  const [main, ...others] = items;
  if (main && !main.isProcessed) await processPublishItem(run, main, payload, true);
  await inParallel(others.filter((item) => !item.isProcessed), FAN_OUT_CONCURRENCY, (item) => processPublishItem(run, item, payload, false));

  const finalItems = await jobItems(db, job.id);
  const first = finalItems[0];
  if (!first || first.errorCode) {
    await finishJob(db, job, "failed", first?.errorCode ?? "PUBLISHING_ERROR");
  } else {
    await recordPublishedRevision(run, payload, first);
    await finishJob(db, job, "done", null);
    await notifyChangeSubscribers(run, first, payload.locale ?? "en").catch((error: unknown) => console.error("change notifications failed", job.id, error));
  }
  await env.UPLOADS.delete(publishPayloadKey(job.id));
}

function jobItems(db: Db, jobId: string): Promise<PublishItem[]> {
  return db.select().from(publishItems).where(eq(publishItems.jobId, jobId)).orderBy(asc(publishItems.position));
}

/**
 * The queue: the page itself, then every other enabled page of the site that has one of the
 * edited regions as a global region (EDITING-MODEL.md, "Global regions"), by name.
 */
async function buildPublishQueue(run: JobRun, payload: PublishPayload): Promise<PublishItem[]> {
  const { db, fs, job, site } = run;
  const page = job.pageId ? await db.select().from(pages).where(eq(pages.id, job.pageId)).get() : undefined;
  if (!page) throw new AppError("NOT_FOUND");
  const rows: (typeof publishItems.$inferInsert)[] = [{ id: newId(), jobId: job.id, accountId: job.accountId, pageId: page.id, position: 0, name: page.name, path: page.path }];

  const bytes = new Uint8Array(await fs.read(page.path));
  run.prefetched.set(page.path, bytes);
  const { page: parsed } = parse(bytes, page.path);
  const globalIds = Object.keys(globalUpdates(parsed, payload.regions));
  if (globalIds.length > 0) {
    const candidates = await db
      .select()
      .from(pages)
      .where(and(eq(pages.siteId, site.id), eq(pages.isEnabled, true), ne(pages.id, page.id)))
      .orderBy(asc(pages.nameSort), asc(pages.id));
    const sharing = await inParallel(candidates, FAN_OUT_CONCURRENCY, async (candidate: Page) => {
      try {
        const other = new Uint8Array(await fs.read(candidate.path));
        const { page: otherParsed } = parse(other, candidate.path);
        if (!globalIds.some((id) => otherParsed.byId.get(id)?.global)) return null;
        run.prefetched.set(candidate.path, other);
        return { candidate, errorCode: null };
      } catch (error) {
        if (isTransient(error)) throw error;
        // A page that cannot be read might share the region: listed, with why it was not written.
        return { candidate, errorCode: errorCodeOf(error) };
      }
    });
    for (const entry of sharing) {
      if (!entry) continue;
      rows.push({
        id: newId(), jobId: job.id, accountId: job.accountId, pageId: entry.candidate.id, position: rows.length,
        name: entry.candidate.name, path: entry.candidate.path,
        ...(entry.errorCode ? { isProcessed: true, errorCode: entry.errorCode, processedAt: new Date() } : {}),
      });
    }
  }
  const failedAlready = rows.filter((row) => row.isProcessed).length;
  await db.batch([
    db.insert(publishItems).values(rows),
    db.update(publishJobs).set({ total: rows.length, processed: failedAlready }).where(eq(publishJobs.id, job.id)),
  ]);
  return jobItems(db, job.id);
}

async function readFresh(run: JobRun, path: string): Promise<Uint8Array> {
  const prefetched = run.prefetched.get(path);
  if (prefetched) {
    run.prefetched.delete(path);
    return prefetched;
  }
  return new Uint8Array(await run.fs.read(path));
}

/** Merges the payload into one file and writes it, or records why not (see the module comment). */
async function processPublishItem(run: JobRun, item: PublishItem, payload: PublishPayload, isMain: boolean): Promise<void> {
  const { db, env, fs, job, site } = run;
  try {
    const bytes = await readFresh(run, item.path);
    const hash = await sha256Hex(bytes);
    if (item.afterHash) {
      // An earlier run prepared this write: it landed, or it did not, or someone else wrote.
      if (hash === item.afterHash) return await itemDone(db, job, item, { unpublishedRegions: item.unpublishedRegions });
      if (hash !== item.beforeHash) return await itemFailed(db, job, item, "PAGE_CHANGED_ON_SERVER");
    } else if (isMain && payload.baseHash && hash !== payload.baseHash) {
      return await itemFailed(db, job, item, "PAGE_CHANGED_ON_SERVER");
    }

    const { page, encoding } = parse(bytes, item.path);
    const updates = isMain ? { regions: payload.regions as RegionUpdates, metadata: payload.metadata } : { regions: globalUpdates(page, payload.regions) };
    const merged = mergePage(page, updates, { pageUrl: livePageUrl(site.url, site.homeFolder, item.path), asciiOnly: encoding === "binary", allowEmbeds: true });
    const unpublishedRegions = isMain ? merged.unpublishedRegions : [];
    const output = encodePageSource(merged.source, encoding);
    const afterHash = await sha256Hex(output);
    if (afterHash === hash) return await itemDone(db, job, item, { beforeHash: hash, afterHash, unpublishedRegions });

    const backup = backupKey(job.id, item.id);
    await env.UPLOADS.put(backup, bytes);
    await db.update(publishItems).set({ beforeHash: hash, afterHash, backupKey: backup, unpublishedRegions }).where(eq(publishItems.id, item.id));
    await fs.writeAtomic(item.path, output);
    await itemDone(db, job, item, { beforeHash: hash, afterHash, backupKey: backup, unpublishedRegions });
  } catch (error) {
    if (isTransient(error)) throw error;
    if (!(error instanceof AgentError || error instanceof AppError)) console.error("publish item failed", item.path, error);
    await itemFailed(db, job, item, errorCodeOf(error));
  }
}

async function itemDone(db: Db, job: PublishJob, item: PublishItem, fields: Partial<PublishItem>): Promise<void> {
  await db.batch([
    db.update(publishItems).set({ ...fields, isProcessed: true, errorCode: null, processedAt: new Date() }).where(eq(publishItems.id, item.id)),
    db.update(publishJobs).set({ processed: sql`${publishJobs.processed} + 1` }).where(eq(publishJobs.id, job.id)),
  ]);
}

async function itemFailed(db: Db, job: PublishJob, item: PublishItem, code: ErrorCode): Promise<void> {
  await db.batch([
    db.update(publishItems).set({ isProcessed: true, errorCode: code, processedAt: new Date() }).where(eq(publishItems.id, item.id)),
    db.update(publishJobs).set({ processed: sql`${publishJobs.processed} + 1` }).where(eq(publishJobs.id, job.id)),
  ]);
}

async function finishJob(db: Db, job: PublishJob, status: "done" | "failed", errorCode: string | null): Promise<void> {
  await db.update(publishJobs).set({ status, errorCode, finishedAt: new Date() }).where(eq(publishJobs.id, job.id));
}

/**
 * The page is written: the published revision is stored with the file's before and after hashes,
 * and the draft that was published is deleted (in one batch, so neither happens alone).
 */
async function recordPublishedRevision(run: JobRun, payload: PublishPayload, main: PublishItem): Promise<void> {
  const { db, env, job } = run;
  if (!job.pageId) return;
  const already = await db.select({ id: revisions.id }).from(revisions).where(and(eq(revisions.publishJobId, job.id), eq(revisions.isDraft, false))).get();
  if (already) return;
  const stored = await storeRevisionBody(env, payload.regions);
  const insert = db.insert(revisions).values({
    pageId: job.pageId, siteId: job.siteId, accountId: job.accountId, userId: job.userId, isDraft: false,
    metadata: payload.metadata, ...stored, baseHash: payload.baseHash,
    beforeHash: main.beforeHash, afterHash: main.afterHash, publishJobId: job.id,
  });
  if (!job.revisionId) return void (await insert);
  const draft = await db.select({ id: revisions.id, bodyKey: revisions.bodyKey }).from(revisions).where(and(eq(revisions.id, job.revisionId), eq(revisions.isDraft, true))).get();
  await db.batch([insert, db.delete(revisions).where(and(eq(revisions.id, job.revisionId), eq(revisions.isDraft, true)))]);
  if (draft) await releaseRevisionBody(db, env, draft.bodyKey, draft.id);
}

/**
 * The change-notification emails (agency plan): everyone who asked to hear about the site's
 * publishes, except the publisher, gets one with a link to the live page.
 */
async function notifyChangeSubscribers(run: JobRun, main: PublishItem, locale: Locale): Promise<void> {
  const { db, env, job, site } = run;
  const account = await db.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, job.accountId)).get();
  if (account?.plan !== "agency") return;
  const subscribers = await db
    .select({ id: users.id, email: users.email })
    .from(changeNotifications)
    .innerJoin(users, eq(users.id, changeNotifications.userId))
    .where(and(eq(changeNotifications.siteId, site.id), ne(changeNotifications.userId, job.userId ?? "")));
  if (subscribers.length === 0) return;
  const publisher = job.userId ? await db.select({ name: users.name }).from(users).where(eq(users.id, job.userId)).get() : undefined;
  const strings = resources[locale].notify.changeEmail;
  const values: Record<string, string> = { page: main.name, site: site.name, user: publisher?.name ?? site.name };
  const fill = (template: string) => template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => values[key] ?? "");
  const url = livePageUrl(site.url, site.homeFolder, main.path) ?? site.url;
  const email = renderLinkEmail(locale, {
    subject: fill(strings.subject), intro: fill(strings.intro), callToAction: strings.callToAction, outro: "", footer: strings.footer, url,
  });
  for (const subscriber of subscribers) {
    await enqueueEmail({ db, env, locale }, { accountId: job.accountId, to: subscriber.email, kind: "change-notification", ...email });
  }
}

// ── rollback ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Restores the previous bytes of every file the publish wrote. A rollback item expects the file
 * to hold what the publish wrote (its `beforeHash` is the publish's after hash) and writes the
 * backup (its `afterHash` is the publish's before hash), so the same resume rules hold.
 */
async function runRollback(run: JobRun, publishJobId: string): Promise<void> {
  const { db, env, job } = run;
  let items = await jobItems(db, job.id);
  if (items.length === 0) {
    const written = (await jobItems(db, publishJobId)).filter((item) => item.isProcessed && !item.errorCode && item.backupKey && item.afterHash);
    if (written.length > 0) {
      await db.batch([
        db.insert(publishItems).values(
          written.map((item, position) => ({
            id: newId(), jobId: job.id, accountId: job.accountId, pageId: item.pageId, position, name: item.name, path: item.path,
            beforeHash: item.afterHash, afterHash: item.beforeHash, backupKey: item.backupKey,
          })) as [typeof publishItems.$inferInsert, ...(typeof publishItems.$inferInsert)[]],
        ),
        db.update(publishJobs).set({ total: written.length }).where(eq(publishJobs.id, job.id)),
      ]);
    }
    items = await jobItems(db, job.id);
  }
  await inParallel(items.filter((item) => !item.isProcessed), FAN_OUT_CONCURRENCY, async (item) => {
    try {
      const current = await sha256Hex(new Uint8Array(await run.fs.read(item.path)));
      if (current === item.afterHash) return await itemDone(db, job, item, {});
      if (current !== item.beforeHash) return await itemFailed(db, job, item, "PAGE_CHANGED_ON_SERVER");
      const backup = item.backupKey ? await env.UPLOADS.get(item.backupKey) : null;
      if (!backup) return await itemFailed(db, job, item, "PUBLISHING_ERROR");
      await run.fs.writeAtomic(item.path, new Uint8Array(await backup.arrayBuffer()));
      await itemDone(db, job, item, {});
    } catch (error) {
      if (isTransient(error)) throw error;
      await itemFailed(db, job, item, errorCodeOf(error));
    }
  });
  const finalItems = await jobItems(db, job.id);
  const restored = finalItems.some((item) => !item.errorCode);
  if (restored) await db.update(publishJobs).set({ rolledBackAt: new Date() }).where(eq(publishJobs.id, publishJobId));
  const failed = finalItems.find((item) => item.errorCode);
  await finishJob(db, job, restored || !failed ? "done" : "failed", restored ? null : (failed?.errorCode ?? null));
}

/**
 * Runs `work` over `items`, at most `limit` at once, in order of start. After a failure no new item
 * starts, and the failure is thrown only once every started item has settled: a retry must never
 * run beside a write still in flight from this run.
 */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (next < items.length && !failure) {
      const index = next++;
      try {
        results[index] = await work(items[index]);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw (failure as { error: unknown }).error;
  return results;
}
