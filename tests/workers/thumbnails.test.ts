// POST /api/sites/{siteId}/files/thumbnails on a demo site (its files in R2): real images made with
// Photon here, thumbnails made by the Worker, read back from the store and decoded again.
import { PhotonImage } from "@cf-wasm/photon";
import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { createDemoStore } from "~/services/demo-store.server";
import { rasterHeader } from "~/services/thumbnails.server";
import { createDemoSite, createTenant, db, signIn, type Tenant } from "./fixtures";

let tenant: Tenant;
let demo: schema.Site;
let ungranted: schema.Site;
let owner = "";
let client = "";

const store = (siteId = demo.id) => createDemoStore(env.UPLOADS, siteId, { home: "/" });
const text = (value: string) => new TextEncoder().encode(value);

type Rgb = [number, number, number];
const RED: Rgb = [255, 0, 0];
const GREEN: Rgb = [0, 200, 0];
const BLUE: Rgb = [0, 0, 255];

/** An image of `width` × `height` whose pixels `paint` colours, encoded by `encode` (the image is freed). */
function picture(width: number, height: number, paint: (x: number, y: number) => Rgb, encode: (image: PhotonImage) => Uint8Array): Uint8Array {
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      pixels.set([...paint(x, y), 255], (y * width + x) * 4);
    }
  }
  const image = new PhotonImage(pixels, width, height);
  try {
    return encode(image);
  } finally {
    image.free();
  }
}
const png = (image: PhotonImage) => image.get_bytes();
const jpeg = (image: PhotonImage) => image.get_bytes_jpeg(90);
const webp = (image: PhotonImage) => image.get_bytes_webp();
const gradient = (x: number, y: number): Rgb => [x % 256, y % 256, 128];

/** A stored file decoded: its size and the colour of one pixel. */
async function decoded(path: string, at: [number, number] = [0, 0]): Promise<{ width: number; height: number; pixel: Rgb }> {
  const image = PhotonImage.new_from_byteslice(new Uint8Array(await store().read(path, { maxBytes: 25 * 1024 * 1024 })));
  try {
    const width = image.get_width();
    const start = (at[1] * width + at[0]) * 4;
    const pixel = [...image.get_raw_pixels().subarray(start, start + 3)] as Rgb;
    return { width, height: image.get_height(), pixel };
  } finally {
    image.free();
  }
}

async function thumbnails(cookie: string, body: unknown, siteId = demo.id) {
  const response = await SELF.fetch(`http://localhost/api/sites/${siteId}/files/thumbnails`, {
    method: "POST", headers: { Cookie: cookie, "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { thumbnails?: { path: string; sourceUrl: string }[]; code?: string; invalid?: string[] } };
}

beforeAll(async () => {
  tenant = await createTenant("Thumbs");
  ({ site: demo } = await createDemoSite(tenant, { "/index.html": "<h1>Home</h1>", "/blog/post.html": "<h1>Post</h1>" }));
  ({ site: ungranted } = await createDemoSite(tenant, { "/index.html": "<h1>Other</h1>" }));
  await db().insert(schema.sitePermissions).values({ accountId: tenant.account.id, userId: tenant.client.id, siteId: demo.id, allPages: true });
  const files: Record<string, Uint8Array> = {
    // Red and blue bands of 80 columns on either side: a centered cover crop of a 640 × 480 image keeps only the green.
    "/images/photo.png": picture(640, 480, (x) => (x < 80 ? RED : x >= 560 ? BLUE : GREEN), png),
    "/images/tall.jpg": picture(300, 600, gradient, jpeg),
    "/images/banner.webp": picture(500, 200, gradient, webp),
    "/images/small.png": picture(100, 80, gradient, png),
    "/images/wide.png": picture(400, 100, gradient, png),
    "/images/a b.png": picture(32, 32, gradient, png),
    "/images/dot.gif": Uint8Array.from(atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"), (c) => c.charCodeAt(0)),
    "/images/logo.svg": text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'),
    "/images/picture.bmp": text("BM not really"),
    "/docs/manual.pdf": text("%PDF-1.7"),
  };
  for (const [path, bytes] of Object.entries(files)) await store().writeAtomic(path, bytes);
  await store(ungranted.id).writeAtomic("/images/photo.png", files["/images/photo.png"]);
  owner = await signIn(tenant.owner.email);
  client = await signIn(tenant.client.email);
});

describe("POST /api/sites/{siteId}/files/thumbnails", () => {
  it("makes cover thumbnails of exactly the box, center-cropped, in the source's format, into the upload folder's thumbnails folder", async () => {
    const { status, body } = await thumbnails(client, { urls: ["images/photo.png", "/images/tall.jpg", "images/banner.webp"], path: "/index.html" });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.thumbnails).toEqual([
      { path: "/uploads/thumbnails/photo-256x256-cover.png", sourceUrl: "images/photo.png" },
      { path: "/uploads/thumbnails/tall-256x256-cover.jpg", sourceUrl: "/images/tall.jpg" },
      { path: "/uploads/thumbnails/banner-256x256-cover.webp", sourceUrl: "images/banner.webp" },
    ]);
    const photo = await decoded("/uploads/thumbnails/photo-256x256-cover.png");
    expect([photo.width, photo.height]).toEqual([256, 256]);
    // The bands were cut away: both edges are green.
    expect(photo.pixel).toEqual(GREEN);
    expect((await decoded("/uploads/thumbnails/photo-256x256-cover.png", [255, 128])).pixel).toEqual(GREEN);
    expect(await decoded("/uploads/thumbnails/tall-256x256-cover.jpg")).toMatchObject({ width: 256, height: 256 });
    expect([...(await store().read("/uploads/thumbnails/tall-256x256-cover.jpg")).subarray(0, 2)]).toEqual([0xff, 0xd8]);
    // 500 × 200 is lower than the box: only the width beyond 256 is cut, nothing is upscaled.
    expect(await decoded("/uploads/thumbnails/banner-256x256-cover.webp")).toMatchObject({ width: 256, height: 200 });
    expect((await store().read("/uploads/thumbnails/banner-256x256-cover.webp")).subarray(8, 12).toString()).toBe("WEBP");
    expect((await store().stat("/uploads/thumbnails"))?.type).toBe("directory");
  });

  it("makes contain thumbnails that keep the aspect ratio inside the box, and replaces an older thumbnail of the same name", async () => {
    const body = { urls: ["images/photo.png", "images/tall.jpg"], path: "/index.html", width: 200, height: 200, resize: "contain" };
    for (let round = 0; round < 2; round++) {
      const answer = await thumbnails(owner, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.thumbnails?.map((thumbnail) => thumbnail.path)).toEqual(["/uploads/thumbnails/photo-200x200-contain.png", "/uploads/thumbnails/tall-200x200-contain.jpg"]);
    }
    expect(await decoded("/uploads/thumbnails/photo-200x200-contain.png")).toMatchObject({ width: 200, height: 150 });
    expect(await decoded("/uploads/thumbnails/tall-200x200-contain.jpg")).toMatchObject({ width: 100, height: 200 });
  });

  it("never upscales: a small image keeps its size, and cover cuts only what exceeds the box", async () => {
    const cover = await thumbnails(owner, { urls: ["images/small.png", "images/wide.png", "images/dot.gif"], path: "/index.html" });
    expect(cover.status, JSON.stringify(cover.body)).toBe(200);
    expect(await decoded("/uploads/thumbnails/small-256x256-cover.png")).toMatchObject({ width: 100, height: 80 });
    expect(await decoded("/uploads/thumbnails/wide-256x256-cover.png")).toMatchObject({ width: 256, height: 100 });
    // GIF becomes PNG.
    expect(cover.body.thumbnails?.[2]).toEqual({ path: "/uploads/thumbnails/dot-256x256-cover.png", sourceUrl: "images/dot.gif" });
    expect(await decoded("/uploads/thumbnails/dot-256x256-cover.png")).toMatchObject({ width: 1, height: 1 });
    const contain = await thumbnails(owner, { urls: ["images/small.png"], path: "/index.html", resize: "contain" });
    expect(contain.status).toBe(200);
    expect(await decoded("/uploads/thumbnails/small-256x256-contain.png")).toMatchObject({ width: 100, height: 80 });
  });

  it("answers an SVG's own path and writes nothing for it", async () => {
    expect(await thumbnails(owner, { urls: ["../images/logo.svg"], path: "/blog/post.html", width: 64, height: 64 })).toEqual({
      status: 200, body: { thumbnails: [{ path: "/images/logo.svg", sourceUrl: "../images/logo.svg" }] },
    });
    expect((await store().list("/uploads/thumbnails")).filter((entry) => entry.name.startsWith("logo"))).toEqual([]);
    expect((await thumbnails(owner, { urls: ["images/gone.svg"], path: "/index.html" })).body).toEqual({ code: "NOT_FOUND", invalid: ["urls"] });
  });

  it("resolves relative, root-relative and absolute URLs on the site to the same file, query and fragment dropped, segments decoded", async () => {
    const urls = ["../images/small.png", "/images/small.png", "https://demo.example/images/small.png?v=2#top", "./../images/./small.png", "../images/a%20b.png"];
    const { status, body } = await thumbnails(owner, { urls, path: "/blog/post.html", width: 32, height: 32 });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.thumbnails).toEqual([
      ...urls.slice(0, 4).map((sourceUrl) => ({ path: "/uploads/thumbnails/small-32x32-cover.png", sourceUrl })),
      { path: "/uploads/thumbnails/a b-32x32-cover.png", sourceUrl: "../images/a%20b.png" },
    ]);
    expect(await decoded("/uploads/thumbnails/a b-32x32-cover.png")).toMatchObject({ width: 32, height: 32 });
  });

  it("compares an absolute URL with the site's origin and base path", async () => {
    await db().update(schema.sites).set({ url: "https://demo.example/shop" }).where(eq(schema.sites.id, demo.id));
    try {
      const ok = await thumbnails(owner, { urls: ["https://demo.example/shop/images/small.png"], path: "/index.html", width: 40, height: 40 });
      expect(ok.body.thumbnails).toEqual([{ path: "/uploads/thumbnails/small-40x40-cover.png", sourceUrl: "https://demo.example/shop/images/small.png" }]);
      for (const url of ["https://demo.example/images/small.png", "http://demo.example/shop/images/small.png", "https://demo.example:8443/shop/images/small.png"]) {
        expect(await thumbnails(owner, { urls: [url], path: "/index.html" }), url).toEqual({ status: 400, body: { code: "VALIDATION_ERROR", invalid: ["urls"] } });
      }
    } finally {
      await db().update(schema.sites).set({ url: "https://demo.example/" }).where(eq(schema.sites.id, demo.id));
    }
  });

  it("refuses URLs that are not the site's files, paths out of the home folder, and other file types", async () => {
    const refused = (code: string) => ({ status: code === "NOT_FOUND" ? 404 : 400, body: { code, invalid: ["urls"] } });
    const cases: [string, string][] = [
      ["https://elsewhere.example/images/photo.png", "VALIDATION_ERROR"],
      ["//elsewhere.example/images/photo.png", "VALIDATION_ERROR"],
      ["data:image/png;base64,iVBORw0KGgo=", "VALIDATION_ERROR"],
      ["javascript:alert(1)//.png", "VALIDATION_ERROR"],
      ["images/%E0%A4%A.png", "VALIDATION_ERROR"],
      ["../../../etc/passwd.png", "PATH_OUTSIDE_OF_HOME_FOLDER"],
      ["/../images/photo.png", "PATH_OUTSIDE_OF_HOME_FOLDER"],
      ["images/..%2F..%2Fphoto.png", "PATH_OUTSIDE_OF_HOME_FOLDER"],
      ["images/picture.bmp", "FILE_TYPE_NOT_SUPPORTED"],
      ["/docs/manual.pdf", "FILE_TYPE_NOT_SUPPORTED"],
      ["/index.html", "FILE_TYPE_NOT_SUPPORTED"],
      ["images/missing.png", "NOT_FOUND"],
    ];
    for (const [url, code] of cases) expect(await thumbnails(owner, { urls: [url], path: "/index.html" }), url).toEqual(refused(code));
    // Every URL is checked first: a refused one leaves no thumbnail of the others.
    expect(await thumbnails(owner, { urls: ["images/photo.png", "images/picture.bmp"], path: "/index.html", width: 48, height: 48 })).toEqual(refused("FILE_TYPE_NOT_SUPPORTED"));
    expect(await store().stat("/uploads/thumbnails/photo-48x48-cover.png")).toBeNull();
    // The page's own path must be inside the home folder too.
    expect(await thumbnails(owner, { urls: ["images/photo.png"], path: "/../index.html" })).toEqual({ status: 400, body: { code: "PATH_OUTSIDE_OF_HOME_FOLDER", invalid: ["path"] } });
  });

  it("validates the body", async () => {
    const base = { urls: ["images/photo.png"], path: "/index.html" };
    for (const [body, field] of [
      [{ ...base, urls: [] }, "urls"],
      [{ ...base, urls: Array.from({ length: 51 }, () => "images/photo.png") }, "urls"],
      [{ ...base, urls: ["x".repeat(2049)] }, "urls.0"],
      [{ ...base, width: 15 }, "width"],
      [{ ...base, height: 2049 }, "height"],
      [{ ...base, width: 100.5 }, "width"],
      [{ ...base, resize: "stretch" }, "resize"],
      [{ urls: base.urls }, "path"],
    ] as const) {
      expect(await thumbnails(owner, body), JSON.stringify(body).slice(0, 80)).toEqual({ status: 400, body: { code: "VALIDATION_ERROR", invalid: [field] } });
    }
  });

  it("refuses an image over 12 megapixels from its header (FILE_TOO_LARGE)", async () => {
    const bytes = picture(16, 16, gradient, png);
    // IHDR says 4000 × 3001: refused before anything is decoded.
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(16, 4000);
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(20, 3001);
    await store().writeAtomic("/images/huge.png", bytes);
    expect(await thumbnails(owner, { urls: ["images/huge.png"], path: "/index.html" })).toEqual({ status: 413, body: { code: "FILE_TOO_LARGE", invalid: ["urls"] } });
    expect(await store().stat("/uploads/thumbnails/huge-256x256-cover.png")).toBeNull();
  });

  it("allows whoever may upload, and nobody else; nothing while the site is on lockdown", async () => {
    expect((await thumbnails(client, { urls: ["images/photo.png"], path: "/index.html" }, ungranted.id)).status).toBe(404);
    expect(await store(ungranted.id).stat("/uploads/thumbnails")).toBeNull();
    const other = await createTenant("Thumbs other");
    const stranger = await signIn(other.owner.email);
    expect(await thumbnails(stranger, { urls: ["images/photo.png"], path: "/index.html" })).toEqual({ status: 404, body: { code: "NOT_FOUND", invalid: [] } });
    const anonymous = await SELF.fetch(`http://localhost/api/sites/${demo.id}/files/thumbnails`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ urls: ["images/photo.png"], path: "/index.html" }),
    });
    expect(anonymous.status).toBe(401);
    await db().update(schema.sites).set({ isLocked: true }).where(eq(schema.sites.id, demo.id));
    try {
      expect(await thumbnails(owner, { urls: ["images/photo.png"], path: "/index.html", width: 99, height: 99 })).toEqual({ status: 403, body: { code: "SITE_IS_LOCKED", invalid: [] } });
      expect(await store().stat("/uploads/thumbnails/photo-99x99-cover.png")).toBeNull();
    } finally {
      await db().update(schema.sites).set({ isLocked: false }).where(eq(schema.sites.id, demo.id));
    }
  });

  it("refuses an image its header calls a PNG but that does not decode, and keeps working afterwards", async () => {
    await store().writeAtomic("/images/broken.png", picture(64, 64, gradient, png).subarray(0, 60));
    expect(await thumbnails(owner, { urls: ["images/broken.png"], path: "/index.html" })).toEqual({ status: 400, body: { code: "FILE_TYPE_NOT_SUPPORTED", invalid: ["urls"] } });
    const after = await thumbnails(owner, { urls: ["images/photo.png"], path: "/index.html", width: 128, height: 96 });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(await decoded("/uploads/thumbnails/photo-128x96-cover.png")).toMatchObject({ width: 128, height: 96 });
  });

  it("reads the size of PNG, GIF, JPEG and every kind of WebP from the header alone", () => {
    const bytes = (...parts: (string | number[])[]) => Uint8Array.from(parts.flatMap((part) => (typeof part === "string" ? [...part].map((c) => c.charCodeAt(0)) : part)));
    const riff = (chunk: string, body: number[]) => bytes("RIFF", [0, 0, 0, 0], "WEBP", chunk, [body.length, 0, 0, 0], body, new Array(8).fill(0));
    expect(rasterHeader(picture(640, 480, gradient, png))).toEqual({ format: "png", width: 640, height: 480 });
    expect(rasterHeader(picture(300, 600, gradient, jpeg))).toEqual({ format: "jpeg", width: 300, height: 600 });
    expect(rasterHeader(picture(500, 200, gradient, webp))).toEqual({ format: "webp", width: 500, height: 200 });
    expect(rasterHeader(bytes("GIF89a", [0x2c, 0x01, 0x64, 0x00]))).toEqual({ format: "gif", width: 300, height: 100 });
    // Lossy: frame tag, start code, 14-bit sides (the top two bits are the scale).
    expect(rasterHeader(riff("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, 0x20, 0x43, 0xf0, 0x40]))).toEqual({ format: "webp", width: 800, height: 240 });
    // Extended: 24-bit sides minus one.
    expect(rasterHeader(riff("VP8X", [0, 0, 0, 0, 0x3f, 0x1f, 0x00, 0x6f, 0x17, 0x00]))).toEqual({ format: "webp", width: 8000, height: 6000 });
    // A JPEG's frame header after other segments; a JPEG that reaches its scan without one is no image.
    expect(rasterHeader(bytes([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0, 0, 0xff, 0xc2, 0x00, 0x11, 8, 0x01, 0x2c, 0x02, 0x58, 3]))).toEqual({ format: "jpeg", width: 600, height: 300 });
    expect(rasterHeader(bytes([0xff, 0xd8, 0xff, 0xda, 0x00, 0x04, 0, 0, 0, 0, 0, 0]))).toBeNull();
    expect(rasterHeader(text("BM not really"))).toBeNull();
    expect(rasterHeader(bytes("GIF89a", [0, 0, 0, 0]))).toBeNull();
  });
});
