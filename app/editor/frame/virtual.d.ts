declare module "virtual:editor-frame" {
  /** The in-frame editor bundle (a minified IIFE). */
  export const code: string;
  /** A hash of `code`, for the script URL. */
  export const version: string;
  /** `sha256-…` of `code`. */
  export const integrity: string;
}
