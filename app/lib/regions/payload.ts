/**
 * The answer of `GET /api/sites/{siteId}/pages/{pageId}/regions` (EDITING-MODEL.md, last section):
 * the page's metadata, its regions by id with their type, `global` flag and fields, and the
 * problems (missing id, duplicate id, unsupported element) the editor lists.
 */
import { readRegion } from "./read-region";
import type { PageMetadata, ParsedPage, RegionProblem, RegionUpdate } from "./types";

export type RegionPayloadEntry = RegionUpdate & { global: boolean };

export interface RegionsPayload {
  metadata: PageMetadata;
  regions: Record<string, RegionPayloadEntry>;
  problems: Array<{ id: string | null; problem: RegionProblem; element: string }>;
}

/**
 * @example
 * regionsPayload(parsePage(source, "html"))
 * // { metadata: { title, … }, regions: { intro: { type: "block", global: false, content: "…" } }, problems: [] }
 */
export function regionsPayload(page: ParsedPage): RegionsPayload {
  const regions: Record<string, RegionPayloadEntry> = {};
  const problems: RegionsPayload["problems"] = [];
  for (const region of page.regions) {
    if (region.problem) {
      problems.push({ id: region.id, problem: region.problem, element: region.element });
      continue;
    }
    const value = readRegion(page, region);
    if (value && region.id !== null) regions[region.id] = { ...value, global: region.global };
  }
  return { metadata: { ...page.metadata.values }, regions, problems };
}
