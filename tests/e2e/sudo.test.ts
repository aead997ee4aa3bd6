import { describe, expect, it } from "vitest";
import { login, useBrowser } from "./browser";

describe("sudo mode from the admin panel", () => {
  const b = useBrowser();

  it("lets the superuser find a user, sudo in with a banner, and exit back to the admin panel", async () => {
    await login(b.page, "super@sitecraft.test");
    await b.page.getByRole("button", { name: /Account menu/ }).click();
    await b.page.getByRole("menuitem", { name: "Admin Panel" }).click();
    await b.page.waitForURL("**/admin");
    await b.page.getByRole("tab", { name: "Users" }).click();
    const search = b.page.getByLabel("Search users");
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill("mailto:client@agency.test");
    const row = b.page.getByRole("row", { name: /Jordan Lee/ });
    await row.waitFor();
    expect(await row.getByRole("cell").first().textContent()).toBe("Client");
    await row.getByRole("button", { name: "Sudo Login" }).click();

    await b.page.waitForURL((url) => url.pathname === "/sites");
    await expect.poll(() => b.page.getByRole("status").filter({ hasText: "sudo mode" }).textContent()).toContain("Jordan Lee");
    await b.page.getByRole("button", { name: /Account menu/ }).click();
    expect(await b.page.getByRole("menuitem", { name: "Logout" }).count()).toBe(0);
    await b.page.getByRole("menuitem", { name: "Exit Sudo Mode" }).click();

    await b.page.waitForURL((url) => url.pathname === "/admin");
    expect(await b.page.getByText("sudo mode").count()).toBe(0);
    await b.page.getByRole("button", { name: /Account menu/ }).click();
    await expect.poll(() => b.page.getByRole("menuitem", { name: "Admin Panel" }).isVisible()).toBe(true);
  });

  it("sends other users away from /admin", async () => {
    await login(b.page, "owner@agency.test");
    await b.page.goto("/admin");
    await b.page.waitForURL((url) => url.pathname === "/sites");
  });
});
