/**
 * A page's revisions (spec: `/sites/{siteId}/pages/{pageId}/revisions`): drafts, saved from the
 * editor or by a script with an API token, and published revisions, recorded by the publish that
 * wrote them. Drafts come first, newest first, 100 a load.
 *
 * Two editors never silently overwrite each other's draft: every save bumps the draft's `version`,
 * and a save that names the version it started from is refused with REVISION_CONFLICT when another
 * save came first (one conditional UPDATE, so two concurrent saves cannot both pass).
 */
import { and, count, desc, eq, sql, type SQL } from "drizzle-orm";
import { publishJobs, revisions, users, type Page, type Site } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { RevisionBody, RevisionDetail, RevisionList, RevisionListQuery, RevisionSummary } from "~/lib/schemas/revisions";
import { auditStatement } from "./audit.server";
import type { ServiceContext } from "./context.server";
import type { Db } from "./db.server";
import { isAccountAdmin, requireSignedIn } from "./policy";
import { findEditablePage } from "./publish.server";
import { loadRevisionBody, releaseRevisionBody, storeRevisionBody } from "./revision-bodies.server";
import { findAccessibleSite } from "./site-files.server";

const summaryColumns = {
  id: revisions.id,
  pageId: revisions.pageId,
  createdAt: revisions.createdAt,
  updatedAt: revisions.updatedAt,
  isDraft: revisions.isDraft,
  version: revisions.version,
  publishJobId: revisions.publishJobId,
  rolledBackAt: publishJobs.rolledBackAt,
  user: { id: users.id, name: users.name, avatar: users.avatar },
};

type SummaryRow = {
  id: string;
  pageId: string;
  createdAt: Date;
  updatedAt: Date;
  isDraft: boolean;
  version: number;
  publishJobId: string | null;
  rolledBackAt: Date | null;
  user: { id: string; name: string; avatar: string | null } | null;
};

function toSummary(row: SummaryRow): RevisionSummary {
  return {
    id: row.id,
    pageId: row.pageId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    isDraft: row.isDraft,
    version: row.version,
    user: row.user ? { id: row.user.id, name: row.user.name, avatar: row.user.avatar ?? null } : null,
    publishStatusId: row.isDraft ? null : row.publishJobId,
    isRolledBack: !row.isDraft && row.rolledBackAt !== null,
  };
}

/** The page, if the actor may edit it (NOT_FOUND otherwise, so ids reveal nothing). */
async function openPage(ctx: ServiceContext, siteId: string, pageId: string): Promise<{ site: Site; page: Page }> {
  const site = await findAccessibleSite(ctx, siteId);
  const page = await findEditablePage(ctx, site, pageId);
  return { site, page };
}

const ofPage = (page: Page, ...more: SQL[]) => and(eq(revisions.pageId, page.id), eq(revisions.siteId, page.siteId), eq(revisions.accountId, page.accountId), ...more);

/** One revision's summary and what its detail adds (its body still where it is stored). */
async function revisionRow(db: Db, page: Page, revisionId: string) {
  return db
    .select({ ...summaryColumns, metadata: revisions.metadata, regions: revisions.regions, bodyKey: revisions.bodyKey, baseHash: revisions.baseHash })
    .from(revisions)
    .leftJoin(users, eq(users.id, revisions.userId))
    .leftJoin(publishJobs, eq(publishJobs.id, revisions.publishJobId))
    .where(ofPage(page, eq(revisions.id, revisionId)))
    .get();
}

/**
 * `GET /sites/{siteId}/pages/{pageId}/revisions`: drafts first, then published revisions, newest
 * first within each; `limit` 0 answers the count only.
 *
 * @example const { revisions } = await listRevisions(ctx, siteId, pageId, { limit: 100, offset: 0, sortBy: "isDraft" });
 */
export async function listRevisions(ctx: ServiceContext, siteId: string, pageId: string, query: RevisionListQuery): Promise<RevisionList> {
  const { page } = await openPage(ctx, siteId, pageId);
  const where = ofPage(page);
  const total = ctx.db.select({ n: count(), drafts: sql<number>`coalesce(sum(${revisions.isDraft}), 0)` }).from(revisions).where(where).get();
  if (query.limit === 0) {
    const counted = await total;
    return { revisions: [], count: counted?.n ?? 0, drafts: counted?.drafts ?? 0, offset: query.offset, limit: 0 };
  }
  const [rows, counted] = await Promise.all([
    ctx.db
      .select(summaryColumns)
      .from(revisions)
      .leftJoin(users, eq(users.id, revisions.userId))
      .leftJoin(publishJobs, eq(publishJobs.id, revisions.publishJobId))
      .where(where)
      // The index revisions_page_idx (page_id, is_draft, created_at) serves this order.
      .orderBy(desc(revisions.isDraft), desc(revisions.createdAt), desc(revisions.id))
      .limit(query.limit)
      .offset(query.offset),
    total,
  ]);
  return { revisions: rows.map(toSummary), count: counted?.n ?? 0, drafts: counted?.drafts ?? 0, offset: query.offset, limit: query.limit };
}

/**
 * A revision of a page the caller has already opened for the actor (with its metadata and
 * regions), or NOT_FOUND.
 * @example const revision = await revisionOfPage(ctx, page, revisionId);
 */
export async function revisionOfPage(ctx: Pick<ServiceContext, "db" | "env">, page: Page, revisionId: string): Promise<RevisionDetail> {
  const row = await revisionRow(ctx.db, page, revisionId);
  if (!row) throw new AppError("NOT_FOUND");
  return { ...toSummary(row), metadata: row.metadata ?? {}, regions: await loadRevisionBody(ctx.env, row), baseHash: row.baseHash };
}

/** `GET /sites/{siteId}/pages/{pageId}/revisions/{revisionId}`: the revision with its metadata and regions. */
export async function getRevision(ctx: ServiceContext, siteId: string, pageId: string, revisionId: string): Promise<{ revision: RevisionDetail }> {
  const { page } = await openPage(ctx, siteId, pageId);
  return { revision: await revisionOfPage(ctx, page, revisionId) };
}

/**
 * NOT_FOUND unless the page has this revision (its body is not read).
 * @example await assertRevisionOfPage(ctx.db, page, revisionId);
 */
export async function assertRevisionOfPage(db: Db, page: Page, revisionId: string): Promise<void> {
  const row = await db.select({ id: revisions.id }).from(revisions).where(ofPage(page, eq(revisions.id, revisionId))).get();
  if (!row) throw new AppError("NOT_FOUND");
}

/** Drafts are editing: a site on lockdown takes none (SITE_IS_LOCKED). */
function assertEditable(site: Site): void {
  if (site.isLocked) throw new AppError("SITE_IS_LOCKED");
}

/**
 * `POST /sites/{siteId}/pages/{pageId}/revisions`: saves a new draft of the page.
 *
 * @example const { revision } = await createRevision(ctx, siteId, pageId, { isDraft: true, metadata: {}, regions: { intro: { type: "inline", content: "Hi" } } });
 */
export async function createRevision(ctx: ServiceContext, siteId: string, pageId: string, body: RevisionBody): Promise<{ revision: RevisionDetail }> {
  const actor = requireSignedIn(ctx);
  const { site, page } = await openPage(ctx, siteId, pageId);
  assertEditable(site);
  const stored = await storeRevisionBody(ctx.env, body.regions);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(revisions)
      .values({ pageId: page.id, siteId: site.id, accountId: site.accountId, userId: actor.user.id, isDraft: true, metadata: body.metadata, ...stored, baseHash: body.baseHash ?? null })
      .returning({ id: revisions.id }),
    auditStatement(ctx, { action: "revision.create", entity: "revision", entityId: null, details: { siteId: site.id, pageId: page.id } }),
  ]);
  return { revision: await revisionOfPage(ctx, page, row.id) };
}

/**
 * `PUT /sites/{siteId}/pages/{pageId}/revisions/{revisionId}`: saves over a draft. With the version
 * the edit started from (`body.version` or `If-Match`), a draft saved by someone else in between
 * answers REVISION_CONFLICT and is left as it is.
 *
 * @example await updateRevision(ctx, siteId, pageId, revisionId, { isDraft: true, metadata, regions, version: 3 });
 */
export async function updateRevision(ctx: ServiceContext, siteId: string, pageId: string, revisionId: string, body: RevisionBody, ifMatch?: number): Promise<{ revision: RevisionDetail }> {
  const actor = requireSignedIn(ctx);
  const { site, page } = await openPage(ctx, siteId, pageId);
  assertEditable(site);
  const current = await ctx.db.select({ isDraft: revisions.isDraft, bodyKey: revisions.bodyKey }).from(revisions).where(ofPage(page, eq(revisions.id, revisionId))).get();
  if (!current) throw new AppError("NOT_FOUND");
  // A published revision is history: saving from it makes a new draft (the spec's save rule).
  if (!current.isDraft) throw new AppError("VALIDATION_ERROR", { invalid: ["revisionId"] });
  const expected = body.version ?? ifMatch;
  const stored = await storeRevisionBody(ctx.env, body.regions);
  const conditions = [eq(revisions.id, revisionId), eq(revisions.isDraft, true)];
  if (expected !== undefined) conditions.push(eq(revisions.version, expected));
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(revisions)
      .set({
        metadata: body.metadata, ...stored, userId: actor.user.id, version: sql`${revisions.version} + 1`,
        ...(body.baseHash !== undefined ? { baseHash: body.baseHash } : {}),
      })
      .where(ofPage(page, ...conditions))
      .returning({ id: revisions.id }),
    auditStatement(ctx, { action: "revision.update", entity: "revision", entityId: revisionId, details: { siteId: site.id, pageId: page.id } }),
  ]);
  if (updated.length === 0) {
    if (stored.bodyKey !== current.bodyKey) await releaseRevisionBody(ctx.db, ctx.env, stored.bodyKey, revisionId);
    throw new AppError("REVISION_CONFLICT");
  }
  if (current.bodyKey !== stored.bodyKey) await releaseRevisionBody(ctx.db, ctx.env, current.bodyKey, revisionId);
  return { revision: await revisionOfPage(ctx, page, revisionId) };
}

/**
 * `DELETE /sites/{siteId}/pages/{pageId}/revisions/{revisionId}`: anyone who may edit the page
 * deletes its drafts; published revisions, the page's history, only admins. Answers the revision.
 */
export async function deleteRevision(ctx: ServiceContext, siteId: string, pageId: string, revisionId: string): Promise<{ revision: RevisionSummary }> {
  const actor = requireSignedIn(ctx);
  const { site, page } = await openPage(ctx, siteId, pageId);
  const summary = await revisionRow(ctx.db, page, revisionId);
  if (!summary) throw new AppError("NOT_FOUND");
  if (!summary.isDraft && !isAccountAdmin(actor.user)) throw new AppError("FORBIDDEN");
  await ctx.db.batch([
    ctx.db.delete(revisions).where(ofPage(page, eq(revisions.id, revisionId))),
    auditStatement(ctx, { action: "revision.delete", entity: "revision", entityId: revisionId, details: { siteId: site.id, pageId: page.id, isDraft: summary.isDraft } }),
  ]);
  await releaseRevisionBody(ctx.db, ctx.env, summary.bodyKey, revisionId);
  return { revision: toSummary(summary) };
}

/**
 * The page's drafts, counted (the editor's Drafts & Revisions badge).
 * @example const drafts = await countDrafts(ctx, page);
 */
export async function countDrafts(ctx: ServiceContext, page: Page): Promise<number> {
  const row = await ctx.db.select({ n: count() }).from(revisions).where(ofPage(page, eq(revisions.isDraft, true))).get();
  return row?.n ?? 0;
}
