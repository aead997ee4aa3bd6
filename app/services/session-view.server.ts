import type { Account, User } from "../../db/schema";
import type { AccountView, PersonCore, SessionMetadata, SessionView, UserView } from "~/lib/schemas/session";
import type { Actor } from "./actor.server";
import type { ServiceContext } from "./context.server";
import { resolveBranding } from "./domains.server";
import { effectiveFlags } from "./policy";

export function toAccountView(account: Account): AccountView {
  return {
    id: account.id,
    plan: account.plan,
    paymentInterval: account.paymentInterval ?? null,
    stripeCardBrand: account.stripeCardBrand ?? null,
    stripeCardLast4: account.stripeCardLast4 ?? null,
    stripeCancelAtPeriodEnd: account.stripeCancelAtPeriodEnd ?? false,
    stripeCurrentPeriodEnd: account.stripeCurrentPeriodEnd?.toISOString() ?? null,
    organization: account.organization ?? null,
    invoiceText: account.invoiceText ?? null,
    requiresTfa: account.requiresTfa,
    appName: account.appName ?? null,
    subdomain: account.subdomain ?? null,
    supportUrl: account.supportUrl ?? null,
    logoLight: account.logoLight ?? null,
    logoDark: account.logoDark ?? null,
    favicon: account.favicon ?? null,
    hasAnalyticsToken: Boolean(account.gaAuthToken),
  };
}

/** The fields every view of a person shares (PersonCore). */
export function toPersonCore(user: User): PersonCore {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    avatar: user.avatar ?? null,
    bio: user.bio ?? null,
    lastSeen: user.lastSeenAt?.toISOString() ?? null,
    isAdmin: user.isAdmin || user.isOwner,
    isOwner: user.isOwner,
  };
}

export function toUserView(user: User, account: Account, isAuthenticated: boolean): UserView {
  return {
    ...toPersonCore(user),
    isSuperuser: user.isSuperuser,
    isAuthenticated,
    requiresTfa: user.requiresTfa,
    ...effectiveFlags(user),
    accountId: user.accountId,
    createdAt: user.createdAt.toISOString(),
    account: toAccountView(account),
  };
}

/**
 * `GET /auth/session` and the root loader: the branding of the domain the app is reached on and
 * the signed-in user, if any.
 */
export async function getSessionView(ctx: ServiceContext, actor: Actor | null = ctx.actor): Promise<SessionView> {
  const branding = await resolveBranding(ctx);
  const metadata: SessionMetadata = {
    appName: branding?.appName ?? ctx.env.APP_NAME,
    favicon: branding?.favicon ?? null,
    isCustomDomain: branding !== null,
    logoDark: branding?.logoDark ?? null,
    supportUrl: branding?.supportUrl ?? actor?.account.supportUrl ?? null,
    isSudo: Boolean(actor?.session?.sudoUserId),
  };
  const user = actor ? toUserView(actor.user, actor.account, Boolean(actor.session?.tfaVerified ?? true)) : null;
  return { metadata, user };
}
