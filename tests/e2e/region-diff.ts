import { decodePageSource, parsePage } from "~/lib/regions";

/** Region types whose edit changes the start tag's attributes (EDITING-MODEL.md): the whole element is theirs. */
const ATTRIBUTE_TYPES = new Set(["image", "link", "background"]);

/**
 * A page's source with the named regions blanked: their inner content (for image, link and
 * background regions, the whole element) becomes a marker. Two versions of a page whose skeletons
 * for the edited ids are equal differ only inside those regions.
 *
 * @example expect(outsideRegions(after, "html", ["title"])).toBe(outsideRegions(before, "html", ["title"]));
 */
export function outsideRegions(bytes: Uint8Array | string, extension: string, ids: readonly string[]): string {
  const source = typeof bytes === "string" ? bytes : decodePageSource(bytes).text;
  const page = parsePage(source, extension);
  const spans = ids.map((id) => {
    const region = page.byId.get(id);
    if (!region) throw new Error(`The page has no region #${id}`);
    return { id, span: ATTRIBUTE_TYPES.has(region.type) ? region.outer : region.inner };
  }).sort((a, b) => b.span.start - a.span.start);
  let out = source;
  for (const { id, span } of spans) out = `${out.slice(0, span.start)}⟦${id}⟧${out.slice(span.end)}`;
  return out;
}
