import { env, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { AppError } from "~/lib/errors";
import type { ServiceContext } from "~/services/context.server";
import type { RateLimiter } from "../../workers/rate-limiter";
import { getDb } from "~/services/db.server";
import { hashPassword } from "~/services/passwords.server";
import {
  addressSubject,
  clearHardStop,
  guardAttempt,
  RATE_LIMITS,
  recordFailure,
  recordSuccess,
  type AttemptSubjects,
} from "~/services/rate-limit.server";

const PASSWORD = "rate-limit-password-1";
const db = getDb(env);
let passwordHash: Promise<string> | null = null;
let seq = 0;

/** A user with a password in an account of their own; every call makes a new one. */
async function createUser() {
  passwordHash ??= hashPassword(PASSWORD);
  const [account] = await db.insert(schema.accounts).values({ organization: `Limits ${++seq}` }).returning();
  const [user] = await db
    .insert(schema.users)
    .values({ accountId: account.id, name: `User ${seq}`, email: `user${seq}@limits.test`, passwordHash: await passwordHash })
    .returning();
  return user;
}

/** POST /api/auth/login from one client address (null: no CF-Connecting-IP, as in bare workerd). */
async function signIn(email: string, password: string, ip: string | null) {
  const response = await SELF.fetch("http://localhost/api/auth/login", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(ip ? { "CF-Connecting-IP": ip } : {}) },
    body: JSON.stringify({ email, password }),
  });
  return { status: response.status, retryAfter: response.headers.get("Retry-After"), body: await response.json() };
}

function serviceContext(ip: string | null = null): ServiceContext {
  return { db, env, actor: null, locale: "en", request: { url: new URL("http://localhost/"), ip, userAgent: null } };
}

/** The code a guard throws, or "allowed"; failures are recorded, so each allowed call is one failed guess. */
async function guess(subjects: AttemptSubjects): Promise<string> {
  const ctx = serviceContext(subjects.ip);
  try {
    await recordFailure(ctx, await guardAttempt(ctx, subjects));
    return "allowed";
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

const counter = (name: string) => env.RATE_LIMITER.getByName(name);
const INCORRECT = { code: "INCORRECT_PASSWORD", invalid: ["email", "password"] };
const LIMITED = { code: "RATE_LIMITED", invalid: [] };

// Every tried sign-in hashes a password (scrypt, about 250 ms on a busy 2-core machine).
describe("sign-in rate limits through POST /api/auth/login", { timeout: 30_000 }, () => {
  it("answers the 6th attempt within a minute for one account with 429 and Retry-After, even with the right password", async () => {
    const user = await createUser();
    for (let i = 0; i < 5; i++) {
      expect(await signIn(user.email, "wrong-password", "198.51.100.1")).toMatchObject({ status: 400, body: INCORRECT });
    }
    const refused = await signIn(user.email, PASSWORD, "198.51.100.1");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(LIMITED);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    // Another address does not help: the account is counted on its own.
    expect((await signIn(user.email, PASSWORD, "198.51.100.99")).status).toBe(429);
  });

  it("answers the 31st failed attempt from one address, across different accounts, with 429", async () => {
    const ip = "198.51.100.2";
    for (let i = 0; i < 30; i++) {
      // Six emails, five failures each: no single account reaches its own limit.
      expect(await signIn(`nobody${i % 6}@limits.test`, "wrong-password", ip)).toMatchObject({ status: 400, body: INCORRECT });
    }
    const user = await createUser();
    const refused = await signIn(user.email, PASSWORD, ip);
    expect(refused).toMatchObject({ status: 429, body: LIMITED });
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    // The refused attempt was never tried, so the fresh account did not lose one of its five.
    expect(await counter(`login:account:${user.id}`).inspect()).toEqual({ inWindow: 0, consecutive: 0 });
    expect((await signIn(user.email, PASSWORD, "198.51.100.3")).status).toBe(200);
  });

  it("limits an unknown email exactly like a known one: same statuses, bodies and Retry-After", async () => {
    const user = await createUser();
    const known: unknown[] = [];
    const unknown: unknown[] = [];
    for (let i = 0; i < 7; i++) {
      const a = await signIn(user.email, "wrong-password", "198.51.100.4");
      const b = await signIn("no-such-user@limits.test", "wrong-password", "198.51.100.5");
      known.push({ status: a.status, body: a.body, hasRetryAfter: a.retryAfter !== null });
      unknown.push({ status: b.status, body: b.body, hasRetryAfter: b.retryAfter !== null });
    }
    expect(unknown).toEqual(known);
    expect(known.map((r) => (r as { status: number }).status)).toEqual([400, 400, 400, 400, 400, 429, 429]);
  });

  it("counts parallel attempts exactly: of 10 at once for one account, 5 are tried and 5 refused", async () => {
    const user = await createUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signIn(user.email, "wrong-password", `198.51.100.${10 + i}`)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429, 429, 429]);
  });

  it("without a client address (no CF-Connecting-IP) still limits the account", async () => {
    const user = await createUser();
    for (let i = 0; i < 5; i++) expect((await signIn(user.email, "wrong-password", null)).status).toBe(400);
    expect((await signIn(user.email, PASSWORD, null)).status).toBe(429);
  });

  it("ends the run of consecutive failures on a success, without forgetting the window", async () => {
    const user = await createUser();
    const ip = "198.51.100.30";
    for (let i = 0; i < 4; i++) expect((await signIn(user.email, "wrong-password", ip)).status).toBe(400);
    expect((await signIn(user.email, PASSWORD, ip)).status).toBe(200);
    expect(await counter(`login:account:${user.id}`).inspect()).toEqual({ inWindow: 4, consecutive: 0 });
    // The success itself is not a failure: one more wrong guess fits, then the window is full.
    expect((await signIn(user.email, "wrong-password", ip)).status).toBe(400);
    expect((await signIn(user.email, PASSWORD, ip)).status).toBe(429);
  });
});

describe("the rate-limit service over time (injected clock)", () => {
  it("allows attempts again once the window has passed, and says when", async () => {
    const t0 = Date.now();
    const subjects = { kind: "login", account: "window@limits.test", ip: "198.51.100.40" } as const;
    for (let i = 0; i < 5; i++) expect(await guess({ ...subjects, now: t0 + i * 1000 })).toBe("allowed");

    const ctx = serviceContext(subjects.ip);
    const refused = await guardAttempt(ctx, { ...subjects, now: t0 + 10_000 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "RATE_LIMITED", status: 429, retryAfter: 50 });

    // Sliding window: the first failure leaves at t0 + 60 s, the second at t0 + 61 s.
    expect(await guess({ ...subjects, now: t0 + 59_999 })).toBe("RATE_LIMITED");
    expect(await guess({ ...subjects, now: t0 + 60_000 })).toBe("allowed");
    expect(await guess({ ...subjects, now: t0 + 60_500 })).toBe("RATE_LIMITED");
    expect(await guess({ ...subjects, now: t0 + 61_000 })).toBe("allowed");
  });

  it("stops hard after 100 consecutive failures, past any window, until clearHardStop", async () => {
    const user = await createUser();
    const t0 = Date.now();
    const subjects = { kind: "login", account: user.id, ip: null } as const;
    // 13 s apart keeps every window under 5 failures, so only the hard stop can refuse.
    for (let i = 0; i < RATE_LIMITS.hardStopAfter; i++) {
      expect(await guess({ ...subjects, now: t0 + i * 13_000 })).toBe("allowed");
    }
    const later = t0 + 100 * 13_000 + 10 * 60_000;
    expect(await guess({ ...subjects, now: later })).toBe("ACCOUNT_LOCKED");
    expect(await guess({ ...subjects, now: later + 24 * 3600_000 })).toBe("ACCOUNT_LOCKED");

    // The user row shows the lock; the API refuses even the right password, with 403 and no Retry-After.
    const row = await db.select().from(schema.users).where(eq(schema.users.id, user.id)).get();
    expect(row).toMatchObject({ failedLoginCount: 100, lockedUntilReset: true });
    const locked = await signIn(user.email, PASSWORD, "198.51.100.41");
    expect(locked).toEqual({ status: 403, retryAfter: null, body: { code: "ACCOUNT_LOCKED", invalid: [] } });

    await clearHardStop(serviceContext(), user.id);
    const cleared = await db.select().from(schema.users).where(eq(schema.users.id, user.id)).get();
    expect(cleared).toMatchObject({ failedLoginCount: 0, lockedUntilReset: false });
    expect((await signIn(user.email, PASSWORD, "198.51.100.41")).status).toBe(200);
  });

  it("reaches the hard stop for an unknown email too, with the same answer", async () => {
    const t0 = Date.now();
    const subjects = { kind: "login", account: "ghost@limits.test", ip: null } as const;
    for (let i = 0; i < 100; i++) expect(await guess({ ...subjects, now: t0 + i * 13_000 })).toBe("allowed");
    expect(await guess({ ...subjects, now: t0 + 100 * 13_000 })).toBe("ACCOUNT_LOCKED");
    expect(await signIn("ghost@limits.test", PASSWORD, "198.51.100.42")).toEqual({
      status: 403, retryAfter: null, body: { code: "ACCOUNT_LOCKED", invalid: [] },
    });
  });

  it("restarts the consecutive count after a success: 99 failures, a success, 99 more is no hard stop", async () => {
    const t0 = Date.now();
    const subjects = { kind: "recovery", account: "run-owner", ip: null } as const;
    let t = t0;
    for (let i = 0; i < 99; i++) expect(await guess({ ...subjects, now: (t += 13_000) })).toBe("allowed");
    const ctx = serviceContext();
    await recordSuccess(ctx, await guardAttempt(ctx, { ...subjects, now: (t += 13_000) }));
    expect(await counter("recovery:account:run-owner").inspect(t)).toMatchObject({ consecutive: 0 });
    for (let i = 0; i < 99; i++) expect(await guess({ ...subjects, now: (t += 13_000) })).toBe("allowed");
    expect(await counter("recovery:account:run-owner").inspect(t)).toMatchObject({ consecutive: 99 });
  });

  it("counts two-factor and recovery codes on their own, with the same limits", async () => {
    const t0 = Date.now();
    for (const kind of ["tfa", "recovery"] as const) {
      const subjects = { kind, account: "kinds-user", ip: "198.51.100.50" };
      for (let i = 0; i < 5; i++) expect(await guess({ ...subjects, now: t0 })).toBe("allowed");
      expect(await guess({ ...subjects, now: t0 })).toBe("RATE_LIMITED");
    }
    // Neither used up the sign-in counters of the same account and address.
    expect(await guess({ kind: "login", account: "kinds-user", ip: "198.51.100.50", now: t0 })).toBe("allowed");
    // 30 per address per kind: five more accounts use up the address for two-factor codes.
    for (let i = 0; i < 25; i++) expect(await guess({ kind: "tfa", account: `other-${i % 5}`, ip: "198.51.100.50", now: t0 })).toBe("allowed");
    expect(await guess({ kind: "tfa", account: "fresh", ip: "198.51.100.50", now: t0 })).toBe("RATE_LIMITED");
  });

  it("counts an IPv6 /64 as one address, and IPv4-mapped IPv6 as IPv4", () => {
    expect(addressSubject("2001:db8:1:2:aa::1")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:DB8:1:2:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(addressSubject("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressSubject("::1")).toBe("0:0:0:0::/64");
    expect(addressSubject("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressSubject("203.0.113.7")).toBe("203.0.113.7");
  });
});

describe("the RateLimiter Durable Object", () => {
  const policy = { limit: 2, windowMs: 60_000, hardStopAfter: 3 };

  it("admits, refuses with the exact wait, and hands back a cancelled ticket", async () => {
    const limiter = counter("test:account:direct");
    const t0 = Date.now();
    const first = await limiter.acquire(policy, t0);
    expect(first).toMatchObject({ allowed: true, consecutive: 1 });
    expect(await limiter.acquire(policy, t0 + 5_000)).toMatchObject({ allowed: true, consecutive: 2 });
    expect(await limiter.acquire(policy, t0 + 20_000)).toEqual({ allowed: false, hardStop: false, retryAfterMs: 40_000 });
    if (!first.allowed) throw new Error("unreachable");
    await limiter.cancel(first.ticket, t0 + 20_000);
    expect(await limiter.inspect(t0 + 20_000)).toEqual({ inWindow: 1, consecutive: 1 });
    expect(await limiter.acquire(policy, t0 + 20_000)).toMatchObject({ allowed: true, consecutive: 2 });
    expect(await limiter.acquire(policy, t0 + 200_000)).toMatchObject({ allowed: true, consecutive: 3 });
    expect(await limiter.acquire(policy, t0 + 400_000)).toEqual({ allowed: false, hardStop: true, retryAfterMs: null });
    await limiter.reset();
    expect(await limiter.inspect(t0 + 400_000)).toEqual({ inWindow: 0, consecutive: 0 });
    expect(await limiter.acquire(policy, t0 + 400_000)).toMatchObject({ allowed: true, consecutive: 1 });
  });

  it("deletes its storage in the alarm once the window has passed and no run is left", async () => {
    const keys = (stub: DurableObjectStub<RateLimiter>) => runInDurableObject(stub, (_, state) => [...state.storage.kv.list()].length);
    /** Moves every counted attempt back to 1970, as if its window had long passed. */
    const age = (stub: DurableObjectStub<RateLimiter>) =>
      runInDurableObject(stub, (_, state) => {
        const stored = state.storage.kv.get<{ recent: [string, number][] }>("state")!;
        state.storage.kv.put("state", { ...stored, recent: stored.recent.map(([ticket]) => [ticket, 0]) });
      });

    const address = counter("test:ip:alarm");
    await address.acquire({ limit: 30, windowMs: 60_000, hardStopAfter: null });
    expect(await keys(address)).toBe(1);
    expect(await runInDurableObject(address, (_, state) => state.storage.getAlarm())).toBeGreaterThan(Date.now());
    await age(address);
    expect(await runDurableObjectAlarm(address)).toBe(true);
    expect(await keys(address)).toBe(0);
    expect(await runInDurableObject(address, (_, state) => state.storage.getAlarm())).toBeNull();

    // An account with a run of failures keeps the run (for the hard stop) but drops expired attempts.
    const account = counter("test:account:alarm");
    await account.acquire(policy);
    await age(account);
    expect(await runDurableObjectAlarm(account)).toBe(true);
    expect(await account.inspect()).toEqual({ inWindow: 0, consecutive: 1 });
    expect(await keys(account)).toBe(1);
  });
});
