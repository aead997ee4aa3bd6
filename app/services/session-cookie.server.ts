/**
 * The session cookie. On HTTPS it is `__Host-sid` (Secure, no Domain, Path=/), which a sibling
 * subdomain cannot plant or overwrite; on plain-http localhost browsers refuse Secure cookies, so
 * development uses `sid` without the prefix.
 */
const SESSION_MAX_AGE_S = 12 * 60 * 60; // the absolute lifetime of a session

function isSecure(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

export function sessionCookieName(request: Request): string {
  return isSecure(request) ? "__Host-sid" : "sid";
}

export function sessionCookie(request: Request, token: string): string {
  const secure = isSecure(request) ? "; Secure" : "";
  return `${sessionCookieName(request)}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MAX_AGE_S}${secure}`;
}

export function clearSessionCookie(request: Request): string {
  const secure = isSecure(request) ? "; Secure" : "";
  return `${sessionCookieName(request)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`;
}

export function readSessionToken(request: Request): string | null {
  const name = sessionCookieName(request);
  for (const part of (request.headers.get("Cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=") || null;
  }
  return null;
}
