/**
 * The tag that loads the in-frame editor into a page rendered for editing. The render puts it
 * before every other script of the page (protocol.ts: its listener must be the first), and before
 * anything that could run earlier than a script (a `<meta http-equiv>` refresh is not a script).
 */
import { version } from "virtual:editor-frame";
import { escapeAttribute } from "~/lib/regions/entities";
import type { PageMetadata } from "~/lib/regions/types";

export const EDITOR_FRAME_PATH = "/api/editor/frame.js";

/** What the render tells the frame script (it reads them before any page script runs). */
export interface EditorFrameData {
  /** sha256 of the server file shown: the base a draft records. */
  baseHash?: string;
  /** The revision shown, if any. */
  revisionId?: string;
  /** The page's metadata as shown (EDITING-MODEL.md, "Metadata"). */
  metadata?: PageMetadata;
  /** Why there is no page to edit: an error code the editor shows. */
  error?: string;
}

/**
 * `<script src="{appOrigin}/api/editor/frame.js?v={version}">`. `appOrigin` is the app's origin
 * (`https://app.example`): the script is served from it, and it is the only origin the frame
 * accepts the parent's `init` from. Synchronous on purpose: the script must run before the page's.
 *
 * @example editorFrameScriptTag("http://localhost:5173", { baseHash: "ab12…" })
 * // '<script src="http://localhost:5173/api/editor/frame.js?v=633f8875b5fed837" data-parent-origin="http://localhost:5173" data-base-hash="ab12…"></script>'
 */
export function editorFrameScriptTag(appOrigin: string, data: EditorFrameData = {}): string {
  const origin = new URL(appOrigin).origin;
  const src = `${origin}${EDITOR_FRAME_PATH}?v=${version}`;
  const metadata = data.metadata ? JSON.stringify(data.metadata) : undefined;
  const attributes = Object.entries({ "base-hash": data.baseHash, "revision-id": data.revisionId, metadata, error: data.error })
    .filter(([, value]) => value)
    .map(([name, value]) => ` data-${name}="${escapeAttribute(value!)}"`)
    .join("");
  return `<script src="${escapeAttribute(src)}" data-parent-origin="${escapeAttribute(origin)}"${attributes}></script>`;
}
