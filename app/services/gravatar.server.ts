import { sha256Hex } from "~/lib/tokens";
import type { ServiceContext } from "./context.server";
import { requireSignedIn } from "./policy";

export const GRAVATAR_DEFAULT_SIZE = 512;
const DEFAULT_BASE_URL = "https://www.gravatar.com";
const VERIFY_TIMEOUT_MS = 3000;

/**
 * `GET /utilities/gravatar`: the Gravatar URL of an email (SHA-256 of the trimmed, lowercased
 * address, which Gravatar accepts). With `verify`, answers null when the address has no Gravatar,
 * so the avatar control can fall back to initials. The base URL is configurable
 * (`GRAVATAR_BASE_URL`) so tests can point it at a local server; set to "" (local development and
 * the tests, wrangler.toml) Gravatar is off and every answer is null, so nothing leaves the machine.
 *
 * @example const { url } = await gravatarUrl(ctx, { email: "pat@example.com", size: 512, verify: false });
 */
export async function gravatarUrl(ctx: ServiceContext, input: { email: string; size: number; verify: boolean }): Promise<{ url: string | null }> {
  requireSignedIn(ctx);
  const base = (ctx.env as { GRAVATAR_BASE_URL?: string }).GRAVATAR_BASE_URL ?? DEFAULT_BASE_URL;
  if (base === "") return { url: null };
  const hash = await sha256Hex(input.email.trim().toLowerCase());
  const url = `${base}/avatar/${hash}?s=${input.size}&d=${input.verify ? "404" : "mp"}`;
  if (!input.verify) return { url };
  try {
    const response = await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS) });
    return { url: response.ok ? url : null };
  } catch {
    return { url: null }; // unreachable or slow: no avatar is better than a broken image
  }
}
