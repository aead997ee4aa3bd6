import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, afterEach, inject } from "vitest";

// Debian's Chromium, started as STACK.md says: no background networking on a closed network.
const LAUNCH_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
  // White-label domains of the seed, resolved to the local server.
  "--host-resolver-rules=MAP *.test 127.0.0.1"];

export const SEEDED_PASSWORD = "demo-password-1";

/**
 * One browser per test file and a fresh context (cookies, storage) per test. A console error or an
 * uncaught page error fails the test that caused it.
 */
export function useBrowser() {
  const state = {} as {
    browser: Browser; context: BrowserContext; page: Page; baseURL: string; errors: string[];
    /**
     * Console errors the test provokes on purpose (a blocked attempt logs one), by pattern: they
     * do not fail it. Any other error still does.
     */
    expectErrors(...patterns: RegExp[]): void;
  };
  let expected: RegExp[] = [];
  state.expectErrors = (...patterns) => {
    expected.push(...patterns);
  };
  beforeAll(async () => {
    state.baseURL = inject("baseURL");
    state.browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: LAUNCH_ARGS });
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  beforeEach(async () => {
    state.errors = [];
    expected = [];
    state.context = await state.browser.newContext({ baseURL: state.baseURL, locale: "en-US" });
    state.page = await state.context.newPage();
    waitForHydrationAfterNavigation(state.page);
    state.page.on("console", (message) => {
      // A 404/410 status on a document is expected by the error-page tests, not a script error.
      if (message.type() === "error" && !/status of 4[0-9][0-9]/.test(message.text())) state.errors.push(message.text());
    });
    state.page.on("pageerror", (error) => state.errors.push(error.message));
  });
  afterEach(async () => {
    await state.context?.close();
    const unexpected = state.errors.filter((error) => !expected.some((pattern) => pattern.test(error)));
    if (unexpected.length) throw new Error(`Browser console errors:\n${unexpected.join("\n")}`);
  });
  return state;
}

/**
 * Makes `page.goto` resolve only once React has hydrated (the root layout marks `<html>`), the
 * moment a person could use the page; typing earlier races hydration and loses input.
 */
function waitForHydrationAfterNavigation(page: Page) {
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    const isHtml = response?.headers()["content-type"]?.startsWith("text/html") ?? false;
    // Only the app hydrates: a page on the preview origin (a render, a demo site) is the customer's.
    const isApp = new URL(page.url()).hostname === "localhost";
    if (isHtml && isApp) await page.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
    return response;
  };
}

/**
 * Signs in through the login form (the one already open when `navigate` is false, e.g. a
 * `/login?to=` page) and waits until the app has settled on the page it forwards to.
 */
export async function login(page: Page, email: string, { password = SEEDED_PASSWORD, navigate = true } = {}) {
  if (navigate) await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await Promise.all([
    page.waitForURL((url) => url.pathname !== "/login" && url.pathname !== "/"),
    page.getByRole("button", { name: "Log In" }).click(),
  ]);
  await page.waitForLoadState("load");
}

/**
 * Calls the JSON API from inside the page, with the page's session (its cookies), as the app does.
 * @example const { status, body } = await api<{ sites: Site[] }>(page, "/sites?limit=50");
 */
export async function api<T>(page: Page, pathname: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  return page.evaluate(async ({ pathname, init }) => {
    const response = await fetch(`/api${pathname}`, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? {} : { "Content-Type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: await response.json().catch(() => null) };
  }, { pathname, init }) as Promise<{ status: number; body: T }>;
}
