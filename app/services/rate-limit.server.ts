import { eq } from "drizzle-orm";
import { users } from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "./context.server";

/** What is being guessed: a password, a two-factor code or a two-factor recovery code. */
export type AttemptKind = "login" | "tfa" | "recovery";

/**
 * DECISIONS.md "Rate limits", the same for every kind: 5 failures per minute per account, 30 per
 * minute per address, and a hard stop after 100 consecutive failures of an account until a
 * password reset. Each kind counts on its own (`login:…`, `tfa:…`, `recovery:…`).
 */
export const RATE_LIMITS = { windowMs: 60_000, perAccount: 5, perAddress: 30, hardStopAfter: 100 } as const;

const ACCOUNT_POLICY = { limit: RATE_LIMITS.perAccount, windowMs: RATE_LIMITS.windowMs, hardStopAfter: RATE_LIMITS.hardStopAfter };
const ADDRESS_POLICY = { limit: RATE_LIMITS.perAddress, windowMs: RATE_LIMITS.windowMs, hardStopAfter: null };
const KINDS: AttemptKind[] = ["login", "tfa", "recovery"];

export interface AttemptSubjects {
  kind: AttemptKind;
  /**
   * The user id; for a sign-in with an email that has no account, the normalised email, so that
   * address is counted and answered exactly like a real account. Null counts no account.
   */
  account: string | null;
  /** The client address (`ctx.request.ip`). Null when unknown (workerd without a proxy in front): no per-address limit. */
  ip: string | null;
  /** The clock, for tests that step past a window instead of waiting for it. */
  now?: number;
}

/** An attempt under way, counted as failed until `recordSuccess`. */
export interface Attempt {
  now: number;
  account: { subject: string; name: string; ticket: string; consecutive: number } | null;
  address: { name: string; ticket: string } | null;
}

/**
 * Admits one guess of a password or code, or throws: RATE_LIMITED (429, with `retryAfter` in
 * seconds for the `Retry-After` header) when the account or the address has used up its window,
 * ACCOUNT_LOCKED (403) at the hard stop. Call it before any hashing; the attempt counts as a
 * failure from now on, so parallel requests cannot exceed the limit, until `recordSuccess`.
 *
 * @example
 * const attempt = await guardAttempt(ctx, { kind: "tfa", account: user.id, ip: ctx.request.ip });
 * if (!valid) { await recordFailure(ctx, attempt); throw new AppError("INVALID_TFA_TOKEN", { invalid: ["token"] }); }
 * await recordSuccess(ctx, attempt);
 */
export async function guardAttempt(ctx: ServiceContext, subjects: AttemptSubjects): Promise<Attempt> {
  const now = subjects.now ?? Date.now();
  const accountName = subjects.account === null ? null : `${subjects.kind}:account:${subjects.account}`;
  const addressName = subjects.ip === null ? null : `${subjects.kind}:ip:${addressSubject(subjects.ip)}`;
  const [forAccount, forAddress] = await Promise.all([
    accountName === null ? null : limiter(ctx, accountName).acquire(ACCOUNT_POLICY, now),
    addressName === null ? null : limiter(ctx, addressName).acquire(ADDRESS_POLICY, now),
  ]);

  if (forAccount?.allowed === false || forAddress?.allowed === false) {
    // The side that admitted the attempt must not count it: it never ran.
    await Promise.all([
      forAccount?.allowed ? limiter(ctx, accountName!).cancel(forAccount.ticket, now) : null,
      forAddress?.allowed ? limiter(ctx, addressName!).cancel(forAddress.ticket, now) : null,
    ]);
    if (forAccount?.allowed === false && forAccount.hardStop) throw new AppError("ACCOUNT_LOCKED");
    const waits = [forAccount, forAddress].flatMap((r) => (r?.allowed === false && r.retryAfterMs !== null ? [r.retryAfterMs] : []));
    throw new AppError("RATE_LIMITED", { retryAfter: Math.max(...waits) / 1000 });
  }

  return {
    now,
    account: forAccount ? { subject: subjects.account!, name: accountName!, ticket: forAccount.ticket, consecutive: forAccount.consecutive } : null,
    address: forAddress ? { name: addressName!, ticket: forAddress.ticket } : null,
  };
}

/**
 * The guess was wrong. It is already counted; at the hard stop the user row is marked locked too
 * (`failedLoginCount`, `lockedUntilReset`), so the account shows as locked. The Durable Object
 * stays the counter of record. For an unknown email the update matches no row and costs the same.
 */
export async function recordFailure(ctx: ServiceContext, attempt: Attempt): Promise<void> {
  if (!attempt.account || attempt.account.consecutive < RATE_LIMITS.hardStopAfter) return;
  await ctx.db
    .update(users)
    .set({ failedLoginCount: attempt.account.consecutive, lockedUntilReset: true })
    .where(eq(users.id, attempt.account.subject));
}

/** The guess was right: it stops counting, and the account's run of consecutive failures ends. */
export async function recordSuccess(ctx: ServiceContext, attempt: Attempt): Promise<void> {
  await Promise.all([
    attempt.account ? limiter(ctx, attempt.account.name).succeed(attempt.account.ticket, attempt.now) : null,
    attempt.address ? limiter(ctx, attempt.address.name).succeed(attempt.address.ticket, attempt.now) : null,
  ]);
}

/**
 * Lifts the hard stop and forgets the counts of a user for every kind, and clears the user row's
 * lock. The password-reset flow calls it once the new password is set.
 *
 * @example await clearHardStop(ctx, user.id);
 */
export async function clearHardStop(ctx: ServiceContext, account: string): Promise<void> {
  await Promise.all(KINDS.map((kind) => limiter(ctx, `${kind}:account:${account}`).reset()));
  await ctx.db.update(users).set({ failedLoginCount: 0, lockedUntilReset: false }).where(eq(users.id, account));
}

function limiter(ctx: ServiceContext, name: string) {
  return ctx.env.RATE_LIMITER.getByName(name);
}

/**
 * The address an attacker controls as one unit: an IPv4 address, or the /64 prefix of an IPv6
 * address (one customer line usually gets a whole /64). IPv4-mapped IPv6 counts as IPv4.
 *
 * @example addressSubject("2001:db8:1:2:aa::1") // "2001:db8:1:2::/64"
 */
export function addressSubject(ip: string): string {
  const address = ip.trim().toLowerCase();
  if (!address.includes(":")) return address;
  const mapped = /^(?:::|(?:0{1,4}:){5})ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (mapped) return mapped[1];
  const [head, tail = null] = address.split("::");
  const headParts = head ? head.split(":") : [];
  const tailParts = tail === null ? [] : tail ? tail.split(":") : [];
  const missing = 8 - headParts.length - tailParts.length;
  const groups = [...headParts, ...Array<string>(Math.max(0, missing)).fill("0"), ...tailParts];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}
