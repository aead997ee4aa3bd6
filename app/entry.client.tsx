import i18next from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { DEFAULT_LOCALE } from "~/lib/locale";
import { NAMESPACES, resources } from "~/locales";

async function main() {
  await i18next
    .use(initReactI18next)
    .use(LanguageDetector)
    .init({
      resources,
      ns: [...NAMESPACES],
      defaultNS: "common",
      fallbackLng: DEFAULT_LOCALE,
      interpolation: { escapeValue: false },
      // The server already chose the language; the client reads it from <html lang>.
      detection: { order: ["htmlTag"], caches: [] },
    });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

main().catch((error: unknown) => console.error(error));
