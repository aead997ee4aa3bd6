/**
 * A gallery's markup (EDITING-MODEL.md: galleries and their options), read into images and
 * written back. Pure: the Gallery panel, the tests and anything else share it.
 *
 * Written markup: for a list container (`ul`/`ol`, or a `div` with the element option ul/ol) one
 * `<li>` per image, else one `<figure>` per image; each holds the image (in a link when links are
 * on and the image has one) and, when captions are on, its `<figcaption>`.
 */
import { decodeEntities, escapeAttribute, escapeText } from "~/lib/regions/entities";
import { getAttr, tokenize } from "~/lib/regions/tokenizer";

export interface GalleryImage {
  src: string;
  /** The alt text. */
  description: string;
  caption: string;
  link: string;
}

export type GalleryElement = "div" | "ul" | "ol";
export type ThumbnailResize = "cover" | "contain";

export interface GalleryOptions {
  element: GalleryElement;
  captions: boolean;
  links: boolean;
  thumbnailWidth: number;
  thumbnailHeight: number;
  thumbnailResize: ThumbnailResize;
}

/** The spec: thumbnails are 256 × 256 by default. */
export const DEFAULT_THUMBNAIL_SIZE = 256;

type Raw = Record<string, string | boolean | null | undefined>;

const flag = (value: string | boolean | null | undefined, fallback: boolean) =>
  typeof value === "boolean" ? value : value === "true" ? true : value === "false" ? false : fallback;
const size = (value: string | boolean | null | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 16 && n <= 2048 ? n : DEFAULT_THUMBNAIL_SIZE;
};

/**
 * The options of a gallery element from its `data-cms-*` values (as the frame reports them), with
 * the defaults of the editing model; a list container decides the element itself.
 * @example readGalleryOptions({ element: "ul", captions: "true", thumbnailWidth: "400" }, "div")
 */
export function readGalleryOptions(values: Raw, container: string): GalleryOptions {
  const element = container === "ul" || container === "ol" ? container : values.element === "ul" || values.element === "ol" ? values.element : "div";
  return {
    element,
    captions: flag(values.captions, true),
    links: flag(values.links, false),
    thumbnailWidth: size(values.thumbnailWidth),
    thumbnailHeight: size(values.thumbnailHeight),
    thumbnailResize: values.thumbnailResize === "contain" ? "contain" : "cover",
  };
}

/**
 * The images of a gallery's markup, in order: each `<img>` with its alt, the link around it and the
 * caption that follows it in its item.
 * @example readGallery('<li><figure><img src="a.jpg" alt="A"><figcaption>One</figcaption></figure></li>')
 * // [{ src: "a.jpg", description: "A", caption: "One", link: "" }]
 */
export function readGallery(html: string): GalleryImage[] {
  const images: GalleryImage[] = [];
  const links: string[] = [];
  let captionOf: GalleryImage | null = null;
  let inCaption = false;
  tokenize(html, "html", {
    startTag(tag) {
      if (tag.name === "a") links.push(decodeEntities(getAttr(html, tag, "href") ?? ""));
      else if (tag.name === "img") {
        const image: GalleryImage = {
          src: decodeEntities(getAttr(html, tag, "src") ?? ""),
          description: decodeEntities(getAttr(html, tag, "alt") ?? ""),
          caption: "",
          link: links.at(-1) ?? "",
        };
        images.push(image);
        captionOf = image;
      } else if (tag.name === "figcaption") inCaption = true;
      else if (tag.name === "li" || tag.name === "figure") captionOf = null;
    },
    endTag(name) {
      if (name === "a") links.pop();
      else if (name === "figcaption") inCaption = false;
    },
    text(start, end) {
      if (inCaption && captionOf) captionOf.caption += decodeEntities(html.slice(start, end));
    },
  });
  return images.map((image) => ({ ...image, caption: image.caption.replace(/\s+/g, " ").trim() }));
}

/**
 * The gallery's inner markup for its container element (see the module comment).
 * @example writeGallery([{ src: "a.jpg", description: "A", caption: "One", link: "" }], { element: "ul", captions: true, links: false, … }, "ul")
 * // '<li><figure><img src="a.jpg" alt="A"><figcaption>One</figcaption></figure></li>'
 */
export function writeGallery(images: readonly GalleryImage[], options: GalleryOptions, container: string): string {
  if (images.length === 0) return "";
  const figure = (image: GalleryImage) => {
    const img = `<img src="${escapeAttribute(image.src)}" alt="${escapeAttribute(image.description)}">`;
    const linked = options.links && image.link.trim() !== "" ? `<a href="${escapeAttribute(image.link.trim())}">${img}</a>` : img;
    const caption = options.captions && image.caption.trim() !== "" ? `<figcaption>${escapeText(image.caption.trim())}</figcaption>` : "";
    return `<figure>${linked}${caption}</figure>`;
  };
  const listed = images.map((image) => `<li>${figure(image)}</li>`).join("");
  if (container === "ul" || container === "ol") return listed;
  if (options.element === "ul" || options.element === "ol") return `<${options.element}>${listed}</${options.element}>`;
  return images.map(figure).join("");
}
