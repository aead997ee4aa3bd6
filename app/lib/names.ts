/**
 * The name rules of the editor's panels (spec, "Validation rules"), shared by the panels, the
 * in-frame editor and the server.
 */
import { normaliseCodeLanguage } from "./regions/markers";

/**
 * An anchor name: lowercase; characters other than letters and digits become hyphens; repeated
 * hyphens collapse; end hyphens are trimmed (the same rule as the Code Block language).
 * @example normaliseAnchorName("  Opening Hours & Prices!") // "opening-hours-prices"
 */
export function normaliseAnchorName(value: string): string {
  return normaliseCodeLanguage(value);
}

/**
 * The default anchor name: the first 5 words of the selection, normalised.
 * @example defaultAnchorName("Our opening hours for the holidays") // "our-opening-hours-for-the"
 */
export function defaultAnchorName(selection: string): string {
  return normaliseAnchorName(selection.trim().split(/\s+/).slice(0, 5).join(" "));
}

/** The Code Block's highlight mode for a (normalised) language: css, javascript, html, php, else plain. */
export type CodeMode = "css" | "javascript" | "html" | "php" | "plain";

/**
 * @example codeMode("JS") // "javascript"
 */
export function codeMode(language: string): CodeMode {
  const normal = normaliseCodeLanguage(language);
  if (normal === "css") return "css";
  if (normal === "javascript" || normal === "js") return "javascript";
  if (normal === "html" || normal === "xml") return "html";
  if (normal === "php") return "php";
  return "plain";
}

/**
 * Whether the Video panel's input is an address to look up through oEmbed (spec: input starting
 * with http(s)); anything else is used as embed code.
 * @example isEmbedAddress("https://youtu.be/abc") // true
 */
export function isEmbedAddress(input: string): boolean {
  return /^https?:\/\//i.test(input.trim());
}
