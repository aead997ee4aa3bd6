import { describe, expect, it } from "vitest";
import { LOCALES } from "~/lib/locale";
import { NAMESPACES, resources } from "~/locales";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe("the three interface languages", () => {
  for (const ns of NAMESPACES) {
    const english = flatten(resources.en[ns] as Tree);
    for (const locale of LOCALES.filter((l) => l !== "en")) {
      it(`${locale} has every ${ns} key of English, no extra ones, and the same placeholders`, () => {
        const translated = flatten(resources[locale][ns] as Tree);
        expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
        for (const [key, text] of translated) {
          expect(text.trim(), `${locale}:${ns}.${key} is empty`).not.toBe("");
          expect(placeholders(text), `${locale}:${ns}.${key} placeholders`).toEqual(placeholders(english.get(key)!));
        }
      });
    }
  }

  it("is really translated: most German and French texts differ from English", () => {
    for (const locale of ["de", "fr"] as const) {
      let same = 0;
      let total = 0;
      for (const ns of NAMESPACES) {
        const english = flatten(resources.en[ns] as Tree);
        for (const [key, text] of flatten(resources[locale][ns] as Tree)) {
          total += 1;
          if (text === english.get(key)) same += 1;
        }
      }
      expect(same / total, `${locale}: ${same} of ${total} texts equal the English`).toBeLessThan(0.1);
    }
  });

  it("detects a missing key (the check above is not vacuous)", () => {
    const english = flatten(resources.en.common as Tree);
    const broken = flatten({ ...(resources.de.common as Tree), login: {} } as Tree);
    expect([...broken.keys()].sort()).not.toEqual([...english.keys()].sort());
  });
});
