import { DEFAULT_LOCALE, isLocale, type Locale } from "./locale";

/** The spec's currencies: US dollars for English and French, euros for German. */
export function currencyFor(locale: Locale): "USD" | "EUR" {
  return locale === "de" ? "EUR" : "USD";
}

const INTL_LOCALE: Record<Locale, string> = { en: "en-US", de: "de-DE", fr: "fr-FR" };

/** Money is kept in cents and shown divided by 100. */
export function formatMoney(cents: number, locale: Locale): string {
  return new Intl.NumberFormat(INTL_LOCALE[locale], { style: "currency", currency: currencyFor(locale) }).format(cents / 100);
}

export type DateFormat = "short" | "medium" | "long";

/** The spec's short, medium and long date formats, in the interface language. */
export function formatDate(date: Date | string | number, locale: Locale, format: DateFormat = "medium"): string {
  const value = date instanceof Date ? date : new Date(date);
  return new Intl.DateTimeFormat(INTL_LOCALE[locale], { dateStyle: format, timeZone: "UTC" }).format(value);
}

/**
 * Date and time in the interface language and the browser's time zone. For what renders in the
 * browser only (a server render would use its own zone and mismatch on hydration).
 */
export function formatDateTime(date: Date | string | number, locale: string): string {
  const value = date instanceof Date ? date : new Date(date);
  return new Intl.DateTimeFormat(INTL_LOCALE[isLocale(locale) ? locale : DEFAULT_LOCALE], { dateStyle: "medium", timeStyle: "short" }).format(value);
}
