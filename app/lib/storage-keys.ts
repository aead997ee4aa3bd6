/** R2 object keys, in one place so every reader and writer agrees. */

/** A file of a demo site, whose "server" is R2 itself. `path` is relative to the site's home folder. */
export function demoSiteFileKey(siteId: string, path: string): string {
  return `demo-sites/${siteId}/${path.replace(/^\/+/, "")}`;
}

export function demoSitePrefix(siteId: string): string {
  return `demo-sites/${siteId}/`;
}
