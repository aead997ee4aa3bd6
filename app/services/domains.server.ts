import { eq } from "drizzle-orm";
import { accounts, type Account } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "./context.server";

/**
 * The account whose white-label branding applies to the host the app is reached on, or null on
 * the product's own domain. A custom domain that has been switched off answers 410
 * ('This domain is no longer active.').
 */
export async function resolveBranding(ctx: ServiceContext): Promise<Account | null> {
  const host = ctx.request.url.hostname.toLowerCase();
  if (host === "localhost" || host === "127.0.0.1" || host === new URL(ctx.env.APP_ORIGIN).hostname) return null;
  const account = await ctx.db.select().from(accounts).where(eq(accounts.customDomain, host)).get();
  if (!account) return null;
  if (account.domainDisabledAt) throw new AppError("DOMAIN_INACTIVE");
  return account;
}
