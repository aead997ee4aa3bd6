/**
 * Gallery thumbnails (`POST /sites/{siteId}/files/thumbnails`): each image a gallery shows, found by
 * the URL its page uses for it, scaled into a box and written into the `thumbnails` folder of the
 * site's upload folder as `{name}-{width}x{height}-{resize}.{ext}`, replacing an older one of that
 * name (thumbnails are derived files). Who may make them, the lockdown and the write itself (staged
 * in R2 for the agent) are those of uploads (site-file-changes.server.ts).
 *
 * Images are decoded and scaled in the Worker with Photon (WebAssembly). Its memory is not garbage
 * collected and counts toward the isolate's 128 MB at 4 bytes a decoded pixel, so a source is read
 * up to 25 MB, its size is read from its header and refused past 12 megapixels before any pixel is
 * decoded, and every Photon image is freed as soon as the next step has been made from it. SVG is
 * not rasterised: a vector image is its own thumbnail.
 *
 * @example
 * await createThumbnails(ctx, siteId, { urls: ["images/a.jpg"], path: "/index.html", width: 256, height: 256, resize: "cover" });
 * // { thumbnails: [{ path: "/uploads/thumbnails/a-256x256-cover.jpg", sourceUrl: "images/a.jpg" }] }
 */
import type * as Photon from "@cf-wasm/photon";
import type { PhotonImage } from "@cf-wasm/photon";
import { AgentError } from "../../agent/src/errors.ts";
import { baseName, normaliseFolder, parentOf } from "../../agent/src/paths.ts";
import type { RemoteFs } from "../../agent/src/remote-fs.ts";
import type { Site } from "../../db/schema";
import { AppError } from "~/lib/errors";
import { extensionOf } from "~/lib/page-url";
import { GALLERY_IMAGE_EXTENSIONS, type Thumbnail, type ThumbnailsBody } from "~/lib/schemas/site-files";
import type { ServiceContext } from "./context.server";
import { homePath, MAX_UPLOAD_FILE_BYTES, openForChange, plainName, uploadPath, writeUpload } from "./site-file-changes.server";
import { pinObservedKeys } from "./site-files.server";

/**
 * Sources past this many pixels are refused (FILE_TOO_LARGE) from their header, before decoding:
 * decoded as RGBA, with the decoder's own buffer and the source bytes, 12 MP stays well inside an
 * isolate's 128 MB (a 12 MP photo is about 48 MB of pixels).
 */
export const MAX_THUMBNAIL_SOURCE_PIXELS = 12_000_000;
const JPEG_QUALITY = 85;
/** Every refusal of a source names the request's `urls`. */
const FIELD = "urls";

type PhotonModule = typeof Photon;
type RasterFormat = "png" | "gif" | "jpeg" | "webp";
type Box = Pick<ThumbnailsBody, "width" | "height" | "resize">;

/** JPEG and WebP thumbnails keep their format; PNG and GIF become PNG (Photon writes no GIF). */
const OUTPUT: Record<RasterFormat, { extension: string; encode: (image: PhotonImage) => Uint8Array }> = {
  jpeg: { extension: "jpg", encode: (image) => image.get_bytes_jpeg(JPEG_QUALITY) },
  webp: { extension: "webp", encode: (image) => image.get_bytes_webp() },
  png: { extension: "png", encode: (image) => image.get_bytes() },
  gif: { extension: "png", encode: (image) => image.get_bytes() },
};

let photon: Promise<PhotonModule> | undefined;

/** Photon on first use: its 1.5 MB WebAssembly module is instantiated where thumbnails are made, not at every cold start of the API. */
function loadPhoton(): Promise<PhotonModule> {
  return (photon ??= import("@cf-wasm/photon"));
}

// ── where the images are ─────────────────────────────────────────────────────────────────────────

/** The site's URL as a base ("https://site.example/blog/"), or null when it is not an http(s) URL. */
function siteBase(site: Site): URL | null {
  try {
    const base = new URL(site.url.endsWith("/") ? site.url : `${site.url}/`);
    return base.protocol === "https:" || base.protocol === "http:" ? base : null;
  } catch {
    return null;
  }
}

/** The part after the site's base path of an absolute URL on the site's own origin; anything else is VALIDATION_ERROR. */
function pathOnSite(site: Site, reference: string): string {
  const base = siteBase(site);
  let target: URL | null = null;
  try {
    if (base) target = new URL(reference, base);
  } catch {
    target = null;
  }
  // A `data:` or `javascript:` URL has the origin "null", so the comparison refuses it too.
  if (!base || !target || target.origin !== base.origin || !target.pathname.startsWith(base.pathname)) throw new AppError("VALIDATION_ERROR", { invalid: [FIELD] });
  return target.pathname.slice(base.pathname.length);
}

/**
 * URL path segments appended to the server folder `base`: percent-decoded, with `.` and `..`
 * applied (`..` past "/" is PATH_OUTSIDE_OF_HOME_FOLDER, like an encoded slash in a segment).
 * @example appendSegments("/www/blog", "../img/a%20b.png") // "/www/img/a b.png"
 */
function appendSegments(base: string, path: string): string {
  const segments = base.split("/").filter(Boolean);
  for (const raw of path.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw new AppError("VALIDATION_ERROR", { invalid: [FIELD] });
    }
    if (segment === "" || segment === ".") continue;
    const outside = segment === ".." ? segments.pop() === undefined : /[/\\]/.test(segment);
    if (outside) throw new AppError("PATH_OUTSIDE_OF_HOME_FOLDER", { invalid: [FIELD] });
    if (segment !== "..") segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/**
 * The server path of the image the page at `pagePath` refers to by `url`: relative to the page's
 * folder, root-relative (to the home folder) or absolute on the site's URL. Query and fragment are
 * dropped. The answer lies inside the home folder (else PATH_OUTSIDE_OF_HOME_FOLDER).
 * @example imagePath(site, "/www/blog/post.html", "../img/b.png?v=2") // "/www/img/b.png"
 */
function imagePath(site: Site, pagePath: string, url: string): string {
  const reference = url.trim().replace(/[?#][\s\S]*$/, "");
  const home = normaliseFolder(site.homeFolder);
  let path: string;
  if (/^[a-z][a-z0-9+.-]*:|^[\\/]{2}/i.test(reference)) path = appendSegments(home, pathOnSite(site, reference));
  else if (reference.startsWith("/")) path = appendSegments(home, reference);
  else path = appendSegments(parentOf(pagePath), reference);
  return homePath(site, path, FIELD);
}

// ── reading and scaling ──────────────────────────────────────────────────────────────────────────

interface RasterHeader {
  format: RasterFormat;
  width: number;
  height: number;
}

/** A JPEG's size from its first frame header (SOF0–SOF15 but DHT, JPG and DAC), or null before a scan or the end. */
function jpegHeader(view: DataView): RasterHeader | null {
  let at = 2;
  while (at + 9 <= view.byteLength) {
    if (view.getUint8(at) !== 0xff) return null;
    const marker = view.getUint8(at + 1);
    if (marker === 0xff) at += 1;
    else if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) at += 2;
    else if (marker === 0xd9 || marker === 0xda) return null;
    else if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { format: "jpeg", width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    } else at += 2 + view.getUint16(at + 2);
  }
  return null;
}

/** A WebP's size from its first chunk: lossy (VP8), lossless (VP8L) or extended (VP8X). */
function webpHeader(bytes: Uint8Array, view: DataView): RasterHeader | null {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  const uint24 = (at: number) => bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
  if (chunk === "VP8 " && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) {
    return { format: "webp", width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === "VP8L" && bytes[20] === 0x2f) {
    const bits = view.getUint32(21, true);
    return { format: "webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") return { format: "webp", width: uint24(24) + 1, height: uint24(27) + 1 };
  return null;
}

/**
 * The format and size of a PNG, GIF, JPEG or WebP from its first bytes, else null. Read before
 * decoding: an oversized image is refused without its pixels being allocated, and the decoder
 * (which aborts on what it cannot read) is given only these formats.
 * @example rasterHeader(pngBytes) // { format: "png", width: 640, height: 480 }
 */
export function rasterHeader(bytes: Uint8Array): RasterHeader | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));
  let header: RasterHeader | null = null;
  if (bytes.length >= 24 && ascii(0, 8) === "\x89PNG\r\n\x1a\n" && ascii(12, 4) === "IHDR") header = { format: "png", width: view.getUint32(16), height: view.getUint32(20) };
  else if (bytes.length >= 10 && /^GIF8[79]a$/.test(ascii(0, 6))) header = { format: "gif", width: view.getUint16(6, true), height: view.getUint16(8, true) };
  else if (bytes.length >= 30 && ascii(0, 4) === "RIFF" && ascii(8, 4) === "WEBP") header = webpHeader(bytes, view);
  else if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) header = jpegHeader(view);
  return header && header.width > 0 && header.height > 0 ? header : null;
}

/**
 * One side of the thumbnail: the part of the source to keep (`cut` pixels from `offset`) and the
 * size it is scaled to. A side that fits the box at `scale` is kept whole; one that exceeds it
 * (cover only) is cut to what scales to the box side, centered.
 */
function axis(source: number, boxSide: number, scale: number): { offset: number; cut: number; out: number } {
  const scaled = Math.max(1, Math.round(source * scale));
  if (scaled <= boxSide) return { offset: 0, cut: source, out: scaled };
  const cut = Math.min(source, Math.round(boxSide / scale));
  return { offset: Math.floor((source - cut) / 2), cut, out: boxSide };
}

/** Photon's decoder aborts (a WebAssembly trap) on bytes it cannot read, e.g. a truncated file. */
function decode(photonModule: PhotonModule, bytes: Uint8Array): PhotonImage {
  try {
    return photonModule.PhotonImage.new_from_byteslice(bytes);
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) throw new AppError("FILE_TYPE_NOT_SUPPORTED", { invalid: [FIELD] });
    throw error;
  }
}

/**
 * The encoded thumbnail of a raster image. `cover` scales it to cover the box and crops the center
 * to the box; `contain` scales it to fit inside, keeping its aspect ratio. Never upscaled: a cover
 * thumbnail of a small image only loses what exceeds the box.
 */
function renderThumbnail(photonModule: PhotonModule, bytes: Uint8Array, box: Box, encode: (image: PhotonImage) => Uint8Array): Uint8Array<ArrayBuffer> {
  let image = decode(photonModule, bytes);
  try {
    const width = image.get_width();
    const height = image.get_height();
    if (width * height > MAX_THUMBNAIL_SOURCE_PIXELS) throw new AppError("FILE_TOO_LARGE", { invalid: [FIELD] });
    const fit = box.resize === "cover" ? Math.max : Math.min;
    const scale = Math.min(1, fit(box.width / width, box.height / height));
    const x = axis(width, box.width, scale);
    const y = axis(height, box.height, scale);
    if (x.cut !== width || y.cut !== height) {
      const cut = photonModule.crop(image, x.offset, y.offset, x.offset + x.cut, y.offset + y.cut);
      image.free();
      image = cut;
    }
    if (x.out !== x.cut || y.out !== y.cut) {
      const scaled = photonModule.resize(image, x.out, y.out, photonModule.SamplingFilter.CatmullRom);
      image.free();
      image = scaled;
    }
    return new Uint8Array(encode(image));
  } finally {
    image.free();
  }
}

/** A source's bytes; a missing or oversized one names the request's `urls`. */
async function readSource(fs: RemoteFs, path: string): Promise<Uint8Array> {
  try {
    return await fs.read(path, { maxBytes: MAX_UPLOAD_FILE_BYTES });
  } catch (error) {
    if (error instanceof AgentError && (error.code === "NOT_FOUND" || error.code === "FILE_TOO_LARGE")) throw new AppError(error.code, { invalid: [FIELD] });
    throw error;
  }
}

// ── the operation ────────────────────────────────────────────────────────────────────────────────

/**
 * `POST /sites/{siteId}/files/thumbnails`: a thumbnail of each of `urls` (images of the page at
 * `path`), in their order. A raster image's thumbnail is written into `{uploadFolder}/thumbnails`;
 * an SVG answers its own path. Every URL is checked before anything is read, so a refused one
 * (VALIDATION_ERROR, PATH_OUTSIDE_OF_HOME_FOLDER, FILE_TYPE_NOT_SUPPORTED) writes nothing; a source
 * that then fails (NOT_FOUND, FILE_TOO_LARGE, FILE_TYPE_NOT_SUPPORTED for an unreadable image) stops
 * the request, and thumbnails written before it stay. Whoever may upload may make thumbnails; a
 * thumbnail name that is not a plain file name (hidden, over 255 bytes) is INVALID_UPLOAD_PATH.
 *
 * @example
 * await createThumbnails(ctx, siteId, { urls: ["images/a.jpg", "/logo.svg"], path: "/index.html", width: 256, height: 256, resize: "cover" });
 * // { thumbnails: [{ path: "/uploads/thumbnails/a-256x256-cover.jpg", sourceUrl: "images/a.jpg" }, { path: "/logo.svg", sourceUrl: "/logo.svg" }] }
 */
export async function createThumbnails(ctx: ServiceContext, siteId: string, body: ThumbnailsBody): Promise<{ thumbnails: Thumbnail[] }> {
  const { site, fs } = await openForChange(ctx, siteId);
  const pagePath = homePath(site, body.path, "path");
  const sources = body.urls.map((url) => {
    const path = imagePath(site, pagePath, url);
    const extension = extensionOf(path);
    if (!GALLERY_IMAGE_EXTENSIONS.includes(extension)) throw new AppError("FILE_TYPE_NOT_SUPPORTED", { invalid: [FIELD] });
    return { url, path, isVector: extension === "svg" };
  });
  const folder = uploadPath(site, `${site.uploadFolder}/thumbnails`, FIELD);
  if (sources.some((source) => !source.isVector)) await fs.mkdirp(folder);

  // A URL given twice (or two URLs of one file) is made once.
  const made = new Map<string, string>();
  const thumbnails: Thumbnail[] = [];
  for (const source of sources) {
    let path = made.get(source.path);
    if (path === undefined) {
      if (source.isVector) {
        if ((await fs.stat(source.path))?.type !== "file") throw new AppError("NOT_FOUND", { invalid: [FIELD] });
        path = source.path;
      } else {
        const bytes = await readSource(fs, source.path);
        const header = rasterHeader(bytes);
        if (!header) throw new AppError("FILE_TYPE_NOT_SUPPORTED", { invalid: [FIELD] });
        if (header.width * header.height > MAX_THUMBNAIL_SOURCE_PIXELS) throw new AppError("FILE_TOO_LARGE", { invalid: [FIELD] });
        const output = OUTPUT[header.format];
        const name = baseName(source.path);
        path = `${folder}/${plainName(`${name.slice(0, name.lastIndexOf("."))}-${body.width}x${body.height}-${body.resize}.${output.extension}`, FIELD)}`;
        await writeUpload(ctx, site, fs, path, renderThumbnail(await loadPhoton(), bytes, body, output.encode));
      }
      made.set(source.path, path);
    }
    thumbnails.push({ path, sourceUrl: source.url });
  }
  await pinObservedKeys(ctx.db, site, fs);
  return { thumbnails };
}
