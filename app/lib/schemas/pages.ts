import { z } from "zod";

const id = z.string().min(1).max(64);

/** The spec: 50 pages a load in the page list; the editor's lists load up to 1000. */
export const PAGES_PAGE_SIZE = 50;
export const MAX_PAGES_PER_PAGE = 1000;
/** Pages per `POST /sites/{siteId}/pages/delete`. */
export const MAX_PAGES_PER_DELETE = 100;

export const PageParams = z.object({ siteId: id, pageId: id });

/**
 * `GET /sites/{siteId}/pages`: search (name or path), paging (limit 0 answers the count only) and
 * the order: `pinned` (pinned first, then by name, case-insensitively) or `name`.
 */
export const PageListQuery = z.object({
  search: z.string().trim().max(200).default(""),
  limit: z.coerce.number().int().min(0).max(MAX_PAGES_PER_PAGE).default(PAGES_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  sortBy: z.enum(["pinned", "name"]).default("pinned"),
});
export type PageListQuery = z.infer<typeof PageListQuery>;

/** Spec section 3, Page (in lists). `path` is absolute on the site's server. */
export const PageView = z.object({ id: z.string(), siteId: z.string(), name: z.string(), path: z.string(), isPinned: z.boolean() });
export type PageView = z.infer<typeof PageView>;

export const PageList = z.object({ pages: z.array(PageView), count: z.number(), offset: z.number(), limit: z.number() });
export type PageList = z.infer<typeof PageList>;
export const PageAnswer = z.object({ page: PageView });

const name = z.string().trim().min(1).max(200);
/** Absolute, or relative to the site's home folder; it must lie inside it. */
const path = z.string().trim().min(1).max(4096);

/**
 * `POST /sites/{siteId}/pages`, in the spec's three forms:
 * - new page: `name`, `path`, `templateId` (the file is written from the template);
 * - duplicate: `name`, `path`, `pageId` (the page's file is copied on the server);
 * - enable an existing file: `path`, `createOnServer: false` (and optionally `name`, `isPinned`);
 *   `createOnServer: true` writes an empty file first. An index or default file of the home folder
 *   is named Homepage and pinned.
 */
export const NewPageBody = z.union([
  z.object({ name, path, templateId: id }),
  z.object({ name, path, pageId: id }),
  z.object({ name: name.optional(), path, createOnServer: z.boolean(), isPinned: z.boolean().optional() }),
]);
export type NewPageBody = z.infer<typeof NewPageBody>;

/** `PUT /sites/{siteId}/pages/{pageId}`: rename (name and path; the file moves too) and/or pin. */
export const UpdatePageBody = z
  .object({ name: name.optional(), path: path.optional(), isPinned: z.boolean().optional() })
  .refine((body) => body.name !== undefined || body.path !== undefined || body.isPinned !== undefined, { message: "Nothing to change", path: ["name"] });
export type UpdatePageBody = z.infer<typeof UpdatePageBody>;

/**
 * `POST /sites/{siteId}/pages/delete`: `deleteFromServer: false` disables the pages (they leave the
 * product, their files stay); `true` also removes their files from the server.
 */
export const DeletePagesBody = z.object({
  pageIds: z.array(id).min(1).max(MAX_PAGES_PER_DELETE),
  deleteFromServer: z.boolean(),
});
export type DeletePagesBody = z.infer<typeof DeletePagesBody>;

/** Each page once: `succeeded` as the spec says (objects with id), `failed` with the code of each failure. */
export const DeletePagesAnswer = z.object({
  succeeded: z.array(z.object({ id: z.string() })),
  failed: z.array(z.object({ id: z.string(), code: z.string() })),
});
export type DeletePagesAnswer = z.infer<typeof DeletePagesAnswer>;
