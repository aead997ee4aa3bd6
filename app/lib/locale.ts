export const LOCALES = ["en", "de", "fr"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";
export const LOCALE_COOKIE = "lng";

export const LOCALE_NAMES: Record<Locale, string> = { en: "English", de: "Deutsch", fr: "Français" };

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Picks the locale for an API request: the `lng` cookie, then Accept-Language, then English. */
export function localeFromRequest(request: Request): Locale {
  const fromCookie = readLocaleCookie(request.headers.get("Cookie") ?? "");
  if (fromCookie) return fromCookie;
  const header = request.headers.get("Accept-Language") ?? "";
  for (const part of header.split(",")) {
    const tag = part.split(";")[0].trim().slice(0, 2).toLowerCase();
    if (isLocale(tag)) return tag;
  }
  return DEFAULT_LOCALE;
}

/** The `lng` cookie as React Router's createCookie writes it (base64 of a JSON string). */
function readLocaleCookie(header: string): Locale | null {
  const raw = /(?:^|;\s*)lng=([^;]*)/.exec(header)?.[1];
  if (!raw) return null;
  if (isLocale(raw)) return raw;
  try {
    const value: unknown = JSON.parse(atob(decodeURIComponent(raw)));
    return isLocale(value) ? value : null;
  } catch {
    return null;
  }
}
