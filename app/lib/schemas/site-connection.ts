import { z } from "zod";

/** The protocols a site form may choose (the demo site's store is not one: it has no connection). */
export const CONNECTION_PROTOCOLS = ["ftp", "ftps", "sftp", "s3", "webdav"] as const;

/** Forms send "" for an empty field: the same as leaving it out. */
const optionalText = (max: number) =>
  z.preprocess((value) => (value === "" || value === null ? undefined : value), z.string().max(max).optional());

/**
 * The connection fields of the site form (NewSite, EditSite), as the form sends them: for the
 * connection test, for browsing before the site is saved (`Target-Server`), and for saving.
 * Other fields of the form (name, url, …) are ignored here. Field names are the spec's, so a
 * VALIDATION_ERROR's `invalid` list marks the form's fields.
 *
 * @example siteConnectionForm.parse({ protocol: "sftp", host: "example.com", username: "me", password: "…", homeFolder: "/var/www" })
 */
export const siteConnectionForm = z
  .object({
    protocol: z.enum(CONNECTION_PROTOCOLS),
    host: z.preprocess((value) => (value === null ? "" : value), z.string().trim().max(2048).default("")),
    port: z.preprocess(
      (value) => (value === "" || value === null ? undefined : typeof value === "string" ? Number(value) : value),
      z.number().int().min(1).max(65535).optional(),
    ),
    username: z.preprocess((value) => (value === null ? "" : value), z.string().max(512).default("")),
    password: optionalText(4096),
    privateKey: optionalText(16_384),
    s3AccessKey: optionalText(512),
    s3SecretKey: optionalText(512),
    s3Region: optionalText(64),
    s3Bucket: optionalText(255),
    s3Acl: z.preprocess((value) => (value === "" || value === null || value === false ? undefined : value === true ? "public-read" : value), z.literal("public-read").optional()),
    homeFolder: z.preprocess((value) => (value === "" || value === null ? undefined : value), z.string().max(1024).default("/")),
    agentId: optionalText(64),
    /**
     * Pins the form already holds (SECURITY.md 4): an SFTP host key seen before, or the SHA-256
     * fingerprint of a self-signed FTPS certificate the user confirmed. The agent refuses a
     * server that shows another one.
     */
    sftpHostKey: optionalText(200),
    ftpsCertFingerprint: optionalText(200),
  })
  .superRefine((form, issues) => {
    const require = (field: keyof typeof form) => {
      if (!form[field]) issues.addIssue({ code: "custom", path: [field], message: "Required" });
    };
    if (form.protocol === "s3") {
      require("s3AccessKey");
      require("s3SecretKey");
      require("s3Bucket");
      return;
    }
    require("host");
    if (form.protocol === "sftp") {
      require("username");
      if (!form.password && !form.privateKey) issues.addIssue({ code: "custom", path: ["password"], message: "A password or a private key" });
    }
  });

export type SiteConnectionForm = z.infer<typeof siteConnectionForm>;

/** What `GET /utilities/files` and the connection test answer per entry. */
export const RemoteFileSchema = z.object({
  name: z.string(),
  path: z.string(),
  type: z.enum(["file", "directory"]),
  size: z.number().int(),
  modifiedAt: z.string().nullable(),
});
