import { chownSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import type { Servers } from "../servers/servers.mjs";
import { api } from "./browser";

/**
 * A website on the real SFTP server, connected as a site through the API by the signed-in user:
 * `files` are written into `folder` on disk (owned by the server's user, so the agent may change
 * them), the site's home folder is that folder, and each file named in `enable` becomes a page.
 *
 * @example const site = await createSftpSite(page, servers, { folder: "harbour", name: "Harbour", files: { "index.html": html }, enable: ["index.html"] });
 */
export async function createSftpSite(page: Page, servers: Servers<"sftp">, options: {
  folder: string;
  name: string;
  files: Record<string, string>;
  enable: string[];
  classification?: string;
}): Promise<{ siteId: string; home: string; onDisk(file: string): string; pageIds: Record<string, string> }> {
  const { root, remoteRoot } = servers.sftp;
  const folder = path.join(root, options.folder);
  mkdirSync(folder, { recursive: true });
  const { uid, gid } = statSync(root);
  chownSync(folder, uid, gid);
  for (const [file, body] of Object.entries(options.files)) {
    writeFileSync(path.join(folder, file), body);
    chownSync(path.join(folder, file), uid, gid);
  }
  const home = `${remoteRoot}/${options.folder}`;
  const created = await api<{ site: { id: string } }>(page, "/sites", {
    method: "POST",
    body: {
      name: options.name, url: `https://${options.folder}.example`, classification: options.classification ?? "personal", protocol: "sftp",
      host: servers.sftp.host, port: servers.sftp.port, username: servers.sftp.username, password: servers.sftp.password, homeFolder: home, uploadFolder: home,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const siteId = created.body.site.id;
  const pageIds: Record<string, string> = {};
  for (const file of options.enable) {
    const enabled = await api<{ page: { id: string } }>(page, `/sites/${siteId}/pages`, { method: "POST", body: { path: `${home}/${file}`, createOnServer: false } });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    pageIds[file] = enabled.body.page.id;
  }
  return { siteId, home, onDisk: (file) => path.join(folder, file), pageIds };
}
