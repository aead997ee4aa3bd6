import { describe, expect, it } from "vitest";
import { AppError } from "~/lib/errors";
import { mergePage } from "~/lib/regions/merge";
import { parsePage } from "~/lib/regions/parse-page";
import { regionsPayload } from "~/lib/regions/payload";
import { sanitizeHtml } from "~/lib/regions/sanitize";
import type { PageMetadata, RegionUpdates } from "~/lib/regions/types";

const merge = (src: string, regions: RegionUpdates, metadata?: Partial<PageMetadata>, ext = "html") =>
  mergePage(parsePage(src, ext), { regions, metadata }, { pageUrl: "https://example.com/blog/post.html" });

function rejects(fn: () => unknown, id: string) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("INVALID_REGION_CONTENT");
    expect((error as AppError).invalid).toEqual([`regions.${id}`]);
    return;
  }
  throw new Error("did not throw");
}

describe("merge: only the edited spans change", () => {
  const page = `<!doctype html>\n<html><head><title>T</title></head><body>\n<DIV CLASS='editable' ID=a data-x="1 > 2">old <b>a</b></DIV>\n<p class="editable" id="b">old b</p>\n</body></html>\n`;

  it("returns the identical string with no edits, with unchanged values and with the payload read back", () => {
    expect(merge(page, {}).source).toBe(page);
    const parsed = parsePage(page, "html");
    const payload = regionsPayload(parsed);
    expect(mergePage(parsed, { regions: payload.regions, metadata: payload.metadata }).source).toBe(page);
  });

  it("replaces one region's inner content and keeps the start tag's bytes", () => {
    const out = merge(page, { a: { type: "block", content: "<p>new</p>" } });
    expect(out.source).toBe(page.replace("old <b>a</b>", "<p>new</p>"));
    expect(out.written).toEqual(["a"]);
  });

  it("treats the same content serialised differently as no change", () => {
    const src = '<div class="editable" id="a"><P CLASS=x>caf&eacute;&nbsp;<BR/></P></div>';
    expect(merge(src, { a: { type: "block", content: '<p class="x">café&nbsp;<br></p>' } }).source).toBe(src);
  });

  it("reports unknown ids, flagged regions and type mismatches as unpublished", () => {
    const src = '<p class="editable">x</p><p class="editable" id="d">1</p><p class="editable" id="d">2</p><p class="editable" id="p">3</p>';
    const out = merge(src, {
      nope: { type: "text", content: "x" },
      d: { type: "inline", content: "y" },
      p: { type: "block", content: "z" },
    });
    expect(out.source).toBe(src);
    expect(out.unpublishedRegions).toEqual(["nope", "d", "p"]);
  });

  it("normalises new line breaks to the page's CRLF", () => {
    const src = '<div class="editable" id="a">x</div>\r\n';
    expect(merge(src, { a: { type: "block", content: "<p>1</p>\n<p>2</p>" } }).source).toBe('<div class="editable" id="a"><p>1</p>\r\n<p>2</p></div>\r\n');
  });

  it("writes non-ASCII as references for a page that is not UTF-8", () => {
    const parsed = parsePage('<p class="editable" id="a">x</p>', "html");
    expect(mergePage(parsed, { regions: { a: { type: "inline", content: "é😀 <b>ü</b>" } } }, { asciiOnly: true }).source).toBe(
      '<p class="editable" id="a">&#233;&#128512; <b>&#252;</b></p>',
    );
  });
});

describe("sanitising per type", () => {
  it("escapes text regions (no markup, no PHP)", () => {
    const out = merge('<p class="editable-text" id="t">x</p>', { t: { type: "text", content: "<b>1 & 2</b> <?php x() ?>" } }, undefined, "php");
    expect(out.source).toBe('<p class="editable-text" id="t">&lt;b&gt;1 &amp; 2&lt;/b&gt; &lt;?php x() ?&gt;</p>');
  });

  it("keeps only inline formatting in inline regions", () => {
    expect(sanitizeHtml('<div><b onclick="x()">B</b> <i>I</i> <a href="javascript:alert(1)">L</a> <a href="/ok" target=_blank>ok</a><script>x()</script><img src=x onerror=y></div>', "inline"))
      .toBe('<b>B</b> <i>I</i> <a>L</a> <a href="/ok" target="_blank">ok</a>');
  });

  it("keeps rich content in block regions and closes what the content leaves open", () => {
    expect(sanitizeHtml('<h2 id="x">H</h2><ul><li>1<li>2</ul><table><tr><td colspan=2>c</table><p style="color: red; background: url(javascript:x)">p', "block"))
      .toBe('<h2 id="x">H</h2><ul><li>1</li><li>2</li></ul><table><tr><td colspan="2">c</td></tr></table><p style="color: red">p</p>');
  });

  it("drops scripts, styles, svg, forms fields and event handlers, and keeps http(s), mailto, tel and relative URLs", () => {
    expect(sanitizeHtml('<svg><script>x</script></svg><style>p{}</style><img src="data:image/png;base64,AAAA" alt=a><img src="data:text/html,x"><a href=" JaVa\tScript:x">a</a><a href="mailto:a@b.c">m</a><textarea>t</textarea><iframe src="https://e"></iframe>', "block"))
      .toBe('<img src="data:image/png;base64,AAAA" alt="a"><img><a>a</a><a href="mailto:a@b.c">m</a>');
  });

  it("allows embeds only inside data-cms-embed and only when the role allows them", () => {
    const html = '<div data-cms-embed><iframe src="https://www.youtube.com/embed/x" allowfullscreen onload="x()"></iframe></div>';
    expect(sanitizeHtml(html, "block", { allowEmbeds: true })).toBe('<div data-cms-embed><iframe src="https://www.youtube.com/embed/x" allowfullscreen></iframe></div>');
    expect(sanitizeHtml(html, "block")).toBe("<div data-cms-embed></div>");
    expect(sanitizeHtml('<iframe src="https://e"></iframe>', "block", { allowEmbeds: true })).toBe("");
  });

  it("refuses region markers and unbalanced cms comments", () => {
    const src = '<div class="editable" id="a">x</div>';
    rejects(() => merge(src, { a: { type: "block", content: '<p class="cms-editable" id="n">x</p>' } }), "a");
    rejects(() => merge(src, { a: { type: "block", content: "<!-- cms-ignore -->x" } }), "a");
    rejects(() => merge(src, { a: { type: "block", content: "<!-- /cms-include -->" } }), "a");
    rejects(() => merge(src, { a: { type: "block", content: "<!-- cms-lock -->x" } }), "a");
    expect(merge(src, { a: { type: "block", content: '<!-- cms-include "B" --><p>b</p><!-- /cms-include -->' } }).source).toBe(
      '<div class="editable" id="a"><!-- cms-include "B" --><p>b</p><!-- /cms-include --></div>',
    );
  });

  it("refuses content that would move a region boundary", () => {
    rejects(() => merge('<p class="editable" id="p" data-cms-type="block">x</p><p class="editable" id="q">y</p>', { p: { type: "block", content: "<div>d</div>" } }), "p");
  });

  it("keeps cms-ignore ranges byte for byte whatever the submission holds inside them", () => {
    const src = '<div class="editable" id="a">x<!-- cms-ignore --><script>keep()</script><!-- /cms-ignore --></div>';
    const out = merge(src, { a: { type: "block", content: "<p>y</p><!-- cms-ignore -->changed<!-- /cms-ignore -->" } });
    expect(out.source).toBe('<div class="editable" id="a"><p>y</p><!-- cms-ignore --><script>keep()</script><!-- /cms-ignore --></div>');
    rejects(() => merge(src, { a: { type: "block", content: "<p>y</p>" } }), "a");
  });
});

describe("attribute regions", () => {
  it("edits only the changed attributes of an image, keeping their quoting, and drops a stale srcset", () => {
    const src = "<IMG class=editable id=i SRC='a.jpg' alt=\"A\" srcset='a2.jpg 2x' width=10>";
    expect(merge(src, { i: { type: "image", src: "b c.jpg", alt: "A" } }).source).toBe("<IMG class=editable id=i SRC='b c.jpg' alt=\"A\" width=10>");
    expect(merge(src, { i: { type: "image", src: "a.jpg", alt: 'Say "hi"' } }).source).toBe("<IMG class=editable id=i SRC='a.jpg' alt=\"Say &quot;hi&quot;\" srcset='a2.jpg 2x' width=10>");
    rejects(() => merge(src, { i: { type: "image", src: "javascript:x", alt: "" } }), "i");
  });

  it("edits a link's href, title, target and rel, adding and removing attributes", () => {
    const src = '<a class="editable" id="l" href="/old" rel="nofollow">Old</a>';
    expect(merge(src, { l: { type: "link", href: "/new?a=1&b=2", title: "T", target: "_blank", rel: "", content: "New <b>x</b><a href=/>y</a>" } }).source).toBe(
      '<a class="editable" id="l" href="/new?a=1&amp;b=2" title="T" target="_blank">New <b>x</b>y</a>',
    );
  });

  it("writes a background to the inline style only", () => {
    const src = '<section class="editable" id="bg" data-cms-background style="color: red; background-image: url(old.jpg)">x</section>';
    const out = merge(src, { bg: { type: "background", backgroundImage: "new.jpg", backgroundColor: "rgba(0, 0, 0, .5)", backgroundSize: "cover", backgroundRepeat: "" } });
    expect(out.source).toBe(
      "<section class=\"editable\" id=\"bg\" data-cms-background style=\"color: red; background-image: url('new.jpg'); background-color: rgba(0, 0, 0, .5); background-size: cover;\">x</section>",
    );
    expect(merge(src, { bg: { type: "background", backgroundImage: "old.jpg", backgroundColor: "", backgroundSize: "", backgroundRepeat: "" } }).source).toBe(src);
    rejects(() => merge(src, { bg: { type: "background", backgroundImage: "", backgroundColor: "red; position: fixed", backgroundSize: "", backgroundRepeat: "" } }), "bg");
  });
});

describe("metadata", () => {
  const head = '<html>\n<head>\n    <meta charset="utf-8" />\n    <title>Old</title>\n    <meta name="description" content=\'Old d\' />\n</head>\n<body></body></html>';

  it("updates existing tags in place and inserts missing ones before </head>, in the head's style", () => {
    const out = merge(head, {}, { title: "New & <b>", description: "Old d", robots: true, image: "/img/og.png" });
    expect(out.source).toBe(
      '<html>\n<head>\n    <meta charset="utf-8" />\n    <title>New &amp; &lt;b&gt;</title>\n    <meta name="description" content=\'Old d\' />\n' +
        '    <meta property="og:title" content="New &amp; &lt;b&gt;" />\n    <meta property="og:image" content="https://example.com/img/og.png" />\n' +
        '    <meta name="robots" content="noindex" />\n</head>\n<body></body></html>',
    );
  });

  it("changes nothing when the metadata is the file's, and removes robots when it becomes false", () => {
    const page = parsePage(head, "html");
    expect(mergePage(page, { metadata: page.metadata.values }).source).toBe(head);
    const robots = '<head>\n  <meta name="robots" content="noindex">\n</head>';
    expect(merge(robots, {}, { robots: false }).source).toBe("<head>\n</head>");
    expect(merge('<head><meta name="robots" content="noindex,nofollow"></head>', {}, { robots: false }).source).toBe('<head><meta name="robots" content="nofollow"></head>');
  });

  it("reports fields it cannot write into a page without a head", () => {
    const out = merge('<p class="editable" id="a">x</p>', {}, { title: "T" });
    expect(out.unwrittenMetadata).toEqual(["title"]);
  });
});

describe("region payload", () => {
  it("answers the shape of EDITING-MODEL.md", () => {
    const src = '<head><title>T</title></head><div class="editable global" id="nav"><a href="/">Home</a></div><p class="editable-text" id="t">a &amp; b</p><img class="editable" id="i" src="a.png" alt="A"><a class="editable" id="l" href="/x" target="_blank">X</a><div class="editable" id="bg" data-cms-background style="background-image:url(\'b.jpg\');background-color:#fff">x</div>';
    expect(regionsPayload(parsePage(src, "html"))).toEqual({
      metadata: { title: "T", description: "", image: "", robots: false, type: "website", url: "" },
      regions: {
        nav: { type: "block", global: true, content: '<a href="/">Home</a>' },
        t: { type: "text", global: false, content: "a & b" },
        i: { type: "image", global: false, src: "a.png", alt: "A" },
        l: { type: "link", global: false, href: "/x", title: "", target: "_blank", rel: "", content: "X" },
        bg: { type: "background", global: false, backgroundImage: "b.jpg", backgroundColor: "#fff", backgroundSize: "", backgroundRepeat: "" },
      },
      problems: [],
    });
  });
});
