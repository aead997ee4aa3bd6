import { describe, expect, it } from "vitest";
import { currencyFor, formatDate, formatMoney } from "~/lib/format";

describe("money and dates in the interface language", () => {
  it("uses dollars for English and French and euros for German, from cents", () => {
    expect(currencyFor("en")).toBe("USD");
    expect(currencyFor("fr")).toBe("USD");
    expect(currencyFor("de")).toBe("EUR");
    expect(formatMoney(1200, "en")).toBe("$12.00");
    expect(formatMoney(24000, "de")).toMatch(/^240,00\s€$/);
    expect(formatMoney(1200, "fr")).toMatch(/^12,00\s\$US$/);
  });

  it("formats short, medium and long dates per locale", () => {
    const day = new Date(Date.UTC(2026, 10, 22));
    expect(formatDate(day, "en", "short")).toBe("11/22/26");
    expect(formatDate(day, "en", "medium")).toBe("Nov 22, 2026");
    expect(formatDate(day, "en", "long")).toBe("November 22, 2026");
    expect(formatDate(day, "de", "long")).toBe("22. November 2026");
    expect(formatDate(day, "fr", "long")).toBe("22 novembre 2026");
  });
});
