import { describe, expect, it } from "vitest";
import { dialectForExtension, getAttr, type StartTag, tokenize, type Dialect } from "~/lib/regions/tokenizer";

type Tok = [string, string];

function tokens(src: string, dialect: Dialect = "html"): Tok[] {
  const out: Tok[] = [];
  tokenize(src, dialect, {
    startTag: (t) => out.push(["start", src.slice(t.start, t.end)]),
    endTag: (name, s, e) => out.push(["end:" + name, src.slice(s, e)]),
    comment: (s, e) => out.push(["comment", src.slice(s, e)]),
    text: (s, e, raw) => out.push([raw ? "raw" : "text", src.slice(s, e)]),
    opaque: (s, e, kind) => out.push([kind, src.slice(s, e)]),
  });
  return out;
}

function firstTag(src: string, dialect: Dialect = "html"): StartTag {
  let tag: StartTag | null = null;
  tokenize(src, dialect, { startTag: (t) => (tag ??= t), endTag: () => {} });
  if (!tag) throw new Error("no tag");
  return tag;
}

describe("tokenizer", () => {
  it("covers the source without gaps: concatenated tokens are the source", () => {
    const src = '\ufeff<!DOCTYPE html><P CLASS=x>a < b <br/><!-- c --><![CDATA[ x > y ]]></p><? xml ?>';
    expect(tokens(src).map((t) => t[1]).join("")).toBe(src);
  });

  it("reads uppercase tags, unquoted, single-quoted and valueless attributes, and `>` in quotes", () => {
    const src = `<DIV ID=main Class='a b' data-x="1 > 2" hidden data-y = "z">`;
    const tag = firstTag(src);
    expect(tag.name).toBe("div");
    expect(tag.end).toBe(src.length);
    expect(tag.attrs.map((a) => a.name)).toEqual(["id", "class", "data-x", "hidden", "data-y"]);
    expect(getAttr(src, tag, "id")).toBe("main");
    expect(getAttr(src, tag, "class")).toBe("a b");
    expect(getAttr(src, tag, "data-x")).toBe("1 > 2");
    expect(getAttr(src, tag, "hidden")).toBe("");
    expect(getAttr(src, tag, "data-y")).toBe("z");
    expect(tag.attrs[1].quote).toBe("'");
    expect(src.slice(tag.attrs[2].start, tag.attrs[2].end)).toBe('data-x="1 > 2"');
  });

  it("keeps the first of duplicate attributes and flags self-closing tags", () => {
    const src = '<img src=a.png src=b.png/>';
    const tag = firstTag(src);
    expect(getAttr(src, tag, "src")).toBe("a.png");
    expect(tag.selfClosing).toBe(false); // `/` belongs to the unquoted value, as in browsers
    expect(firstTag('<br />').selfClosing).toBe(true);
  });

  it("treats script, style, textarea and title content as raw text", () => {
    const src = '<script>if (a < b && "</div>") x()</script><style>p>a{}</style><textarea><p>x</textarea><title>a<b</title>';
    const t = tokens(src);
    expect(t).toContainEqual(["raw", 'if (a < b && "</div>") x()']);
    expect(t).toContainEqual(["raw", "p>a{}"]);
    expect(t).toContainEqual(["raw", "<p>x"]);
    expect(t).toContainEqual(["raw", "a<b"]);
    expect(t.filter((x) => x[0] === "start").length).toBe(4);
  });

  it("ends raw text only at a real end tag (`</scripts` does not end a script)", () => {
    const t = tokens("<script>a</scripts>b</SCRIPT >c");
    expect(t[1]).toEqual(["raw", "a</scripts>b"]);
    expect(t[2]).toEqual(["end:script", "</SCRIPT >"]);
  });

  it("reads comments the way browsers do: `<!-->`, `--!>`, and unclosed to the end", () => {
    expect(tokens("<!-->x")[0]).toEqual(["comment", "<!-->"]);
    expect(tokens("<!--->x")[0]).toEqual(["comment", "<!--->"]);
    expect(tokens("<!-- a --!>x")[0]).toEqual(["comment", "<!-- a --!>"]);
    expect(tokens("<!-- a -- b -->x")[0]).toEqual(["comment", "<!-- a -- b -->"]);
    expect(tokens("<!-- open <p>")).toEqual([["comment", "<!-- open <p>"]]);
  });

  it("keeps CDATA, doctype and bogus comments opaque", () => {
    expect(tokens('<![CDATA[ <div class="editable"> ]]>')[0][0]).toBe("cdata");
    expect(tokens("<!doctype html>")[0][0]).toBe("doctype");
    expect(tokens("</ x>")[0][0]).toBe("bogus");
  });

  it("treats PHP as opaque in .php files: in text, in tags and in attribute values", () => {
    const src = '<?php if ($a > 1) { echo "<div>"; } ?><a href="<?= $u["x"] ?>" <?php echo $attrs ?>>x</a><?php // tail';
    const t = tokens(src, "php");
    expect(t[0]).toEqual(["server", '<?php if ($a > 1) { echo "<div>"; } ?>']);
    const tag = firstTag(src, "php");
    expect(getAttr(src, tag, "href")).toBe('<?= $u["x"] ?>');
    expect(tag.attrs[1].name).toBe("");
    expect(t[t.length - 1]).toEqual(["server", "<?php // tail"]);
    // Without the PHP dialect the same bytes are a bogus comment.
    expect(tokens("<?php echo 1 ?>")[0][0]).toBe("bogus");
  });

  it("treats <% %> as opaque in .asp files, also inside script", () => {
    const t = tokens('<script>var s = "<% Response.Write("</script>") %>";</script>', "asp");
    expect(t[1]).toEqual(["raw", 'var s = "<% Response.Write("</script>") %>";']);
  });

  it("maps extensions to dialects", () => {
    expect(dialectForExtension("php")).toBe("php");
    expect(dialectForExtension(".PHTML")).toBe("php");
    expect(dialectForExtension("index.asp")).toBe("asp");
    expect(dialectForExtension("aspx")).toBe("asp");
    expect(dialectForExtension("html")).toBe("html");
    expect(dialectForExtension("")).toBe("html");
  });

  it("survives a tag cut off by the end of the source", () => {
    const src = '<div class="a';
    expect(tokens(src).map((t) => t[1]).join("")).toBe(src);
  });
});
