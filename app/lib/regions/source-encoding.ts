/**
 * Bytes ⇄ source string, losslessly, and string offsets ⇄ byte offsets.
 *
 * The parser and the merge work on JavaScript strings, so every offset they report is a UTF-16
 * code unit index. A page read from the server is decoded with `decodePageSource`: UTF-8 when the
 * bytes are valid UTF-8 (a BOM is kept as U+FEFF, so it survives), otherwise byte-for-character
 * (`binary`, each byte 0x00–0xFF one character), which round-trips any legacy encoding
 * (windows-1252, ISO-8859-x, Shift_JIS …) without knowing it; the markup is ASCII in all of them.
 * `encodePageSource` gives back the identical bytes for an unchanged string. For a `binary` page
 * the merge must write non-ASCII as character references (`mergePage(…, { asciiOnly: true })`).
 */

export type SourceEncoding = "utf-8" | "binary";

export function decodePageSource(bytes: Uint8Array): { text: string; encoding: SourceEncoding } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), encoding: "utf-8" };
  } catch {
    let text = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    }
    return { text, encoding: "binary" };
  }
}

export function encodePageSource(text: string, encoding: SourceEncoding): Uint8Array {
  if (encoding === "utf-8") return new TextEncoder().encode(text);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) throw new RangeError(`Character U+${c.toString(16)} at ${i} cannot be written to a binary page`);
    bytes[i] = c;
  }
  return bytes;
}

/** The UTF-8 byte length of `text.slice(from, to)`. */
function utf8Length(text: string, from: number, to: number): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Byte offsets of string offsets, for a page decoded as `encoding`: one pass over the text for
 * any number of offsets (given in any order).
 *
 * @example byteOffsets("é<p>", [1], "utf-8") // [2]
 */
export function byteOffsets(text: string, offsets: readonly number[], encoding: SourceEncoding = "utf-8"): number[] {
  if (encoding === "binary") return [...offsets];
  const order = offsets.map((_, i) => i).sort((a, b) => offsets[a] - offsets[b]);
  const out = new Array<number>(offsets.length);
  let at = 0;
  let bytes = 0;
  for (const i of order) {
    bytes += utf8Length(text, at, offsets[i]);
    at = offsets[i];
    out[i] = bytes;
  }
  return out;
}
