/**
 * Property tests (SECURITY.md, "Region merge"): over generated documents and edits, a merge with
 * no edit is byte-identical, bytes outside the edited regions never change, the region list is
 * kept, and merging the same edits again changes nothing (idempotent); or the content is refused.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "~/lib/errors";
import { mergePage } from "~/lib/regions/merge";
import { parsePage } from "~/lib/regions/parse-page";
import type { RegionUpdates } from "~/lib/regions/types";

const text = fc.stringMatching(/^[a-zA-Z0-9 <>&;é😀\r\n"'=/-]{0,12}$/u);
const safeText = text.map((s) => s.replace(/</g, "&lt;"));
const attr = fc.constantFrom("", ' class="x"', " data-a='1 > 2'", " title=plain", " hidden", ' style="color:red"');

const leaf: fc.Arbitrary<string> = fc.oneof(
  safeText,
  fc.constantFrom("<br>", "<img src=a.png>", "<!-- note -->", "<script>if (a < b) x('</div>')</script>", "<![CDATA[ <p> ]]>", "<p>unclosed", "&amp;", "</span>"),
);
const content: fc.Arbitrary<string> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.tuple(fc.constantFrom("div", "span", "b", "section", "em"), attr, fc.array(tie("node"), { maxLength: 3 })).map(
      ([t, a, kids]) => `<${t}${a}>${kids.join("")}</${t}>`,
    ),
    fc.array(tie("node"), { maxLength: 3 }).map((kids) => `<ul>${kids.map((k) => `<li>${k}`).join("")}</ul>`),
  ),
})).node;

type RegionKind = "block" | "inline" | "text" | "link" | "image";
const regionMarkup: Record<RegionKind, (id: string, inner: string) => string> = {
  block: (id, inner) => `<DIV class="editable" id="${id}">${inner}</DIV>`,
  inline: (id, inner) => `<h2 class='cms-editable' id=${id}>${inner.replace(/<\/?(div|section|ul|li|p)\b[^>]*>/g, "")}</h2>`,
  text: (id, inner) => `<span class="editable-text" id="${id}">${inner.replace(/</g, "&lt;")}</span>`,
  link: (id, inner) => `<a class="editable" id="${id}" href="/p?a=1&amp;b=2">${inner.replace(/<\/?(div|section|ul|li|p|a)\b[^>]*>/g, "")}</a>`,
  image: (id) => `<img class="editable" id="${id}" src='a.png' alt=x>`,
};

const doc = fc
  .array(fc.tuple(fc.constantFrom<RegionKind>("block", "inline", "text", "link", "image"), content, content), { minLength: 1, maxLength: 5 })
  .chain((parts) =>
    fc.tuple(fc.constant(parts), fc.boolean(), fc.boolean()).map(([ps, bom, crlf]) => {
      const body = ps.map(([kind, inner, between], i) => `${between}\n${regionMarkup[kind](`r${i}`, inner)}\n`).join("");
      const html = `${bom ? "\ufeff" : ""}<!doctype html>\n<html><head><title>T</title></head><body>\n${body}</body></html>\n`;
      return { html: crlf ? html.replace(/\n/g, "\r\n") : html, kinds: ps.map(([k]) => k) };
    }),
  );

const editValue = (kind: RegionKind, s: string): RegionUpdates[string] => {
  switch (kind) {
    case "image":
      return { type: "image", src: s.includes(":") ? "b.png" : s, alt: s };
    case "link":
      return { type: "link", href: "/x", title: s, target: "", rel: "", content: s };
    default:
      return { type: kind, content: s };
  }
};

describe("merge properties", () => {
  it("no edit gives the identical string", () => {
    fc.assert(
      fc.property(doc, ({ html }) => {
        const page = parsePage(html, "html");
        expect(mergePage(page, {}).source).toBe(html);
        expect(page.byId.size).toBeGreaterThan(0);
      }),
      { numRuns: 2000 },
    );
  });

  it("edits change only the edited spans, keep the regions, and are idempotent", () => {
    const seen = { merged: 0, refused: 0 };
    fc.assert(
      fc.property(doc, fc.array(fc.tuple(fc.nat(), fc.oneof(content, text)), { maxLength: 4 }), ({ html, kinds }, picks) => {
        const page = parsePage(html, "html");
        const updates: RegionUpdates = {};
        for (const [n, value] of picks) {
          const i = n % kinds.length;
          if (page.byId.has(`r${i}`)) updates[`r${i}`] = editValue(kinds[i], value);
        }
        let out: string;
        try {
          out = mergePage(page, { regions: updates }).source;
        } catch (error) {
          expect(error).toBeInstanceOf(AppError);
          expect((error as AppError).code).toBe("INVALID_REGION_CONTENT");
          seen.refused++;
          return;
        }
        if (Object.keys(updates).length > 0) seen.merged++;
        const after = parsePage(out, "html");
        expect(after.regions.map((r) => `${r.id}:${r.type}`)).toEqual(page.regions.map((r) => `${r.id}:${r.type}`));
        // Every byte outside the edited regions (start tags included for attribute regions) is kept.
        let at = 0;
        let atOut = 0;
        for (const region of page.regions) {
          const id = region.id as string;
          if (!updates[id]) continue;
          const next = after.byId.get(id);
          if (!next) throw new Error(`lost ${id}`);
          const attrType = region.type === "image" || region.type === "link";
          const from = attrType ? region.startTag.start : region.inner.start;
          const fromOut = attrType ? next.startTag.start : next.inner.start;
          expect(out.slice(atOut, fromOut)).toBe(html.slice(at, from));
          at = region.type === "image" ? region.startTag.end : region.inner.end;
          atOut = region.type === "image" ? next.startTag.end : next.inner.end;
        }
        expect(out.slice(atOut)).toBe(html.slice(at));
        expect(mergePage(after, { regions: updates }).source).toBe(out);
      }),
      { numRuns: 10_000 },
    );
    // The property is not vacuous: most generated edits are written, not refused.
    expect(seen.merged).toBeGreaterThan(seen.refused * 2);
  });
});
