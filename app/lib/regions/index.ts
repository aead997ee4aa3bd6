/**
 * The pure core of regions, drafts and publishing, shared by the Worker (render, publish) and the
 * in-frame editor: no DOM, no Node APIs. Offsets are UTF-16 indices into the source string
 * (`source-encoding.ts` converts to bytes).
 */
export { dialectForExtension, tokenize, type Dialect, type StartTag, type Attribute, type TokenHandler } from "./tokenizer";
export { parsePage } from "./parse-page";
export { mergePage, type MergeOptions, type MergeResult } from "./merge";
export { regionsPayload, type RegionsPayload, type RegionPayloadEntry } from "./payload";
export { readRegion } from "./read-region";
export { sanitizeHtml, sanitizeText, RegionContentError } from "./sanitize";
export { decodePageSource, encodePageSource, byteOffsets, type SourceEncoding } from "./source-encoding";
export { normaliseCodeLanguage } from "./markers";
export type * from "./types";
