/**
 * "Trust this device for 30 days": the trusted devices and their two cookies, beside the session
 * cookie.
 *
 * - The trusted-device cookie (`__Host-tdid` on https, `tdid` on plain-http localhost): a random
 *   256-bit token, HttpOnly, SameSite=Lax, 30 days. D1 keeps only its SHA-256 in `trusted_devices`
 *   with the user and the expiry. `login()` marks the new session as two-factor verified when this
 *   cookie names a live row of the same user.
 * - The trust request (`__Host-tdreq` / `tdreq`): how the "trust this device" tick of the login form
 *   reaches the two-factor step without a schema change. Its value is SHA-256("trust-device|" +
 *   session token), so it is bound to the one pending session it was issued with: the server
 *   recomputes it from the session cookie, nobody without that session token can forge it, and a
 *   cookie planted in another browser (or left from an earlier sign-in) matches no session. It lives
 *   as long as a pending session may idle (30 minutes) and is cleared when two-factor succeeds.
 */
import { and, eq, gt } from "drizzle-orm";
import { trustedDevices } from "../../db/schema";
import { randomToken, sha256Hex } from "~/lib/tokens";
import { SESSION_IDLE_MS } from "./actor.server";
import type { Db } from "./db.server";
import { sessionCookie } from "./session-cookie.server";

export const TRUSTED_DEVICE_DAYS = 30;
export const TRUSTED_DEVICE_MS = TRUSTED_DEVICE_DAYS * 24 * 60 * 60 * 1000;

function isSecure(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

function cookieName(request: Request, base: "tdid" | "tdreq"): string {
  return isSecure(request) ? `__Host-${base}` : base;
}

function cookie(request: Request, base: "tdid" | "tdreq", value: string, maxAgeSeconds: number): string {
  const secure = isSecure(request) ? "; Secure" : "";
  return `${cookieName(request, base)}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || null;
  }
  return null;
}

export function readTrustedDeviceToken(request: Request): string | null {
  return readCookie(request, cookieName(request, "tdid"));
}

export function trustedDeviceCookie(request: Request, token: string): string {
  return cookie(request, "tdid", token, TRUSTED_DEVICE_MS / 1000);
}

export function readTrustRequest(request: Request): string | null {
  return readCookie(request, cookieName(request, "tdreq"));
}

/** The value of the trust request of a pending session. */
export function trustRequestValue(sessionToken: string): Promise<string> {
  return sha256Hex(`trust-device|${sessionToken}`);
}

/** True when the trust-request cookie was issued with this very session. */
export async function isTrustRequestFor(sessionToken: string | null, cookieValue: string | null): Promise<boolean> {
  if (!sessionToken || !cookieValue) return false;
  return cookieValue === (await trustRequestValue(sessionToken));
}

/**
 * The cookies a sign-in answers with: the session, and when two-factor is still to come and the
 * user ticked "trust this device", the trust request for the two-factor step.
 */
export async function signInCookies(
  request: Request,
  result: { sessionToken: string; tfaVerified: boolean },
  isTrusted: boolean,
): Promise<string[]> {
  const cookies = [sessionCookie(request, result.sessionToken)];
  if (!result.tfaVerified && isTrusted) {
    cookies.push(cookie(request, "tdreq", await trustRequestValue(result.sessionToken), SESSION_IDLE_MS / 1000));
  }
  return cookies;
}

/** The cookies after the two-factor step: the new session, the trusted device if one was issued, the trust request cleared. */
export function tfaVerifiedCookies(request: Request, result: { sessionToken: string; trustedDeviceToken: string | null }): string[] {
  const cookies = [sessionCookie(request, result.sessionToken)];
  if (result.trustedDeviceToken) cookies.push(trustedDeviceCookie(request, result.trustedDeviceToken));
  if (readTrustRequest(request)) cookies.push(cookie(request, "tdreq", "", 0));
  return cookies;
}

/** Headers carrying several Set-Cookie lines (for React Router redirects). */
export function setCookieHeaders(cookies: string[]): Headers {
  const headers = new Headers();
  for (const value of cookies) headers.append("Set-Cookie", value);
  return headers;
}

/**
 * True when a trusted-device cookie token names a live trusted device of this user (`login()` then
 * skips the two-factor step).
 *
 * @example if (await isTrustedDevice(ctx.db, user.id, readTrustedDeviceToken(request))) …
 */
export async function isTrustedDevice(db: Db, userId: string, token: string | null | undefined): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db
    .select({ id: trustedDevices.id })
    .from(trustedDevices)
    .where(and(eq(trustedDevices.tokenHash, await sha256Hex(token)), eq(trustedDevices.userId, userId), gt(trustedDevices.expiresAt, new Date())))
    .get();
  return Boolean(row);
}

/** Records a new trusted device for 30 days and answers its cookie token (only the hash is stored). */
export async function issueTrustedDevice(db: Db, userId: string, now = new Date()): Promise<string> {
  const token = randomToken(32);
  await db.insert(trustedDevices).values({
    userId,
    tokenHash: await sha256Hex(token),
    createdAt: now,
    expiresAt: new Date(now.getTime() + TRUSTED_DEVICE_MS),
  });
  return token;
}
