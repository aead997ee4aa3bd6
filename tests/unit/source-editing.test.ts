import { describe, expect, it } from "vitest";
import { detectIndentation, sourceMode } from "~/lib/source-editing";

describe("the source editor's rules", () => {
  it("chooses the mode by extension: js and json javascript, css css, php php, anything else html", () => {
    expect(["js", "json", "css", "php", "html", "txt", "asp", ""].map(sourceMode)).toEqual(["javascript", "javascript", "css", "php", "html", "html", "html", "html"]);
  });

  it("detects tabs, and the step of leading spaces, defaulting to 2", () => {
    expect(detectIndentation("a {\n\tb: c;\n\td: e;\n}")).toEqual({ unit: "\t", tabSize: 4 });
    expect(detectIndentation("<ul>\n    <li>a</li>\n    <li>b</li>\n</ul>")).toEqual({ unit: "    ", tabSize: 4 });
    expect(detectIndentation("<div>\n  <p>\n    x\n  </p>\n</div>")).toEqual({ unit: "  ", tabSize: 4 });
    expect(detectIndentation("no indentation at all")).toEqual({ unit: "  ", tabSize: 4 });
  });
});
