import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base32Decode, hotp, totpStep } from "~/lib/totp";
import { SEEDED_SIGN_INS } from "../../scripts/seeded-sign-ins.mjs";
import { login, SEEDED_PASSWORD, useBrowser } from "./browser";

// The seeded two-factor user (scripts/seeded-sign-ins.mjs) and, for the set-up test, the business
// owner: no other test file signs in as either. The recovery test switches the seeded user's
// two-factor off, so it runs after the tests that sign in with codes.
const TFA = SEEDED_SIGN_INS.tfa;
const SETUP_USER = "owner@business.test";
const SLOW = 90_000; // a test may wait up to one 30-second step for an unused code

/**
 * Codes as an authenticator shows them, never one the server has accepted already: each code is
 * usable once, so a second sign-in in the same 30 seconds takes the next step's code (the server
 * accepts one step ahead), and a third waits for the clock.
 */
function authenticator(secret: Uint8Array) {
  let lastStep = 0;
  return {
    async next(): Promise<string> {
      const step = Math.max(totpStep(Date.now()), lastStep + 1);
      const waitMs = (step - 1) * 30_000 - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs + 200));
      lastStep = step;
      return hotp(secret, step);
    },
    /** A six-digit code valid at none of the steps around now. */
    async wrong(): Promise<string> {
      const now = totpStep(Date.now());
      const valid = new Set(await Promise.all([-2, -1, 0, 1, 2, 3].map((d) => hotp(secret, now + d))));
      return ["000000", "111111", "222222", "333333"].find((code) => !valid.has(code))!;
    },
  };
}

const seededApp = authenticator(base32Decode(TFA.secret));

async function submitPassword(page: Page, email: string, { trust = false } = {}) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(SEEDED_PASSWORD);
  if (trust) await page.getByLabel("Trust this device for 30 days").check();
  await page.getByRole("button", { name: "Log In" }).click();
}

async function submitCode(page: Page, code: string) {
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

describe("two-factor authentication", () => {
  const b = useBrowser();

  it("asks for the code after the password, refuses a wrong one, and signs in with the right one", async () => {
    await b.page.goto("/sites");
    await b.page.waitForURL("**/login?to=%2Fsites");
    await submitPassword(b.page, TFA.email);
    await b.page.waitForURL("**/login/tfa?to=%2Fsites");
    await expect.poll(() => b.page.title()).toBe("Two-Factor Authentication | Sitecraft");
    const field = b.page.getByLabel("Authentication code");
    expect(await field.getAttribute("inputmode")).toBe("numeric");
    expect(await field.getAttribute("autocomplete")).toBe("one-time-code");

    // Signed-in screens send the pending session back here.
    await b.page.goto("/sites");
    await b.page.waitForURL("**/login/tfa?to=%2Fsites");

    await submitCode(b.page, await seededApp.wrong());
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("The token you entered is not valid.");
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    expect(await b.page.locator("form.form--shake").count()).toBe(1);

    await submitCode(b.page, await seededApp.next());
    await b.page.waitForURL("**/sites");
    await expect.poll(() => b.page.getByRole("navigation", { name: "Main navigation" }).isVisible()).toBe(true);
  }, SLOW);

  it("skips the code on the next sign-in from a trusted device", async () => {
    await b.page.goto("/login");
    await submitPassword(b.page, TFA.email, { trust: true });
    await b.page.waitForURL("**/login/tfa");
    await submitCode(b.page, await seededApp.next());
    await b.page.waitForURL("**/sites");
    const device = (await b.context.cookies()).find((cookie) => cookie.name === "tdid");
    expect(device).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(device!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);

    await b.page.goto("/logout");
    await b.page.waitForURL("**/login");
    await login(b.page, TFA.email, { navigate: false });
    expect(new URL(b.page.url()).pathname).toBe("/sites");
  }, SLOW);

  it("recovers with the recovery code and lands on the two-factor set-up", async () => {
    await login(b.page, TFA.email);
    expect(new URL(b.page.url()).pathname).toBe("/login/tfa");
    await b.page.getByRole("link", { name: "Lost your device? Use your recovery code" }).click();
    await b.page.waitForURL("**/login/recover/tfa");
    await expect.poll(() => b.page.title()).toBe("Recovery Code | Sitecraft");
    // The back link returns to the code entry.
    expect(await b.page.getByRole("link", { name: "Back to the authentication code" }).getAttribute("href")).toBe("/login/tfa");

    await b.page.getByLabel("Recovery code").fill("AAAA-BBBB-CCCC-DDDD-EEEE-FFFF");
    await b.page.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("The token you entered is not valid.");
    await expect.poll(() => b.page.getByLabel("Recovery code").getAttribute("aria-invalid")).toBe("true");

    await b.page.getByLabel("Recovery code").fill(TFA.recoveryCode);
    await b.page.getByRole("button", { name: "Continue" }).click();
    await b.page.waitForURL("**/tfa");
    await expect.poll(() => b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Set up two-factor authentication");
    await expect.poll(() => b.page.getByTestId("tfa-key").isVisible()).toBe(true);
  });

  it("sets two-factor up from /tfa end to end, then asks for it at the next sign-in", async () => {
    await login(b.page, SETUP_USER);
    await b.page.goto("/tfa?to=%2Fsites");
    await expect.poll(() => b.page.title()).toBe("Set Up Two-Factor Authentication | Sitecraft");
    const key = b.page.getByTestId("tfa-key");
    await expect.poll(() => key.isVisible()).toBe(true);
    const keyText = (await key.textContent())!;
    expect(keyText).toMatch(/^([A-Z2-7]{4} ){7}[A-Z2-7]{4}$/); // 32 characters in groups of four
    expect(await b.page.getByRole("link", { name: "Open in an authenticator app on this device" }).getAttribute("href")).toMatch(
      /^otpauth:\/\/totp\/Sitecraft:owner%40business\.test\?secret=[A-Z2-7]{32}&issuer=Sitecraft/,
    );
    const app = authenticator(base32Decode(keyText));

    await submitCode(b.page, await app.wrong());
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("The token you entered is not valid.");
    await expect.poll(() => b.page.getByLabel("Authentication code").getAttribute("aria-invalid")).toBe("true");

    await submitCode(b.page, await app.next());
    await expect.poll(() => b.page.getByText("Two-factor authentication is on.").isVisible()).toBe(true);
    const recoveryCode = (await b.page.getByTestId("tfa-recovery-code").textContent())!;
    expect(recoveryCode).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{4}){5}$/);
    const proceed = b.page.getByRole("button", { name: "Continue" });
    expect(await proceed.isDisabled()).toBe(true);
    await b.page.getByLabel("I have stored my recovery code").check();
    await expect.poll(() => proceed.isEnabled()).toBe(true);
    await proceed.click();
    await b.page.waitForURL("**/sites");

    // Two-factor is on: /tfa now forwards away, and the next sign-in asks for a code.
    await b.page.goto("/tfa");
    await b.page.waitForURL("**/sites");
    await b.page.goto("/logout");
    await b.page.waitForURL("**/login");
    await login(b.page, SETUP_USER, { navigate: false });
    expect(new URL(b.page.url()).pathname).toBe("/login/tfa");
    await submitCode(b.page, await app.next());
    await b.page.waitForURL("**/sites");
  }, SLOW);
});
