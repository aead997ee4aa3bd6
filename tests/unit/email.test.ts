import { describe, expect, it } from "vitest";
import { escapeHtml, renderLinkEmail } from "~/services/email.server";
import { accountOrigin } from "~/services/recovery.server";

const texts = { subject: "Subject", intro: "Line one\nline two\n\nSecond paragraph", callToAction: "Go", outro: "", url: "https://cms.example.test/login/reset?token=abc", footer: "Expires soon." };

describe("the link email template", () => {
  it("escapes every interpolated value", () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
    const { html } = renderLinkEmail("en", { ...texts, subject: "</title><script>1</script>", intro: "<img src=x onerror=alert(1)>", callToAction: `"><b>`, footer: "<i>" });
    expect(html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(html).toContain("&lt;/title&gt;&lt;script&gt;1&lt;/script&gt;");
  });

  it("answers plain text and HTML in the recipient's language, with the link in both", () => {
    const { subject, text, html } = renderLinkEmail("fr", texts);
    expect(subject).toBe("Subject");
    expect(text).toBe("Line one\nline two\n\nSecond paragraph\n\nGo:\nhttps://cms.example.test/login/reset?token=abc\n\nExpires soon.");
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain("Si le bouton ne fonctionne pas");
    expect(html).toContain("Line one<br>line two</p>");
    expect(html.match(/href="https:\/\/cms\.example\.test\/login\/reset\?token=abc"/g)).toHaveLength(2);
  });

  it("refuses a link that is not http(s)", () => {
    expect(() => renderLinkEmail("en", { ...texts, url: "javascript:alert(1)" })).toThrow();
  });
});

describe("accountOrigin", () => {
  const env = { APP_ORIGIN: "https://app.example.test/" };
  it("uses an active custom domain, else the product's origin", () => {
    expect(accountOrigin(env, { customDomain: "cms.brand.test", domainDisabledAt: null })).toBe("https://cms.brand.test");
    expect(accountOrigin(env, { customDomain: "cms.brand.test", domainDisabledAt: new Date() })).toBe("https://app.example.test");
    expect(accountOrigin(env, { customDomain: null, domainDisabledAt: null })).toBe("https://app.example.test");
    expect(accountOrigin(env, { customDomain: "evil.test/phish?", domainDisabledAt: null })).toBe("https://app.example.test");
  });
});
