import { describe, expect, it } from "vitest";
import { readGallery, readGalleryOptions, writeGallery, type GalleryOptions } from "~/editor/gallery";

const DEMO = `
  <li><figure><img src="images/gallery-croissant.svg" alt="A golden butter croissant on a plate" width="400" height="300"><figcaption>Butter croissants, straight off the tray</figcaption></figure></li>
  <li><figure><a href="images/big/sourdough.jpg"><img src="images/gallery-sourdough.svg" alt="A round sourdough loaf"></a><figcaption>Gertrude’s sourdough &amp; friends</figcaption></figure></li>
  <li><figure><img src="images/gallery-cake.svg" alt=""></figure></li>`;

const options = (fields: Partial<GalleryOptions> = {}): GalleryOptions => ({
  element: "ul", captions: true, links: false, thumbnailWidth: 256, thumbnailHeight: 256, thumbnailResize: "cover", ...fields,
});

describe("gallery markup", () => {
  it("reads each image with its alt text, link and caption", () => {
    expect(readGallery(DEMO)).toEqual([
      { src: "images/gallery-croissant.svg", description: "A golden butter croissant on a plate", caption: "Butter croissants, straight off the tray", link: "" },
      { src: "images/gallery-sourdough.svg", description: "A round sourdough loaf", caption: "Gertrude’s sourdough & friends", link: "images/big/sourdough.jpg" },
      { src: "images/gallery-cake.svg", description: "", caption: "", link: "" },
    ]);
  });

  it("writes list items into a list container, figures or a list into a div, escaping what it writes", () => {
    const images = [{ src: "a.jpg?x=1&y=2", description: 'Say "hi"', caption: "<b>One</b>", link: "https://example.com/a" }];
    expect(writeGallery(images, options(), "ul")).toBe('<li><figure><img src="a.jpg?x=1&amp;y=2" alt="Say &quot;hi&quot;"><figcaption>&lt;b&gt;One&lt;/b&gt;</figcaption></figure></li>');
    expect(writeGallery(images, options({ element: "div", links: true, captions: false }), "div")).toBe('<figure><a href="https://example.com/a"><img src="a.jpg?x=1&amp;y=2" alt="Say &quot;hi&quot;"></a></figure>');
    expect(writeGallery(images, options({ element: "ol", captions: false }), "div")).toBe('<ol><li><figure><img src="a.jpg?x=1&amp;y=2" alt="Say &quot;hi&quot;"></figure></li></ol>');
    expect(writeGallery([], options(), "ul")).toBe("");
  });

  it("round-trips: what it writes reads back the same", () => {
    const images = readGallery(DEMO);
    expect(readGallery(writeGallery(images, options({ links: true }), "ul"))).toEqual(images);
  });

  it("takes the options from the data-cms attributes with the defaults of the model (256 × 256, cover)", () => {
    expect(readGalleryOptions({ element: "div", captions: "false", links: "true", thumbnailWidth: "400", thumbnailHeight: "300", thumbnailResize: "contain" }, "div"))
      .toEqual({ element: "div", captions: false, links: true, thumbnailWidth: 400, thumbnailHeight: 300, thumbnailResize: "contain" });
    expect(readGalleryOptions({}, "ul")).toEqual({ element: "ul", captions: true, links: false, thumbnailWidth: 256, thumbnailHeight: 256, thumbnailResize: "cover" });
    expect(readGalleryOptions({ element: "div", thumbnailWidth: "99999" }, "ol").element).toBe("ol");
  });
});
