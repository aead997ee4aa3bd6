/**
 * How a new site is classified when its owner does not choose (DECISIONS.md, "Commercial-site
 * check"): from its URL and its home page. Commercial wins when the address or the page looks like
 * a business (shop, pricing, cart and checkout words; business top-level domains); otherwise the
 * domain decides between educational, non-profit and personal. Pure string logic: the caller reads
 * the home page through the site's connection.
 *
 * @example classifySite("https://tidewater.shop", "") // "commercial"
 * @example classifySite("https://uni.ac.uk", "<h1>Welcome</h1>") // "educational"
 */
import type { SiteClassification } from "../../db/schema";

const BUSINESS_TLD = /\.(shop|store|biz|company|business|inc|ltd|llc|gmbh|sale|shopping|market|buy|boutique|deals)$/i;
const EDUCATIONAL_TLD = /\.(edu|school|k12\.[a-z]{2}\.us)$|\.(edu|ac|sch)\.[a-z]{2}$/i;
const NON_PROFIT_TLD = /\.(org|ngo|ong|charity|foundation)$|\.org\.[a-z]{2}$/i;
/** One word is common on any site; two of them, or a host named like a shop, mark a business. */
const COMMERCIAL_WORDS = ["shop", "pricing", "cart", "checkout"] as const;

/** The words of the list that the text uses as whole words (so "workshop" is not "shop"). */
export function commercialWords(text: string): string[] {
  return COMMERCIAL_WORDS.filter((word) => new RegExp(`(^|[^a-z0-9])${word}([^a-z0-9]|$)`, "i").test(text));
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
}

export function classifySite(url: string, homePage: string): SiteClassification {
  const host = hostOf(url);
  if (host && BUSINESS_TLD.test(host)) return "commercial";
  const signals = new Set([...commercialWords(homePage.slice(0, 512 * 1024)), ...(/shop|store/.test(host) ? ["shop"] : [])]);
  if (signals.size >= 2) return "commercial";
  if (host && EDUCATIONAL_TLD.test(host)) return "educational";
  if (host && NON_PROFIT_TLD.test(host)) return "non-profit";
  return "personal";
}

/** The home page candidates of a folder listing, in the order a web server would pick them. */
export const HOME_PAGE_NAMES = ["index.html", "index.htm", "index.php", "default.html", "default.htm", "default.aspx", "default.asp", "index.shtml"] as const;
