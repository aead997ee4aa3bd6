/**
 * Publishing, as the API sees it: start a publish, read its status, roll it back. The work itself
 * runs in the site's publish queue (workers/site-publisher.ts → publish-runner.server.ts), so these
 * operations only check the rules, record the job and hand it over.
 */
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { pages, permissionPages, publishItems, publishJobs, revisions, sitePermissions, type Page, type Site } from "../../db/schema";
import { newId } from "../../db/ids";
import { AppError } from "~/lib/errors";
import type { PublishBody, PublishStatus } from "~/lib/schemas/publish";
import type { ServiceContext } from "./context.server";
import { isAccountAdmin, requireSignedIn } from "./policy";
import { findAccessibleSite } from "./site-files.server";
import { publishPayloadKey, type PublishPayload } from "./publish-runner.server";
import { loadRevisionBody } from "./revision-bodies.server";

/**
 * A job that has neither finished nor been touched for this long no longer blocks a new publish
 * of its page: the queue resumes jobs by alarm, so only a job whose site queue was lost stays.
 */
const STALE_JOB_MS = 15 * 60 * 1000;

/**
 * The page, if the actor may edit it: admins every page of a site they reach, client users the
 * pages of their grant (all pages, or the ones it lists). Disabled pages are not editable.
 */
export async function findEditablePage(ctx: ServiceContext, site: Site, pageId: string): Promise<Page> {
  const actor = requireSignedIn(ctx);
  const page = await ctx.db
    .select()
    .from(pages)
    .where(and(eq(pages.id, pageId), eq(pages.siteId, site.id), eq(pages.accountId, site.accountId), eq(pages.isEnabled, true)))
    .get();
  if (!page) throw new AppError("NOT_FOUND");
  if (isAccountAdmin(actor.user)) return page;
  const grant = await ctx.db
    .select({ id: sitePermissions.id, allPages: sitePermissions.allPages })
    .from(sitePermissions)
    .where(and(eq(sitePermissions.siteId, site.id), eq(sitePermissions.userId, actor.user.id)))
    .get();
  if (grant?.allPages) return page;
  const listed = grant
    ? await ctx.db
        .select({ pageId: permissionPages.pageId })
        .from(permissionPages)
        .where(and(eq(permissionPages.permissionId, grant.id), eq(permissionPages.pageId, page.id)))
        .get()
    : undefined;
  if (!listed) throw new AppError("NOT_FOUND");
  return page;
}

/** The rules every write to a site's live files obeys: not in lockdown, and the plan allows the site. */
export function assertPublishable(ctx: ServiceContext, site: Site): void {
  const actor = requireSignedIn(ctx);
  if (site.isLocked) throw new AppError("SITE_IS_LOCKED");
  // DECISIONS.md, "Commercial-site check": drafts still save; only the publish is refused.
  if (site.classification === "commercial" && actor.account.plan === "personal") throw new AppError("UPGRADE_REQUIRED");
}

/**
 * Inserts the job unless one for the same page is still queued or running, in one statement, so
 * two concurrent publishes of a page cannot both get in (D1 runs statements one at a time).
 */
async function insertJobExclusively(ctx: ServiceContext, job: { id: string; site: Site; pageId: string; userId: string; revisionId: string | null; rollsBackJobId: string | null }): Promise<boolean> {
  const now = Date.now();
  const result = await ctx.db.run(sql`
    INSERT INTO ${publishJobs} (id, site_id, page_id, account_id, user_id, revision_id, rolls_back_job_id, status, total, processed, created_at)
    SELECT ${job.id}, ${job.site.id}, ${job.pageId}, ${job.site.accountId}, ${job.userId}, ${job.revisionId}, ${job.rollsBackJobId}, 'queued', 0, 0, ${now}
    WHERE NOT EXISTS (
      SELECT 1 FROM ${publishJobs}
      WHERE page_id = ${job.pageId} AND status IN ('queued', 'running') AND created_at > ${now - STALE_JOB_MS}
    )`);
  return result.meta.changes === 1;
}

/**
 * PUBLISH_IN_PROGRESS while a publish of the page is queued or running (and not stale): another
 * write to the page's file (the source editor's save) waits for it.
 */
export async function assertNotPublishing(ctx: ServiceContext, pageId: string): Promise<void> {
  const running = await ctx.db
    .select({ id: publishJobs.id })
    .from(publishJobs)
    .where(and(eq(publishJobs.pageId, pageId), inArray(publishJobs.status, ["queued", "running"]), gt(publishJobs.createdAt, new Date(Date.now() - STALE_JOB_MS))))
    .get();
  if (running) throw new AppError("PUBLISH_IN_PROGRESS");
}

async function enqueue(ctx: ServiceContext, siteId: string, jobId: string): Promise<void> {
  await ctx.env.SITE_PUBLISHER.getByName(siteId).enqueue(jobId, siteId);
}

/**
 * `POST /sites/{siteId}/pages/{pageId}/publish`: checks the rules, records the job and queues it
 * on the site; answers the `statusId` to poll. The draft named by `revisionId` is kept until the
 * publish has written the page.
 *
 * @example const { statusId } = await startPublish(ctx, site.id, page.id, { regions: { intro: { type: "inline", content: "Hi" } } });
 */
export async function startPublish(ctx: ServiceContext, siteId: string, pageId: string, body: PublishBody): Promise<{ statusId: string }> {
  const actor = requireSignedIn(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  const page = await findEditablePage(ctx, site, pageId);
  assertPublishable(ctx, site);

  let baseHash = body.baseHash ?? null;
  let metadata = body.metadata;
  let regions = body.regions;
  if (body.revisionId) {
    const draft = await ctx.db
      .select()
      .from(revisions)
      .where(and(eq(revisions.id, body.revisionId), eq(revisions.pageId, page.id), eq(revisions.isDraft, true)))
      .get();
    if (!draft) throw new AppError("VALIDATION_ERROR", { invalid: ["revisionId"] });
    baseHash ??= draft.baseHash;
    // Naming a draft alone publishes what it holds.
    metadata ??= draft.metadata ?? {};
    regions ??= await loadRevisionBody(ctx.env, draft);
  }

  const payload: PublishPayload = { metadata: metadata ?? {}, regions: regions ?? {}, baseHash, locale: ctx.locale };
  const id = newId();
  // The payload first: a job row is only ever visible with its payload in place.
  await ctx.env.UPLOADS.put(publishPayloadKey(id), JSON.stringify(payload));
  const inserted = await insertJobExclusively(ctx, { id, site, pageId: page.id, userId: actor.user.id, revisionId: body.revisionId ?? null, rollsBackJobId: null });
  if (!inserted) {
    await ctx.env.UPLOADS.delete(publishPayloadKey(id));
    throw new AppError("PUBLISH_IN_PROGRESS");
  }
  await enqueue(ctx, site.id, id);
  return { statusId: id };
}

async function findJob(ctx: ServiceContext, siteId: string, pageId: string, statusId: string) {
  const site = await findAccessibleSite(ctx, siteId);
  const page = await findEditablePage(ctx, site, pageId);
  const job = await ctx.db
    .select()
    .from(publishJobs)
    .where(and(eq(publishJobs.id, statusId), eq(publishJobs.siteId, site.id), eq(publishJobs.pageId, page.id)))
    .get();
  if (!job) throw new AppError("NOT_FOUND");
  return { site, page, job };
}

/**
 * `GET /sites/{siteId}/pages/{pageId}/publish/{statusId}`: the spec's publish status, read from
 * the job's durable record.
 */
export async function getPublishStatus(ctx: ServiceContext, siteId: string, pageId: string, statusId: string): Promise<{ publishStatus: PublishStatus }> {
  const { job } = await findJob(ctx, siteId, pageId, statusId);
  const items = await ctx.db.select().from(publishItems).where(eq(publishItems.jobId, job.id)).orderBy(asc(publishItems.position));
  const unpublished = new Set<string>();
  for (const item of items) for (const id of item.unpublishedRegions ?? []) unpublished.add(id);
  return {
    publishStatus: {
      queue: items.map((item) => ({ id: item.id, name: item.name, path: item.path, isProcessed: item.isProcessed, errorCode: item.errorCode })),
      unpublishedRegions: [...unpublished],
      isRequestComplete: job.status === "done" || job.status === "failed",
      errorCode: job.errorCode,
      total: job.total,
      processed: job.processed,
      pageHash: items[0] && items[0].isProcessed && !items[0].errorCode ? items[0].afterHash : null,
    },
  };
}

/**
 * `POST /sites/{siteId}/pages/{pageId}/publish/{statusId}/rollback` (admins): queues a job that
 * puts back the previous bytes of every file the publish wrote, each only while the server still
 * has what the publish wrote (else PAGE_CHANGED_ON_SERVER for that file). Answers the rollback's
 * own `statusId`, polled like a publish.
 */
export async function rollbackPublish(ctx: ServiceContext, siteId: string, pageId: string, statusId: string): Promise<{ statusId: string }> {
  const actor = requireSignedIn(ctx);
  if (!isAccountAdmin(actor.user)) throw new AppError("FORBIDDEN");
  const { site, page, job } = await findJob(ctx, siteId, pageId, statusId);
  if (job.rollsBackJobId || job.status !== "done" || job.rolledBackAt) throw new AppError("VALIDATION_ERROR", { invalid: ["statusId"] });
  const written = await ctx.db
    .select({ id: publishItems.id })
    .from(publishItems)
    .where(and(eq(publishItems.jobId, job.id), eq(publishItems.isProcessed, true)))
    .limit(1)
    .get();
  if (!written) throw new AppError("VALIDATION_ERROR", { invalid: ["statusId"] });
  if (site.isLocked) throw new AppError("SITE_IS_LOCKED");

  const id = newId();
  const inserted = await insertJobExclusively(ctx, { id, site, pageId: page.id, userId: actor.user.id, revisionId: null, rollsBackJobId: job.id });
  if (!inserted) throw new AppError("PUBLISH_IN_PROGRESS");
  await enqueue(ctx, site.id, id);
  return { statusId: id };
}

/** Jobs of a site still waiting or running, oldest first: what the queue must (still) run. */
export async function unfinishedJobIds(db: ServiceContext["db"], siteId: string): Promise<string[]> {
  const rows = await db
    .select({ id: publishJobs.id })
    .from(publishJobs)
    .where(and(eq(publishJobs.siteId, siteId), inArray(publishJobs.status, ["queued", "running"])))
    .orderBy(asc(publishJobs.createdAt));
  return rows.map((row) => row.id);
}
