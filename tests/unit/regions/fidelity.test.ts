/**
 * Fidelity on real pages (tests/fixtures/pages, see its README): decoding, parsing and merging
 * with no edit gives the identical bytes; editing one region changes only that region's span.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mergePage } from "~/lib/regions/merge";
import { parsePage } from "~/lib/regions/parse-page";
import { regionsPayload } from "~/lib/regions/payload";
import { decodePageSource, encodePageSource } from "~/lib/regions/source-encoding";
import type { Region, RegionUpdate } from "~/lib/regions/types";

const dir = path.resolve(import.meta.dirname, "../../fixtures/pages");
const files = readdirSync(dir).filter((f) => /\.(html|php|asp)$/.test(f));

function edit(region: Region): RegionUpdate {
  switch (region.type) {
    case "image":
      return { type: "image", src: "/uploads/new picture.jpg", alt: "New & improved" };
    case "link":
      return { type: "link", href: "https://example.com/?a=1&b=2", title: "Edited", target: "_blank", rel: "noopener", content: "Edited <b>link</b>" };
    case "background":
      return { type: "background", backgroundImage: "/uploads/bg.jpg", backgroundColor: "rgba(0, 0, 0, 0.5)", backgroundSize: "cover", backgroundRepeat: "no-repeat" };
    case "text":
      return { type: "text", content: "Edited <text> & more" };
    case "inline":
      return { type: "inline", content: "Edited <em>inline</em> é" };
    default:
      return { type: region.type as "block" | "gallery", content: "<h2>Edited</h2>\n<p>Block with <a href=\"/x\">a link</a> é</p>" };
  }
}

describe("fidelity on real pages", () => {
  it("has at least 30 pages of several origins", () => {
    expect(files.length).toBeGreaterThanOrEqual(30);
    const origins = new Set(files.map((f) => f.split("-")[0]));
    expect(origins.size).toBeGreaterThanOrEqual(5);
  });

  for (const file of files) {
    describe(file, () => {
      const bytes = new Uint8Array(readFileSync(path.join(dir, file)));
      const { text, encoding } = decodePageSource(bytes);
      const ext = path.extname(file);
      const page = parsePage(text, ext);
      const options = { asciiOnly: encoding === "binary" };

      it("finds its regions and writes identical bytes with no edit and with everything read back", () => {
        expect(page.byId.size).toBeGreaterThan(0);
        expect(encodePageSource(mergePage(page, {}).source, encoding)).toEqual(bytes);
        const payload = regionsPayload(page);
        const same = mergePage(page, { regions: payload.regions, metadata: payload.metadata }, options);
        expect(same.written).toEqual([]);
        expect(encodePageSource(same.source, encoding)).toEqual(bytes);
      });

      it("changes only the edited region's span when one region is edited", () => {
        const regions = [...page.byId.values()];
        const step = Math.max(1, Math.floor(regions.length / 12));
        for (let i = 0; i < regions.length; i += step) {
          const region = regions[i];
          const id = region.id as string;
          const { source: out, written } = mergePage(page, { regions: { [id]: edit(region) } }, options);
          expect(written).toEqual([id]);
          // Content types change the inner span, attribute types the start tag only (link: both).
          const start = ["image", "link", "background"].includes(region.type) ? region.startTag.start : region.inner.start;
          const end = region.type === "image" || region.type === "background" ? region.startTag.end : region.inner.end;
          expect(out.slice(0, start)).toBe(text.slice(0, start));
          expect(out.slice(out.length - (text.length - end))).toBe(text.slice(end));
          expect(encodePageSource(out, encoding).length).toBeGreaterThan(0);
          // The edited page parses to the same regions.
          const again = parsePage(out, ext);
          expect(again.regions.map((r) => r.id)).toEqual(page.regions.map((r) => r.id));
        }
      });

      it("writes metadata only into the head", () => {
        const { source: out } = mergePage(page, { metadata: { title: "Edited title", description: "Edited description" } }, options);
        if (page.metadata.insertAt === null) return;
        const firstRegion = page.regions[0]?.outer.start ?? text.length;
        expect(out.slice(out.length - (text.length - firstRegion))).toBe(text.slice(firstRegion));
        expect(parsePage(out, ext).metadata.values).toMatchObject({ title: "Edited title", description: "Edited description" });
      });
    });
  }
});
