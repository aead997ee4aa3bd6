import { AppError } from "~/lib/errors";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses a state-changing request that a browser sent from another origin (SECURITY.md 9).
 * `Sec-Fetch-Site` when the browser sends it, else `Origin`; requests without either (scripts,
 * API-token clients) carry no ambient browser credentials worth protecting here.
 */
export function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers.get("Sec-Fetch-Site");
  if (site) {
    if (site === "same-origin" || site === "none") return;
    throw new AppError("FORBIDDEN");
  }
  const origin = request.headers.get("Origin");
  if (origin && origin !== new URL(request.url).origin) throw new AppError("FORBIDDEN");
}
