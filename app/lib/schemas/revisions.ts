import { z } from "zod";
import { FileHash, PageMetadata, PageRegions } from "./page-content";
import { PageParams } from "./publish";

/** The spec: revisions load 100 at a time; deletes run up to 10 at once. */
export const REVISIONS_PAGE_SIZE = 100;
export const MAX_REVISIONS_PER_PAGE = 1000;

export const RevisionParams = PageParams.extend({ revisionId: z.string().min(1).max(64) });

/** `GET …/revisions`: drafts first (sortBy isDraft, the only order), newest first within each. */
export const RevisionListQuery = z.object({
  limit: z.coerce.number().int().min(0).max(MAX_REVISIONS_PER_PAGE).default(REVISIONS_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  sortBy: z.enum(["isDraft"]).default("isDraft"),
});
export type RevisionListQuery = z.infer<typeof RevisionListQuery>;

/**
 * `POST …/revisions` and `PUT …/revisions/{revisionId}`: the spec's isDraft, metadata and regions,
 * plus two fields of this design:
 * - `baseHash`: the sha256 of the server file the edit started from; the publish of the draft
 *   refuses to overwrite a file that changed since (PAGE_CHANGED_ON_SERVER);
 * - `version` (PUT): the draft's version the edit started from; when another save came first the
 *   answer is 409 REVISION_CONFLICT instead of a silent overwrite. The `If-Match` header may carry
 *   it instead. Without either, the save is unconditional.
 * Only drafts are saved this way: a published revision is recorded by the publish itself.
 */
export const RevisionBody = z
  .object({
    isDraft: z.literal(true).default(true),
    metadata: PageMetadata.default({}),
    regions: PageRegions.default({}),
    baseHash: FileHash.nullable().optional(),
    version: z.number().int().min(1).optional(),
  })
  .strict();
export type RevisionBody = z.infer<typeof RevisionBody>;

const RevisionAuthor = z.object({ id: z.string(), name: z.string(), avatar: z.string().nullable() }).nullable();

/** Spec section 3, Revision (id, pageId, createdAt, isDraft, user), plus the draft's version and base. */
export const RevisionSummary = z.object({
  id: z.string(),
  pageId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  isDraft: z.boolean(),
  version: z.number().int(),
  user: RevisionAuthor,
  /** Published revisions: the publish that wrote them (its rollback is `…/publish/{statusId}/rollback`). */
  publishStatusId: z.string().nullable(),
  /** Published revisions: whether that publish was rolled back. */
  isRolledBack: z.boolean(),
});
export type RevisionSummary = z.infer<typeof RevisionSummary>;

export const RevisionDetail = RevisionSummary.extend({
  metadata: PageMetadata,
  regions: PageRegions,
  baseHash: z.string().nullable(),
});
export type RevisionDetail = z.infer<typeof RevisionDetail>;

/** `drafts`, an addition to the spec: how many of `count` are drafts (the editor's badge). */
export const RevisionList = z.object({ revisions: z.array(RevisionSummary), count: z.number(), drafts: z.number(), offset: z.number(), limit: z.number() });
export type RevisionList = z.infer<typeof RevisionList>;
export const RevisionAnswer = z.object({ revision: RevisionDetail });
export const RevisionSummaryAnswer = z.object({ revision: RevisionSummary });
