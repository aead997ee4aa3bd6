import { z } from "zod";
import { FileHash, PageMetadata, PageRegions } from "./page-content";

export const PageParams = z.object({ siteId: z.string().min(1).max(64), pageId: z.string().min(1).max(64) });
export const PublishParams = PageParams.extend({ statusId: z.string().min(1).max(64) });

/**
 * `POST .../publish`: the spec's metadata and regions, plus two optional fields of this design:
 * the draft being published (deleted once the publish succeeds; its base hash is used when the
 * body has none) and the hash of the server file the edit was based on, so a file changed on the
 * server since then is not overwritten (PAGE_CHANGED_ON_SERVER).
 */
export const PublishBody = z
  .object({
    metadata: PageMetadata.optional(),
    regions: PageRegions.optional(),
    revisionId: z.string().min(1).max(64).optional(),
    baseHash: FileHash.optional(),
  })
  .strict();
export type PublishBody = z.infer<typeof PublishBody>;

export const PublishStarted = z.object({ statusId: z.string() });

/** Spec "Publish queue item". */
export const PublishQueueItem = z.object({
  id: z.string(),
  name: z.string(),
  path: z.string(),
  isProcessed: z.boolean(),
  errorCode: z.string().nullable(),
});

/** Spec "Publish status". */
export const PublishStatus = z.object({
  queue: z.array(PublishQueueItem),
  unpublishedRegions: z.array(z.string()),
  isRequestComplete: z.boolean(),
  errorCode: z.string().nullable(),
  total: z.number().int(),
  processed: z.number().int(),
  /**
   * An addition to the spec: the sha256 of the page's file as this publish left it (null until it
   * was written, or when it failed), so an editor that stays open publishes its next change
   * against the right base.
   */
  pageHash: z.string().nullable(),
});
export type PublishStatus = z.infer<typeof PublishStatus>;

export const PublishStatusBody = z.object({ publishStatus: PublishStatus });
