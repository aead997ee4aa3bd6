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
