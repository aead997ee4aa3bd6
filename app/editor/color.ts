/**
 * The Background panel's colour with alpha: what a colour input (#rrggbb) and an opacity slider
 * make of a CSS colour, and back. Only the forms the panel writes are read (hex and rgb/rgba);
 * anything else (a named colour, hsl) is kept as it is until the person picks another colour.
 */

export interface ColorWithAlpha {
  /** "#rrggbb" */
  hex: string;
  /** 0 to 1 */
  alpha: number;
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
const hex2 = (n: number) => clamp(Math.round(n), 0, 255).toString(16).padStart(2, "0");

/**
 * @example parseColor("rgba(246, 227, 198, 0.5)") // { hex: "#f6e3c6", alpha: 0.5 }
 * @example parseColor("#abc") // { hex: "#aabbcc", alpha: 1 }
 */
export function parseColor(value: string): ColorWithAlpha | null {
  const v = value.trim().toLowerCase();
  let m = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(v);
  if (m) {
    let digits = m[1];
    if (digits.length <= 4) digits = [...digits].map((c) => c + c).join("");
    const alpha = digits.length === 8 ? parseInt(digits.slice(6, 8), 16) / 255 : 1;
    return { hex: `#${digits.slice(0, 6)}`, alpha: Math.round(alpha * 100) / 100 };
  }
  m = /^rgba?\(\s*([0-9.]+)[\s,]+([0-9.]+)[\s,]+([0-9.]+)(?:\s*[,/]\s*([0-9.]+)(%?))?\s*\)$/.exec(v);
  if (m) {
    const alpha = m[4] === undefined ? 1 : m[5] ? Number(m[4]) / 100 : Number(m[4]);
    return { hex: `#${hex2(Number(m[1]))}${hex2(Number(m[2]))}${hex2(Number(m[3]))}`, alpha: clamp(alpha, 0, 1) };
  }
  return null;
}

/**
 * The CSS the panel writes: `#rrggbb` when opaque, else `rgba(r, g, b, a)`.
 * @example formatColor({ hex: "#f6e3c6", alpha: 0.5 }) // "rgba(246, 227, 198, 0.5)"
 */
export function formatColor(color: ColorWithAlpha): string {
  const alpha = Math.round(clamp(color.alpha, 0, 1) * 100) / 100;
  if (alpha >= 1) return color.hex.toLowerCase();
  const n = parseInt(color.hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
