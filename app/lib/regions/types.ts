/**
 * The shapes of a parsed page (regions, markers, metadata) and of the region payload.
 * All offsets are indices into the page's source string (UTF-16 code units): `source.slice(start,
 * end)` is the range. `source-encoding.ts` converts them to byte offsets.
 */

export type RegionType = "block" | "inline" | "text" | "link" | "image" | "background" | "gallery";
export type ParsedRegionType = RegionType | "unsupported";
export type RegionProblem = "MISSING_ID" | "DUPLICATE_ID" | "UNSUPPORTED_ELEMENT";

export interface Span {
  start: number;
  end: number;
}

export interface Region {
  /** The `id` attribute (raw value); null when missing. */
  id: string | null;
  type: ParsedRegionType;
  /** Lowercased tag name. */
  element: string;
  /** Has the class `global` (alias `cms-global`). */
  global: boolean;
  /** From the start tag's `<` to the end of its end tag (or to where it was implicitly closed). */
  outer: Span;
  /** The start tag itself. */
  startTag: Span;
  /**
   * The content between the start tag and the end tag. For a void element (`<img>`) it is the
   * empty span at the end of the start tag. When the element is closed implicitly (`<li>` by the
   * next `<li>`, anything by the end of its parent), it ends where that happened.
   */
  inner: Span;
  /** Whether the element had its own end tag (false: implicitly closed or void). */
  explicitEnd: boolean;
  /** Flagged regions are listed for the editor but never written. */
  problem: RegionProblem | null;
  /** The content contains server code (`<?php … ?>`, `<% … %>`), which an edit cannot keep. */
  hasServerCode: boolean;
  /** Gallery options (`data-cms-element`, `data-cms-captions`, …), raw attribute values. */
  options: Record<string, string>;
}

export type MarkerKind =
  | "repeatable"
  | "uneditable"
  | "embed"
  | "code"
  | "lock"
  | "ignore"
  | "include"
  | "directive";

/** Everything else the editing model defines, found inside or outside regions. */
export interface Marker {
  kind: MarkerKind;
  /**
   * For elements (repeatable, uneditable, embed, code): the element's outer span. For range
   * comments (lock, ignore, include): from the opening comment's start to the closing comment's
   * end (to the end of the source when unclosed). For a directive comment: the comment.
   */
  outer: Span;
  /** For range comments: between the two comments; for elements: the element's content. */
  inner: Span;
  /** The id of the region it is in, or null. */
  regionId: string | null;
  /** Index into `ParsedPage.regions` of the region it is in, or -1. */
  regionIndex: number;
  /** include: the block name; code: the normalised language; directive: its name (`cms-editable`). */
  name: string | null;
  /** A range comment without its closing comment. */
  unclosed?: boolean;
}

export type MetadataField = "title" | "description" | "image" | "robots" | "type" | "url";

export interface PageMetadata {
  title: string;
  description: string;
  image: string;
  /** True means noindex. */
  robots: boolean;
  type: string;
  url: string;
}

/** A metadata tag found in the head: where its value is, and the tag itself (for removal). */
export interface MetadataTag {
  /** The whole tag (`<title>…</title>` or `<meta …>`). */
  outer: Span;
  /** The title's text, or the `content` attribute's raw value (inside its quotes). */
  value: Span | null;
  /** The raw value. */
  raw: string;
}

export type MetadataTagKey =
  | "title"
  | "description"
  | "robots"
  | "og:title"
  | "og:description"
  | "og:image"
  | "og:type"
  | "og:url";

export interface ParsedMetadata {
  values: PageMetadata;
  tags: Partial<Record<MetadataTagKey, MetadataTag>>;
  /** Where missing tags are inserted: the `<` of `</head>` (or of `<body>`); null when neither exists. */
  insertAt: number | null;
  /** Indentation of the head's children, to insert new tags in the same style. */
  indent: string;
  /** Existing void tags in the head are written `<meta … />`. */
  xhtml: boolean;
}

export interface ParsedPage {
  source: string;
  dialect: "html" | "php" | "asp";
  /** Every region in source order, flagged ones included. */
  regions: Region[];
  /** Regions by id, for the regions without a problem. */
  byId: Map<string, Region>;
  markers: Marker[];
  metadata: ParsedMetadata;
  /** The line ending the source uses (`\r\n` when its first line break is CRLF). */
  eol: "\n" | "\r\n";
  /** Region markers found inside another region (regions do not nest; these are content). */
  nested: Span[];
}

/** What one region's edit carries (the payload of EDITING-MODEL.md). */
export type RegionUpdate =
  | { type: "block" | "inline" | "text" | "gallery"; content: string }
  | { type: "image"; src: string; alt: string }
  | { type: "link"; href: string; title: string; target: string; rel: string; content: string }
  | {
      type: "background";
      backgroundImage: string;
      backgroundColor: string;
      backgroundSize: string;
      backgroundRepeat: string;
    };

export type RegionUpdates = Record<string, RegionUpdate>;
