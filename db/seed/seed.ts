/**
 * The demo data of `npm start` and the end-to-end tests: a superuser, an agency with an admin and a
 * client user, a business and a personal owner, each with sites and pages, and a demo site per
 * account whose files live in R2. Idempotent: it does nothing when accounts already exist.
 */
import { count } from "drizzle-orm";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { hashPassword } from "../../app/services/passwords.server.ts";
import { demoSiteFileKey } from "../../app/lib/storage-keys.ts";
import { resources } from "../../app/locales/index.ts";
import { createWelcomeToken } from "../../app/services/recovery.server.ts";
import { base32Decode } from "../../app/lib/totp.ts";
import { recoveryCodeHash, sealTfaSecret } from "../../app/services/tfa.server.ts";
import { SEEDED_SIGN_INS } from "../../scripts/seeded-sign-ins.mjs";
import * as schema from "../schema.ts";
import { newId } from "../ids.ts";
import { demoBlocks, demoSitePages } from "./demo-blocks.ts";

type Db = DrizzleD1Database<typeof schema>;
type Bucket = Pick<R2Bucket, "put">;
export interface DemoFile {
  path: string;
  body: Uint8Array;
  contentType: string;
}

export interface SeedOptions {
  password: string;
  demoFiles: DemoFile[];
  /** Overrides for tests; defaults to the real clock. */
  now?: Date;
  /** Where email links of accounts without a custom domain point (wrangler.toml's APP_ORIGIN). */
  appOrigin?: string;
}

const { accounts, users, sites, pages, blocks, templates, sitePermissions, permissionPages, favorites } = schema;

/**
 * Inserts rows one statement each, in one batch: D1 allows 100 bound parameters per statement, so
 * a multi-row insert of wide rows would fail.
 */
async function insertAll<T extends SQLiteTable>(db: Db, table: T, rows: T["$inferInsert"][]) {
  if (rows.length === 0) return;
  const [first, ...rest] = rows.map((row) => db.insert(table).values(row));
  await db.batch([first, ...rest]);
}

export async function seed(db: Db, bucket: Bucket, options: SeedOptions): Promise<{ seeded: boolean }> {
  const existing = await db.select({ n: count() }).from(accounts).get();
  if ((existing?.n ?? 0) > 0) return { seeded: false };

  const now = options.now ?? new Date();
  const passwordHash = await hashPassword(options.password);
  const person = (fields: Partial<typeof users.$inferInsert> & Pick<typeof users.$inferInsert, "accountId" | "name" | "email">) =>
    ({ id: newId(), passwordHash, createdAt: now, confirmedAt: now, ...fields }) satisfies typeof users.$inferInsert;

  const platform = { id: newId(), plan: "agency", appName: null, createdAt: now } as const;
  const agency = { id: newId(), plan: "agency", paymentInterval: "year", organization: "Brightside Digital Ltd", subdomain: "brightside", appName: "Brightside Sites", supportUrl: "https://brightside.example/help", customDomain: "cms.brightside.test", stripeCardBrand: "visa", stripeCardLast4: "4242", createdAt: now } as const;
  const business = { id: newId(), plan: "business", paymentInterval: "month", organization: "Schmidt Architekten GmbH", subdomain: "schmidt", stripeCardBrand: "mastercard", stripeCardLast4: "4444", createdAt: now } as const;
  const personal = { id: newId(), plan: "personal", subdomain: "pat", createdAt: now } as const;
  // An agency whose subscription ended: its white-label domain answers 410 Out of Service.
  const lapsed = { id: newId(), plan: "personal", subdomain: "lapsed", appName: "Lapsed Agency", customDomain: "cms.lapsed.test", domainDisabledAt: now, createdAt: now } as const;
  await insertAll(db, accounts, [platform, agency, business, personal, lapsed]);

  const superuser = person({ accountId: platform.id, name: "Sasha Super", email: "super@sitecraft.test", isOwner: true, isSuperuser: true });
  const agencyOwner = person({ accountId: agency.id, name: "Alex Morgan", email: "owner@agency.test", isOwner: true, bio: "Founder of Brightside Digital." });
  const agencyAdmin = person({ accountId: agency.id, name: "Sam Patel", email: "admin@agency.test", isAdmin: true, canManageSites: true, canManageUsers: true });
  const agencyClient = person({ accountId: agency.id, name: "Jordan Lee", email: "client@agency.test" });
  const businessOwner = person({ accountId: business.id, name: "Maria Schmidt", email: "owner@business.test", isOwner: true });
  const personalOwner = person({ accountId: personal.id, name: "Pat Dubois", email: "owner@personal.test", isOwner: true });
  const lapsedOwner = person({ accountId: lapsed.id, name: "Lee Lapsed", email: "owner@lapsed.test", isOwner: true });
  // For the recovery e2e test: a user whose password it may change, and an invited user who has
  // not chosen a password yet, whose welcome email waits in the development mailbox.
  const agencyResetUser = person({ accountId: agency.id, name: "Robin Reset", email: "reset@agency.test" });
  const agencyInvited = person({ accountId: agency.id, name: "Ivy Invited", email: "invited@agency.test", passwordHash: null, confirmedAt: null });
  await insertAll(db, users, [superuser, agencyOwner, agencyAdmin, agencyClient, businessOwner, personalOwner, lapsedOwner, agencyResetUser, agencyInvited]);
  const mailContext = { db, env: { APP_ORIGIN: options.appOrigin ?? "http://localhost:8787" }, locale: "en" } as const;
  await createWelcomeToken(mailContext, agencyInvited.id, resources.en.recovery.welcomeEmail);

  await seedTfaUser(db, { accountId: agency.id, passwordHash, now });

  const agencyDemo = await seedDemoSite(db, bucket, options.demoFiles, agency.id, now);
  await seedDemoSite(db, bucket, options.demoFiles, business.id, now);
  await seedDemoSite(db, bucket, options.demoFiles, personal.id, now);

  const site = (accountId: string, fields: Partial<typeof sites.$inferInsert> & Pick<typeof sites.$inferInsert, "name" | "url" | "protocol">) =>
    ({ id: newId(), accountId, classification: "commercial", homeFolder: "/public_html", uploadFolder: "/public_html/uploads", createdAt: now, updatedAt: now, ...fields }) satisfies typeof sites.$inferInsert;
  const harbor = site(agency.id, { name: "Harbor Dental", url: "https://harbordental.example", protocol: "sftp", host: "sftp.harbordental.example", port: 22, username: "harbor", canDeletePages: true });
  const northwind = site(agency.id, { name: "Northwind Outfitters", url: "https://northwind.example", protocol: "ftps", host: "ftp.northwind.example", port: 21, username: "nwo", canDuplicatePages: true });
  const schmidt = site(business.id, { name: "Schmidt Architekten", url: "https://schmidt-architekten.example", protocol: "s3", s3AccessKey: "AKIADEMO", s3Region: "eu-central-1", s3Bucket: "schmidt-www", homeFolder: "/", uploadFolder: "/uploads" });
  const travel = site(personal.id, { name: "Pat's Travel Notes", url: "https://pat-travels.example", protocol: "webdav", host: "https://dav.pat-travels.example", classification: "personal", homeFolder: "/", uploadFolder: "/images" });
  await insertAll(db, sites, [harbor, northwind, schmidt, travel]);

  const plainPages = (siteId: string, accountId: string, names: [string, string][]) =>
    names.map(([name, path], i) => ({ id: newId(), siteId, accountId, name, path, isPinned: i === 0, createdAt: now, updatedAt: now }));
  await insertAll(db, pages, [
    ...plainPages(harbor.id, agency.id, [["Homepage", "/public_html/index.html"], ["Services", "/public_html/services.html"], ["Book an Appointment", "/public_html/book.php"]]),
    ...plainPages(northwind.id, agency.id, [["Homepage", "/public_html/index.html"], ["Catalogue", "/public_html/catalogue.html"]]),
    ...plainPages(schmidt.id, business.id, [["Homepage", "/index.html"], ["Projekte", "/projekte.html"], ["Kontakt", "/kontakt.html"]]),
    ...plainPages(travel.id, personal.id, [["Homepage", "/index.html"], ["Lisbon in Spring", "/posts/lisbon.html"]]),
  ]);

  // The client user edits two pages of the agency's demo site and nothing else.
  const permission = { id: newId(), accountId: agency.id, userId: agencyClient.id, siteId: agencyDemo.siteId, allPages: false, createdAt: now };
  await db.insert(sitePermissions).values(permission);
  await db.insert(permissionPages).values(agencyDemo.pageIds.slice(0, 2).map((pageId) => ({ permissionId: permission.id, pageId, accountId: agency.id })));
  await db.insert(favorites).values({ userId: agencyOwner.id, siteId: agencyDemo.siteId, accountId: agency.id, createdAt: now });
  return { seeded: true };
}

/**
 * An agency admin with two-factor on, its TOTP secret and recovery code fixed and documented in
 * `scripts/seeded-sign-ins.mjs` so people and the e2e tests can compute its codes. The secret is
 * sealed with the secret box's development key (version 0), which the Worker accepts only with
 * `ENVIRONMENT = "development"`: demo data never reaches production.
 */
async function seedTfaUser(db: Db, { accountId, passwordHash, now }: { accountId: string; passwordHash: string; now: Date }) {
  const { email, secret, recoveryCode } = SEEDED_SIGN_INS.tfa;
  const user = { id: newId(), accountId, name: "Taylor Quinn", email, passwordHash, isAdmin: true, canManageSites: true, tfaEnabled: true, requiresTfa: true, createdAt: now, confirmedAt: now };
  await db.insert(schema.users).values(user);
  const sealed = await sealTfaSecret({ ENVIRONMENT: "development" }, user, base32Decode(secret));
  await db.batch([
    db.insert(schema.tfaSecrets).values({ userId: user.id, ...sealed, lastUsedStep: 0, createdAt: now, confirmedAt: now }),
    db.insert(schema.recoveryCodes).values({ id: newId(), userId: user.id, codeHash: await recoveryCodeHash(recoveryCode), createdAt: now }),
  ]);
}

/** A demo site: its files copied into R2, its pages enabled, its blocks and a template created. */
async function seedDemoSite(db: Db, bucket: Bucket, files: DemoFile[], accountId: string, now: Date) {
  const siteId = newId();
  await db.insert(sites).values({
    id: siteId, accountId, name: "Morning Crumb", url: "https://morning-crumb.example", classification: "commercial",
    protocol: "demo", homeFolder: "/", uploadFolder: "/uploads", isDemo: true, canDuplicatePages: true, canDeletePages: true,
    createdAt: now, updatedAt: now,
  });
  for (const file of files) {
    await bucket.put(demoSiteFileKey(siteId, file.path), file.body, { httpMetadata: { contentType: file.contentType } });
  }
  const pageRows = demoSitePages.map((page) => ({
    id: newId(), siteId, accountId, name: page.name, path: `/${page.path}`,
    isPinned: Boolean(page.isPinned), createdAt: now, updatedAt: now,
  }));
  await insertAll(db, pages, pageRows);
  await insertAll(db, blocks, demoBlocks.map((block) => ({ id: newId(), siteId, accountId, ...block, createdAt: now, updatedAt: now })));
  const about = files.find((file) => file.path === "about.html");
  if (about) {
    await db.insert(templates).values({
      id: newId(), siteId, accountId, name: "Content Page", description: "A page with the site's header, footer and one content area.",
      extension: ".html", source: new TextDecoder().decode(about.body), createdAt: now, updatedAt: now,
    });
  }
  return { siteId, pageIds: pageRows.map((page) => page.id) };
}
