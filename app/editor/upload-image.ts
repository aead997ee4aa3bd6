import { apiJson } from "~/lib/api-client";
import { extensionOf, GALLERY_IMAGE_EXTENSIONS, relativeUrl } from "~/lib/page-url";

/** Whether a file or URL names an image the pickers allow (spec: gif, jpeg, jpg, png, svg, webp). */
export function isPickableImage(nameOrUrl: string): boolean {
  const path = nameOrUrl.split(/[?#]/)[0];
  return GALLERY_IMAGE_EXTENSIONS.includes(extensionOf(path));
}

/** The spec: image drops accept only files whose type starts with `image/`. */
export function isImageFile(file: File): boolean {
  return file.type.startsWith("image/");
}

/** What the panels know of the page being edited: where uploads go, and where its URLs resolve. */
export interface EditorSite {
  siteId: string;
  uploadFolder: string;
  /** The page's path on the server: uploads are linked relative to it. */
  pagePath: string;
  /** The page's live URL: relative URLs of the page resolve against it (for previews). */
  liveUrl: string;
}

/** A URL of the page as the browser can load it here: relative ones resolved against the live page. */
export function previewUrl(site: Pick<EditorSite, "liveUrl">, url: string): string | null {
  const trimmed = url.trim();
  if (trimmed === "") return null;
  try {
    const resolved = new URL(trimmed, site.liveUrl);
    return resolved.protocol === "https:" || resolved.protocol === "http:" || resolved.protocol === "data:" ? resolved.href : null;
  } catch {
    return null;
  }
}

/**
 * Uploads an image dropped on a panel into the site's upload folder and answers its URL relative
 * to the page (spec: a dropped image uploads to the upload folder; paths become relative to the page).
 *
 * @example const src = await uploadImage({ siteId, uploadFolder: "/uploads", pagePath: "/index.html" }, file); // "uploads/photo.jpg"
 */
export async function uploadImage(site: Pick<EditorSite, "siteId" | "uploadFolder" | "pagePath">, file: File): Promise<string> {
  const body = new FormData();
  body.append("path", site.uploadFolder);
  body.append("files", file, file.name);
  const { files } = await apiJson<{ files: { name: string; path: string }[] }>(`/sites/${site.siteId}/files`, { method: "POST", body });
  return relativeUrl(site.pagePath, files[0].path);
}
