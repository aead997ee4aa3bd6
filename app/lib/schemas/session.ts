import { z } from "zod";

/** The account as the signed-in user sees it (spec section 3, Account); no secrets. */
export const AccountView = z.object({
  id: z.string(),
  plan: z.enum(["personal", "business", "agency"]),
  paymentInterval: z.enum(["month", "year"]).nullable(),
  stripeCardBrand: z.string().nullable(),
  stripeCardLast4: z.string().nullable(),
  stripeCancelAtPeriodEnd: z.boolean(),
  stripeCurrentPeriodEnd: z.string().nullable(),
  organization: z.string().nullable(),
  invoiceText: z.string().nullable(),
  requiresTfa: z.boolean(),
  appName: z.string().nullable(),
  subdomain: z.string().nullable(),
  supportUrl: z.string().nullable(),
  logoLight: z.string().nullable(),
  logoDark: z.string().nullable(),
  favicon: z.string().nullable(),
  hasAnalyticsToken: z.boolean(),
});

/** What every view of a person shows (the session's user, the people screens). */
export const PersonCore = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  /** The uploaded picture, or null: the client falls back to the Gravatar of `email`. */
  avatar: z.string().nullable(),
  bio: z.string().nullable(),
  lastSeen: z.string().nullable(),
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
});

/** The user of the spec's client state (section 3, User), with their account inside. */
export const UserView = PersonCore.extend({
  isSuperuser: z.boolean(),
  isAuthenticated: z.boolean(),
  requiresTfa: z.boolean(),
  canManageBilling: z.boolean(),
  canManageSettings: z.boolean(),
  canManageSites: z.boolean(),
  canManageUsers: z.boolean(),
  accountId: z.string(),
  createdAt: z.string(),
  account: AccountView,
});

/** Site-wide page metadata (spec section 3): branding of the domain the app is reached on. */
export const SessionMetadata = z.object({
  appName: z.string(),
  favicon: z.string().nullable(),
  isCustomDomain: z.boolean(),
  logoDark: z.string().nullable(),
  supportUrl: z.string().nullable(),
  isSudo: z.boolean(),
});

/** `GET /auth/session`: what the app stores at start-up. */
export const SessionView = z.object({ metadata: SessionMetadata, user: UserView.nullable() });

export type AccountView = z.infer<typeof AccountView>;
export type UserView = z.infer<typeof UserView>;
export type PersonCore = z.infer<typeof PersonCore>;
export type SessionMetadata = z.infer<typeof SessionMetadata>;
export type SessionView = z.infer<typeof SessionView>;

export const LoginBody = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
  isTrusted: z.boolean().default(false),
});
export type LoginBody = z.infer<typeof LoginBody>;
