import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { base32Decode, hotp, totpStep } from "~/lib/totp";
import { assertMayRequireTfa } from "~/services/tfa.server";
import { createTenant, PASSWORD } from "./fixtures";

/** A tiny cookie jar: what the server set, sent back as the browser would. */
class Jar {
  cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, ...value] = pair.trim().split("=");
      if (attributes.some((a) => a.trim() === "Max-Age=0")) this.cookies.delete(name);
      else this.cookies.set(name, value.join("="));
    }
    return response;
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

async function call(path: string, { method = "GET", body, jar }: { method?: string; body?: unknown; jar?: Jar } = {}) {
  const response = await SELF.fetch(`http://localhost/api${path}`, {
    method,
    headers: {
      "Sec-Fetch-Site": "same-origin",
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(jar?.cookies.size ? { Cookie: jar.header() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return jar ? jar.take(response) : response;
}

/** Signs in through the API; answers the browser's cookie jar and whether the session is fully signed in. */
async function signIn(email: string, { isTrusted = false, jar = new Jar() } = {}) {
  const response = await call("/auth/login", { method: "POST", body: { email, password: PASSWORD, isTrusted }, jar });
  expect(response.status, `sign-in of ${email}`).toBe(200);
  const { user } = (await response.json()) as { user: { id: string; isAuthenticated: boolean } };
  return { jar, user };
}

/** Prepares and enables two-factor through the API; answers the secret and the setup answer. */
async function enableTwoFactor(email: string) {
  const { jar, user } = await signIn(email);
  const prepared = await call(`/users/${user.id}/tfa`, { method: "POST", jar });
  expect(prepared.status).toBe(200);
  const setup = (await prepared.json()) as { key: string; keyBase32: string; recoveryToken: string; authUrl: string };
  const secret = base32Decode(setup.keyBase32);
  const step = totpStep(Date.now());
  const enabled = await call(`/users/${user.id}/tfa`, { method: "PUT", body: { token: await hotp(secret, step) }, jar });
  expect(enabled.status).toBe(200);
  return { userId: user.id, jar, setup, secret, enabledAtStep: step };
}

const row = <T>(sql: string, ...binds: unknown[]) => env.DB.prepare(sql).bind(...binds).first<T>();

describe("setting two-factor up", () => {
  it("prepares a secret stored encrypted and unconfirmed, and a recovery code stored hashed", async () => {
    const tenant = await createTenant("Prep");
    const { jar } = await signIn(tenant.owner.email);
    const response = await call(`/users/${tenant.owner.id}/tfa`, { method: "POST", jar });
    expect(response.status).toBe(200);
    const setup = (await response.json()) as { key: string; keyBase32: string; recoveryToken: string; authUrl: string };
    const secret = base32Decode(setup.keyBase32);
    expect(secret).toHaveLength(20);
    expect(setup.key).toBe([...secret].map((b) => b.toString(16).padStart(2, "0")).join(""));
    expect(setup.recoveryToken).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){5}$/); // 24 base32 characters: 120 bits
    expect(setup.authUrl).toBe(
      `otpauth://totp/Sitecraft:owner%40prep.test?secret=${setup.keyBase32}&issuer=Sitecraft&algorithm=SHA1&digits=6&period=30`,
    );

    const stored = await row<{ secret_ciphertext: string; secret_iv: string; key_version: number; confirmed_at: number | null }>(
      "SELECT * FROM tfa_secrets WHERE user_id = ?", tenant.owner.id);
    expect(stored?.confirmed_at).toBeNull();
    expect(stored?.key_version).toBe(0); // the development key: the test Worker runs with ENVIRONMENT = "development"
    expect(stored?.secret_ciphertext).not.toContain(setup.keyBase32);
    expect(stored?.secret_ciphertext).not.toContain(setup.key);
    const codes = await env.DB.prepare("SELECT code_hash FROM recovery_codes WHERE user_id = ?").bind(tenant.owner.id).all<{ code_hash: string }>();
    expect(codes.results).toHaveLength(1);
    expect(codes.results[0].code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(codes.results)).not.toContain(setup.recoveryToken.replace(/-/g, ""));

    const status = await call(`/users/${tenant.owner.id}/tfa`, { jar });
    expect(await status.json()).toEqual({ tfaEnabled: false, isPending: true, accountRequiresTfa: false });
  });

  it("enables two-factor only with a valid code, then refuses to prepare a new secret", async () => {
    const tenant = await createTenant("Enable");
    const { jar } = await signIn(tenant.owner.email);
    const { keyBase32 } = (await (await call(`/users/${tenant.owner.id}/tfa`, { method: "POST", jar })).json()) as { keyBase32: string };
    const secret = base32Decode(keyBase32);
    const step = totpStep(Date.now());
    const wrong = await wrongCode(secret, step);

    const refused = await call(`/users/${tenant.owner.id}/tfa`, { method: "PUT", body: { token: wrong }, jar });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ code: "INVALID_TFA_TOKEN", invalid: ["token"] });
    expect((await row<{ tfa_enabled: number }>("SELECT tfa_enabled FROM users WHERE id = ?", tenant.owner.id))?.tfa_enabled).toBe(0);

    const enabled = await call(`/users/${tenant.owner.id}/tfa`, { method: "PUT", body: { token: await hotp(secret, step) }, jar });
    expect(enabled.status).toBe(200);
    expect(await enabled.json()).toEqual({ tfaEnabled: true, isPending: false, accountRequiresTfa: false });
    const user = await row<{ tfa_enabled: number; requires_tfa: number }>("SELECT * FROM users WHERE id = ?", tenant.owner.id);
    expect(user).toMatchObject({ tfa_enabled: 1, requires_tfa: 1 });
    expect((await row<{ confirmed_at: number | null }>("SELECT confirmed_at FROM tfa_secrets WHERE user_id = ?", tenant.owner.id))?.confirmed_at).not.toBeNull();
    // The session that enabled it stays signed in.
    expect((await call(`/users/${tenant.owner.id}/tfa`, { jar })).status).toBe(200);

    expect((await call(`/users/${tenant.owner.id}/tfa`, { method: "POST", jar })).status).toBe(403);
  });

  it("is each user's own business: another user's id answers 404", async () => {
    const tenant = await createTenant("Other");
    const { jar } = await signIn(tenant.admin.email);
    expect((await call(`/users/${tenant.owner.id}/tfa`, { method: "POST", jar })).status).toBe(404);
    expect((await call(`/users/${tenant.owner.id}/tfa`, { method: "PUT", body: { token: "123456" }, jar })).status).toBe(404);
    expect((await call(`/users/${tenant.owner.id}/tfa`, { method: "DELETE", body: { password: PASSWORD }, jar })).status).toBe(404);
  });
});

describe("signing in with two-factor", () => {
  it("keeps a pending session out of signed-in routes, refuses wrong and replayed codes, and rotates the session on success", async () => {
    const tenant = await createTenant("Signin");
    const { userId, secret, enabledAtStep } = await enableTwoFactor(tenant.owner.email);

    const { jar, user } = await signIn(tenant.owner.email);
    expect(user.isAuthenticated).toBe(false);
    // GET /auth/session keeps answering, with the user not yet authenticated.
    const session = await call("/auth/session", { jar });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { id: string; isAuthenticated: boolean } }).user).toMatchObject({ id: userId, isAuthenticated: false });
    // A signed-in route refuses the pending session.
    const pending = await call(`/users/${userId}/tfa`, { jar });
    expect(pending.status).toBe(401);
    expect(await pending.json()).toEqual({ code: "UNAUTHORIZED", invalid: [] });
    expect((await call(`/users/${userId}/api-token`, { jar })).status).toBe(401);

    // The code that enabled two-factor was used already.
    const replay = await call("/auth/tfa", { method: "POST", body: { userId, token: await hotp(secret, enabledAtStep) }, jar });
    expect(replay.status).toBe(400);
    expect(await replay.json()).toEqual({ code: "INVALID_TFA_TOKEN", invalid: ["token"] });

    const wrong = await call("/auth/tfa", { method: "POST", body: { userId, token: await wrongCode(secret, enabledAtStep) }, jar });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ code: "INVALID_TFA_TOKEN", invalid: ["token"] });

    const oldCookie = jar.cookies.get("sid");
    const ok = await call("/auth/tfa", { method: "POST", body: { userId, token: await hotp(secret, enabledAtStep + 1) }, jar });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { user: { isAuthenticated: boolean } }).user.isAuthenticated).toBe(true);
    expect(jar.cookies.get("sid")).toBeDefined();
    expect(jar.cookies.get("sid")).not.toBe(oldCookie);
    expect((await call(`/users/${userId}/tfa`, { jar })).status).toBe(200);
    // The pending session is gone.
    const old = new Jar();
    old.cookies.set("sid", oldCookie!);
    expect(((await (await call("/auth/session", { jar: old })).json()) as { user: unknown }).user).toBeNull();

    // The same code cannot sign in a second time.
    const again = await signIn(tenant.owner.email);
    const reused = await call("/auth/tfa", { method: "POST", body: { userId, token: await hotp(secret, enabledAtStep + 1) }, jar: again.jar });
    expect(reused.status).toBe(400);
    expect(await reused.json()).toEqual({ code: "INVALID_TFA_TOKEN", invalid: ["token"] });
  });

  it("accepts one code once when two sign-ins race with it", async () => {
    const tenant = await createTenant("Race");
    const { userId, secret, enabledAtStep } = await enableTwoFactor(tenant.owner.email);
    const a = await signIn(tenant.owner.email);
    const b = await signIn(tenant.owner.email);
    const token = await hotp(secret, enabledAtStep + 1);
    const statuses = (await Promise.all([a, b].map(({ jar }) => call("/auth/tfa", { method: "POST", body: { userId, token }, jar })))).map((r) => r.status);
    expect(statuses.sort()).toEqual([200, 400]);
  });

  it("answers 401 to /auth/tfa without a session, and 404 for another user's id", async () => {
    expect((await call("/auth/tfa", { method: "POST", body: { userId: "x", token: "123456" } })).status).toBe(401);
    const tenant = await createTenant("Mismatch");
    const { userId, secret, enabledAtStep } = await enableTwoFactor(tenant.owner.email);
    const { jar } = await signIn(tenant.owner.email);
    const response = await call("/auth/tfa", { method: "POST", body: { userId: tenant.admin.id, token: await hotp(secret, enabledAtStep + 1) }, jar });
    expect(response.status).toBe(404);
    expect((await call(`/users/${userId}/tfa`, { jar })).status).toBe(401);
  });
});

describe("trusted devices", () => {
  it("are issued after two-factor when the sign-in asked for it, and skip the prompt for that user only", async () => {
    const tenant = await createTenant("Trust");
    const { userId, secret, enabledAtStep } = await enableTwoFactor(tenant.owner.email);

    const first = await signIn(tenant.owner.email, { isTrusted: true });
    expect(first.user.isAuthenticated).toBe(false);
    expect(first.jar.cookies.has("tdreq")).toBe(true);
    const verified = await call("/auth/tfa", { method: "POST", body: { userId, token: await hotp(secret, enabledAtStep + 1) }, jar: first.jar });
    expect(verified.status).toBe(200);
    const issued = verified.headers.getSetCookie().find((line) => line.startsWith("tdid="));
    expect(issued).toMatch(/^tdid=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000$/);
    expect(first.jar.cookies.has("tdreq")).toBe(false); // cleared
    const token = first.jar.cookies.get("tdid")!;
    const device = await row<{ token_hash: string; expires_at: number }>("SELECT * FROM trusted_devices WHERE user_id = ?", userId);
    expect(device?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(device?.token_hash).not.toBe(token);
    expect(device!.expires_at - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);

    // Next sign-in from this device: no prompt.
    const trustedJar = new Jar();
    trustedJar.cookies.set("tdid", token);
    const second = await signIn(tenant.owner.email, { jar: trustedJar });
    expect(second.user.isAuthenticated).toBe(true);
    expect((await call(`/users/${userId}/tfa`, { jar: second.jar })).status).toBe(200);

    // A made-up token, or the token presented for another user, does not skip it.
    const forged = new Jar();
    forged.cookies.set("tdid", "made-up-token");
    expect((await signIn(tenant.owner.email, { jar: forged })).user.isAuthenticated).toBe(false);
    const { userId: adminId } = await enableTwoFactor(tenant.admin.email);
    const otherUser = new Jar();
    otherUser.cookies.set("tdid", token);
    const admin = await signIn(tenant.admin.email, { jar: otherUser });
    expect(admin.user).toMatchObject({ id: adminId, isAuthenticated: false });
  });

  it("are not issued without the sign-in's request, nor for a planted request cookie", async () => {
    const tenant = await createTenant("Untrusted");
    const { userId, secret, enabledAtStep } = await enableTwoFactor(tenant.owner.email);
    const { jar } = await signIn(tenant.owner.email);
    jar.cookies.set("tdreq", "0".repeat(64)); // not bound to this session
    const verified = await call("/auth/tfa", { method: "POST", body: { userId, token: await hotp(secret, enabledAtStep + 1) }, jar });
    expect(verified.status).toBe(200);
    expect(jar.cookies.has("tdid")).toBe(false);
    expect(await row("SELECT id FROM trusted_devices WHERE user_id = ?", userId)).toBeNull();
  });
});

describe("the recovery code", () => {
  it("signs in once, switches two-factor off and rotates the session", async () => {
    const tenant = await createTenant("Recover");
    const { userId, setup } = await enableTwoFactor(tenant.owner.email);
    const { jar } = await signIn(tenant.owner.email, { isTrusted: true });

    const wrong = await call("/auth/tfa/recover", { method: "POST", body: { token: "AAAA-BBBB-CCCC-DDDD-EEEE-FFFF" }, jar });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ code: "INVALID_TFA_TOKEN", invalid: ["token"] });

    const oldCookie = jar.cookies.get("sid");
    // Typed as people do: lower case, without the hyphens.
    const ok = await call("/auth/tfa/recover", { method: "POST", body: { token: setup.recoveryToken.replace(/-/g, "").toLowerCase() }, jar });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { user: { isAuthenticated: boolean; requiresTfa: boolean } }).user).toMatchObject({ isAuthenticated: true, requiresTfa: false });
    expect(jar.cookies.get("sid")).not.toBe(oldCookie);
    expect(await row("SELECT user_id FROM tfa_secrets WHERE user_id = ?", userId)).toBeNull();
    expect(await row("SELECT id FROM recovery_codes WHERE user_id = ?", userId)).toBeNull();
    expect(await row<{ tfa_enabled: number; requires_tfa: number }>("SELECT * FROM users WHERE id = ?", userId)).toMatchObject({ tfa_enabled: 0, requires_tfa: 0 });
    expect(await call(`/users/${userId}/tfa`, { jar }).then((r) => r.json())).toEqual({ tfaEnabled: false, isPending: false, accountRequiresTfa: false });

    // The next sign-in needs no second factor, and the code does not work again.
    const next = await signIn(tenant.owner.email);
    expect(next.user.isAuthenticated).toBe(true);
    const reused = await call("/auth/tfa/recover", { method: "POST", body: { token: setup.recoveryToken }, jar: next.jar });
    expect(reused.status).toBe(400);
  });

  it("gives exactly one success to two parallel uses of one code", async () => {
    const tenant = await createTenant("Parallel");
    const { setup } = await enableTwoFactor(tenant.owner.email);
    const a = await signIn(tenant.owner.email);
    const b = await signIn(tenant.owner.email);
    const responses = await Promise.all([a, b].map(({ jar }) => call("/auth/tfa/recover", { method: "POST", body: { token: setup.recoveryToken }, jar })));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
    const used = await env.DB.prepare("SELECT used_at FROM recovery_codes r JOIN users u ON u.id = r.user_id WHERE u.email = ?").bind(tenant.owner.email).all();
    expect(used.results).toHaveLength(0); // consumed, then removed with the rest of two-factor
  });
});

describe("switching two-factor off", () => {
  it("needs the right password and is refused while the account requires two-factor", async () => {
    const tenant = await createTenant("Disable");
    const { userId, jar } = await enableTwoFactor(tenant.owner.email);

    const wrong = await call(`/users/${userId}/tfa`, { method: "DELETE", body: { password: "not-the-password" }, jar });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ code: "INCORRECT_PASSWORD", invalid: ["password"] });

    await env.DB.prepare("UPDATE accounts SET requires_tfa = 1 WHERE id = ?").bind(tenant.account.id).run();
    const required = await call(`/users/${userId}/tfa`, { method: "DELETE", body: { password: PASSWORD }, jar });
    expect(required.status).toBe(403);
    expect(await required.json()).toEqual({ code: "FORBIDDEN", invalid: [] });
    expect(await row<{ tfa_enabled: number }>("SELECT tfa_enabled FROM users WHERE id = ?", userId)).toMatchObject({ tfa_enabled: 1 });

    await env.DB.prepare("UPDATE accounts SET requires_tfa = 0 WHERE id = ?").bind(tenant.account.id).run();
    const off = await call(`/users/${userId}/tfa`, { method: "DELETE", body: { password: PASSWORD }, jar });
    expect(off.status).toBe(204);
    expect(await row<{ tfa_enabled: number; requires_tfa: number }>("SELECT * FROM users WHERE id = ?", userId)).toMatchObject({ tfa_enabled: 0, requires_tfa: 0 });
    expect(await row("SELECT user_id FROM tfa_secrets WHERE user_id = ?", userId)).toBeNull();
    expect((await signIn(tenant.owner.email)).user.isAuthenticated).toBe(true);
  });
});

describe("assertMayRequireTfa (the settings screen's rule)", () => {
  const user = (fields: { isOwner?: boolean; isAdmin?: boolean; tfaEnabled?: boolean }) =>
    ({ user: { isOwner: false, isAdmin: false, tfaEnabled: false, ...fields } }) as Parameters<typeof assertMayRequireTfa>[0];

  it("lets an administrator require two-factor for all only with their own two-factor enabled", () => {
    expect(() => assertMayRequireTfa(user({ isOwner: true }))).toThrow("FORBIDDEN");
    expect(() => assertMayRequireTfa(user({ isAdmin: true }))).toThrow("FORBIDDEN");
    expect(() => assertMayRequireTfa(user({ tfaEnabled: true }))).toThrow("FORBIDDEN"); // not an administrator
    expect(() => assertMayRequireTfa(user({ isOwner: true, tfaEnabled: true }))).not.toThrow();
    expect(() => assertMayRequireTfa(user({ isAdmin: true, tfaEnabled: true }))).not.toThrow();
  });
});

/** A six-digit code valid for none of the steps around `step`. */
async function wrongCode(secret: Uint8Array, step: number): Promise<string> {
  const valid = new Set(await Promise.all([-2, -1, 0, 1, 2, 3].map((d) => hotp(secret, step + d))));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!valid.has(candidate)) return candidate;
  }
}
