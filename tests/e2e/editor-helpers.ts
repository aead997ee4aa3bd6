import type { FrameLocator, Page } from "playwright-core";
import { expect } from "vitest";
import { api } from "./browser";

export interface PageRow { id: string; name: string; path: string }

/** The agency's demo site and its pages, as the signed-in user sees them. */
export async function demoSite(page: Page): Promise<{ siteId: string; pages: PageRow[] }> {
  const sites = await api<{ sites: { id: string; name: string }[] }>(page, "/sites?limit=50");
  const site = sites.body.sites.find((s) => s.name === "Morning Crumb");
  if (!site) throw new Error("no demo site");
  const pages = await api<{ pages: PageRow[] }>(page, `/sites/${site.id}/pages?limit=100`);
  return { siteId: site.id, pages: pages.body.pages };
}

/** The preview origin's URL of a demo site's file (the Worker serves it from R2). */
export function demoFileUrl(page: Page, siteId: string, file: string): string {
  const app = new URL(page.url());
  return `http://127.0.0.1:${app.port}/demo/${siteId}/${file}`;
}

export async function readDemoFile(page: Page, siteId: string, file: string): Promise<string> {
  const response = await page.request.get(demoFileUrl(page, siteId, file));
  expect(response.status()).toBe(200);
  return response.text();
}

/** Opens the editor and waits until the frame's editor is ready. */
export async function openEditor(page: Page, url: string): Promise<FrameLocator> {
  await page.goto(url);
  const ready = page.getByText(/\d+ content regions?/);
  const failed = page.locator(".notice--error");
  await expect.poll(async () => ((await failed.isVisible()) ? `failed: ${await failed.textContent()}` : await ready.isVisible()), { timeout: 20_000 }).toBe(true);
  return page.frameLocator("iframe.editor__frame");
}

/** Puts the caret (or a selection of `text`) inside an element of the frame, as a click and drag would. */
export async function selectIn(frame: FrameLocator, selector: string, how: { text?: string; at?: "end" | "start" }) {
  await frame.locator(selector).first().evaluate((el, how) => {
    const range = document.createRange();
    if (how.text) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const index = node.textContent!.indexOf(how.text);
        if (index >= 0) {
          range.setStart(node, index);
          range.setEnd(node, index + how.text.length);
          break;
        }
      }
    } else {
      range.selectNodeContents(el);
      range.collapse(how.at !== "end");
    }
    (el.closest("[contenteditable]") as HTMLElement | null)?.focus();
    const selection = getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
  }, how);
  // The editor reports the selection to the toolbar after a short debounce.
  await new Promise((resolve) => setTimeout(resolve, 250));
}

export async function saveDraft(page: Page) {
  await page.keyboard.press("Control+s");
  await page.waitForURL(/\/revisions\/[0-9a-f]+$/);
  await expect.poll(() => page.locator(".editor__save-status").textContent()).toMatch(/Finished|^$/);
}

export async function publishAndWait(page: Page) {
  await page.getByRole("button", { name: "More save options" }).click();
  await page.getByRole("menuitem", { name: "Publish" }).click();
  await expect.poll(() => page.locator(".publish-overlay").textContent(), { timeout: 30_000 }).toMatch(/100%\s*Finished/);
  await expect.poll(() => new URL(page.url()).pathname).toMatch(/\/pages\/[0-9a-f]+$/);
}

