import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { login, useBrowser, SEEDED_PASSWORD } from "./browser";

// Seeded for this file only (other files sign in as the other seeded users).
const RESET_USER = "reset@agency.test";
const INVITED_USER = "invited@agency.test";

/**
 * Opens the newest mail to an address in the development mailbox and answers the link in its text.
 * The agency's links point at its white-label domain (https, port 443), so the test follows the
 * link's path and query on the local server.
 */
async function linkFromMailbox(page: Page, to: string, pathname: string): Promise<URL> {
  await page.goto("/dev/mailbox");
  await page.getByRole("row").filter({ hasText: to }).first().getByRole("link").click();
  await page.waitForURL((url) => url.searchParams.has("id"));
  const link = page.locator(".mailbox__text a").first();
  await expect.poll(() => link.isVisible()).toBe(true);
  expect(await page.locator("iframe.mailbox__frame").getAttribute("sandbox")).toBe("");
  const url = new URL((await link.getAttribute("href"))!);
  expect(url.origin).toBe("https://cms.brightside.test");
  expect(url.pathname).toBe(pathname);
  return url;
}

describe("password recovery and welcome through the development mailbox", () => {
  const b = useBrowser();

  it("recovers and resets a password from the login page, then signs in with the new one", async () => {
    await b.page.goto("/login");
    await b.page.getByRole("link", { name: "Forgot your password?" }).click();
    await b.page.waitForURL("**/login/recover");
    await expect.poll(() => b.page.title()).toBe("Recover Password | Sitecraft");

    // An unknown address: the code's message, the field marked.
    await b.page.getByLabel("Email").fill("nobody@agency.test");
    await b.page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("This email address is not registered.");
    await expect.poll(() => b.page.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");

    await b.page.getByLabel("Email").fill(RESET_USER);
    await b.page.getByRole("button", { name: "Send Reset Link" }).click();
    await expect.poll(() => b.page.locator(".callout").textContent()).toBe("Please check your email for further instructions.");

    const link = await linkFromMailbox(b.page, RESET_USER, "/login/reset");
    await b.page.goto(link.pathname + link.search);
    await expect.poll(() => b.page.title()).toBe("Reset Password | Sitecraft");
    const password = b.page.getByLabel("New password", { exact: true });
    const toggle = b.page.getByRole("button", { name: "Show password" });
    expect(await toggle.getAttribute("aria-pressed")).toBe("false");
    await password.fill("a-brand-new-password");
    await toggle.click();
    await expect.poll(() => password.getAttribute("type")).toBe("text");
    expect(await toggle.getAttribute("aria-pressed")).toBe("true");
    await b.page.getByRole("button", { name: "Update Password" }).click();

    // Signed in, Home forwards to Sites, and the success message is shown there.
    await b.page.waitForURL("**/sites");
    await expect.poll(() => b.page.getByRole("status").filter({ hasText: "Your password has been updated." }).isVisible()).toBe(true);

    // The link is used up: a second visit refuses it and sends the user to RecoverPassword.
    await b.page.goto("/logout");
    await b.page.waitForURL("**/login");
    await b.page.goto(link.pathname + link.search);
    await b.page.getByLabel("New password", { exact: true }).fill("another-password-2");
    await b.page.getByRole("button", { name: "Update Password" }).click();
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("The link you followed has expired.");
    await b.page.waitForURL("**/login/recover", { timeout: 10_000 });

    // The old password no longer works; the new one does.
    await b.page.goto("/login");
    await b.page.getByLabel("Email").fill(RESET_USER);
    await b.page.getByLabel("Password").fill(SEEDED_PASSWORD);
    await b.page.getByRole("button", { name: "Log In" }).click();
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("Your password is incorrect.");
    await login(b.page, RESET_USER, { password: "a-brand-new-password" });
    expect(new URL(b.page.url()).pathname).toBe("/sites");
  });

  it("accepts the welcome link of an invited user and lands signed in on /sites", async () => {
    const link = await linkFromMailbox(b.page, INVITED_USER, "/welcome");
    await expect.poll(() => b.page.locator(".mailbox__text").textContent()).toContain("Choose a Password");
    await b.page.goto(link.pathname + link.search);
    await expect.poll(() => b.page.title()).toBe("Welcome | Sitecraft");
    await b.page.getByLabel("Choose a password", { exact: true }).fill("short");
    await b.page.getByRole("button", { name: "Confirm Account" }).click();
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("Passwords must be at least eight characters long.");

    await b.page.getByLabel("Choose a password", { exact: true }).fill("welcome-password-1");
    await b.page.getByRole("button", { name: "Confirm Account" }).click();
    await b.page.waitForURL("**/sites");
    await b.page.waitForLoadState("load");
    await expect.poll(() => b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Sites");

    // The welcome link works once.
    await b.page.goto("/logout");
    await b.page.waitForURL("**/login");
    await b.page.goto(link.pathname + link.search);
    await b.page.getByLabel("Choose a password", { exact: true }).fill("another-password-2");
    await b.page.getByRole("button", { name: "Confirm Account" }).click();
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("The link you followed has expired.");
    await b.page.waitForURL((url) => url.pathname === "/login", { timeout: 10_000 });
  });
});
