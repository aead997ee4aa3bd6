import { z } from "zod";
import { AppError } from "~/lib/errors";
import { escapeAttribute } from "~/lib/regions/entities";
import type { OembedAnswer, OembedView } from "~/lib/schemas/oembed";
import type { ServiceContext } from "./context.server";
import { requireSignedIn } from "./policy";

/** An oEmbed provider (https://oembed.com, section 2): its API endpoint and the URL schemes it serves. */
export interface OembedProvider {
  name: string;
  endpoint: string;
  schemes: readonly string[];
}

/**
 * The providers asked when `OEMBED_PROVIDERS` is empty: their public endpoints, as listed at
 * https://oembed.com/providers.json. http:// addresses match the https:// schemes too.
 */
export const DEFAULT_OEMBED_PROVIDERS: readonly OembedProvider[] = [
  {
    name: "YouTube",
    endpoint: "https://www.youtube.com/oembed",
    schemes: [
      "https://*.youtube.com/watch*",
      "https://*.youtube.com/v/*",
      "https://*.youtube.com/embed/*",
      "https://*.youtube.com/shorts/*",
      "https://*.youtube.com/live/*",
      "https://*.youtube.com/playlist?list=*",
      "https://youtu.be/*",
      "https://*.youtube-nocookie.com/embed/*",
    ],
  },
  { name: "Vimeo", endpoint: "https://vimeo.com/api/oembed.json", schemes: ["https://vimeo.com/*", "https://player.vimeo.com/video/*"] },
  { name: "Dailymotion", endpoint: "https://www.dailymotion.com/services/oembed", schemes: ["https://*.dailymotion.com/video/*", "https://dai.ly/*"] },
  { name: "SoundCloud", endpoint: "https://soundcloud.com/oembed", schemes: ["https://*.soundcloud.com/*", "https://soundcloud.app.goo.gl/*"] },
  { name: "Spotify", endpoint: "https://open.spotify.com/oembed", schemes: ["https://open.spotify.com/*", "https://spotify.link/*"] },
  { name: "TED", endpoint: "https://www.ted.com/services/v1/oembed.json", schemes: ["https://*.ted.com/talks/*"] },
  { name: "Flickr", endpoint: "https://www.flickr.com/services/oembed/", schemes: ["https://*.flickr.com/photos/*", "https://flic.kr/p/*", "https://flic.kr/s/*"] },
  { name: "SlideShare", endpoint: "https://www.slideshare.net/api/oembed/2", schemes: ["https://*.slideshare.net/*/*"] },
  { name: "Mixcloud", endpoint: "https://app.mixcloud.com/oembed/", schemes: ["https://*.mixcloud.com/*/*"] },
  { name: "Kickstarter", endpoint: "https://www.kickstarter.com/services/oembed", schemes: ["https://*.kickstarter.com/projects/*", "https://kck.st/*"] },
];

const LOOKUP_TIMEOUT_MS = 5000;
/** Real answers are a few KB; the cap keeps a broken or hostile provider from filling the Worker's memory. */
export const OEMBED_MAX_ANSWER_BYTES = 256 * 1024;

const ProviderList = z.array(
  z.object({
    name: z.string().min(1),
    endpoint: z.url({ protocol: /^https?$/ }),
    schemes: z.array(z.string().min(1)).min(1),
  }),
);

/** `OEMBED_PROVIDERS` (wrangler.toml): empty for the defaults, else a JSON list that replaces them. */
function configuredProviders(env: { OEMBED_PROVIDERS?: string }): readonly OembedProvider[] {
  const raw = env.OEMBED_PROVIDERS?.trim() ?? "";
  if (raw === "") return DEFAULT_OEMBED_PROVIDERS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new Error("OEMBED_PROVIDERS is not valid JSON: set it to a JSON array of { name, endpoint, schemes }, or to \"\" for the built-in providers", { cause: error });
  }
  const result = ProviderList.safeParse(parsed);
  if (!result.success) {
    throw new Error(`OEMBED_PROVIDERS must be a JSON array of { name, endpoint, schemes }: ${z.prettifyError(result.error)}`);
  }
  return result.data;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * An oEmbed URL scheme as a regular expression. In the host a `*` stands for whole DNS labels
 * only, so `https://*.youtube.com/*` cannot be met by `https://evil.example/?x.youtube.com/`,
 * and a leading `*.` also matches the bare domain (providers answer for both). In the path and
 * query a `*` matches anything. http and https are interchangeable: lists name one or the other.
 */
function schemePattern(scheme: string): RegExp | null {
  const parts = /^https?:\/\/([^/?#]+)(.*)$/i.exec(scheme.trim());
  if (!parts) return null;
  let host = parts[1].toLowerCase();
  let hostPattern = "";
  if (host.startsWith("*.")) {
    hostPattern = "(?:[a-z0-9-]+\\.)*";
    host = host.slice(2);
  }
  hostPattern += host.split("*").map(escapeRegExp).join("[a-z0-9-]+");
  const pathPattern = (parts[2] || "/").split("*").map(escapeRegExp).join(".*");
  return new RegExp(`^https?://${hostPattern}${pathPattern}$`);
}

/**
 * The first provider with a scheme matching the address, or null.
 *
 * @example findOembedProvider(new URL("https://youtu.be/dQw4w9WgXcQ"))?.endpoint // "https://www.youtube.com/oembed"
 */
export function findOembedProvider(url: URL, providers: readonly OembedProvider[] = DEFAULT_OEMBED_PROVIDERS): OembedProvider | null {
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  // Without the fragment, which is never sent to a server.
  const address = `${url.protocol}//${url.host}${url.pathname}${url.search}`;
  return providers.find((provider) => provider.schemes.some((scheme) => schemePattern(scheme)?.test(address))) ?? null;
}

/** Width and height: the spec says integers, some providers send numeric strings or "100%". */
const dimension = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((value) => {
    const number = typeof value === "string" ? Number(value) : value;
    return typeof number === "number" && Number.isFinite(number) && number > 0 ? Math.round(number) : null;
  })
  .catch(null);
const optionalText = z.string().nullish().catch(null);

/** The fields of an oEmbed 1.0 answer (section 2.3.4) that the embed needs; the rest is ignored. */
const ProviderAnswer = z.object({
  type: z.string(),
  html: optionalText,
  url: optionalText,
  title: optionalText,
  provider_name: optionalText,
  thumbnail_url: optionalText,
  width: dimension,
  height: dimension,
});

function isHttpUrl(value: string | null | undefined): value is string {
  if (!value) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

/** The body as text, or null once it passes `limit` bytes: counted as it streams, since Content-Length may lie or be absent. */
async function readCapped(response: Response, limit: number): Promise<string | null> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => undefined);
      return null;
    }
    text += decoder.decode(value, { stream: true });
  }
}

/** The embed of a usable answer, or null for `link` and unknown types or a missing html/photo URL. */
function toEmbed(answer: z.infer<typeof ProviderAnswer>, provider: OembedProvider): OembedView | null {
  const common = {
    title: answer.title ?? null,
    providerName: answer.provider_name ?? provider.name,
    width: answer.width,
    height: answer.height,
    thumbnailUrl: isHttpUrl(answer.thumbnail_url) ? answer.thumbnail_url : null,
  };
  if (answer.type === "video" || answer.type === "rich") {
    const html = answer.html?.trim();
    return html ? { type: answer.type, html, ...common } : null;
  }
  if (answer.type === "photo") {
    if (!isHttpUrl(answer.url)) return null;
    const size = `${answer.width ? ` width="${answer.width}"` : ""}${answer.height ? ` height="${answer.height}"` : ""}`;
    const html = `<img src="${escapeAttribute(answer.url)}" alt="${escapeAttribute(answer.title ?? "")}"${size}>`;
    return { type: "photo", html, ...common };
  }
  return null;
}

/**
 * `GET /utilities/oembed`: the embed code of a video or post address, from the oEmbed endpoint of
 * the provider whose URL schemes match it (spec, page editing: the Video panel). Only that
 * configured endpoint is contacted, never the address itself, so a user cannot make the Worker
 * fetch a URL of their choosing. Any failure (no provider, unreachable, slow, not 200, too large,
 * not JSON, a `link` answer) is OEMBED_LOOKUP_FAILED, upon which the panel inserts the raw text.
 * `OEMBED_PROVIDERS` (wrangler.toml) replaces the built-in providers, e.g. with a local server in
 * the tests; an invalid value is a configuration error, thrown as such.
 *
 * @example const { oEmbed } = await lookupOembed(ctx, { url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", maxWidth: 640 });
 * // oEmbed.type === "video", oEmbed.html === '<iframe width="640" … src="https://www.youtube.com/embed/dQw4w9WgXcQ?feature=oembed" …></iframe>'
 */
export async function lookupOembed(
  ctx: ServiceContext,
  input: { url: string; maxWidth?: number; maxHeight?: number },
  options: { timeoutMs?: number } = {},
): Promise<OembedAnswer> {
  requireSignedIn(ctx);
  const providers = configuredProviders(ctx.env as { OEMBED_PROVIDERS?: string });
  const url = URL.canParse(input.url) ? new URL(input.url) : null;
  const provider = url && findOembedProvider(url, providers);
  if (!url || !provider) throw new AppError("OEMBED_LOOKUP_FAILED");

  // providers.json writes some endpoints as ".../oembed.{format}".
  const endpoint = new URL(provider.endpoint.replace("{format}", "json"));
  endpoint.searchParams.set("url", url.href);
  endpoint.searchParams.set("format", "json");
  if (input.maxWidth) endpoint.searchParams.set("maxwidth", String(input.maxWidth));
  if (input.maxHeight) endpoint.searchParams.set("maxheight", String(input.maxHeight));

  let embed: OembedView | null;
  try {
    // "manual", not "error": workerd refuses redirect "error". A redirect is not 200, so it fails
    // below without being followed to wherever the provider (or the address) points.
    const response = await fetch(endpoint, {
      headers: { Accept: "application/json" },
      redirect: "manual",
      signal: AbortSignal.timeout(options.timeoutMs ?? LOOKUP_TIMEOUT_MS),
    });
    if (response.status !== 200) {
      response.body?.cancel().catch(() => undefined);
      throw new Error(`the provider answered ${response.status}`);
    }
    const text = await readCapped(response, OEMBED_MAX_ANSWER_BYTES);
    if (text === null) throw new Error(`the answer is larger than ${OEMBED_MAX_ANSWER_BYTES} bytes`);
    embed = toEmbed(ProviderAnswer.parse(JSON.parse(text)), provider);
  } catch (error) {
    throw new AppError("OEMBED_LOOKUP_FAILED", { cause: error });
  }
  if (!embed) throw new AppError("OEMBED_LOOKUP_FAILED");
  return { oEmbed: embed };
}
