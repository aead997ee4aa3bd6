import { z } from "zod";

/** Longer addresses are not links a person pasted into the Video panel. */
export const OEMBED_URL_MAX_LENGTH = 2048;

/** Generous for any page layout; bounds what is passed on to the provider. */
const dimension = z.coerce.number().int().positive().max(10_000).optional();

/**
 * `GET /utilities/oembed`. Only http(s) addresses go through an embed lookup (spec, validation);
 * anything else the Video panel inserts as embed code without asking. `maxwidth` and `maxheight`
 * keep the oEmbed spelling, as they are handed on to the provider.
 */
export const OembedQuery = z.object({
  url: z.url({ protocol: /^https?$/ }).trim().max(OEMBED_URL_MAX_LENGTH),
  maxwidth: dimension,
  maxheight: dimension,
});
export type OembedQuery = z.infer<typeof OembedQuery>;

/**
 * The embed the Video panel inserts: `html` is the provider's embed code (video, rich) or an
 * `<img>` built from a photo answer. The other fields are null when the provider leaves them out.
 */
export const OembedView = z.object({
  type: z.enum(["video", "rich", "photo"]),
  html: z.string(),
  title: z.string().nullable(),
  providerName: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  thumbnailUrl: z.string().nullable(),
});
export type OembedView = z.infer<typeof OembedView>;

export const OembedAnswer = z.object({ oEmbed: OembedView });
export type OembedAnswer = z.infer<typeof OembedAnswer>;
