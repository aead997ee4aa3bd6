import { z } from "zod";

/** A query-string flag: "true"/"1" is on, "false"/"0" or absent is off. */
const queryFlag = z
  .enum(["true", "false", "1", "0"])
  .optional()
  .transform((value) => value === "true" || value === "1");

/** `GET /sites/{siteId}/files`: a folder (default: the site's home folder) and whether to mark enabled pages. */
export const SiteFilesQuery = z.object({
  path: z.string().max(4096).optional(),
  showEnabled: queryFlag,
});
export type SiteFilesQuery = z.infer<typeof SiteFilesQuery>;

export const SiteIdParams = z.object({ siteId: z.string().min(1).max(64) });

/**
 * One file or folder of a site's server (spec "File entry": name, path, type file or folder,
 * isEnabled). `path` is absolute on the server; `modifiedAt` is ISO 8601 or null when the server
 * does not say; `isEnabled` is present only when asked for (`showEnabled`).
 */
export const FileEntry = z.object({
  name: z.string(),
  path: z.string(),
  type: z.enum(["file", "folder"]),
  size: z.number().int().nonnegative(),
  modifiedAt: z.string().nullable(),
  isEnabled: z.boolean().optional(),
});
export type FileEntry = z.infer<typeof FileEntry>;

export const FileList = z.object({ files: z.array(FileEntry) });
export type FileList = z.infer<typeof FileList>;

/**
 * A RemoteFs entry as the API answers it ("directory" becomes the spec's "folder").
 * @example toFileEntry({ name: "a", path: "/a", type: "directory", size: 0, modifiedAt: null }) // { …, type: "folder" }
 */
export function toFileEntry(entry: { name: string; path: string; type: "file" | "directory"; size: number; modifiedAt: Date | null }): FileEntry {
  return {
    name: entry.name,
    path: entry.path,
    type: entry.type === "directory" ? "folder" : "file",
    size: entry.size,
    modifiedAt: entry.modifiedAt ? entry.modifiedAt.toISOString() : null,
  };
}

/** A file or folder a change produced or removed (spec: files of name and path). */
export const ChangedFile = z.object({ name: z.string(), path: z.string() });
export const ChangedFiles = z.object({ files: z.array(ChangedFile) });

/** `POST /sites/{siteId}/files` with JSON: the folder to create. */
export const NewFolderBody = z.object({ path: z.string().min(1).max(4096) });

/** `POST /sites/{siteId}/files` with multipart/form-data (documented, parsed as a stream by the service). */
export const UploadFormDoc: { type: "object"; required: string[]; properties: Record<string, { type: "string" | "array"; description: string; items?: { type: "string"; format: "binary" } }> } = {
  type: "object",
  required: ["path", "files"],
  properties: {
    path: { type: "string", description: "The folder inside the upload folder; sent before the files" },
    files: { type: "array", items: { type: "string", format: "binary" }, description: "Up to 100 files, 25 MB each, 100 MB in all" },
  },
};

/** `PUT /sites/{siteId}/files`: renames and moves. */
export const RenameFilesBody = z.object({
  files: z.array(z.object({ path: z.string().min(1).max(4096), newPath: z.string().min(1).max(4096) })).min(1).max(100),
});

/** `DELETE /sites/{siteId}/files`: the paths to remove. */
export const DeleteFilesBody = z.object({ paths: z.array(z.string().min(1).max(4096)).min(1).max(100) });

export { GALLERY_IMAGE_EXTENSIONS } from "../page-url";

/** A thumbnail's side: 16 to 2048 pixels, 256 by default (spec: "default 256 × 256"). */
const thumbnailSide = z.number().int().min(16).max(2048).default(256);

/**
 * `POST /sites/{siteId}/files/thumbnails`: images of the site by URL, as the page `path` (on the
 * server) refers to them — relative to the page, root-relative (to the home folder) or absolute on
 * the site's URL — and the box their thumbnails fit: `cover` fills it exactly (center crop),
 * `contain` keeps the whole image inside it. Images are never upscaled.
 */
export const ThumbnailsBody = z.object({
  urls: z.array(z.string().min(1).max(2048)).min(1).max(50),
  path: z.string().min(1).max(4096),
  width: thumbnailSide,
  height: thumbnailSide,
  resize: z.enum(["cover", "contain"]).default("cover"),
});
export type ThumbnailsBody = z.infer<typeof ThumbnailsBody>;

/** One thumbnail (spec "Thumbnail result"): its absolute path on the server, and the URL it was made from, as given. */
export const Thumbnail = z.object({ path: z.string(), sourceUrl: z.string() });
export type Thumbnail = z.infer<typeof Thumbnail>;

/** The thumbnails, in the order of `urls`. */
export const Thumbnails = z.object({ thumbnails: z.array(Thumbnail) });
