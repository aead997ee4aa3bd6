/**
 * Character references: decoding (to compare a submitted value with the file's) and the escaping
 * used when writing text and attribute values.
 *
 * Decodes numeric references and the 253 named references of HTML 4 (with their HTML 5 code
 * points), which is what real pages use; any other named reference is kept as written. Writing
 * never relies on named references except `&amp; &lt; &gt; &quot; &#39;`.
 */

// name:code point in base 36, generated from the WHATWG table (HTML 4 names only).
const TABLE =
  "nbsp:4g iexcl:4h cent:4i pound:4j curren:4k yen:4l brvbar:4m sect:4n uml:4o copy:4p ordf:4q " +
  "laquo:4r not:4s shy:4t reg:4u macr:4v deg:4w plusmn:4x sup2:4y sup3:4z acute:50 micro:51 " +
  "para:52 middot:53 cedil:54 sup1:55 ordm:56 raquo:57 frac14:58 frac12:59 frac34:5a iquest:5b " +
  "Agrave:5c Aacute:5d Acirc:5e Atilde:5f Auml:5g Aring:5h AElig:5i Ccedil:5j Egrave:5k Eacute:5l " +
  "Ecirc:5m Euml:5n Igrave:5o Iacute:5p Icirc:5q Iuml:5r ETH:5s Ntilde:5t Ograve:5u Oacute:5v " +
  "Ocirc:5w Otilde:5x Ouml:5y times:5z Oslash:60 Ugrave:61 Uacute:62 Ucirc:63 Uuml:64 Yacute:65 " +
  "THORN:66 szlig:67 agrave:68 aacute:69 acirc:6a atilde:6b auml:6c aring:6d aelig:6e ccedil:6f " +
  "egrave:6g eacute:6h ecirc:6i euml:6j igrave:6k iacute:6l icirc:6m iuml:6n eth:6o ntilde:6p " +
  "ograve:6q oacute:6r ocirc:6s otilde:6t ouml:6u divide:6v oslash:6w ugrave:6x uacute:6y ucirc:6z " +
  "uuml:70 yacute:71 thorn:72 yuml:73 fnof:b6 Alpha:pd Beta:pe Gamma:pf Delta:pg Epsilon:ph " +
  "Zeta:pi Eta:pj Theta:pk Iota:pl Kappa:pm Lambda:pn Mu:po Nu:pp Xi:pq Omicron:pr Pi:ps Rho:pt " +
  "Sigma:pv Tau:pw Upsilon:px Phi:py Chi:pz Psi:q0 Omega:q1 alpha:q9 beta:qa gamma:qb delta:qc " +
  "epsilon:qd zeta:qe eta:qf theta:qg iota:qh kappa:qi lambda:qj mu:qk nu:ql xi:qm omicron:qn " +
  "pi:qo rho:qp sigmaf:qq sigma:qr tau:qs upsilon:qt phi:qu chi:qv psi:qw omega:qx thetasym:r5 " +
  "upsih:r6 piv:ra bull:6ci hellip:6cm prime:6cy Prime:6cz oline:6da frasl:6dg weierp:6jc " +
  "image:6j5 real:6jg trade:6jm alefsym:6k5 larr:6mo uarr:6mp rarr:6mq darr:6mr harr:6ms crarr:6np " +
  "lArr:6og uArr:6oh rArr:6oi dArr:6oj hArr:6ok forall:6ps part:6pu exist:6pv empty:6px nabla:6pz " +
  "isin:6q0 notin:6q1 ni:6q3 prod:6q7 sum:6q9 minus:6qa lowast:6qf radic:6qi prop:6ql infin:6qm " +
  "ang:6qo and:6qv or:6qw cap:6qx cup:6qy int:6qz there4:6r8 sim:6rg cong:6rp asymp:6rs ne:6sg " +
  "equiv:6sh le:6sk ge:6sl sub:6te sup:6tf nsub:6tg sube:6ti supe:6tj oplus:6tx otimes:6tz " +
  "perp:6ud sdot:6v9 lceil:6x4 rceil:6x5 lfloor:6x6 rfloor:6x7 lang:7vs rang:7vt loz:7gq " +
  "spades:7kw clubs:7kz hearts:7l1 diams:7l2 quot:y amp:12 lt:1o gt:1q apos:13 OElig:9e oelig:9f " +
  "Scaron:9s scaron:9t Yuml:ag circ:jq tilde:kc ensp:6bm emsp:6bn thinsp:6bt zwnj:6bw zwj:6bx " +
  "lrm:6by rlm:6bz ndash:6c3 mdash:6c4 lsquo:6c8 rsquo:6c9 sbquo:6ca ldquo:6cc rdquo:6cd bdquo:6ce " +
  "dagger:6cg Dagger:6ch permil:6cw lsaquo:6d5 rsaquo:6d6 euro:6gc";

const NAMED: ReadonlyMap<string, string> = new Map(
  TABLE.trim()
    .split(/\s+/)
    .map((entry) => {
      const [name, code] = entry.split(":");
      return [name, String.fromCodePoint(parseInt(code, 36))] as const;
    }),
);

// Windows-1252 for the C1 range of numeric references, as browsers do.
const C1 = "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function fromCode(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\ufffd";
  if (code >= 0x80 && code <= 0x9f) return C1[code - 0x80];
  return String.fromCodePoint(code);
}

/** Decodes character references in text or an attribute value. */
export function decodeEntities(raw: string): string {
  if (raw.indexOf("&") < 0) return raw;
  return raw.replace(/&(?:#[xX]([0-9a-fA-F]{1,8});?|#([0-9]{1,9});?|([A-Za-z][A-Za-z0-9]{1,31});)/g, (all, hex, dec, name) => {
    if (hex) return fromCode(parseInt(hex, 16));
    if (dec) return fromCode(parseInt(dec, 10));
    return NAMED.get(name) ?? all;
  });
}

/** Escapes text content: `&`, `<`, `>` (so no tag, comment or `<?php` can start). */
export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"));
}

/** Escapes an attribute value for the given quote (double quotes when unquoted). */
export function escapeAttribute(value: string, quote: '"' | "'" = '"'): string {
  return value.replace(quote === "'" ? /[&<>']/g : /[&<>"]/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;",
  );
}

/** Writes every non-ASCII character as a numeric reference (for pages not stored as UTF-8). */
export function asciiOnly(html: string): string {
  return html.replace(/[^\t\n\r -\u007f]/gu, (c) => `&#${c.codePointAt(0)};`);
}
