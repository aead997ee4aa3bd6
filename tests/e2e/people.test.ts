import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, login, useBrowser } from "./browser";

// The users this file creates exist only here; the seeded ones keep their passwords.
const ADMIN = "admin@agency.test";
const OWNER = "owner@agency.test";

/** The welcome link of the newest mail to an address, as a path on the local server. */
async function welcomeLink(page: Page, to: string): Promise<string> {
  await page.goto("/dev/mailbox");
  await page.getByRole("row").filter({ hasText: to }).first().getByRole("link").click();
  await page.waitForURL((url) => url.searchParams.has("id"));
  const link = page.locator(".mailbox__text a").first();
  await expect.poll(() => link.isVisible()).toBe(true);
  const url = new URL((await link.getAttribute("href"))!);
  expect(url.pathname).toBe("/welcome");
  return url.pathname + url.search;
}

async function acceptWelcome(page: Page, to: string, password: string) {
  await page.goto(await welcomeLink(page, to));
  await page.getByLabel("Choose a password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Confirm Account" }).click();
  await page.waitForURL("**/sites");
  await page.waitForLoadState("load");
}

describe("users, profiles and permissions", () => {
  const b = useBrowser();

  it("lets an admin invite a client with two pages of the demo site; the client sees only those, cannot open /users, edits and publishes one; the admin sees it in the client's activity", async () => {
    const email = "quinn.client@agency.test";
    await login(b.page, ADMIN);
    await b.page.goto("/users");
    await expect.poll(() => b.page.getByTestId("user-card").count()).toBeGreaterThan(3);
    await expect.poll(() => b.page.getByTestId("user-card").filter({ hasText: OWNER }).getByText("Owner", { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => b.page.getByTestId("user-card").filter({ hasText: "tfa@agency.test" }).getByText("2FA", { exact: true }).isVisible()).toBe(true);
    // Search, debounced.
    await b.page.getByRole("searchbox", { name: "Search users" }).fill("jordan");
    await expect.poll(() => b.page.getByTestId("user-card").count()).toBe(1);
    await b.page.getByRole("searchbox", { name: "Search users" }).fill("nobody-matches-this");
    await expect.poll(() => b.page.getByRole("heading", { name: "No Results" }).isVisible()).toBe(true);

    await b.page.getByRole("link", { name: "New User" }).click();
    await b.page.waitForURL("**/users/new");
    await b.page.getByLabel("Name").fill("Quinn Client");
    await b.page.getByLabel("Email").fill(email);
    await b.page.getByLabel("Site", { exact: true }).selectOption({ label: "Morning Crumb" });
    await b.page.getByRole("button", { name: "Add Site" }).click();
    const card = b.page.getByTestId("permission-card");
    await expect.poll(() => card.count()).toBe(1);
    // Adding it again bounces the existing card instead of adding a second one.
    await b.page.getByLabel("Site", { exact: true }).selectOption({ label: "Morning Crumb" });
    await b.page.getByRole("button", { name: "Add Site" }).click();
    await expect.poll(async () => (await card.getAttribute("class")) ?? "").toContain("permission-card--bounce");
    expect(await card.count()).toBe(1);

    await card.getByLabel("Selected pages").check();
    const picker = b.page.getByRole("dialog", { name: "Pages of Morning Crumb" });
    await expect.poll(() => picker.isVisible()).toBe(true);
    await picker.getByLabel(/Our Story/).check();
    await picker.getByLabel(/^Menu/).check();
    await picker.getByRole("button", { name: "Done" }).click();
    await expect.poll(() => card.getByText("2 pages selected").isVisible()).toBe(true);

    await b.page.getByRole("button", { name: "Create User" }).click();
    await b.page.waitForURL((url) => /^\/users\/[^/]+$/.test(url.pathname) && url.pathname !== "/users/new");
    await expect.poll(() => b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Quinn Client");
    await expect.poll(() => b.page.getByText("Never logged in").isVisible()).toBe(true);
    await expect.poll(() => b.page.getByText(/No activity yet/).isVisible()).toBe(true);
    const userId = new URL(b.page.url()).pathname.split("/")[2];

    // The invitation again: EMAIL_IN_USE marks the field and shakes the form.
    await b.page.goto("/users/new");
    await b.page.getByLabel("Name").fill("Quinn Again");
    await b.page.getByLabel("Email").fill(email);
    await b.page.getByRole("button", { name: "Create User" }).click();
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("This email address is already in use.");
    expect(await b.page.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");
    expect(await b.page.locator("form.user-form").getAttribute("class")).toContain("form--shake");

    // The client accepts the welcome mail in another browser session.
    await b.context.clearCookies();
    await acceptWelcome(b.page, email, "quinn-password-1");
    const cards = b.page.locator(".site-card");
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.first().textContent()).toContain("Morning Crumb");
    const grants = await api<{ permissions: { site: { name: string }; pages: string[] | null }[] }>(b.page, `/users/${userId}/permissions`);
    expect(grants.body.permissions).toHaveLength(1);
    expect(grants.body.permissions[0].site.name).toBe("Morning Crumb");
    expect(grants.body.permissions[0].pages).toHaveLength(2);
    expect(await b.page.getByRole("link", { name: "Users" }).count()).toBe(0);

    await b.page.goto("/users");
    await b.page.waitForURL((url) => url.pathname !== "/users");
    expect(new URL(b.page.url()).pathname).toBe("/sites");
    expect((await api(b.page, "/users")).status).toBe(403);

    // The client sees the two pages, edits one in the editor and publishes it.
    await cards.first().getByRole("link", { name: "Morning Crumb" }).first().click();
    await expect.poll(() => b.page.getByTestId("page-card").locator(".page-card__name").allTextContents()).toEqual(["Menu", "Our Story"]);
    await b.page.getByRole("link", { name: "Menu", exact: true }).click();
    await expect.poll(() => b.page.getByText(/\d+ content regions?/).isVisible(), { timeout: 20_000 }).toBe(true);
    const frame = b.page.frameLocator("iframe.editor__frame");
    await frame.locator("#menu-season").evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      (el.closest("[contenteditable]") as HTMLElement).focus();
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
    });
    await b.page.keyboard.type("Spring 2026");
    await b.page.getByRole("button", { name: "More save options" }).click();
    await b.page.getByRole("menuitem", { name: "Publish" }).click();
    await expect.poll(() => b.page.locator(".publish-overlay").textContent(), { timeout: 30_000 }).toMatch(/100%\s*Finished/);
    const sites = await api<{ sites: { id: string }[] }>(b.page, "/sites");
    const live = await b.page.request.get(`http://127.0.0.1:${new URL(b.page.url()).port}/demo/${sites.body.sites[0].id}/menu.html`);
    expect(await live.text()).toContain('id="menu-season">Spring 2026</span>');

    // The admin sees the publish in the client's activity timeline.
    await b.context.clearCookies();
    await login(b.page, ADMIN);
    await b.page.goto(`/users/${userId}`);
    const entry = b.page.locator(".timeline__item").first();
    await expect.poll(() => entry.textContent()).toMatch(/Published\s*Menu · Morning Crumb/);
  });

  it("changes the password on Edit Profile: the current password is checked first", async () => {
    const email = "casey.password@agency.test";
    await login(b.page, ADMIN);
    expect((await api(b.page, "/users", { method: "POST", body: { name: "Casey Password", email } })).status).toBe(200);
    await b.context.clearCookies();
    await acceptWelcome(b.page, email, "casey-password-1");

    await b.page.goto("/profile?tab=password");
    await b.page.getByLabel("Current password").fill("not-my-password");
    await b.page.getByLabel("New password").fill("casey-password-2");
    await b.page.getByRole("button", { name: "Change Password" }).click();
    await expect.poll(() => b.page.getByRole("alert").textContent()).toContain("Your password is incorrect.");
    expect(await b.page.getByLabel("Current password").getAttribute("aria-invalid")).toBe("true");

    await b.page.getByLabel("Current password").fill("casey-password-1");
    await b.page.getByLabel("New password").fill("casey-password-2");
    await b.page.getByRole("button", { name: "Change Password" }).click();
    await expect.poll(() => b.page.getByText("Your password has been updated.").isVisible()).toBe(true);
    // Still signed in, on a new session.
    await b.page.goto("/profile");
    await expect.poll(() => b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Edit Profile");

    await b.context.clearCookies();
    await login(b.page, email, { password: "casey-password-2" });
    expect(new URL(b.page.url()).pathname).toBe("/sites");
  });

  it("asks before leaving a form with unsaved changes", async () => {
    await login(b.page, OWNER);
    await b.page.goto("/profile");
    await b.page.getByLabel("Bio").fill("Changed but not saved.");
    await b.page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Sites", exact: true }).click();
    const dialog = b.page.getByRole("dialog", { name: "Unsaved Changes" });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.textContent()).toContain("Your changes haven't been saved. Are you sure you want to continue?");
    // Focus is inside the dialog; Cancel stays on the form with the change kept.
    await expect.poll(() => b.page.evaluate(() => document.activeElement?.closest("dialog") !== null)).toBe(true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(new URL(b.page.url()).pathname).toBe("/profile");
    expect(await b.page.getByLabel("Bio").inputValue()).toBe("Changed but not saved.");

    await b.page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Sites", exact: true }).click();
    await dialog.getByRole("button", { name: "Continue" }).click();
    await b.page.waitForURL("**/sites");

    // Saved changes leave without asking.
    await b.page.goto("/profile");
    await b.page.getByLabel("Bio").fill("Founder of Brightside Digital.");
    await b.page.getByRole("button", { name: "Save Changes" }).click();
    await expect.poll(() => b.page.getByText("Your changes have been saved.").isVisible()).toBe(true);
    await b.page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Sites", exact: true }).click();
    await b.page.waitForURL("**/sites");
  });
});
