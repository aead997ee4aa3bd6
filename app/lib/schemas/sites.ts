import { z } from "zod";
import { CONNECTION_PROTOCOLS } from "./site-connection";

/** db/schema.ts SITE_CLASSIFICATIONS, repeated so this browser-shared module does not load the schema. */
export const SITE_CLASSIFICATIONS = ["commercial", "personal", "educational", "non-profit"] as const;

const id = z.string().min(1).max(64);

/** The spec: 50 sites a page. */
export const SITES_PAGE_SIZE = 50;
export const MAX_SITES_PER_PAGE = 100;

/** `GET /sites`: search, paging (limit 0 answers the count only) and the one order the spec names. */
export const SiteListQuery = z.object({
  search: z.string().trim().max(200).default(""),
  limit: z.coerce.number().int().min(0).max(MAX_SITES_PER_PAGE).default(SITES_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  sortBy: z.enum(["name"]).default("name"),
});
export type SiteListQuery = z.infer<typeof SiteListQuery>;

export const SiteParams = z.object({ siteId: id });

/** Forms send "" or null for an empty field: the same as leaving it out. */
const blank = (value: unknown) => (value === "" || value === null ? undefined : value);
const optionalText = (max: number) => z.preprocess(blank, z.string().max(max).optional());
/** A secret: write-only; empty or left out keeps the stored one. */
const secret = (max: number) => z.preprocess(blank, z.string().max(max).optional());

/**
 * The site form (NewSite, EditSite) as `POST /sites` and `PUT /sites/{siteId}` take it. Field names
 * are the spec's (Site, both documents), so a VALIDATION_ERROR's `invalid` list marks the form's
 * fields. Only the shape is checked here; what each protocol requires, the URL and the folders are
 * normalised and checked by the service (`sites.server.ts`), which knows the stored values on an
 * update. Every field is optional so an update may send only what changes; a create names what it
 * misses in `invalid`.
 *
 * - `classification` left out (or empty) on create: the site is classified from its URL and its
 *   home page (DECISIONS.md, "Commercial-site check").
 * - `password`, `privateKey`, `s3SecretKey`: never answered; empty or left out keeps the stored one.
 * - `sftpHostKey`, `ftpsCertFingerprint`: what Test Connection showed; the save's own connection
 *   test must see the same key.
 *
 * @example SiteBody.parse({ name: "Bakery", url: "bakery.example", protocol: "sftp", host: "sftp.bakery.example", username: "web", password: "…", homeFolder: "/var/www/" })
 */
export const SiteBody = z.object({
  name: z.preprocess((value) => (value === null ? "" : value), z.string().max(200).optional()),
  url: z.preprocess((value) => (value === null ? "" : value), z.string().max(2048).optional()),
  classification: z.preprocess(blank, z.enum(SITE_CLASSIFICATIONS).optional()),
  protocol: z.enum(CONNECTION_PROTOCOLS).optional(),
  host: z.preprocess((value) => (value === null ? "" : value), z.string().max(2048).optional()),
  port: z.preprocess(
    (value) => (value === "" || value === null ? null : typeof value === "string" ? Number(value) : value),
    z.number().int().min(1).max(65535).nullable().optional(),
  ),
  username: z.preprocess((value) => (value === null ? "" : value), z.string().max(512).optional()),
  password: secret(4096),
  privateKey: secret(16_384),
  s3AccessKey: optionalText(512),
  s3SecretKey: secret(512),
  s3Region: optionalText(64),
  s3Bucket: optionalText(255),
  s3Acl: z.preprocess((value) => (value === "" || value === false ? null : value === true ? "public-read" : value), z.literal("public-read").nullable().optional()),
  /** null or empty: the hosted agent. */
  agentId: z.preprocess((value) => (value === "" ? null : value), id.nullable().optional()),
  homeFolder: z.string().max(1024).optional(),
  uploadFolder: z.string().max(1024).optional(),
  isLocked: z.boolean().optional(),
  canDuplicatePages: z.boolean().optional(),
  canDeletePages: z.boolean().optional(),
  gaProfileId: z.preprocess((value) => (value === "" ? null : value), z.string().max(64).nullable().optional()),
  sftpHostKey: optionalText(200),
  ftpsCertFingerprint: optionalText(200),
});
export type SiteBody = z.infer<typeof SiteBody>;

/**
 * A site as every user who reaches it may see it (spec section 3, Site). `screenshot` is the URL of
 * the stored screenshot or null.
 */
export const SiteSummary = z.object({
  id: z.string(),
  name: z.string(),
  url: z.string(),
  classification: z.enum(SITE_CLASSIFICATIONS),
  classificationLocked: z.boolean(),
  homeFolder: z.string(),
  uploadFolder: z.string(),
  screenshot: z.string().nullable(),
  isFavorite: z.boolean(),
  hasChangeNotification: z.boolean(),
  isLocked: z.boolean(),
  isDemo: z.boolean(),
  canDuplicatePages: z.boolean(),
  canDeletePages: z.boolean(),
  gaProfileId: z.string().nullable(),
});
export type SiteSummary = z.infer<typeof SiteSummary>;

/** Which secrets a site stores: never their values (write-only, SECURITY.md 14). */
export const StoredSecrets = z.object({ password: z.boolean(), privateKey: z.boolean(), s3SecretKey: z.boolean() });
export type StoredSecrets = z.infer<typeof StoredSecrets>;

/**
 * `GET /sites/{siteId}`: the summary, and for those who can manage sites the connection (without
 * its secrets: `storedSecrets` says which are stored).
 */
export const SiteDetail = SiteSummary.extend({
  protocol: z.enum(["ftp", "ftps", "sftp", "s3", "webdav", "demo"]).optional(),
  host: z.string().nullable().optional(),
  port: z.number().nullable().optional(),
  username: z.string().nullable().optional(),
  s3AccessKey: z.string().nullable().optional(),
  s3Region: z.string().nullable().optional(),
  s3Bucket: z.string().nullable().optional(),
  s3Acl: z.string().nullable().optional(),
  agentId: z.string().nullable().optional(),
  sftpHostKey: z.string().nullable().optional(),
  ftpsCertFingerprint: z.string().nullable().optional(),
  storedSecrets: StoredSecrets.optional(),
});
export type SiteDetail = z.infer<typeof SiteDetail>;

export const SiteAnswer = z.object({ site: SiteDetail });
export const SiteList = z.object({ sites: z.array(SiteSummary), count: z.number(), offset: z.number(), limit: z.number() });
export type SiteList = z.infer<typeof SiteList>;

/** `PUT /sites/{siteId}/screenshot`: the request is taken; the message is the spec's, localised. */
export const ScreenshotRequested = z.object({ message: z.string() });

/** `PUT /admin/sites/{siteId}/classify` (superuser): the classification, locked against the owner. */
export const ClassifyBody = z.object({ classification: z.enum(SITE_CLASSIFICATIONS) });
export const ClassifiedSite = z.object({
  site: z.object({ id: z.string(), accountId: z.string(), name: z.string(), classification: z.enum(SITE_CLASSIFICATIONS), classificationLocked: z.boolean() }),
});

/** `GET /sites/{siteId}/revisions`: the site's activity, newest first. */
export const RevisionListQuery = z.object({
  limit: z.coerce.number().int().min(0).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
