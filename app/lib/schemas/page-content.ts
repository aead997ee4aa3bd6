import { z } from "zod";

/**
 * The two objects drafts, revisions and publishes carry (EDITING-MODEL.md, "The region payload of
 * the API"). Shapes only: what a region's content may contain is decided by the region core's
 * sanitiser for that region type when it is merged.
 */
export const PageMetadata = z
  .object({
    title: z.string().max(1_000),
    description: z.string().max(5_000),
    image: z.string().max(4_096),
    robots: z.boolean(),
    type: z.string().max(100),
    url: z.string().max(4_096),
  })
  .partial()
  .strict();
export type PageMetadata = z.infer<typeof PageMetadata>;

const MAX_CONTENT = 2 * 1024 * 1024;
const text = (max = 4_096) => z.string().max(max);

export const RegionContent = z.discriminatedUnion("type", [
  z.object({ type: z.enum(["block", "inline", "text", "gallery"]), content: text(MAX_CONTENT) }).strict(),
  z.object({ type: z.literal("image"), src: text(), alt: text() }).strict(),
  z.object({ type: z.literal("link"), href: text(), title: text(), target: text(100), rel: text(200), content: text(MAX_CONTENT) }).strict(),
  z
    .object({ type: z.literal("background"), backgroundImage: text(), backgroundColor: text(100), backgroundSize: text(100), backgroundRepeat: text(100) })
    .strict(),
]);
export type RegionContent = z.infer<typeof RegionContent>;

/** Region id → content; only the regions present are written. */
export const PageRegions = z.record(z.string().min(1).max(200), RegionContent).refine((regions) => Object.keys(regions).length <= 2_000, {
  message: "At most 2000 regions",
});
export type PageRegions = z.infer<typeof PageRegions>;

/** sha256 of a server file's bytes, lowercase hex: the base a draft was made from. */
export const FileHash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * `GET /sites/{siteId}/pages/{pageId}/regions` (EDITING-MODEL.md, last section), plus the hash of
 * the file read, to publish against (`baseHash`).
 */
export const PageRegionsAnswer = z.object({
  metadata: z.object({ title: z.string(), description: z.string(), image: z.string(), robots: z.boolean(), type: z.string(), url: z.string() }),
  regions: z.record(z.string(), z.object({ type: z.string(), global: z.boolean() }).passthrough()),
  problems: z.array(z.object({ id: z.string().nullable(), problem: z.enum(["MISSING_ID", "DUPLICATE_ID", "UNSUPPORTED_ELEMENT"]), element: z.string() })),
  baseHash: z.string(),
});
