// SECURITY.md 6: a customer's page is untrusted code running inside the editor. Here a page with a
// hostile script, on a REAL SFTP server, is opened in the real editor; the script tries every way
// at the app (cookies, storage, a credentialed API call, a cross-site publish, the parent's DOM,
// top navigation, popups, forms, document.domain, forged messages to the parent, grabbing the
// editor's MessagePort, synthetic Ctrl+S) and records what it got. None may succeed, the editor
// must still work, and nothing may be saved or published by it.
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Servers, startServers } from "../servers/servers.mjs";
import { api, login, useBrowser } from "./browser";
import { HOSTILE_SCRIPT } from "./editor-frame-page";
import { createSftpSite } from "./sftp-site";

let servers: Servers<"sftp">;
beforeAll(async () => {
  servers = await startServers({ which: ["sftp"] });
});
afterAll(async () => {
  await servers?.stop();
});

/** Probes that record, per attempt, "blocked" or what leaked. `__TARGET__` names the page to publish. */
const PROBES = String.raw`
(function () {
  var P = (window.__probes = {});
  var target = __TARGET__;
  function attempt(name, fn) { try { P[name] = fn(); } catch (e) { P[name] = "blocked"; } }
  attempt("cookie", function () { return "read: " + document.cookie; });
  attempt("localStorage", function () { localStorage.setItem("x", "1"); return "wrote"; });
  attempt("sessionStorage", function () { sessionStorage.setItem("x", "1"); return "wrote"; });
  attempt("parentDocument", function () { return "read: " + window.parent.document.title; });
  attempt("parentLocation", function () { return "read: " + window.parent.location.href; });
  attempt("topNavigation", function () { window.top.location.href = "https://evil.example/"; return "navigated"; });
  attempt("popup", function () { var w = window.open("https://evil.example/", "_blank"); return w ? "opened" : "blocked"; });
  attempt("domain", function () { document.domain = "localhost"; return "set"; });
  attempt("origin", function () { return String(window.origin); });
  P.sessionFetch = "pending";
  fetch(target.app + "/api/auth/session", { credentials: "include" })
    .then(function (r) { return r.text().then(function (t) { P.sessionFetch = "readable: " + r.status + " " + t.slice(0, 200); }); })
    .catch(function () { P.sessionFetch = "blocked"; });
  P.publishFetch = "pending";
  fetch(target.app + "/api/sites/" + target.site + "/pages/" + target.page + "/publish", {
    method: "POST", credentials: "include", headers: { "Content-Type": "text/plain" },
    body: JSON.stringify({ regions: { title: { type: "inline", content: "Defaced" } } }),
  }).then(function (r) { P.publishFetch = "answered " + r.status; }).catch(function () { P.publishFetch = "blocked"; });
  P.previewApi = "pending";
  fetch("/api/sites").then(function (r) { P.previewApi = "answered " + r.status; }).catch(function () { P.previewApi = "blocked"; });
  attempt("formPost", function () {
    var form = document.createElement("form");
    form.method = "POST";
    form.action = target.app + "/api/sites/" + target.site + "/pages/" + target.page + "/publish";
    form.target = "_top";
    var input = document.createElement("input");
    input.name = "regions";
    input.value = "x";
    form.appendChild(input);
    document.documentElement.appendChild(form);
    form.submit();
    return "submitted";
  });
  // Forged editor messages straight to the parent's window: a save, a publish, a second hello.
  setInterval(function () {
    var forged = [{ type: "shortcut", name: "save" }, { type: "shortcut", name: "publish" }, { type: "hello" }, { type: "changed", regions: { title: { type: "inline", content: "Forged" } } }];
    for (var i = 0; i < forged.length; i++) {
      var m = forged[i];
      m.protocol = "sitecraft-editor";
      m.version = 1;
      window.parent.postMessage(m, "*");
    }
  }, 100);
})();
`;

describe("a hostile script in the customer's page", () => {
  const b = useBrowser();

  it("gets none of the app's cookies, session, storage, DOM or navigation, and cannot save or publish", async () => {
    const page = b.page;
    // What the browser logs for each attempt it blocked (the attempts are the point of the test).
    b.expectErrors(/Unsafe attempt to initiate navigation/, /Blocked opening .* sandboxed frame/, /Blocked form submission .* sandboxed/,
      /blocked by CORS policy/, /Failed to load resource: net::ERR_(FAILED|NAME_NOT_RESOLVED)/);
    await login(page, "owner@agency.test");
    const app = new URL(page.url()).origin;

    const site = await createSftpSite(page, servers, { folder: "hostile", name: "Hostile Pages", files: { "index.html": "<!doctype html><title>placeholder</title>" }, enable: ["index.html"] });
    const siteId = site.siteId;
    const pageId = site.pageIds["index.html"];

    const target = JSON.stringify({ app, site: siteId, page: pageId });
    const source = `<!doctype html>\n<html><head><meta charset="utf-8"><script>${HOSTILE_SCRIPT.replace("__APP_ORIGIN__", JSON.stringify(app))}</script>` +
      `<script>${PROBES.replace("__TARGET__", target)}</script><title>Hostile</title></head>\n<body>\n<h1 class="editable" id="title">Original title</h1>\n</body></html>\n`;
    writeFileSync(site.onDisk("index.html"), source);

    const editorUrl = `/sites/${siteId}/pages/${pageId}`;
    await page.goto(editorUrl);
    await expect.poll(() => page.getByText("1 content region").isVisible(), { timeout: 20_000 }).toBe(true);
    const frame = page.frameLocator("iframe.editor__frame");
    // Let the forged messages and synthetic key presses run for a while.
    await page.waitForTimeout(2500);
    const probes = await frame.locator("html").evaluate(() => (window as unknown as { __probes: Record<string, string> }).__probes);
    const hostile = await frame.locator("html").evaluate(() => {
      const h = (window as unknown as { __hostile: { ports: unknown[]; ownAnswers: unknown[]; seen: unknown[]; errors: string[] } }).__hostile;
      // The parent's init is the one carrying the editor's strings; the script's own fakes carry none.
      const parentInits = h.seen.filter((m) => typeof m === "object" && m !== null && (m as { type?: string }).type === "init" && "regionLabel" in ((m as { strings?: object }).strings ?? {}));
      return { ports: h.ports.length, ownAnswers: h.ownAnswers.length, seenInit: parentInits.length };
    });

    expect(probes.cookie).toBe("blocked");
    expect(probes.localStorage).toBe("blocked");
    expect(probes.sessionStorage).toBe("blocked");
    expect(probes.parentDocument).toBe("blocked");
    expect(probes.parentLocation).toBe("blocked");
    expect(probes.topNavigation).toBe("blocked");
    expect(probes.popup).toBe("blocked");
    expect(probes.domain).toBe("blocked");
    expect(probes.origin).toBe("null");
    expect(probes.sessionFetch).toBe("blocked");
    expect(probes.publishFetch).toMatch(/^(blocked|answered 40[13])$/);
    expect(probes.previewApi).not.toMatch(/answered 200/);
    expect(hostile).toEqual({ ports: 0, ownAnswers: 0, seenInit: 0 });

    // The editor is still the user's: nothing was saved, published or navigated by the page.
    expect(new URL(page.url()).pathname).toBe(editorUrl);
    const revisions = await api<{ count: number }>(page, `/sites/${siteId}/pages/${pageId}/revisions?limit=0`);
    expect(revisions.body.count).toBe(0);
    expect(readFileSync(site.onDisk("index.html"), "utf8")).toBe(source);
    expect(await frame.locator("#title").textContent()).toBe("Original title");

    // And it still edits: a real keystroke in the page is saved by the parent.
    await frame.locator("#title").click();
    await page.keyboard.press("End");
    await page.keyboard.type(" (edited)");
    await page.keyboard.press("Control+s");
    await page.waitForURL(/\/revisions\/[0-9a-f]+$/);
    const saved = await api<{ revisions: { isDraft: boolean }[] }>(page, `/sites/${siteId}/pages/${pageId}/revisions`);
    expect(saved.body.revisions).toHaveLength(1);
  });

  it("runs the render in an opaque origin even when it is opened directly, outside the editor", async () => {
    const page = b.page;
    await login(page, "owner@agency.test");
    const sites = await api<{ sites: { id: string; name: string }[] }>(page, "/sites?limit=50");
    const demo = sites.body.sites.find((s) => s.name === "Morning Crumb")!;
    const pages = await api<{ pages: { id: string; path: string }[] }>(page, `/sites/${demo.id}/pages`);
    const home = pages.body.pages.find((p) => p.path === "/index.html")!;
    const response = await page.goto(`/api/sites/${demo.id}/pages/${home.id}/render`);
    expect(new URL(page.url()).hostname).toBe("127.0.0.1");
    expect(response?.headers()["content-security-policy"]).toMatch(/^sandbox allow-scripts; frame-ancestors http:\/\/localhost:\d+$/);
    expect(await page.evaluate(() => String(window.origin))).toBe("null");
    expect(await page.evaluate(() => {
      try {
        return document.cookie;
      } catch {
        return "blocked";
      }
    })).toBe("blocked");
  });
});
