/**
 * The tag that loads the in-frame editor into a page rendered for editing. The render puts it
 * before every other script of the page (protocol.ts: its listener must be the first), and before
 * anything that could run earlier than a script (a `<meta http-equiv>` refresh is not a script).
 */
import { version } from "virtual:editor-frame";
import { escapeAttribute } from "~/lib/regions/entities";

export const EDITOR_FRAME_PATH = "/api/editor/frame.js";

/**
 * `<script src="{appOrigin}/api/editor/frame.js?v={version}">`. `appOrigin` is the app's origin
 * (`https://app.example`): the script is served from it, and it is the only origin the frame
 * accepts the parent's `init` from. Synchronous on purpose: the script must run before the page's.
 *
 * @example editorFrameScriptTag("http://localhost:5173")
 * // '<script src="http://localhost:5173/api/editor/frame.js?v=633f8875b5fed837" data-parent-origin="http://localhost:5173"></script>'
 */
export function editorFrameScriptTag(appOrigin: string): string {
  const origin = new URL(appOrigin).origin;
  const src = `${origin}${EDITOR_FRAME_PATH}?v=${version}`;
  return `<script src="${escapeAttribute(src)}" data-parent-origin="${escapeAttribute(origin)}"></script>`;
}

export const editorFrameVersion = version;
