/**
 * The page rendered for editing (ARCHITECTURE.md, "Render for editing"; SECURITY.md 6).
 *
 * Two steps, on two origins:
 * 1. `GET /api/sites/{siteId}/pages/{pageId}/render` (and `…/revisions/{revisionId}/render`) on the
 *    app: the signed-in user's access is checked, and the answer is a redirect to the preview
 *    origin with a short-lived render token (sealed with the secret box, so it can be neither read
 *    nor forged). The editor's frame points at the app URL and follows it.
 * 2. `GET /api/render/{token}` on the preview origin, which has no cookies of the app: the file
 *    is read fresh from the server, the revision's regions applied, a `<base>` to the live page and
 *    the in-frame editor script put first in the head, and it is answered with
 *    `Content-Security-Policy: sandbox allow-scripts` (so even a direct visit runs in an opaque
 *    origin) and `frame-ancestors` of the app origin that asked for it.
 *
 * A failure to read or prepare the page is answered as a small page that loads the same editor
 * script with the error code, so the editor can tell the user what happened.
 */
import { and, eq } from "drizzle-orm";
import { pages, sites, type Page, type Site } from "../../db/schema";
import { AgentError } from "../../agent/src/errors.ts";
import { AppError } from "~/lib/errors";
import type { ErrorCode } from "~/lib/error-codes";
import { ERROR_STATUS } from "~/lib/error-codes";
import { livePageUrl } from "~/lib/page-url";
import { encodePageSource, mergePage, type RegionUpdates } from "~/lib/regions";
import { editorBaseTag, findEditorHead, withHeadInsert } from "~/lib/regions/editor-document";
import type { ServiceContext } from "./context.server";
import { getDb } from "./db.server";
import { editorFrameScriptTag } from "./editor-frame.server";
import { readPageFile } from "./page-file.server";
import { previewOrigin, siteLiveUrl } from "./preview-origin.server";
import { findEditablePage } from "./publish.server";
import { assertRevisionOfPage, revisionOfPage } from "./revisions.server";
import { openSecret, sealSecret } from "./secret-box.server";
import { findAccessibleSite } from "./site-files.server";
import { requireSignedIn } from "./policy";

/** How long a render link works: enough to load a frame, short enough that a leaked one is stale. */
export const RENDER_TOKEN_TTL_MS = 5 * 60 * 1000;
export const RENDER_PATH = "/api/render/";

interface RenderClaims {
  /** account, site, page, revision (or null), user, the app origin that asked, expiry (ms). */
  a: string;
  s: string;
  p: string;
  r: string | null;
  u: string;
  o: string;
  e: number;
}

const renderAad = (keyVersion: number) => `render|${keyVersion}`;

const toBase64Url = (text: string) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromBase64Url = (text: string) => atob(text.replace(/-/g, "+").replace(/_/g, "/"));

async function sealClaims(env: Env, claims: RenderClaims): Promise<string> {
  const sealed = await sealSecret(env, new TextEncoder().encode(JSON.stringify(claims)), renderAad);
  return toBase64Url(`${sealed.keyVersion}.${sealed.iv}.${sealed.ciphertext}`);
}

/** The claims of a token this Worker sealed, or null for anything else (forged, altered, malformed). */
async function openClaims(env: Env, token: string): Promise<RenderClaims | null> {
  try {
    const [version, iv, ciphertext] = fromBase64Url(token).split(".");
    const plaintext = await openSecret(env, { keyVersion: Number(version), iv, ciphertext }, renderAad);
    const claims = JSON.parse(new TextDecoder().decode(plaintext)) as RenderClaims;
    return typeof claims.s === "string" && typeof claims.e === "number" ? claims : null;
  } catch {
    return null;
  }
}

/**
 * Step 1: checks the actor may edit the page (and that the revision is the page's), and answers
 * the preview URL to redirect the frame to.
 *
 * @example const url = await renderLocation(ctx, siteId, pageId, null); // "http://127.0.0.1:8787/api/render/…"
 */
export async function renderLocation(ctx: ServiceContext, siteId: string, pageId: string, revisionId: string | null): Promise<string> {
  const actor = requireSignedIn(ctx);
  const site = await findAccessibleSite(ctx, siteId);
  const page = await findEditablePage(ctx, site, pageId);
  if (site.isLocked) throw new AppError("SITE_IS_LOCKED");
  if (revisionId) await assertRevisionOfPage(ctx.db, page, revisionId);
  const token = await sealClaims(ctx.env, {
    a: site.accountId, s: site.id, p: page.id, r: revisionId, u: actor.user.id, o: ctx.request.url.origin, e: Date.now() + RENDER_TOKEN_TTL_MS,
  });
  return `${previewOrigin(ctx.env, ctx.request.url)}${RENDER_PATH}${token}`;
}

/**
 * Headers of every render answer: sandboxed, framed only by the app origin that asked, never stored.
 * A page not stored as UTF-8 goes out in its own bytes with no charset, so its own `<meta charset>`
 * (or the browser's default) decodes it as on the live site.
 */
function renderHeaders(parentOrigin: string | null, utf8 = true): HeadersInit {
  return {
    "Content-Type": utf8 ? "text/html; charset=utf-8" : "text/html",
    "Content-Security-Policy": `sandbox allow-scripts; frame-ancestors ${parentOrigin ?? "'none'"}`,
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
}

/** The page that tells the editor why there is no page: the editor script with the error code. */
function failurePage(code: ErrorCode, parentOrigin: string | null, status: number): Response {
  const script = parentOrigin ? editorFrameScriptTag(parentOrigin, { error: code }) : "";
  return new Response(`<!doctype html><html><head>${script}<meta charset="utf-8"><title>${code}</title></head><body></body></html>`, {
    status,
    headers: renderHeaders(parentOrigin),
  });
}

function codeOf(error: unknown): ErrorCode {
  if (error instanceof AgentError || error instanceof AppError) return error.code;
  return "PUBLISHING_ERROR";
}

/**
 * Step 2: the page for the frame, from a render token (see the module comment).
 *
 * @example return renderFromToken(env, token, new URL(request.url));
 */
export async function renderFromToken(env: Env, token: string, requestUrl: URL): Promise<Response> {
  const claims = await openClaims(env, token);
  if (!claims) return failurePage("NOT_FOUND", null, 404);
  if (claims.e < Date.now()) return failurePage("RENDER_EXPIRED", claims.o, 410);
  const db = getDb(env);
  try {
    const [[site], [page]] = await db.batch([
      db.select().from(sites).where(and(eq(sites.id, claims.s), eq(sites.accountId, claims.a))),
      db.select().from(pages).where(and(eq(pages.id, claims.p), eq(pages.siteId, claims.s), eq(pages.accountId, claims.a), eq(pages.isEnabled, true))),
    ]);
    if (!site || !page) throw new AppError("NOT_FOUND");
    if (site.isLocked) throw new AppError("SITE_IS_LOCKED");
    const { bytes, utf8 } = await editorDocument(env, db, site, page, claims, requestUrl);
    return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: renderHeaders(claims.o, utf8) });
  } catch (error) {
    const code = codeOf(error);
    if (!(error instanceof AgentError || error instanceof AppError)) console.error("render failed", claims.s, claims.p, error);
    return failurePage(code, claims.o, ERROR_STATUS[code] ?? 500);
  }
}

async function editorDocument(env: Env, db: ReturnType<typeof getDb>, site: Site, page: Page, claims: RenderClaims, requestUrl: URL): Promise<{ bytes: Uint8Array; utf8: boolean }> {
  const file = await readPageFile(env, db, site, page);
  let source = file.parsed.source;
  let parsed = file.parsed;
  let metadata = file.parsed.metadata.values;
  const siteUrl = siteLiveUrl(site, requestUrl.origin);
  const liveUrl = livePageUrl(siteUrl, site.homeFolder, page.path) ?? siteUrl;
  if (claims.r) {
    const revision = await revisionOfPage({ db, env }, page, claims.r);
    const merged = mergePage(parsed, { regions: revision.regions as RegionUpdates, metadata: revision.metadata }, { pageUrl: liveUrl, allowEmbeds: true, asciiOnly: file.encoding === "binary" });
    source = merged.source;
    parsed = { ...parsed, source };
    metadata = { ...metadata, ...revision.metadata } as typeof metadata;
  }
  const head = findEditorHead(source, parsed.dialect);
  const tags = editorBaseTag(liveUrl, head.baseHref) + editorFrameScriptTag(claims.o, { baseHash: file.hash, revisionId: claims.r ?? "", metadata });
  // The inserted tags are ASCII, so the file keeps its own encoding.
  return { bytes: encodePageSource(withHeadInsert(source, head, tags), file.encoding), utf8: file.encoding === "utf-8" };
}
