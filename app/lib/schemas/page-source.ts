import { z } from "zod";
import { FileHash } from "./page-content";

/** DECISIONS.md: a page file read for editing is at most 5 MB. */
export const MAX_SOURCE_CHARS = 5 * 1024 * 1024;

/**
 * `PUT /sites/{siteId}/pages/{pageId}/source`: the new source, and (an addition to the spec) the
 * hash of the file it was opened from, so a file changed on the server since is not overwritten.
 */
export const PageSourceBody = z.object({ source: z.string().max(MAX_SOURCE_CHARS), baseHash: FileHash.optional() }).strict();
export type PageSourceBody = z.infer<typeof PageSourceBody>;

export const PageSourceAnswer = z.object({ source: z.string(), baseHash: z.string() });
