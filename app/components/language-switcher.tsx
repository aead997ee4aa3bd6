import { useTranslation } from "react-i18next";
import { Form, useLocation, useSubmit } from "react-router";
import { LOCALES, LOCALE_NAMES } from "~/lib/locale";

/** A form, so it works before hydration too; with JavaScript it submits on change. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const submit = useSubmit();
  return (
    <Form method="post" action="/language" className="language-switcher" onChange={(e) => submit(e.currentTarget)}>
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label>
        <span className="visually-hidden">{t("language.label")}</span>
        <select name="lng" defaultValue={i18n.language} key={i18n.language} aria-label={t("language.label")}>
          {LOCALES.map((locale) => (
            <option key={locale} value={locale} lang={locale}>
              {LOCALE_NAMES[locale]}
            </option>
          ))}
        </select>
      </label>
      <noscript>
        <button type="submit">{t("language.change")}</button>
      </noscript>
    </Form>
  );
}
