/**
 * The preview origin (ARCHITECTURE.md, "Render for editing"; SECURITY.md 6): customer pages
 * rendered for the editor, and demo sites, are served from a different registrable domain than
 * the app, so nothing they run is same-site with the app's cookies.
 *
 * `PREVIEW_ORIGIN` configures it (production: e.g. `https://preview.sitecraft-content.com`). Unset
 * or empty, as locally, the preview origin of a request to `localhost` is `127.0.0.1` on the same
 * port (two different sites to a browser), and the other way round.
 */

export interface PreviewOriginEnv {
  PREVIEW_ORIGIN?: string;
}

/**
 * @example previewOrigin({}, new URL("http://localhost:8787/sites")) // "http://127.0.0.1:8787"
 */
export function previewOrigin(env: PreviewOriginEnv, requestUrl: URL): string {
  if (env.PREVIEW_ORIGIN) return new URL(env.PREVIEW_ORIGIN).origin;
  const swapped = new URL(requestUrl.origin);
  swapped.hostname = swapped.hostname === "localhost" ? "127.0.0.1" : "localhost";
  return swapped.origin;
}

/** Whether a request came in on the configured preview origin (always false when none is configured). */
export function isPreviewRequest(env: PreviewOriginEnv, requestUrl: URL): boolean {
  return Boolean(env.PREVIEW_ORIGIN) && new URL(env.PREVIEW_ORIGIN!).origin === requestUrl.origin;
}

export const DEMO_SITE_PATH = "/demo/";

/**
 * Where a demo site's files are served (its "live site": the Worker serves them from R2).
 * @example demoSiteUrl("http://127.0.0.1:8787", siteId) // "http://127.0.0.1:8787/demo/<siteId>/"
 */
export function demoSiteUrl(origin: string, siteId: string): string {
  return `${origin}${DEMO_SITE_PATH}${encodeURIComponent(siteId)}/`;
}

/**
 * Where a site's pages are on the web: its URL, or for a demo site the Worker's own copy on the
 * preview origin (`previewOriginUrl`, e.g. from `previewOrigin`).
 * @example siteLiveUrl(site, previewOrigin(env, url)) // "https://example.com" or "http://127.0.0.1:8787/demo/<siteId>/"
 */
export function siteLiveUrl(site: { id: string; url: string; isDemo: boolean }, previewOriginUrl: string): string {
  return site.isDemo ? demoSiteUrl(previewOriginUrl, site.id) : site.url;
}
