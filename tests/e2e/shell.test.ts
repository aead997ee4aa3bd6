import { describe, expect, it } from "vitest";
import { login, useBrowser } from "./browser";

describe("the app shell", () => {
  const b = useBrowser();

  it("serves the login page with the app name in the title", async () => {
    await b.page.goto("/login");
    await expect.poll(() => b.page.title()).toBe("Log In | Sitecraft");
    expect(await b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Log in to your account");
    expect(await b.page.locator("link[rel=icon]").getAttribute("href")).toBe("/favicon.svg");
  });

  it("shows the 404 page for an unknown path, with a Homepage button", async () => {
    const response = await b.page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    expect(await b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Not Found");
    await b.page.getByRole("link", { name: "Homepage" }).click();
    await b.page.waitForURL("**/login");
  });

  it("shows the 410 Out of Service page on a white-label domain that was switched off", async () => {
    const port = new URL(b.baseURL).port;
    const response = await b.page.goto(`http://cms.lapsed.test:${port}/login`);
    expect(response?.status()).toBe(410);
    expect(await b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Out of Service");
    await expect.poll(() => b.page.getByText("This domain is no longer active.").isVisible()).toBe(true);
  });

  it("switches the language of the login page to German and French, and remembers it", async () => {
    await b.page.goto("/login");
    await b.page.getByLabel("Language").selectOption("de");
    await expect.poll(() => b.page.locator("html").getAttribute("lang")).toBe("de");
    expect(await b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Bei Ihrem Konto anmelden");
    await b.page.reload();
    await expect.poll(() => b.page.getByRole("button", { name: "Anmelden" }).isVisible()).toBe(true);

    await b.page.getByLabel("Sprache").selectOption("fr");
    await expect.poll(() => b.page.locator("html").getAttribute("lang")).toBe("fr");
    expect(await b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Connectez-vous à votre compte");
    await b.page.goto("/nowhere");
    expect(await b.page.getByRole("heading", { level: 1 }).textContent()).toBe("Page introuvable");
  });

  it("keeps the typed email and shows the error notification for a wrong password", async () => {
    await b.page.goto("/login");
    await b.page.getByLabel("Email").fill("owner@agency.test");
    await b.page.getByLabel("Password").fill("not-the-password");
    await b.page.getByRole("button", { name: "Log In" }).click();
    const alert = b.page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("Error");
    expect(await alert.textContent()).toContain("Your password is incorrect.");
    expect(await b.page.getByLabel("Email").inputValue()).toBe("owner@agency.test");
    expect(await b.page.getByLabel("Password").getAttribute("aria-invalid")).toBe("true");
  });

  it("signs the owner in to the shell, in all three languages, and out again", async () => {
    await b.page.goto("/sites");
    await b.page.waitForURL("**/login?to=%2Fsites");
    await login(b.page, "owner@agency.test", { navigate: false });
    expect(new URL(b.page.url()).pathname).toBe("/sites");
    const nav = b.page.getByRole("navigation", { name: "Main navigation" });
    for (const item of ["Sites", "Users", "Support", "Billing", "Settings"]) {
      await expect.poll(() => nav.getByRole("link", { name: item, exact: true }).isVisible()).toBe(true);
    }
    expect(await b.page.title()).toBe("Sites | Sitecraft");
    await expect.poll(() => b.page.getByRole("heading", { level: 2, name: "Morning Crumb" }).isVisible()).toBe(true);

    await b.page.getByLabel("Language").selectOption("de");
    await expect.poll(() => b.page.title()).toBe("Websites | Sitecraft");
    await expect.poll(() => b.page.getByRole("navigation", { name: "Hauptnavigation" }).getByRole("link", { name: "Benutzer" }).isVisible()).toBe(true);

    await b.page.getByLabel("Sprache").selectOption("fr");
    await expect.poll(() => b.page.title()).toBe("Sites | Sitecraft");
    await expect.poll(() => b.page.getByRole("link", { name: "Utilisateurs" }).isVisible()).toBe(true);

    await b.page.getByRole("button", { name: /Menu du compte/ }).click();
    await b.page.getByRole("menuitem", { name: "Se déconnecter" }).click();
    await b.page.waitForURL("**/login");
    await b.page.goto("/sites");
    await b.page.waitForURL("**/login?to=%2Fsites");
  });

  it("shows a client user no admin items, and the superuser the Admin Panel entry", async () => {
    await login(b.page, "client@agency.test");
    const nav = b.page.getByRole("navigation", { name: "Main navigation" });
    expect(await nav.getByRole("link", { name: "Users" }).count()).toBe(0);
    expect(await nav.getByRole("link", { name: "Billing" }).count()).toBe(0);
    await b.page.getByRole("button", { name: /Account menu/ }).click();
    expect(await b.page.getByRole("menuitem", { name: "Admin Panel" }).count()).toBe(0);
    await b.page.getByRole("menuitem", { name: "Logout" }).click();
    await b.page.waitForURL("**/login");

    await login(b.page, "super@sitecraft.test");
    await b.page.getByRole("button", { name: /Account menu/ }).click();
    await expect.poll(() => b.page.getByRole("menuitem", { name: "Admin Panel" }).isVisible()).toBe(true);
  });

  it("shows the upgrade banner to a personal-plan owner", async () => {
    await login(b.page, "owner@personal.test");
    await b.page.getByRole("link", { name: "Upgrade" }).waitFor();
    await expect.poll(() => b.page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Users" }).isVisible()).toBe(true);
  });
});
