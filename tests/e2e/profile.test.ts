import { describe, expect, it } from "vitest";
import { login, useBrowser } from "./browser";

describe("Edit Profile → Authentication", () => {
  const b = useBrowser();

  it("lets an agency admin enable, regenerate and disable an API token that works against the API", async () => {
    b.page.on("dialog", (dialog) => void dialog.accept());
    await login(b.page, "owner@agency.test");
    await b.page.goto("/profile?tab=authentication");
    await b.page.getByRole("button", { name: "Enable API Access" }).click();
    const shown = b.page.getByTestId("new-api-token");
    await shown.waitFor();
    const token = (await shown.textContent())!;
    expect(token).toMatch(/^sct_/);

    const asScript = await fetch(`${b.baseURL}/api/auth/session`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await asScript.json()) as { user: { email: string } }).user.email).toBe("owner@agency.test");

    await b.page.getByRole("button", { name: "Regenerate Token" }).click();
    await expect.poll(async () => shown.textContent()).not.toBe(token);
    expect((await fetch(`${b.baseURL}/api/auth/session`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401);

    await b.page.getByRole("button", { name: "Disable API Access" }).click();
    await b.page.getByText("API access is off.").waitFor();
  });

  it("shows a personal-plan owner the upgrade tag instead of API access", async () => {
    await login(b.page, "owner@personal.test");
    await b.page.goto("/profile?tab=authentication");
    await b.page.getByText("API access is part of the Agency plan.").waitFor();
    expect(await b.page.getByRole("link", { name: "See plans" }).getAttribute("href")).toBe("/billing");
    expect(await b.page.getByRole("button", { name: "Enable API Access" }).count()).toBe(0);
  });
});
