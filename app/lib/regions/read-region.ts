/**
 * A region's current values, as the payload carries them (EDITING-MODEL.md, "The region payload").
 */
import { readBackground } from "./css-style";
import { decodeEntities } from "./entities";
import { getAttr, scanStartTag, type StartTag } from "./tokenizer";
import type { ParsedPage, Region, RegionUpdate } from "./types";

/** The region's start tag with its attributes. */
export function regionStartTag(page: ParsedPage, region: Region): StartTag {
  return scanStartTag(page.source, region.startTag.start, page.dialect);
}

function attr(page: ParsedPage, tag: StartTag, name: string): string {
  const raw = getAttr(page.source, tag, name);
  return raw === null ? "" : decodeEntities(raw);
}

/**
 * What the file holds for a region: block, inline and gallery content is the inner HTML as it
 * is in the file; text is its decoded text; attributes are decoded; background values come from
 * the inline style (the image as a plain URL). Null for flagged regions.
 */
export function readRegion(page: ParsedPage, region: Region): RegionUpdate | null {
  if (region.problem !== null || region.type === "unsupported") return null;
  const inner = page.source.slice(region.inner.start, region.inner.end);
  switch (region.type) {
    case "block":
    case "inline":
    case "gallery":
      return { type: region.type, content: inner };
    case "text":
      return { type: "text", content: decodeEntities(inner) };
    case "image": {
      const tag = regionStartTag(page, region);
      return { type: "image", src: attr(page, tag, "src"), alt: attr(page, tag, "alt") };
    }
    case "link": {
      const tag = regionStartTag(page, region);
      return {
        type: "link",
        href: attr(page, tag, "href"),
        title: attr(page, tag, "title"),
        target: attr(page, tag, "target"),
        rel: attr(page, tag, "rel"),
        content: inner,
      };
    }
    case "background": {
      const tag = regionStartTag(page, region);
      return { type: "background", ...readBackground(attr(page, tag, "style")) };
    }
  }
}
