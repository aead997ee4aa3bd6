/**
 * A page's address on the live site: the site's URL plus the page's path below the home folder.
 * Undefined when the site URL is not a URL.
 *
 * @example livePageUrl("https://example.com", "/public_html", "/public_html/blog/a.html") // "https://example.com/blog/a.html"
 */
export function livePageUrl(siteUrl: string, homeFolder: string, path: string): string | undefined {
  const home = homeFolder.replace(/\/+$/, "");
  const relative = path.startsWith(`${home}/`) ? path.slice(home.length + 1) : path.replace(/^\/+/, "");
  try {
    return new URL(relative.split("/").map(encodeURIComponent).join("/"), siteUrl.endsWith("/") ? siteUrl : `${siteUrl}/`).href;
  } catch {
    return undefined;
  }
}

/**
 * A page file's extension, lowercased, without the dot ("" for none): the region parser picks its
 * dialect by it (php, asp, html…) and the editor its mode.
 * @example extensionOf("/blog/Post.PHP") // "php"
 */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/**
 * A server path as a URL relative to a page (spec: paths chosen from uploads become relative to
 * the page), segments percent-encoded.
 * @example relativeUrl("/www/blog/post.html", "/www/uploads/a b.png") // "../uploads/a%20b.png"
 */
export function relativeUrl(pagePath: string, targetPath: string): string {
  const from = pagePath.split("/").slice(0, -1).filter(Boolean);
  const to = targetPath.split("/").filter(Boolean);
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  const rest = to.slice(common).map(encodeURIComponent);
  return [...Array.from({ length: up }, () => ".."), ...rest].join("/");
}

/** The image types a gallery or an image picker takes (spec, page editing), as lowercase extensions. */
export const GALLERY_IMAGE_EXTENSIONS: readonly string[] = ["gif", "jpeg", "jpg", "png", "svg", "webp"];
