/**
 * Site card screenshots (ARCHITECTURE.md, "Embedded defaults": Cloudflare Browser Rendering in
 * production). A capture is a PNG of the site's public URL, stored in R2 under a new key each time
 * (so its URL can be cached forever); the previous one is removed.
 *
 * The capture uses the Browser Rendering REST API when the Worker has the secrets
 * `BROWSER_RENDERING_ACCOUNT_ID` and `BROWSER_RENDERING_API_TOKEN`. Without them (local
 * development, tests) nothing is captured and the site keeps its screenshot, or none: the card
 * then shows its placeholder, and stops polling after its 3 retries.
 *
 * @example if (screenshotsConfigured(env)) await captureSiteScreenshot(env, db, site);
 */
import { and, eq } from "drizzle-orm";
import { sites, type Site } from "../../db/schema";
import type { Db } from "./db.server";

/** The bindings this module reads; the two secrets exist only where they are set. */
export interface ScreenshotEnv {
  UPLOADS: R2Bucket;
  BROWSER_RENDERING_ACCOUNT_ID?: string;
  BROWSER_RENDERING_API_TOKEN?: string;
}

const CAPTURE_TIMEOUT_MS = 30_000;
const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;

export function screenshotsConfigured(env: ScreenshotEnv): boolean {
  return Boolean(env.BROWSER_RENDERING_ACCOUNT_ID && env.BROWSER_RENDERING_API_TOKEN);
}

/** A new R2 key per capture: `screenshots/<account>/<site>/<time>.png`. */
export function screenshotKey(site: Pick<Site, "accountId" | "id">, at: number): string {
  return `screenshots/${site.accountId}/${site.id}/${at}.png`;
}

/**
 * The URL the browser loads a site's screenshot from (`GET /api/sites/{siteId}/screenshot`),
 * versioned by its key, or null when the site has none.
 * @example screenshotUrl({ id: "s1", screenshotKey: "screenshots/a/s1/1700000000000.png" }) // "/api/sites/s1/screenshot?v=1700000000000"
 */
export function screenshotUrl(site: Pick<Site, "id" | "screenshotKey">): string | null {
  if (!site.screenshotKey) return null;
  const version = site.screenshotKey.slice(site.screenshotKey.lastIndexOf("/") + 1).replace(/\.png$/, "");
  return `/api/sites/${site.id}/screenshot?v=${encodeURIComponent(version)}`;
}

/** A PNG of the page at `url` from Browser Rendering, or null when it is not configured or fails. */
async function capture(env: ScreenshotEnv, url: string): Promise<Uint8Array | null> {
  if (!screenshotsConfigured(env)) return null;
  const endpoint = `https://api.cloudflare.com/client/v4/accounts/${encodeURIComponent(env.BROWSER_RENDERING_ACCOUNT_ID!)}/browser-rendering/screenshot`;
  const response = await fetch(endpoint, {
    method: "POST",
    headers: { Authorization: `Bearer ${env.BROWSER_RENDERING_API_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ url, viewport: { width: 1280, height: 800 }, gotoOptions: { waitUntil: "networkidle2", timeout: 20_000 } }),
    signal: AbortSignal.timeout(CAPTURE_TIMEOUT_MS),
  });
  if (!response.ok || !(response.headers.get("Content-Type") ?? "").startsWith("image/")) return null;
  const bytes = new Uint8Array(await response.arrayBuffer());
  return bytes.byteLength > 0 && bytes.byteLength <= MAX_SCREENSHOT_BYTES ? bytes : null;
}

/**
 * Captures the site's public page and makes it the site's screenshot. Answers whether a new one was
 * stored. Failures of the capture leave the old screenshot in place; they are logged, not thrown
 * (this runs after the response, from `waitUntil`).
 */
export async function captureSiteScreenshot(env: ScreenshotEnv, db: Db, site: Pick<Site, "id" | "accountId" | "url" | "screenshotKey">): Promise<boolean> {
  let bytes: Uint8Array | null;
  try {
    bytes = await capture(env, site.url);
  } catch (error) {
    console.warn("Screenshot capture failed", site.id, error instanceof Error ? error.message : error);
    return false;
  }
  if (!bytes) return false;
  const key = screenshotKey(site, Date.now());
  await env.UPLOADS.put(key, bytes, { httpMetadata: { contentType: "image/png" } });
  const updated = await db
    .update(sites)
    .set({ screenshotKey: key })
    .where(and(eq(sites.id, site.id), eq(sites.accountId, site.accountId)))
    .returning({ id: sites.id });
  if (updated.length === 0) {
    // The site was deleted meanwhile.
    await env.UPLOADS.delete(key);
    return false;
  }
  if (site.screenshotKey && site.screenshotKey !== key) await env.UPLOADS.delete(site.screenshotKey);
  return true;
}
