import "i18next";
import { initReactI18next } from "react-i18next";
import { createCookie } from "react-router";
import { createI18nextMiddleware } from "remix-i18next";
import { DEFAULT_LOCALE, LOCALES, LOCALE_COOKIE } from "~/lib/locale";
import { NAMESPACES, resources } from "~/locales";

/** The chosen interface language; readable by the API too (see localeFromRequest). */
export const localeCookie = createCookie(LOCALE_COOKIE, {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
});

export const [i18nextMiddleware, getLocale, getInstance] = createI18nextMiddleware({
  detection: {
    supportedLanguages: [...LOCALES],
    fallbackLanguage: DEFAULT_LOCALE,
    cookie: localeCookie,
  },
  i18next: { resources, ns: [...NAMESPACES], defaultNS: "common", interpolation: { escapeValue: false } },
  plugins: [initReactI18next],
});

declare module "i18next" {
  interface CustomTypeOptions {
    defaultNS: "common";
    resources: typeof resources.en;
  }
}
