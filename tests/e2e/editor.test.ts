// The visual page editor in Chromium, against the built app with its local connection agent
// (global-setup): the seeded demo site (files in R2) and a page on a REAL SFTP server from
// tests/servers (needs root and the packages of tests/servers/install.mjs). Each edit is made the
// way a person makes it (clicks, typing, the toolbars and panels), saved as a draft, reloaded,
// published; then the server file must differ from the original only inside the edited regions.
import { readFileSync, rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Servers, startServers } from "../servers/servers.mjs";
import { api, login, useBrowser } from "./browser";
import { demoSite, openEditor, publishAndWait, readDemoFile, saveDraft, selectIn } from "./editor-helpers";
import { outsideRegions } from "./region-diff";
import { createSftpSite } from "./sftp-site";

const OWNER = "owner@agency.test";
const CLIENT = "client@agency.test";


let servers: Servers<"sftp">;

beforeAll(async () => {
  servers = await startServers({ which: ["sftp"] });
});
afterAll(async () => {
  await servers?.stop();
});

describe("the visual page editor", () => {
  const b = useBrowser();

  it("edits a demo page in place: heading, bold and link in a block, an image's alt, repeatable items, a table; saves a draft, reloads, publishes only those regions", async () => {
    const page = b.page;
    await page.setViewportSize({ width: 1400, height: 1000 });
    await login(page, OWNER);
    const { siteId, pages } = await demoSite(page);
    const about = pages.find((p) => p.path === "/about.html")!;
    const original = await readDemoFile(page, siteId, "about.html");
    const frame = await openEditor(page, `/sites/${siteId}/pages/${about.id}`);
    expect(await page.getByRole("link", { name: "Edit Source" }).count()).toBe(1);

    // An inline heading: select its text and type over it.
    await selectIn(frame, "#about-title", { text: "Our story" });
    await page.keyboard.type("Our story since 2012");
    expect(await frame.locator("#about-title").textContent()).toBe("Our story since 2012");

    // A block region: new text, made bold with the toolbar, and a link made with the Link panel.
    await selectIn(frame, "#about-story > p:nth-of-type(2)", { at: "end" });
    await page.keyboard.type(" Warm bread daily.");
    await selectIn(frame, "#about-story > p:nth-of-type(2)", { text: "Warm" });
    await page.getByRole("button", { name: "Bold", exact: true }).click();
    await selectIn(frame, "#about-story > p:nth-of-type(2)", { text: "bread daily" });
    await page.getByRole("button", { name: "Link", exact: true }).click();
    const linkPanel = page.getByRole("dialog", { name: "Link" });
    await linkPanel.getByLabel("URL").fill("menu.html");
    await linkPanel.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => frame.locator("#about-story > p:nth-of-type(2)").innerHTML()).toMatch(/<(b|strong)>Warm<\/(b|strong)> <a href="menu\.html">bread daily<\/a>\./);

    // A table inserted at the end of the first paragraph: 2 × 3.
    await selectIn(frame, "#about-story > p:nth-of-type(1)", { at: "end" });
    await page.getByRole("button", { name: "Insert table" }).click();
    await expect.poll(() => frame.locator("#about-story table tr").count()).toBe(2);
    expect(await frame.locator("#about-story table tr:first-child > *").count()).toBe(3);

    // An image region: a click opens the Image panel; the alt text changes.
    await frame.locator("#storefront-photo").click();
    const imagePanel = page.getByRole("dialog", { name: "Image" });
    await imagePanel.getByLabel("Description (alt text)").fill("Our blue front door on Linden Lane");
    await imagePanel.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => frame.locator("#storefront-photo").getAttribute("alt")).toBe("Our blue front door on Linden Lane");

    // Repeatable items: Chloé moves up, then is duplicated.
    await selectIn(frame, "#about-team .member:nth-of-type(3) h3", { at: "end" });
    await page.getByRole("button", { name: "Move item up" }).click();
    await expect.poll(() => frame.locator("#about-team .member h3").allTextContents()).toEqual(["Aoife Brennan", "Chloé Martin", "Jonas Müller"]);
    await selectIn(frame, "#about-team .member:nth-of-type(2) h3", { at: "end" });
    await page.getByRole("button", { name: "Duplicate item" }).click();
    await expect.poll(() => frame.locator("#about-team .member h3").allTextContents()).toEqual(["Aoife Brennan", "Chloé Martin", "Chloé Martin", "Jonas Müller"]);

    // Ctrl+S saves a draft: the address becomes the revision's; a reload shows the draft.
    await saveDraft(page);
    const draftUrl = page.url();
    const reloaded = await openEditor(page, draftUrl);
    expect(await reloaded.locator("#about-title").textContent()).toBe("Our story since 2012");
    expect(await reloaded.locator("#about-story table").count()).toBe(1);
    expect(await reloaded.locator("#about-story a[href='menu.html']").textContent()).toBe("bread daily");
    expect(await reloaded.locator("#storefront-photo").getAttribute("alt")).toBe("Our blue front door on Linden Lane");
    expect(await reloaded.locator("#about-team .member h3").allTextContents()).toEqual(["Aoife Brennan", "Chloé Martin", "Chloé Martin", "Jonas Müller"]);
    expect(await page.locator(".editor__action", { hasText: "Drafts & Revisions" }).locator(".badge").textContent()).toMatch(/^[1-9]/);

    // Publish: the live file changed inside those regions only.
    await publishAndWait(page);
    const published = await readDemoFile(page, siteId, "about.html");
    const edited = ["about-title", "about-story", "storefront-photo", "about-team"];
    expect(outsideRegions(published, "html", edited)).toBe(outsideRegions(original, "html", edited));
    expect(published).toContain('id="about-title">Our story since 2012</h1>');
    expect(published).toMatch(/<a href="menu\.html">bread daily<\/a>/);
    expect(published).toContain('alt="Our blue front door on Linden Lane"');
    expect(published.match(/<h3>Chloé Martin<\/h3>/g)).toHaveLength(2);
    expect(published).toMatch(/<table>[\s\S]*<\/table>/);
  });

  it("saves with Ctrl+S and offers the publish on Ctrl+Shift+S from inside the page; publishes from the parent with Ctrl+Shift+S", async () => {
    const page = b.page;
    await login(page, OWNER);
    const { siteId, pages } = await demoSite(page);
    const menu = pages.find((p) => p.path === "/menu.html")!;
    const original = await readDemoFile(page, siteId, "menu.html");
    const frame = await openEditor(page, `/sites/${siteId}/pages/${menu.id}`);

    await selectIn(frame, "#menu-title", { at: "end" });
    await page.keyboard.type(" today");
    // Ctrl+S pressed inside the frame: the frame asks, the parent saves.
    await page.keyboard.press("Control+s");
    await page.waitForURL(/\/revisions\/[0-9a-f]+$/);

    // Ctrl+Shift+S inside the frame only offers the publish; it happens on a confirmation here.
    await selectIn(frame, "#menu-title", { at: "end" });
    await page.keyboard.type("!");
    await page.keyboard.press("Control+Shift+S");
    const confirm = page.getByRole("dialog", { name: "Publish this page?" });
    await confirm.waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await readDemoFile(page, siteId, "menu.html")).toBe(original);

    // With the focus in the parent, Ctrl+Shift+S publishes.
    await page.getByRole("button", { name: "Save Draft", exact: true }).focus();
    await page.keyboard.press("Control+Shift+S");
    await expect.poll(() => page.locator(".publish-overlay").textContent(), { timeout: 30_000 }).toMatch(/Finished/);
    const published = await readDemoFile(page, siteId, "menu.html");
    expect(published).toContain("What’s in the oven today!</h1>");
    expect(outsideRegions(published, "html", ["menu-title"])).toBe(outsideRegions(original, "html", ["menu-title"]));
  });

  it("edits and publishes a page on a real SFTP server: the file on disk changes inside the edited region only", async () => {
    const page = b.page;
    await login(page, OWNER);
    const source = "<!DOCTYPE html>\r\n<HTML>\r\n<head><title>Harbour Café</title></head>\r\n<body>\r\n" +
      "<h1 class=editable id=title>Harbour Café</h1>\r\n<div class=\"editable\" id=\"body\"><p>Open daily.</p></div>\r\n<p>Not a region &amp; untouched.</p>\r\n</body>\r\n</HTML>\r\n";
    const site = await createSftpSite(page, servers, { folder: "harbour", name: "Harbour Café", files: { "index.html": source }, enable: ["index.html"] });
    const frame = await openEditor(page, `/sites/${site.siteId}/pages/${site.pageIds["index.html"]}`);
    await selectIn(frame, "#title", { text: "Café" });
    await page.keyboard.type("Kitchen");
    await saveDraft(page);
    await publishAndWait(page);
    const onDisk = readFileSync(site.onDisk("index.html"), "utf8");
    expect(onDisk).toContain("<h1 class=editable id=title>Harbour Kitchen</h1>");
    expect(outsideRegions(onDisk, "html", ["title"])).toBe(outsideRegions(source, "html", ["title"]));
  });

  it("opens a stylesheet in the source editor, saves it to the server, and asks before leaving unsaved changes", async () => {
    const page = b.page;
    await login(page, OWNER);
    const { siteId, pages } = await demoSite(page);
    const stylesheet = pages.find((p) => p.path === "/css/style.css")!;
    await page.goto(`/sites/${siteId}/pages/${stylesheet.id}`);
    await page.waitForURL(`**/sites/${siteId}/pages/${stylesheet.id}/source`);
    const original = await readDemoFile(page, siteId, "css/style.css");
    // CodeMirror, in CSS mode, with the file's own text.
    const editor = page.getByRole("textbox", { name: "Source of Stylesheet" });
    await editor.waitFor();
    await expect.poll(() => page.locator(".source-editor .cm-line").first().textContent()).toBe(original.split("\n")[0]);
    await editor.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.type("\n.sale { color: crimson; }\n");
    await page.getByRole("button", { name: "Done" }).click();
    const unsaved = page.getByRole("dialog", { name: "Unsaved Changes" });
    await unsaved.getByRole("button", { name: "Cancel" }).click();
    await page.keyboard.press("Control+s");
    await expect.poll(() => page.getByText("Your changes have been saved.").isVisible()).toBe(true);
    const saved = await readDemoFile(page, siteId, "css/style.css");
    expect(saved.startsWith(original)).toBe(true);
    expect(saved.slice(original.length).trim()).toBe(".sale { color: crimson; }");
    await page.getByRole("button", { name: "Done" }).click();
    await page.waitForURL(`**/sites/${siteId}`);
  });

  it("asks before leaving the editor with unsaved changes; Continue leaves, nothing is saved", async () => {
    const page = b.page;
    await login(page, OWNER);
    const { siteId, pages } = await demoSite(page);
    const contact = pages.find((p) => p.path === "/contact.html")!;
    const countRevisions = async () => (await api<{ count: number }>(page, `/sites/${siteId}/pages/${contact.id}/revisions?limit=0`)).body.count;
    const revisionsBefore = await countRevisions();
    const frame = await openEditor(page, `/sites/${siteId}/pages/${contact.id}`);
    await selectIn(frame, "#contact-title", { at: "end" });
    await page.keyboard.type(" soon");
    await page.waitForTimeout(300);
    await page.getByRole("button", { name: "Done" }).click();
    const dialog = page.getByRole("dialog", { name: "Unsaved Changes" });
    await expect.poll(() => dialog.getByText("Your changes haven't been saved. Are you sure you want to continue?").isVisible()).toBe(true);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(new URL(page.url()).pathname).toBe(`/sites/${siteId}/pages/${contact.id}`);
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByRole("dialog", { name: "Unsaved Changes" }).getByRole("button", { name: "Continue" }).click();
    await page.waitForURL(`**/sites/${siteId}`);
    expect(await countRevisions()).toBe(revisionsBefore);
  });

  it("warns about a page without content regions, and tells why a page cannot be opened", async () => {
    const page = b.page;
    await login(page, OWNER);
    const site = await createSftpSite(page, servers, {
      folder: "plain", name: "Plain Pages", enable: ["index.html", "gone.html"],
      files: { "index.html": "<!doctype html><title>Plain</title><p>No regions here.</p>", "gone.html": "<!doctype html><title>Gone</title>" },
    });
    const siteId = site.siteId;
    const plain = site.pageIds["index.html"];
    const gone = site.pageIds["gone.html"];

    await openEditor(page, `/sites/${siteId}/pages/${plain}`);
    await expect.poll(() => page.getByText("This page doesn't have any content regions.").isVisible()).toBe(true);
    await expect.poll(() => page.getByText("This page doesn't have any content regions.").isVisible(), { timeout: 8000 }).toBe(false);

    rmSync(site.onDisk("gone.html"));
    await page.goto(`/sites/${siteId}/pages/${gone}`);
    await expect.poll(() => page.locator(".notice--error").textContent(), { timeout: 20_000 }).toContain("could not be found");
  });

  it("offers Upgrade Required on a commercial site of the personal plan: the message in the bar, the dialog 3.5 s later, Save Draft & Upgrade keeps the work", async () => {
    const page = b.page;
    await login(page, "owner@personal.test");
    const site = await createSftpSite(page, servers, {
      folder: "shop", name: "Pat's Shop", classification: "commercial", enable: ["index.html"],
      files: { "index.html": "<!doctype html><title>Shop</title><h1 class=editable id=title>Our shop</h1>" },
    });
    const siteId = site.siteId;
    const pageId = site.pageIds["index.html"];
    const frame = await openEditor(page, `/sites/${siteId}/pages/${pageId}`);
    await selectIn(frame, "#title", { at: "end" });
    await page.keyboard.type(" is open");
    await page.getByRole("button", { name: "More save options" }).click();
    const started = Date.now();
    await page.getByRole("menuitem", { name: "Publish" }).click();
    await expect.poll(() => page.locator(".publish-overlay").textContent()).toContain("Please upgrade your account to unlock this feature.");
    await page.locator(".publish-overlay").getByRole("button", { name: "Close" }).click();
    const dialog = page.getByRole("dialog", { name: "Upgrade Required" });
    await dialog.waitFor({ timeout: 10_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(await dialog.getByRole("link", { name: "Did we make a mistake? Let us know!" }).getAttribute("href")).toBe("/support");
    await dialog.getByRole("button", { name: "Save Draft & Upgrade" }).click();
    await page.waitForURL("**/billing");
    const revisions = await api<{ revisions: { isDraft: boolean }[] }>(page, `/sites/${siteId}/pages/${pageId}/revisions`);
    expect(revisions.body.revisions.map((r) => r.isDraft)).toEqual([true]);
    expect(readFileSync(site.onDisk("index.html"), "utf8")).toContain(">Our shop</h1>");
  });

  it("works from the keyboard: the toolbar is one Tab stop with arrow keys, panels and the publish menu open and close with the keyboard", async () => {
    const page = b.page;
    await login(page, OWNER);
    const { siteId, pages } = await demoSite(page);
    const contact = pages.find((p) => p.path === "/contact.html")!;
    const frame = await openEditor(page, `/sites/${siteId}/pages/${contact.id}`);
    await selectIn(frame, "#contact-intro", { text: "No booking needed" });
    // Into the toolbar: its first enabled button takes the focus; arrows move to Bold; Enter presses it.
    const toolbar = page.getByRole("toolbar", { name: "Text" });
    await toolbar.locator("button:not([disabled])").first().focus();
    const bold = toolbar.getByRole("button", { name: "Bold", exact: true });
    for (let i = 0; i < 10 && !(await bold.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("ArrowRight");
    expect(await bold.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => frame.locator("#contact-intro").innerHTML()).toMatch(/<(b|strong)>No booking needed<\/(b|strong)>/);
    await expect.poll(() => bold.getAttribute("aria-pressed")).toBe("true");

    // The Metadata panel: opened with Enter, a field typed into, Escape closes it without applying.
    await page.getByRole("button", { name: "Edit Metadata" }).focus();
    await page.keyboard.press("Enter");
    const panel = page.getByRole("dialog", { name: "Metadata" });
    await panel.waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("maxlength"))).toBe("1000");
    await page.keyboard.type(" (draft)");
    await page.keyboard.press("Escape");
    await expect.poll(() => panel.isVisible()).toBe(false);
    await page.getByRole("button", { name: "Edit Metadata" }).click();
    expect(await page.getByRole("dialog", { name: "Metadata" }).getByLabel("Title").inputValue()).not.toContain("(draft)");
    await page.keyboard.press("Escape");

    // The save menu: opened from the keyboard, its first item focused, Escape closes it.
    await page.getByRole("button", { name: "More save options" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("menuitem");
    await page.keyboard.press("Escape");
    await expect.poll(() => page.getByRole("menu").count()).toBe(0);
  });

  it("never shows Edit Source to a client user, and opens only the pages granted", async () => {
    const page = b.page;
    await login(page, CLIENT);
    const { siteId, pages } = await demoSite(page);
    expect(pages.map((p) => p.name).sort()).toEqual(["Homepage", "Our Story"]);
    await openEditor(page, `/sites/${siteId}/pages/${pages.find((p) => p.name === "Homepage")!.id}`);
    expect(await page.getByRole("link", { name: "Edit Source" }).count()).toBe(0);
    expect(await page.getByRole("heading", { name: "Admin" }).count()).toBe(0);
  });
});
