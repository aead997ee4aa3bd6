import { livePageUrl } from "~/lib/page-url";
import { describe, expect, it } from "vitest";
import {
  fitUploadFolder,
  isEnableable,
  isHomepageFile,
  isInsecureUrl,
  normalizeFileName,
  normalizeSiteUrl,
  normalizeWebdavHost,
  pageNameForFile,
  trimFolder,
} from "~/lib/site-form";

describe("the site form's field rules", () => {
  it("prepends https:// to a URL without a scheme and empties a bare scheme", () => {
    expect(normalizeSiteUrl("example.com")).toBe("https://example.com");
    expect(normalizeSiteUrl("  Example.com/shop ")).toBe("https://example.com/shop");
    expect(normalizeSiteUrl("http://example.com")).toBe("http://example.com");
    expect(normalizeSiteUrl("https://")).toBe("");
    expect(normalizeSiteUrl("http:")).toBe("");
    expect(normalizeSiteUrl("")).toBe("");
    expect(isInsecureUrl("http://example.com")).toBe(true);
    expect(isInsecureUrl("https://example.com")).toBe(false);
  });

  it("gives a WebDAV host http:// only when it has neither http nor https", () => {
    expect(normalizeWebdavHost("dav.example.com")).toBe("http://dav.example.com");
    expect(normalizeWebdavHost("https://dav.example.com")).toBe("https://dav.example.com");
    expect(normalizeWebdavHost("HTTP://dav.example.com")).toBe("HTTP://dav.example.com");
  });

  it("trims trailing slashes and keeps the upload folder under the home folder", () => {
    expect(trimFolder("/var/www///")).toBe("/var/www");
    expect(trimFolder("/")).toBe("/");
    expect(trimFolder("www/")).toBe("/www");
    expect(fitUploadFolder("/var/www/uploads/", "/var/www")).toBe("/var/www/uploads");
    expect(fitUploadFolder("/var/wwwx", "/var/www")).toBe("/var/www");
    expect(fitUploadFolder("/elsewhere", "/var/www/")).toBe("/var/www");
    expect(fitUploadFolder("/anything", "/")).toBe("/anything");
    expect(fitUploadFolder("", "/var/www")).toBe("/var/www");
  });

  it("lets only the spec's extensions be enabled, and names index files Homepage", () => {
    expect(isEnableable("about.HTML")).toBe(true);
    expect(isEnableable("style.css")).toBe(true);
    expect(isEnableable("logo.png")).toBe(false);
    expect(isEnableable("README")).toBe(false);
    expect(isHomepageFile("index.php")).toBe(true);
    expect(isHomepageFile("Default.aspx")).toBe(true);
    expect(isHomepageFile("indexes.html")).toBe(false);
    expect(pageNameForFile("index.html")).toBe("Homepage");
    expect(pageNameForFile("about-us.html")).toBe("About Us");
  });

  it("normalises new folder and rename names", () => {
    expect(normalizeFileName(" My Photo (1).JPG")).toBe("my-photo-1.jpg");
    expect(normalizeFileName("a  --  b")).toBe("a-b");
  });

  it("builds a page's live address from the site URL and its path below the home folder", () => {
    expect(livePageUrl("https://example.com/", "/var/www", "/var/www/about.html")).toBe("https://example.com/about.html");
    expect(livePageUrl("https://example.com", "/", "/blog/a.html")).toBe("https://example.com/blog/a.html");
    expect(livePageUrl("https://example.com/shop/", "/", "/new items/a#1.html")).toBe("https://example.com/shop/new%20items/a%231.html");
  });
});
