/**
 * The parent–frame protocol of the page editor (ARCHITECTURE.md, "Render for editing").
 *
 * The page being edited runs in a frame with `sandbox="allow-scripts"` and no
 * `allow-same-origin`, on the preview origin, beside the customer's own scripts. So the frame is
 * untrusted: anything in it may post messages. The channel is built to make that harmless:
 *
 * - The parent opens it by posting `init` to the frame window with a `MessagePort`. The in-frame
 *   editor script is the first script of the document, so its `message` listener runs first and
 *   stops the event from reaching any other listener; only it holds the port. The parent then
 *   listens on the port only, never on `window` messages.
 * - Every message is checked on receipt (`readParentMessage`, `readFrameMessage`): the envelope,
 *   the version and each field's type; anything else is dropped. A message of another version is
 *   dropped too, and the parent shows the "could not be initialized" notice.
 * - Nothing the frame sends can publish or delete: those start from a click in the parent. The
 *   frame may ask for a draft save (`shortcut`), and only from a trusted Ctrl/Cmd+S key event.
 * - The frame's region content is data: the server sanitises it per region type on every save and
 *   publish, so a script that rewrites the DOM gains nothing a typing user would not.
 *
 * Plain validators rather than a schema library keep the in-frame bundle small (target < 60 kB gzip).
 */
import type { PageMetadata, RegionUpdates } from "~/lib/regions/types";

export const PROTOCOL = "sitecraft-editor";
export const PROTOCOL_VERSION = 1;

export type RegionProblem = "MISSING_ID" | "DUPLICATE_ID" | "UNSUPPORTED_ELEMENT";
export type EditableRegionType = "block" | "inline" | "text" | "link" | "image" | "background" | "gallery";

/** A region as the frame found it in the document. */
export interface FrameRegion {
  id: string | null;
  type: EditableRegionType | "unsupported";
  global: boolean;
  element: string;
  problem: RegionProblem | null;
}

/** What the selection is in, for the toolbars' state. */
export interface SelectionState {
  regionId: string | null;
  regionType: EditableRegionType | null;
  /** Formats active at the caret (bold, italic, underline, strike, link, h1…h6, p, ol, ul, left, center, right, justify). */
  formats: string[];
  inTable: boolean;
  inRepeatable: boolean;
  canUndo: boolean;
  canRedo: boolean;
}

export const TEXT_COMMANDS = [
  "bold", "italic", "underline", "strike", "h1", "h2", "h3", "h4", "h5", "h6", "paragraph",
  "orderedList", "unorderedList", "alignLeft", "alignCenter", "alignRight", "alignJustify",
  "editLink", "unlink", "clearFormatting", "undo", "redo",
  /** Open the panel that makes a new element of its kind at the caret (answered with `openPanel`, target ""). */
  "newImage", "newGallery", "newEmbed", "newCode", "newAnchor", "newBlock",
  "insertTable", "addRow", "removeRow", "addColumn", "removeColumn",
  "duplicateItem", "moveItemUp", "moveItemDown", "removeItem",
] as const;
export type TextCommand = (typeof TEXT_COMMANDS)[number];

/** The panels a double-click in the frame can ask the parent to open. */
export const PANELS = ["gallery", "code", "embed", "image", "link", "anchor", "background", "block"] as const;
export type PanelKind = (typeof PANELS)[number];

export type ParentMessage =
  /** Opens the channel: the port the frame must answer on, and the interface strings it shows. */
  | { type: "init"; locale: string; strings: Record<string, string> }
  | { type: "command"; command: TextCommand }
  /** Inserts or updates a link around the selection. */
  | { type: "link"; href: string; title: string; target: string; rel: string }
  /** Writes a panel's result into the element the panel was opened for (`target` from `openPanel`). */
  | { type: "applyPanel"; panel: PanelKind; target: string; values: Record<string, string | boolean | null> }
  /** Makes a new element of the panel's kind at the caret, from the panel's result (a panel opened with target ""). */
  | { type: "insert"; panel: PanelKind; values: Record<string, string | boolean | null> }
  /** Asks for the regions as they are now; answered by `regions` with the same `requestId`. */
  | { type: "serialize"; requestId: number }
  /** The parent saved: the current state is the clean one (the undo history stays). */
  | { type: "clean" };

/** What the render told the frame about the document it shows (server-side facts, not the DOM's). */
export interface FramePage {
  /** sha256 of the server file shown: the base a draft records. */
  baseHash: string | null;
  /** The revision applied to the file, if any. */
  revisionId: string | null;
  /** The page's metadata as the server file (with the revision applied) has it. */
  metadata: FrameMetadata;
}

/** The metadata of EDITING-MODEL.md, as the page has it. */
export type FrameMetadata = PageMetadata;

export type FrameMessage =
  /** The editor is up: the regions found, their content now (the clean snapshot) and the page's facts. */
  | { type: "ready"; regions: FrameRegion[]; content: RegionUpdates; page: FramePage }
  /**
   * The frame has no editor: the script failed (`reason`), or the render could not produce the page
   * and says why (`code`, an error code). The parent shows the "could not be initialized" notice or
   * the code's message.
   */
  | { type: "failed"; reason: string; code: string | null }
  | { type: "regions"; requestId: number; regions: RegionUpdates }
  /** Content changed (debounced); the parent compares it with its clean snapshot for the dirty state. */
  | { type: "changed"; regions: RegionUpdates }
  | { type: "selection"; state: SelectionState }
  | { type: "openPanel"; panel: PanelKind; target: string; values: Record<string, string | boolean | null> }
  /**
   * A trusted Ctrl/Cmd+S in the frame: save a draft. Ctrl/Cmd+Shift+S (`publish`) only asks the
   * parent to offer the publish: it publishes after a confirmation the user gives in the parent.
   */
  | { type: "shortcut"; name: "save" | "publish" };

type Envelope<M> = M & { protocol: typeof PROTOCOL; version: typeof PROTOCOL_VERSION };

/**
 * The one message the frame posts to the parent's window rather than on the port: "my editor is
 * listening". It carries nothing; the parent answers with its single `init` for that frame.
 */
export type HelloMessage = { type: "hello" };

export function envelope<M extends ParentMessage | FrameMessage | HelloMessage>(message: M): Envelope<M> {
  return { ...message, protocol: PROTOCOL, version: PROTOCOL_VERSION };
}

/** Whether a window message is the frame's hello (of this protocol version). */
export function isHello(data: unknown): boolean {
  return isEnvelope(data) && data.type === "hello";
}

// ── validation ─────────────────────────────────────────────────────────────────────────────────────

const MAX_TEXT = 4 * 1024 * 1024;
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isText = (value: unknown, max = 4096): value is string => typeof value === "string" && value.length <= max;
const isFlatValues = (value: unknown): value is Record<string, string | boolean | null> =>
  isObject(value) && Object.keys(value).length <= 100 && Object.values(value).every((v) => v === null || typeof v === "boolean" || isText(v, MAX_TEXT));
const oneOf = <T extends string>(list: readonly T[], value: unknown): value is T => typeof value === "string" && (list as readonly string[]).includes(value);

function isEnvelope(data: unknown): data is Json {
  return isObject(data) && data.protocol === PROTOCOL && data.version === PROTOCOL_VERSION && typeof data.type === "string";
}

const REGION_TYPES: readonly EditableRegionType[] = ["block", "inline", "text", "link", "image", "background", "gallery"];

/** A region payload entry (EDITING-MODEL.md): the fields of its type, all strings. */
function isRegionUpdate(value: unknown): boolean {
  if (!isObject(value) || !oneOf(REGION_TYPES, value.type)) return false;
  const fields: Record<EditableRegionType, string[]> = {
    block: ["content"], inline: ["content"], text: ["content"], gallery: ["content"],
    image: ["src", "alt"],
    link: ["href", "title", "target", "rel", "content"],
    background: ["backgroundImage", "backgroundColor", "backgroundSize", "backgroundRepeat"],
  };
  const expected = fields[value.type];
  const keys = Object.keys(value).filter((key) => key !== "type");
  return keys.length === expected.length && expected.every((key) => isText(value[key], MAX_TEXT));
}

function isRegionUpdates(value: unknown): value is RegionUpdates {
  return isObject(value) && Object.keys(value).length <= 2000 && Object.entries(value).every(([id, update]) => id.length <= 200 && isRegionUpdate(update));
}

function isFrameRegion(value: unknown): value is FrameRegion {
  return (
    isObject(value) &&
    (value.id === null || isText(value.id, 200)) &&
    (oneOf(REGION_TYPES, value.type) || value.type === "unsupported") &&
    typeof value.global === "boolean" &&
    isText(value.element, 40) &&
    (value.problem === null || oneOf(["MISSING_ID", "DUPLICATE_ID", "UNSUPPORTED_ELEMENT"] as const, value.problem))
  );
}

const METADATA_TEXT = ["title", "description", "image", "type", "url"] as const;

function isFrameMetadata(value: unknown): value is FrameMetadata {
  return isObject(value) && METADATA_TEXT.every((key) => isText(value[key], 5000)) && typeof value.robots === "boolean";
}

function isFramePage(value: unknown): value is FramePage {
  return (
    isObject(value) &&
    (value.baseHash === null || (isText(value.baseHash, 64) && /^[0-9a-f]{64}$/.test(value.baseHash))) &&
    (value.revisionId === null || isText(value.revisionId, 64)) &&
    isFrameMetadata(value.metadata)
  );
}

function isSelectionState(value: unknown): value is SelectionState {
  return (
    isObject(value) &&
    (value.regionId === null || isText(value.regionId, 200)) &&
    (value.regionType === null || oneOf(REGION_TYPES, value.regionType)) &&
    Array.isArray(value.formats) && value.formats.length <= 30 && value.formats.every((f) => isText(f, 20)) &&
    typeof value.inTable === "boolean" && typeof value.inRepeatable === "boolean" &&
    typeof value.canUndo === "boolean" && typeof value.canRedo === "boolean"
  );
}

/** A message from the frame, or null when it is not one of this version's, well formed. */
export function readFrameMessage(data: unknown): FrameMessage | null {
  if (!isEnvelope(data)) return null;
  switch (data.type) {
    case "ready":
      return Array.isArray(data.regions) && data.regions.length <= 5000 && data.regions.every(isFrameRegion) && isRegionUpdates(data.content) && isFramePage(data.page)
        ? { type: "ready", regions: data.regions, content: data.content, page: data.page }
        : null;
    case "failed":
      return isText(data.reason, 1000) && (data.code === null || (isText(data.code, 64) && /^[A-Z_]+$/.test(data.code)))
        ? { type: "failed", reason: data.reason, code: data.code }
        : null;
    case "regions":
      return Number.isInteger(data.requestId) && isRegionUpdates(data.regions) ? { type: "regions", requestId: data.requestId as number, regions: data.regions } : null;
    case "changed":
      return isRegionUpdates(data.regions) ? { type: "changed", regions: data.regions } : null;
    case "selection":
      return isSelectionState(data.state) ? { type: "selection", state: data.state } : null;
    case "openPanel":
      return oneOf(PANELS, data.panel) && isText(data.target, 200) && (data.target === "" || /^t[0-9]{1,9}$/.test(data.target)) && isFlatValues(data.values)
        ? { type: "openPanel", panel: data.panel, target: data.target, values: data.values }
        : null;
    case "shortcut":
      return data.name === "save" || data.name === "publish" ? { type: "shortcut", name: data.name } : null;
    default:
      return null;
  }
}

/** A message from the parent, or null when it is not one of this version's, well formed. */
export function readParentMessage(data: unknown): ParentMessage | null {
  if (!isEnvelope(data)) return null;
  switch (data.type) {
    case "init":
      return isText(data.locale, 10) && isObject(data.strings) && Object.values(data.strings).every((s) => isText(s, 1000))
        ? { type: "init", locale: data.locale, strings: data.strings as Record<string, string> }
        : null;
    case "command":
      return oneOf(TEXT_COMMANDS, data.command) ? { type: "command", command: data.command } : null;
    case "link":
      return isText(data.href) && isText(data.title) && isText(data.target, 100) && isText(data.rel, 200)
        ? { type: "link", href: data.href, title: data.title, target: data.target, rel: data.rel }
        : null;
    case "applyPanel":
      return oneOf(PANELS, data.panel) && isText(data.target, 200) && isFlatValues(data.values)
        ? { type: "applyPanel", panel: data.panel, target: data.target, values: data.values }
        : null;
    case "insert":
      return oneOf(PANELS, data.panel) && isFlatValues(data.values) ? { type: "insert", panel: data.panel, values: data.values } : null;
    case "serialize":
      return Number.isInteger(data.requestId) ? { type: "serialize", requestId: data.requestId as number } : null;
    case "clean":
      return { type: "clean" };
    default:
      return null;
  }
}
