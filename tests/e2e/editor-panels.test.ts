// The editor's panels in Chromium on the seeded demo site (its files in R2): for each panel, the
// change it makes is visible in the frame, survives a draft save and a reload, and after the
// publish is in the live file, with nothing outside the changed element different.
import type { FrameLocator, Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { decodePageSource, parsePage } from "~/lib/regions";
import { api, login, useBrowser } from "./browser";
import { demoSite, openEditor, publishAndWait, readDemoFile, saveDraft, selectIn } from "./editor-helpers";
import { makePng, pngSize } from "./png";
import { outsideRegions } from "./region-diff";

const OWNER = "owner@agency.test";

/** A region's inner source in a page. */
function regionInner(source: string, id: string): string {
  const page = parsePage(decodePageSource(new TextEncoder().encode(source)).text, "html");
  const region = page.byId.get(id);
  if (!region) throw new Error(`no region #${id}`);
  return page.source.slice(region.inner.start, region.inner.end);
}

/** Opens a demo page in the editor; answers the frame, the page's id and its live file before any edit. */
async function openDemoPage(page: Page, file: string) {
  await login(page, OWNER);
  const { siteId, pages } = await demoSite(page);
  const row = pages.find((p) => p.path === `/${file}`)!;
  const original = await readDemoFile(page, siteId, file);
  const frame = await openEditor(page, `/sites/${siteId}/pages/${row.id}`);
  return { siteId, pageId: row.id, original, frame };
}

/** Saves a draft, reloads it (its frame is answered), then publishes; answers the frame and the live file. */
async function saveReloadPublish(page: Page, siteId: string, file: string, inReloaded: (frame: FrameLocator) => Promise<void>): Promise<string> {
  await saveDraft(page);
  const reloaded = await openEditor(page, page.url());
  await inReloaded(reloaded);
  await publishAndWait(page);
  return readDemoFile(page, siteId, file);
}

const panel = (page: Page, name: string) => page.getByRole("dialog", { name });

describe("the editor's panels", () => {
  const b = useBrowser();

  it("Anchor: a new anchor at the selection, named from its first 5 words and normalised", async () => {
    const page = b.page;
    const { siteId, original, frame } = await openDemoPage(page, "index.html");
    await selectIn(frame, "#home-intro > p:nth-of-type(1)", { text: "Morning Crumb opened in 2012 with" });
    await page.getByRole("button", { name: "Anchor", exact: true }).click();
    const anchor = panel(page, "Anchor");
    expect(await anchor.getByLabel("Name").inputValue()).toBe("morning-crumb-opened-in-2012");
    await anchor.getByLabel("Name").fill("Our Beginnings!");
    await expect.poll(() => anchor.getByText("#our-beginnings").isVisible()).toBe(true);
    await anchor.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => frame.locator("#home-intro a#our-beginnings").count()).toBe(1);
    const published = await saveReloadPublish(page, siteId, "index.html", async (reloaded) => {
      expect(await reloaded.locator("#home-intro a#our-beginnings").count()).toBe(1);
    });
    expect(regionInner(published, "home-intro")).toBe(regionInner(original, "home-intro").replace("<p>Morning Crumb opened", '<p><a id="our-beginnings"></a>Morning Crumb opened'));
    expect(outsideRegions(published, "html", ["home-intro"])).toBe(outsideRegions(original, "html", ["home-intro"]));
  });

  it("Link: href, title and target of a link; the page's anchors are offered as #anchor", async () => {
    const page = b.page;
    const { siteId, original, frame } = await openDemoPage(page, "contact.html");
    await frame.locator("#contact-email a").dblclick();
    const link = panel(page, "Link");
    expect(await link.getByLabel("URL").inputValue()).toBe("mailto:hello@morning-crumb.example");
    await link.getByLabel("URL").fill("mailto:orders@morning-crumb.example");
    await link.getByLabel("Title").fill("Write to us");
    await link.getByLabel("Open in").selectOption({ label: "A new window" });
    await link.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => frame.locator("#contact-email a").getAttribute("href")).toBe("mailto:orders@morning-crumb.example");
    const published = await saveReloadPublish(page, siteId, "contact.html", async (reloaded) => {
      expect(await reloaded.locator("#contact-email a").getAttribute("title")).toBe("Write to us");
    });
    expect(regionInner(published, "contact-email")).toBe('<strong>Email:</strong> <a href="mailto:orders@morning-crumb.example" title="Write to us" target="_blank" rel="noopener">hello@morning-crumb.example</a>');
    expect(outsideRegions(published, "html", ["contact-email"])).toBe(outsideRegions(original, "html", ["contact-email"]));

    // The home page has an anchor (#opening-hours): the Link panel offers it.
    const { pages } = await demoSite(page);
    const home = await openEditor(page, `/sites/${siteId}/pages/${pages.find((p) => p.path === "/index.html")!.id}`);
    await selectIn(home, "#home-intro > p:nth-of-type(2)", { text: "Read our story" });
    await page.getByRole("button", { name: "Link", exact: true }).click();
    await panel(page, "Link").getByLabel("Anchors on this page").selectOption("#opening-hours");
    expect(await panel(page, "Link").getByLabel("URL").inputValue()).toBe("#opening-hours");
    await page.keyboard.press("Escape");
  });

  it("Image: a new description, and a dropped image uploaded to the upload folder and linked relative to the page; an empty URL deletes an image", async () => {
    const page = b.page;
    const { siteId, original, frame } = await openDemoPage(page, "about.html");
    // An image region: a click opens the Image panel.
    await frame.locator("#storefront-photo").click();
    const image = panel(page, "Image");
    await image.locator("input[type=file]").setInputFiles({ name: "shop-front.png", mimeType: "image/png", buffer: makePng(120, 90) });
    await expect.poll(() => image.getByLabel("Image URL").inputValue()).toBe("uploads/shop-front.png");
    await image.getByLabel("Description (alt text)").fill("The new shop front");
    await image.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => frame.locator("#storefront-photo").getAttribute("src")).toBe("uploads/shop-front.png");
    const uploaded = await page.request.get(`http://127.0.0.1:${new URL(page.url()).port}/demo/${siteId}/uploads/shop-front.png`);
    expect(pngSize(Buffer.from(await uploaded.body()))).toEqual({ width: 120, height: 90 });

    // A file that is not an image makes the control shake and changes nothing.
    await frame.locator("#storefront-photo").click();
    await image.locator("input[type=file]").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") });
    await expect.poll(() => image.getByText("Only image files can be used here.").isVisible()).toBe(true);
    expect(await image.getByTestId("image-drop").getAttribute("class")).toContain("form--shake");
    await page.keyboard.press("Escape");

    const published = await saveReloadPublish(page, siteId, "about.html", async (reloaded) => {
      expect(await reloaded.locator("#storefront-photo").getAttribute("alt")).toBe("The new shop front");
    });
    expect(published).toContain('<img class="editable" id="storefront-photo" src="uploads/shop-front.png" alt="The new shop front" width="400" height="300">');
    expect(outsideRegions(published, "html", ["storefront-photo"])).toBe(outsideRegions(original, "html", ["storefront-photo"]));
  });

  it("Image: clearing the URL of an image in a block deletes it", async () => {
    const page = b.page;
    const { siteId, original, frame } = await openDemoPage(page, "index.html");
    await frame.locator("#home-intro > img").dblclick();
    const image = panel(page, "Image");
    await image.getByLabel("Image URL").fill("");
    await image.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => frame.locator("#home-intro > img").count()).toBe(0);
    const published = await saveReloadPublish(page, siteId, "index.html", async (reloaded) => {
      expect(await reloaded.locator("#home-intro > img").count()).toBe(0);
    });
    const before = regionInner(original, "home-intro");
    // The element goes; the whitespace around it stays as it was.
    expect(regionInner(published, "home-intro")).toBe(before.replace(/<img class="align-right"[^>]*>/, ""));
  });

  it("Background: size, repeat and a colour with alpha, written to the element's inline style only", async () => {
    const page = b.page;
    const { siteId, original, frame } = await openDemoPage(page, "index.html");
    await frame.locator("#hero-image").dblclick();
    const background = panel(page, "Background");
    expect(await background.getByLabel("Image URL").inputValue()).toBe("images/hero.svg");
    await background.getByLabel("Size").selectOption({ label: "Contain" });
    await background.getByLabel("Repeat").selectOption({ label: "Repeat" });
    await background.getByLabel("Colour").fill("#336699");
    await background.getByLabel("Opacity").fill("50");
    await background.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => frame.locator("#hero-image").getAttribute("style")).toBe("background-image: url('images/hero.svg'); background-color: rgba(51, 102, 153, 0.5); background-size: contain; background-repeat: repeat;");
    const published = await saveReloadPublish(page, siteId, "index.html", async (reloaded) => {
      expect(await reloaded.locator("#hero-image").getAttribute("style")).toContain("background-size: contain");
    });
    expect(published).toContain(`style="background-image: url('images/hero.svg'); background-color: rgba(51, 102, 153, 0.5); background-size: contain; background-repeat: repeat;"`);
    expect(outsideRegions(published, "html", ["hero-image"])).toBe(outsideRegions(original, "html", ["hero-image"]));
  });

  it("Code Block: a new code block with its language normalised, written in CodeMirror", async () => {
    const page = b.page;
    const { siteId, original, frame } = await openDemoPage(page, "index.html");
    await selectIn(frame, "#home-intro > p:nth-of-type(1)", { at: "end" });
    await page.getByRole("button", { name: "Code block", exact: true }).click();
    const code = panel(page, "Code Block");
    await code.getByLabel("Language").fill("Java Script");
    await code.getByLabel("Language").blur();
    expect(await code.getByLabel("Language").inputValue()).toBe("java-script");
    await code.getByLabel("Language").fill("JS");
    await expect.poll(() => code.getByText("Highlighting: JavaScript").isVisible()).toBe(true);
    await code.locator(".cm-content").click();
    await page.keyboard.type("const loaves = 36;");
    expect(await code.locator(".cm-gutters").count()).toBe(1);
    await code.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => frame.locator('#home-intro pre[data-cms-code="js"] code').textContent()).toBe("const loaves = 36;");
    const published = await saveReloadPublish(page, siteId, "index.html", async (reloaded) => {
      expect(await reloaded.locator('#home-intro pre[data-cms-code="js"]').count()).toBe(1);
    });
    const before = regionInner(original, "home-intro");
    const firstParagraphEnd = before.indexOf("</p>") + "</p>".length;
    expect(regionInner(published, "home-intro")).toBe(`${before.slice(0, firstParagraphEnd)}<pre data-cms-code="js"><code>const loaves = 36;</code></pre>${before.slice(firstParagraphEnd)}`);
  });

  it("Video: an address looked up through oEmbed becomes the provider's embed; other text is used as embed code", async () => {
    const page = b.page;
    // The second lookup fails on purpose (the app answers 502 OEMBED_LOOKUP_FAILED).
    b.expectErrors(/status of 502/);
    const { siteId, original, frame } = await openDemoPage(page, "index.html");
    await selectIn(frame, "#home-intro > ul", { at: "end" });
    await page.getByRole("button", { name: "Video", exact: true }).click();
    const video = panel(page, "Video");
    await video.getByLabel("Video address or embed code").fill("https://video.example/watch/bread-1");
    await video.getByRole("button", { name: "Apply" }).click();
    const embed = frame.locator('#home-intro [data-cms-embed="https://video.example/watch/bread-1"] iframe');
    await expect.poll(() => embed.getAttribute("src")).toBe(`${inject("oembedOrigin")}/player/bread-1`);
    const published = await saveReloadPublish(page, siteId, "index.html", async (reloaded) => {
      expect(await reloaded.locator("#home-intro [data-cms-embed] iframe").count()).toBe(1);
    });
    expect(published).toContain(`<div data-cms-embed="https://video.example/watch/bread-1"><iframe src="${inject("oembedOrigin")}/player/bread-1" width="480" height="270" title="Video bread-1" allowfullscreen=""></iframe></div>`);
    expect(outsideRegions(published, "html", ["home-intro"])).toBe(outsideRegions(original, "html", ["home-intro"]));

    // An address no provider knows: the lookup fails and the text goes in as it is.
    await selectIn(await openEditor(page, page.url()), "#home-intro > ul", { at: "end" });
    await page.getByRole("button", { name: "Video", exact: true }).click();
    await video.getByLabel("Video address or embed code").fill("https://unknown.example/clip");
    await video.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.frameLocator("iframe.editor__frame").locator('#home-intro [data-cms-embed="https://unknown.example/clip"]').textContent()).toBe("https://unknown.example/clip");
  });

  it("Blocks: the site's blocks by name, inserted between cms-include comments", async () => {
    const page = b.page;
    const { siteId, original, frame } = await openDemoPage(page, "index.html");
    const blocks = await api<{ blocks: { name: string; source: string }[] }>(page, `/sites/${siteId}/blocks?limit=1000&sortBy=name`);
    const cta = blocks.body.blocks.find((block) => block.name === "Call to Action")!;
    await selectIn(frame, "#home-testimonials > blockquote:last-of-type", { at: "end" });
    await page.getByRole("button", { name: "Block", exact: true }).click();
    const list = panel(page, "Blocks");
    await expect.poll(() => list.locator(".block-list__item strong").allTextContents()).toEqual(blocks.body.blocks.map((block) => block.name));
    await list.getByRole("searchbox", { name: "Search blocks" }).fill("call");
    await list.getByRole("button", { name: "Insert: Call to Action" }).click();
    await expect.poll(() => frame.locator("#home-testimonials").evaluate((el) => el.innerHTML)).toContain('<!-- cms-include "Call to Action" -->');
    const published = await saveReloadPublish(page, siteId, "index.html", async (reloaded) => {
      expect(await reloaded.locator("#home-testimonials").evaluate((el) => el.innerHTML)).toContain("<!-- /cms-include -->");
    });
    expect(regionInner(published, "home-testimonials")).toContain(`<!-- cms-include "Call to Action" -->${cta.source}<!-- /cms-include -->`);
    expect(outsideRegions(published, "html", ["home-testimonials"])).toBe(outsideRegions(original, "html", ["home-testimonials"]));
  });

  it("Gallery: captions, removing and adding images, thumbnails made into uploads/thumbnails", async () => {
    const page = b.page;
    const { siteId, original, frame } = await openDemoPage(page, "menu.html");
    await frame.locator("#menu-gallery img").first().dblclick();
    const gallery = panel(page, "Gallery");
    const images = gallery.getByTestId("gallery-image");
    await expect.poll(() => images.count()).toBe(6);
    await images.nth(0).getByLabel("Caption").fill("Croissants, still warm");
    await images.nth(5).getByRole("button", { name: "Remove" }).click();
    await gallery.locator("input[type=file]").setInputFiles({ name: "rye-loaf.png", mimeType: "image/png", buffer: makePng(640, 480) });
    await expect.poll(() => images.count()).toBe(6);
    await images.nth(5).getByLabel("Description (alt text)").fill("A dark rye loaf");
    await gallery.getByLabel("Width").fill("200");
    await gallery.getByLabel("Height").fill("150");
    await gallery.getByRole("button", { name: "Make thumbnails into the upload folder" }).click();
    await expect.poll(() => images.nth(5).locator("img").getAttribute("src"), { timeout: 20_000 }).toContain("/uploads/thumbnails/rye-loaf-200x150-cover.png");
    await gallery.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => frame.locator("#menu-gallery figcaption").first().textContent()).toBe("Croissants, still warm");
    expect(await frame.locator("#menu-gallery img").count()).toBe(6);

    const published = await saveReloadPublish(page, siteId, "menu.html", async (reloaded) => {
      expect(await reloaded.locator("#menu-gallery img").last().getAttribute("src")).toBe("uploads/thumbnails/rye-loaf-200x150-cover.png");
    });
    const inner = regionInner(published, "menu-gallery");
    expect(inner).toContain("<figcaption>Croissants, still warm</figcaption>");
    expect(inner).not.toContain("gallery-baguette.svg");
    expect(inner).toContain('<img src="uploads/thumbnails/rye-loaf-200x150-cover.png" alt="A dark rye loaf">');
    const thumbnail = await page.request.get(`http://127.0.0.1:${new URL(page.url()).port}/demo/${siteId}/uploads/thumbnails/rye-loaf-200x150-cover.png`);
    expect(pngSize(Buffer.from(await thumbnail.body()))).toEqual({ width: 200, height: 150 });
    // A gallery region's options are its element's attributes, the page's own: the publish writes its content only.
    expect(outsideRegions(published, "html", ["menu-gallery"])).toBe(outsideRegions(original, "html", ["menu-gallery"]));
  });

  it("Metadata: title and description written into the head on publish, nothing else there changed", async () => {
    const page = b.page;
    const { siteId, original } = await openDemoPage(page, "blog/first-post.html");
    await page.getByRole("button", { name: "Edit Metadata" }).click();
    const metadata = panel(page, "Metadata");
    await metadata.getByLabel("Title").fill("Hello from our new website | Morning Crumb");
    await metadata.getByLabel("Description").fill("Our new website is live: menus, opening hours and the story of Gertrude.");
    await metadata.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Edit Metadata" }).locator(".badge").count()).toBe(0);
    const published = await saveReloadPublish(page, siteId, "blog/first-post.html", async () => {
      await page.getByRole("button", { name: "Edit Metadata" }).click();
      expect(await panel(page, "Metadata").getByLabel("Title").inputValue()).toBe("Hello from our new website | Morning Crumb");
      await page.keyboard.press("Escape");
    });
    expect(published).toContain("<title>Hello from our new website | Morning Crumb</title>");
    expect(published).toMatch(/<meta name="description" content="Our new website is live: menus, opening hours and the story of Gertrude\.">/);
    // The title and description are also the page's og:title and og:description (EDITING-MODEL.md, "Metadata").
    expect(published).toContain('<meta property="og:title" content="Hello from our new website | Morning Crumb">');
    const strip = (source: string) => source.replace(/<title>[^<]*<\/title>/, "").replace(/\s*<meta (name="description"|property="og:(title|description)")[^>]*>/g, "");
    expect(strip(published)).toBe(strip(original));
  });

  it("Drafts & Revisions: the drafts listed first, one opened, one deleted; an admin rolls a publish back", async () => {
    const page = b.page;
    const { siteId, pageId, frame } = await openDemoPage(page, "contact.html");
    await selectIn(frame, "#contact-phone", { at: "end" });
    await page.keyboard.type(" (shop)");
    await saveDraft(page);
    const draftUrl = page.url();
    const beforePublish = await readDemoFile(page, siteId, "contact.html");
    await publishAndWait(page);
    expect(await readDemoFile(page, siteId, "contact.html")).toContain("+353 1 555 0142 (shop)");

    // Two drafts more: one from the page, one made and then opened.
    const reopened = await openEditor(page, `/sites/${siteId}/pages/${pageId}`);
    await selectIn(reopened, "#contact-phone", { at: "end" });
    await page.keyboard.type("!");
    await saveDraft(page);
    await page.getByRole("button", { name: /Drafts & Revisions/ }).click();
    const revisions = panel(page, "Drafts & Revisions");
    const rows = revisions.getByTestId("revision");
    // The new draft first, then the published revisions, newest first (the Link test published this page too).
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);
    const published = await rows.count();
    expect(await rows.nth(0).textContent()).toContain("Draft");
    for (let i = 1; i < published; i++) expect(await rows.nth(i).textContent()).toContain("Published");
    expect(draftUrl).not.toBe(page.url());

    // Open the published revision: the editor shows it at its own address.
    await rows.nth(1).getByRole("button", { name: "Open" }).click();
    await page.waitForURL(/\/revisions\/[0-9a-f]+$/);
    await expect.poll(() => page.getByText(/You are editing a revision from/).isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.frameLocator("iframe.editor__frame").locator("#contact-phone").textContent()).toBe("+353 1 555 0142 (shop)");

    // Delete the draft (confirmed), then roll the publish back.
    await page.getByRole("button", { name: /Drafts & Revisions/ }).click();
    await expect.poll(() => rows.count()).toBe(published);
    await rows.nth(0).getByRole("checkbox").check();
    await revisions.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog", { name: "Delete Revisions" }).getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => rows.count()).toBe(published - 1);
    expect(await rows.nth(0).textContent()).toContain("Published");
    await rows.nth(0).getByRole("button", { name: "Roll Back" }).click();
    await page.getByRole("dialog", { name: "Roll Back Publish" }).getByRole("button", { name: "Roll Back" }).click();
    await expect.poll(() => page.getByText("The publish was rolled back.").isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await readDemoFile(page, siteId, "contact.html")).toBe(beforePublish);
  });
});
