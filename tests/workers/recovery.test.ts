import { env, SELF } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { sha256Hex } from "~/lib/tokens";
import { hashPassword } from "~/services/passwords.server";
import { createWelcomeToken } from "~/services/recovery.server";
import { db } from "./fixtures";

const OLD_PASSWORD = "old-password-1";
const NEW_PASSWORD = "brand-new-password-2";
const MESSAGE = { subject: "Reset your password", intro: "Hello!", callToAction: "Choose a New Password", outro: "Bye." };

let counter = 0;
let oldHash: Promise<string> | null = null;

/** An account of its own with one user; the rows each test needs, nothing shared. */
async function makeUser(options: { customDomain?: string; domainDisabled?: boolean; tfaEnabled?: boolean; invited?: boolean } = {}) {
  oldHash ??= hashPassword(OLD_PASSWORD);
  counter += 1;
  const [account] = await db()
    .insert(schema.accounts)
    .values({ plan: "agency", customDomain: options.customDomain ?? null, domainDisabledAt: options.domainDisabled ? new Date() : null })
    .returning();
  const [user] = await db()
    .insert(schema.users)
    .values({
      accountId: account.id, name: `Recovery ${counter}`, email: `user${counter}@recovery.test`,
      passwordHash: options.invited ? null : await oldHash, confirmedAt: options.invited ? null : new Date(),
      tfaEnabled: options.tfaEnabled ?? false,
    })
    .returning();
  return { account, user };
}

const post = (path: string, body: unknown, headers: Record<string, string> = {}, origin = "http://localhost") =>
  SELF.fetch(`${origin}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin", ...headers },
    body: JSON.stringify(body),
  });

const recover = (email: string, headers: Record<string, string> = {}, origin?: string) =>
  post("/api/auth/password/recover", { email, message: MESSAGE }, headers, origin);
const reset = (token: string, password = NEW_PASSWORD) => post("/api/auth/password/reset", { token, password });
const cookieOf = (response: Response) => (response.headers.get("Set-Cookie") ?? "").split(";")[0];

async function login(email: string, password: string) {
  return post("/api/auth/login", { email, password });
}

async function sessionUser(cookie: string) {
  const response = await SELF.fetch("http://localhost/api/auth/session", { headers: { Cookie: cookie } });
  return ((await response.json()) as { user: { id: string; isAuthenticated: boolean } | null }).user;
}

async function mailsTo(to: string) {
  return db().select().from(schema.emailOutbox).where(eq(schema.emailOutbox.to, to)).all();
}

/** The link of the newest mail to an address, and its token. */
async function latestLink(to: string) {
  const mails = await mailsTo(to);
  const mail = mails.at(-1)!;
  const url = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
  return { mail, url, token: url.searchParams.get("token")! };
}

async function insertToken(userId: string, kind: schema.OneTimeTokenKind, expiresAt: Date) {
  const token = `test-token-${crypto.randomUUID()}`;
  await db().insert(schema.oneTimeTokens).values({ tokenHash: await sha256Hex(token), kind, userId, expiresAt });
  return token;
}

describe("POST /api/auth/password/recover", () => {
  it("queues a reset email whose link is built from the account's custom domain, with only the token's hash stored", async () => {
    const { account, user } = await makeUser({ customDomain: "cms.recovery-a.test" });
    const response = await recover(user.email.toUpperCase());
    expect(response.status).toBe(204);

    const { mail, url, token } = await latestLink(user.email);
    expect(mail).toMatchObject({ accountId: account.id, kind: "reset", subject: MESSAGE.subject, sentAt: null });
    expect(`${url.origin}${url.pathname}`).toBe("https://cms.recovery-a.test/login/reset");
    // At least 128 bits of randomness: 32 bytes as base64url.
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(mail.html).toContain(`href="${url.href}"`);

    const stored = await db().select().from(schema.oneTimeTokens).where(eq(schema.oneTimeTokens.userId, user.id)).all();
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).toBe(await sha256Hex(token));
    expect(stored[0].kind).toBe("reset");
    const lifetime = stored[0].expiresAt.getTime() - stored[0].createdAt.getTime();
    expect(lifetime).toBe(60 * 60 * 1000);
    const dump = JSON.stringify((await env.DB.prepare("SELECT * FROM one_time_tokens").all()).results);
    expect(dump).not.toContain(token);
  });

  it("ignores a forged Host or X-Forwarded-Host: the link comes from the stored domain (SECURITY.md 11)", async () => {
    const branded = await makeUser({ customDomain: "cms.recovery-b.test" });
    const forged = { Host: "evil.example", "X-Forwarded-Host": "evil.example", "X-Forwarded-Proto": "https" };
    expect((await recover(branded.user.email, forged, "http://evil.example")).status).toBe(204);
    expect((await latestLink(branded.user.email)).url.origin).toBe("https://cms.recovery-b.test");

    // Without a custom domain, or with one that is switched off: the product's own origin.
    for (const fixture of [await makeUser(), await makeUser({ customDomain: "cms.recovery-c.test", domainDisabled: true })]) {
      expect((await recover(fixture.user.email, forged, "http://evil.example")).status).toBe(204);
      const { mail, url } = await latestLink(fixture.user.email);
      expect(url.origin).toBe(new URL(env.APP_ORIGIN).origin);
      expect(mail.text + mail.html).not.toContain("evil.example");
    }
  });

  it("escapes the client's texts in the HTML and refuses line breaks in the subject", async () => {
    const { user } = await makeUser();
    const hostile = { subject: "Hi <b>there</b>", intro: `<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">`, callToAction: `Go" onclick="x`, outro: "&copy; 'quoted'" };
    expect((await post("/api/auth/password/recover", { email: user.email, message: hostile })).status).toBe(204);
    const { mail } = await latestLink(user.email);
    expect(mail.html).not.toMatch(/<script|<img|<b>|onclick="x/);
    expect(mail.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail.html).toContain("Go&quot; onclick=&quot;x");
    expect(mail.html).toContain("&amp;copy; &#39;quoted&#39;");
    expect(mail.text).toContain("<script>alert(1)</script>");

    const newline = await post("/api/auth/password/recover", { email: user.email, message: { ...MESSAGE, subject: "Hi\r\nBcc: x@evil.example" } });
    expect(newline.status).toBe(400);
    expect(await newline.json()).toEqual({ code: "VALIDATION_ERROR", invalid: ["message.subject"] });
  });

  it("answers an unknown address with 400 EMAIL_NOT_REGISTERED on email, and queues nothing", async () => {
    const response = await recover("nobody@recovery.test");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: "EMAIL_NOT_REGISTERED", invalid: ["email"] });
    expect(await mailsTo("nobody@recovery.test")).toHaveLength(0);
  });

  it("invalidates the user's older unused reset links", async () => {
    const { user } = await makeUser();
    await recover(user.email);
    const first = (await latestLink(user.email)).token;
    await recover(user.email);
    const second = (await latestLink(user.email)).token;
    expect(second).not.toBe(first);
    const stale = await reset(first);
    expect(stale.status).toBe(400);
    expect(await stale.json()).toEqual({ code: "INVALID_RECOVERY_TOKEN", invalid: ["token"] });
    expect((await reset(second)).status).toBe(200);
  });
});

describe("POST /api/auth/password/reset", () => {
  it("uses a token once: sets the password, signs in, and refuses the same link again", async () => {
    const { user } = await makeUser();
    await recover(user.email);
    const { token } = await latestLink(user.email);

    const response = await reset(token);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { user: { id: string; email: string; isAuthenticated: boolean } };
    expect(body.user).toMatchObject({ id: user.id, email: user.email, isAuthenticated: true });
    const cookie = cookieOf(response);
    expect((await sessionUser(cookie))?.id).toBe(user.id);

    const again = await reset(token, "yet-another-password-3");
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ code: "INVALID_RECOVERY_TOKEN", invalid: ["token"] });
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    expect((await login(user.email, OLD_PASSWORD)).status).toBe(400);
  });

  it("refuses an expired token, an unknown one and a welcome token", async () => {
    const { user } = await makeUser();
    const expired = await insertToken(user.id, "reset", new Date(Date.now() - 1000));
    const welcome = await insertToken(user.id, "welcome", new Date(Date.now() + 60_000));
    for (const token of [expired, welcome, "no-such-token"]) {
      const response = await reset(token);
      expect(response.status, token).toBe(400);
      expect(await response.json()).toEqual({ code: "INVALID_RECOVERY_TOKEN", invalid: ["token"] });
    }
    expect((await login(user.email, OLD_PASSWORD)).status).toBe(200);
  });

  it("gives exactly one success to two parallel resets with one token", async () => {
    const { user } = await makeUser();
    const token = await insertToken(user.id, "reset", new Date(Date.now() + 60_000));
    const responses = await Promise.all([reset(token, "parallel-password-a"), reset(token, "parallel-password-b")]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = responses[0].status === 200 ? "parallel-password-a" : "parallel-password-b";
    const loser = winner === "parallel-password-a" ? "parallel-password-b" : "parallel-password-a";
    expect((await login(user.email, winner)).status).toBe(200);
    expect((await login(user.email, loser)).status).toBe(400);
  });

  it("ends every session of the user and lifts the lockout", async () => {
    const { user } = await makeUser();
    const sessions = [cookieOf(await login(user.email, OLD_PASSWORD)), cookieOf(await login(user.email, OLD_PASSWORD))];
    for (const cookie of sessions) expect((await sessionUser(cookie))?.id).toBe(user.id);
    await db().update(schema.users).set({ failedLoginCount: 99, lockedUntilReset: true }).where(eq(schema.users.id, user.id));

    const token = await insertToken(user.id, "reset", new Date(Date.now() + 60_000));
    const response = await reset(token);
    expect(response.status).toBe(200);

    for (const cookie of sessions) expect(await sessionUser(cookie)).toBeNull();
    expect((await sessionUser(cookieOf(response)))?.id).toBe(user.id);
    const row = await db().select().from(schema.users).where(eq(schema.users.id, user.id)).get();
    expect(row).toMatchObject({ failedLoginCount: 0, lockedUntilReset: false });
    const remaining = await db().select().from(schema.sessions).where(eq(schema.sessions.userId, user.id)).all();
    expect(remaining).toHaveLength(1);
  });

  it("opens a session that still needs the two-factor code when the user has two-factor enabled", async () => {
    const { user } = await makeUser({ tfaEnabled: true });
    const token = await insertToken(user.id, "reset", new Date(Date.now() + 60_000));
    const response = await reset(token);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { isAuthenticated: boolean } }).user.isAuthenticated).toBe(false);
    const session = await db().select().from(schema.sessions).where(eq(schema.sessions.userId, user.id)).get();
    expect(session?.tfaVerified).toBe(false);
  });

  it("answers a short password with 400 PASSWORD_TOO_SHORT on password, and keeps the link usable", async () => {
    const { user } = await makeUser();
    const token = await insertToken(user.id, "reset", new Date(Date.now() + 60_000));
    const response = await reset(token, "short");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ code: "PASSWORD_TOO_SHORT", invalid: ["password"] });
    expect((await reset(token)).status).toBe(200);
  });
});

describe("welcome links", () => {
  it("queue a welcome email, set the password once, confirm the account and sign in", async () => {
    const { user } = await makeUser({ invited: true, customDomain: "cms.recovery-w.test" });
    await createWelcomeToken({ db: db(), env, locale: "de" }, user.id, { subject: "Willkommen", intro: "Hallo", callToAction: "Passwort wählen", outro: "" });
    const { mail, url, token } = await latestLink(user.email);
    expect(mail.kind).toBe("welcome");
    expect(`${url.origin}${url.pathname}`).toBe("https://cms.recovery-w.test/welcome");
    expect(mail.html).toContain('<html lang="de">');
    const stored = await db().select().from(schema.oneTimeTokens).where(eq(schema.oneTimeTokens.tokenHash, await sha256Hex(token))).get();
    expect(stored?.kind).toBe("welcome");

    // A welcome token is not a reset token.
    expect((await reset(token)).status).toBe(400);

    const response = await post("/api/auth/confirm", { token, password: "welcome-password-1", message: MESSAGE });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { id: string } }).user.id).toBe(user.id);
    expect((await sessionUser(cookieOf(response)))?.id).toBe(user.id);
    const row = await db().select().from(schema.users).where(eq(schema.users.id, user.id)).get();
    expect(row?.confirmedAt).toBeInstanceOf(Date);

    const again = await post("/api/auth/confirm", { token, password: "someone-elses-password" });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ code: "INVALID_RECOVERY_TOKEN", invalid: ["token"] });
    expect((await login(user.email, "welcome-password-1")).status).toBe(200);
    expect((await login(user.email, "someone-elses-password")).status).toBe(400);
  });

  it("refuse a short password without using up the link", async () => {
    const { user } = await makeUser({ invited: true });
    const token = await insertToken(user.id, "welcome", new Date(Date.now() + 60_000));
    const short = await post("/api/auth/confirm", { token, password: "1234567" });
    expect(short.status).toBe(400);
    expect(await short.json()).toEqual({ code: "PASSWORD_TOO_SHORT", invalid: ["password"] });
    expect((await post("/api/auth/confirm", { token, password: "12345678" })).status).toBe(200);
  });
});

describe("POST /api/auth/password/verify", () => {
  it("checks the signed-in user's own password without signing in", async () => {
    const { user } = await makeUser();
    const other = await makeUser();
    const cookie = cookieOf(await login(user.email, OLD_PASSWORD));
    const verify = (body: unknown, withCookie = true) => post("/api/auth/password/verify", body, withCookie ? { Cookie: cookie } : {});

    const ok = await verify({ email: user.email, password: OLD_PASSWORD });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("Set-Cookie")).toBeNull();

    const wrong = await verify({ email: user.email, password: "not-the-password" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ code: "INCORRECT_PASSWORD", invalid: ["password"] });

    const someoneElse = await verify({ email: other.user.email, password: OLD_PASSWORD });
    expect(someoneElse.status).toBe(403);

    const anonymous = await verify({ email: user.email, password: OLD_PASSWORD }, false);
    expect(anonymous.status).toBe(401);
  });
});
