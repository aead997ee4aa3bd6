import { describe, expect, it } from "vitest";
import { formatColor, parseColor } from "~/editor/color";
import { isImageFile, isPickableImage } from "~/editor/upload-image";
import { codeMode, defaultAnchorName, isEmbedAddress, normaliseAnchorName } from "~/lib/names";
import { relativeUrl } from "~/lib/page-url";

describe("anchor names", () => {
  it("lowercases, turns everything but letters and digits into hyphens, collapses them and trims the ends", () => {
    expect(normaliseAnchorName("Opening Hours")).toBe("opening-hours");
    expect(normaliseAnchorName("  --Prices & Offers!!-- ")).toBe("prices-offers");
    expect(normaliseAnchorName("Café au Lait")).toBe("café-au-lait");
    expect(normaliseAnchorName("a___b...c")).toBe("a-b-c");
    expect(normaliseAnchorName("!!!")).toBe("");
  });

  it("defaults to the first 5 words of the selection", () => {
    expect(defaultAnchorName("Our opening hours over the Christmas holidays")).toBe("our-opening-hours-over-the");
    expect(defaultAnchorName("  Contact  us ")).toBe("contact-us");
    expect(defaultAnchorName("")).toBe("");
  });
});

describe("code block languages", () => {
  it("are normalised like anchors and highlighted as css, javascript/js, html/xml or php, anything else plain", () => {
    expect(["CSS", "JavaScript", "js", "HTML", "xml", "PHP", "Python", "", "c++"].map(codeMode))
      .toEqual(["css", "javascript", "javascript", "html", "html", "php", "plain", "plain", "plain"]);
  });
});

describe("paths chosen from uploads", () => {
  it("become relative to the page", () => {
    expect(relativeUrl("/www/index.html", "/www/uploads/a.png")).toBe("uploads/a.png");
    expect(relativeUrl("/www/blog/2026/post.html", "/www/uploads/a.png")).toBe("../../uploads/a.png");
    expect(relativeUrl("/www/blog/post.html", "/www/blog/photo.jpg")).toBe("photo.jpg");
    expect(relativeUrl("/index.html", "/uploads/thumbnails/a b-256x256-cover.jpg")).toBe("uploads/thumbnails/a%20b-256x256-cover.jpg");
  });
});

describe("background colours with alpha", () => {
  it("read hex and rgb(a) and write hex when opaque, rgba otherwise", () => {
    expect(parseColor("rgba(246, 227, 198, 1)")).toEqual({ hex: "#f6e3c6", alpha: 1 });
    expect(parseColor("rgba(246, 227, 198, 0.25)")).toEqual({ hex: "#f6e3c6", alpha: 0.25 });
    expect(parseColor("rgb(0 128 255 / 50%)")).toEqual({ hex: "#0080ff", alpha: 0.5 });
    expect(parseColor("#ABC")).toEqual({ hex: "#aabbcc", alpha: 1 });
    expect(parseColor("#11223380")).toEqual({ hex: "#112233", alpha: 0.5 });
    expect(parseColor("papayawhip")).toBeNull();
    expect(formatColor({ hex: "#F6E3C6", alpha: 1 })).toBe("#f6e3c6");
    expect(formatColor({ hex: "#f6e3c6", alpha: 0.4 })).toBe("rgba(246, 227, 198, 0.4)");
  });
});

describe("video input", () => {
  it("is looked up when it starts with http(s), and used as embed code otherwise", () => {
    expect(isEmbedAddress("https://www.youtube.com/watch?v=x")).toBe(true);
    expect(isEmbedAddress("  HTTP://vimeo.com/1 ")).toBe(true);
    expect(isEmbedAddress('<iframe src="https://x"></iframe>')).toBe(false);
    expect(isEmbedAddress("www.youtube.com/watch?v=x")).toBe(false);
  });
});

describe("image pickers and drops", () => {
  it("pick only gif, jpeg, jpg, png, svg and webp, whatever the case, query or fragment", () => {
    expect(["a.gif", "b.JPEG", "c.jpg", "d.png?v=2", "e.svg#icon", "f.webp"].every(isPickableImage)).toBe(true);
    expect(["a.bmp", "b.tiff", "c.pdf", "d", "e.png.exe"].some(isPickableImage)).toBe(false);
  });

  it("take dropped files only when their type is an image", () => {
    expect(isImageFile(new File(["x"], "a.png", { type: "image/png" }))).toBe(true);
    expect(isImageFile(new File(["x"], "a.png", { type: "" }))).toBe(false);
    expect(isImageFile(new File(["x"], "notes.txt", { type: "text/plain" }))).toBe(false);
  });
});
