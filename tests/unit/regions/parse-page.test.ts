import { describe, expect, it } from "vitest";
import { parsePage } from "~/lib/regions/parse-page";
import { regionsPayload } from "~/lib/regions/payload";
import { byteOffsets, decodePageSource, encodePageSource } from "~/lib/regions/source-encoding";

const inner = (src: string, id: string) => {
  const page = parsePage(src, "html");
  const r = page.regions.find((x) => x.id === id);
  if (!r) throw new Error(`no region ${id}`);
  return src.slice(r.inner.start, r.inner.end);
};

describe("region types", () => {
  it("follows the table's order, the aliases and data-cms-type", () => {
    const src = [
      '<div class="editable editable-gallery" id="g"></div>',
      '<p class="cms-editable cms-editable-text" id="t">x</p>',
      '<img class="editable" id="i" src="a.png">',
      '<a class="editable" id="l" href="/">x</a>',
      '<section class="editable" id="bg" data-cms-background>x</section>',
      '<h2 class="editable" id="h">x</h2>',
      '<li class="editable" id="li">x</li>',
      '<td class="editable" id="td">x</td>',
      '<div class="editable" id="d" data-cms-type="inline">x</div>',
      '<span class="editable" id="s" data-cms-type="BLOCK">x</span>',
      '<script class="editable" id="js" data-cms-type="text">x</script>',
      '<video class="editable" id="v"></video>',
      '<input class="editable" id="in">',
      '<img class="editable" id="img-block" data-cms-type="block">',
      '<div class="editable-text" id="bare-text">x</div>',
    ].join("\n");
    const types = Object.fromEntries(parsePage(src, "html").regions.map((r) => [r.id, r.type]));
    expect(types).toEqual({
      g: "gallery", t: "text", i: "image", l: "link", bg: "background", h: "inline", li: "inline", td: "block",
      d: "inline", s: "block", js: "unsupported", v: "unsupported", in: "unsupported", "img-block": "unsupported",
      "bare-text": "text",
    });
  });

  it("flags missing and duplicate ids and unsupported elements, and leaves them out of byId", () => {
    const src = '<p class="editable">a</p><p class="editable" id="x">b</p><div class="editable" id="x">c</div><svg class="editable" id="s"><div class="editable" id="in-svg"></div></svg><p class=editable id="">d</p>';
    const page = parsePage(src, "html");
    expect(page.regions.map((r) => [r.id, r.problem])).toEqual([
      [null, "MISSING_ID"], ["x", "DUPLICATE_ID"], ["x", "DUPLICATE_ID"], ["s", "UNSUPPORTED_ELEMENT"], [null, "MISSING_ID"],
    ]);
    expect(page.byId.size).toBe(0);
    expect(regionsPayload(page).problems).toEqual([
      { id: null, problem: "MISSING_ID", element: "p" },
      { id: "x", problem: "DUPLICATE_ID", element: "p" },
      { id: "x", problem: "DUPLICATE_ID", element: "div" },
      { id: "s", problem: "UNSUPPORTED_ELEMENT", element: "svg" },
      { id: null, problem: "MISSING_ID", element: "p" },
    ]);
  });

  it("reads global regions and gallery options", () => {
    const page = parsePage('<div class="editable cms-global" id="nav"></div><ul class="editable-gallery" id="g" data-cms-element="ul" data-cms-captions="true" data-cms-thumbnail-width="300"></ul>', "html");
    expect(page.regions[0].global).toBe(true);
    expect(page.regions[1].options).toEqual({ element: "ul", captions: "true", "thumbnail-width": "300" });
  });
});

describe("region spans", () => {
  it("finds the exact outer and inner spans with nested same-name elements", () => {
    const src = 'a<div class="editable" id="r"><div><div>x</div></div>y</div>z';
    const r = parsePage(src, "html").regions[0];
    expect(src.slice(r.outer.start, r.outer.end)).toBe('<div class="editable" id="r"><div><div>x</div></div>y</div>');
    expect(src.slice(r.inner.start, r.inner.end)).toBe("<div><div>x</div></div>y");
    expect(src.slice(r.startTag.start, r.startTag.end)).toBe('<div class="editable" id="r">');
    expect(r.explicitEnd).toBe(true);
  });

  it("handles unclosed <p> and <li> inside and around regions", () => {
    expect(inner('<div class="editable" id="r"><p>one<p>two</div><p>after', "r")).toBe("<p>one<p>two");
    expect(inner('<ul><li class="editable" id="a">one<li class="editable" id="b">two</ul>', "a")).toBe("one");
    expect(inner('<ul><li class="editable" id="a">one<li class="editable" id="b">two</ul>', "b")).toBe("two");
    expect(inner('<p class="editable" id="p">text<div>block</div>', "p")).toBe("text");
    expect(inner('<dl><dt class="editable" id="t">term<dd>def</dl>', "t")).toBe("term");
    expect(inner('<table><tr><td class="editable" id="c">cell<td>next</table>', "c")).toBe("cell");
    expect(inner('<h1 class="editable" id="h">a<h2>b</h2>', "h")).toBe("a");
  });

  it("ignores stray end tags and end tags inside raw text", () => {
    expect(inner('<div class="editable" id="r"></span><b>x</p></b><script>"</div>"</script></div>', "r")).toBe('</span><b>x</p></b><script>"</div>"</script>');
  });

  it("closes a region with its parent's end tag and at the end of the source", () => {
    const src = '<section><div class="editable" id="r"><p>x</section><div class="editable" id="e">tail';
    const page = parsePage(src, "html");
    expect(src.slice(page.regions[0].inner.start, page.regions[0].inner.end)).toBe("<p>x");
    expect(page.regions[0].explicitEnd).toBe(false);
    expect(page.regions[0].outer.end).toBe(src.indexOf("</section>"));
    expect(src.slice(page.regions[1].inner.start, page.regions[1].inner.end)).toBe("tail");
  });

  it("gives void regions an empty inner span at the end of the tag", () => {
    const src = '<img class="editable" id="i" src="a.png"><p>x</p>';
    const r = parsePage(src, "html").regions[0];
    expect(r.outer).toEqual({ start: 0, end: src.indexOf("<p>") });
    expect(r.inner).toEqual({ start: src.indexOf("<p>"), end: src.indexOf("<p>") });
  });

  it("treats markers inside a region as content (regions do not nest)", () => {
    const src = '<div class="editable" id="a"><p class="editable" id="b">x</p></div>';
    const page = parsePage(src, "html");
    expect(page.regions.map((r) => r.id)).toEqual(["a"]);
    expect(page.nested).toHaveLength(1);
  });

  it("skips markers in comments, CDATA, scripts and ignore ranges", () => {
    const src = '<!-- <div class="editable" id="c"></div> --><script>"<div class=editable id=s>"</script><!-- cms-ignore --><p class="editable" id="i">x</p><!-- /cms-ignore --><!-- ignore --><p class="editable" id="j"></p><!-- /ignore --><p class="editable" id="ok">x</p>';
    expect(parsePage(src, "html").regions.map((r) => r.id)).toEqual(["ok"]);
  });

  it("keeps exact offsets with a BOM, CRLF and astral characters (UTF-16 indices)", () => {
    const src = '\ufeff<p>😀é</p>\r\n<p class="editable" id="r">ü😀</p>\r\n';
    const page = parsePage(src, "html");
    const r = page.regions[0];
    expect(src.slice(r.inner.start, r.inner.end)).toBe("ü😀");
    expect(page.eol).toBe("\r\n");
    const bytes = new TextEncoder().encode(src);
    const [start, end] = byteOffsets(src, [r.inner.start, r.inner.end]);
    expect(new TextDecoder().decode(bytes.subarray(start, end))).toBe("ü😀");
  });

  it("finds regions in PHP pages without being fooled by PHP strings", () => {
    const src = '<?php $x = "<div class=\'editable\' id=\'fake\'>"; ?><div class="editable" id="r" title="<?= $a > 1 ? "x" : "y" ?>">Hi <?php echo "</div>"; ?></div>';
    const page = parsePage(src, "php");
    expect(page.regions.map((r) => r.id)).toEqual(["r"]);
    expect(src.slice(page.regions[0].inner.start, page.regions[0].inner.end)).toBe('Hi <?php echo "</div>"; ?>');
    expect(page.regions[0].hasServerCode).toBe(true);
  });
});

describe("markers", () => {
  it("finds repeatables, uneditables, embeds, code blocks, lock, ignore and include ranges and directives", () => {
    const src = [
      '<div class="editable" id="r">',
      '<div class="repeatable">item</div><span class="cms-uneditable">fixed</span>',
      '<div data-cms-embed><iframe src="https://v"></iframe></div><pre data-cms-code="Java Script">x</pre>',
      "<!-- cms-lock -->locked<!-- cms-unlock --><!-- cms-include \"Call To Action\" --><b>cta</b><!-- /cms-include -->",
      "<!-- cms-editable --><p>x</p>",
      "</div><!-- cms-ignore -->kept",
    ].join("");
    const page = parsePage(src, "html");
    const m = page.markers.map((x) => [x.kind, x.regionId, x.name, src.slice(x.inner.start, x.inner.end), x.unclosed ?? false]);
    expect(m).toEqual([
      ["repeatable", "r", null, "item", false],
      ["uneditable", "r", null, "fixed", false],
      ["embed", "r", null, '<iframe src="https://v"></iframe>', false],
      ["code", "r", "java-script", "x", false],
      ["lock", "r", null, "locked", false],
      ["include", "r", "Call To Action", "<b>cta</b>", false],
      ["directive", "r", "cms-editable", "", false],
      ["ignore", null, null, "kept", true],
    ]);
  });
});

describe("metadata", () => {
  it("reads title, description, robots and the og tags from the head", () => {
    const src = `<html><head><title>  My
      Page </title><meta name="Description" content="About &amp; more"><meta name=robots content="noindex, nofollow">
      <meta property="og:image" content="https://x/i.png"><meta property="og:url" content='https://x/'>
      </head><body><meta name="description" content="not this"></body></html>`;
    const page = parsePage(src, "html");
    expect(page.metadata.values).toEqual({
      title: "My Page", description: "About & more", image: "https://x/i.png", robots: true, type: "website", url: "https://x/",
    });
    expect(page.metadata.insertAt).toBe(src.indexOf("</head>"));
  });

  it("has nowhere to insert tags in a fragment without a head", () => {
    const page = parsePage('<?php include "header.php"; ?><p class="editable" id="x">x</p>', "php");
    expect(page.metadata.insertAt).toBeNull();
    expect(page.metadata.values.title).toBe("");
  });
});

describe("source encoding", () => {
  it("round-trips UTF-8 with a BOM and invalid UTF-8 byte for byte", () => {
    const utf8 = new Uint8Array([0xef, 0xbb, 0xbf, 0x3c, 0x70, 0x3e, 0xc3, 0xa9]);
    const a = decodePageSource(utf8);
    expect(a).toEqual({ text: "\ufeff<p>é", encoding: "utf-8" });
    expect(encodePageSource(a.text, a.encoding)).toEqual(utf8);
    const latin1 = new Uint8Array([0x3c, 0x70, 0x3e, 0xe9, 0x80, 0x81, 0xff]);
    const b = decodePageSource(latin1);
    expect(b.encoding).toBe("binary");
    expect(encodePageSource(b.text, b.encoding)).toEqual(latin1);
  });
});
