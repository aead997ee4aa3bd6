import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { errorMessageKey, parseErrorBody } from "~/lib/errors";
import { resources } from "~/locales";

describe("the client's error messages", () => {
  it("maps a known code to its message and an unknown one to the generic message, in every language", async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ resources, lng: "en", ns: ["common", "errors", "notify"], defaultNS: "common", interpolation: { escapeValue: false } });
    expect(i18n.t(errorMessageKey("VALIDATION_ERROR"))).toBe("Please correct the highlighted errors.");
    expect(i18n.t(errorMessageKey("SITE_IS_LOCKED"))).toBe("This request cannot be completed because the site is on lockdown.");
    expect(i18n.t(errorMessageKey("SOMETHING_NEW_FROM_A_NEWER_SERVER"))).toBe("An error occurred. Please try your request again later.");
    expect(i18n.t(errorMessageKey(undefined))).toBe("An error occurred. Please try your request again later.");
    await i18n.changeLanguage("de");
    expect(i18n.t(errorMessageKey("NOPE"))).toBe(resources.de.errors.generic);
    await i18n.changeLanguage("fr");
    expect(i18n.t(errorMessageKey("VALIDATION_ERROR"))).toBe(resources.fr.errors.VALIDATION_ERROR);
  });

  it("reads API error bodies defensively", () => {
    expect(parseErrorBody({ code: "VALIDATION_ERROR", invalid: ["email", 3] })).toEqual({ code: "VALIDATION_ERROR", invalid: ["email"] });
    expect(parseErrorBody({ code: "WHO_KNOWS" })).toEqual({ code: null, invalid: [] });
    expect(parseErrorBody("<html>")).toEqual({ code: null, invalid: [] });
  });
});
