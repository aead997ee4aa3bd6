/**
 * Micro-benchmark: parse + merge of a 1 MB page with 100 regions (target: under 5 ms CPU, the
 * Workers free plan allows 10 ms per request). Run: `npx tsx bench/regions-merge.ts`.
 * Prints the median and p95 over 50 runs after warm-up, for parse alone, a no-edit merge, and
 * merges editing 1, 10 and all 100 regions (each merge includes parsing the server file, and an
 * edit re-parses the result to check no boundary moved).
 */
import { mergePage } from "../app/lib/regions/merge";
import { parsePage } from "../app/lib/regions/parse-page";
import type { RegionUpdates } from "../app/lib/regions/types";

function buildPage(targetBytes: number, regions: number): string {
  const filler = (i: number) =>
    `<section class="row s${i}"><div class="col-md-6"><h3 class='title'>Item ${i}</h3><p>Lorem ipsum dolor sit amet, ` +
    `<a href="/p/${i}?a=1&amp;b=2" data-x="1 > 0">consectetur</a> adipiscing elit. <img src=img/${i}.jpg alt="">` +
    `<br>Sed do eiusmod tempor incididunt ut labore.</p><ul><li>one<li>two<li>three</ul></div>` +
    `<!-- column ${i} --><script>var x${i} = "<div>" + ${i};</script></section>\n`;
  const head = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Bench</title>` +
    `<meta name="description" content="A large page"><link rel="stylesheet" href="a.css"></head><body>\n`;
  const parts: string[] = [head];
  let size = head.length;
  let i = 0;
  const perRegion = Math.floor(targetBytes / regions);
  for (let r = 0; r < regions; r++) {
    while (size < (r + 1) * perRegion - 400) {
      const f = filler(i++);
      parts.push(f);
      size += f.length;
    }
    const region = r % 3 === 0
      ? `<div class="editable" id="region-${r}"><h2>Region ${r}</h2><p>Some <b>content</b> here.</p></div>\n`
      : r % 3 === 1
        ? `<p class="editable" id="region-${r}">Inline <em>region</em> ${r}</p>\n`
        : `<a class="editable" id="region-${r}" href="/r/${r}">Link ${r}</a>\n`;
    parts.push(region);
    size += region.length;
  }
  parts.push("</body></html>\n");
  return parts.join("");
}

function updates(source: string, count: number): RegionUpdates {
  const page = parsePage(source, "html");
  const out: RegionUpdates = {};
  for (const region of [...page.byId.values()].slice(0, count)) {
    const id = region.id as string;
    if (region.type === "link") out[id] = { type: "link", href: "/new", title: "New", target: "", rel: "", content: "New <b>link</b>" };
    else if (region.type === "inline") out[id] = { type: "inline", content: "New <strong>inline</strong> text" };
    else out[id] = { type: "block", content: "<h2>New</h2><p>New <a href='/x'>block</a> content.</p>" };
  }
  return out;
}

function measure(label: string, fn: () => unknown): number {
  for (let i = 0; i < 10; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const p95 = times[Math.floor(times.length * 0.95)];
  console.log(`${label.padEnd(34)} median ${median.toFixed(2)} ms   p95 ${p95.toFixed(2)} ms`);
  return median;
}

const source = buildPage(1024 * 1024, 100);
const regionCount = parsePage(source, "html").byId.size;
console.log(`page: ${(new TextEncoder().encode(source).length / 1024 / 1024).toFixed(2)} MB, ${regionCount} regions`);
measure("parse", () => parsePage(source, "html"));
measure("parse + merge, no edit", () => mergePage(parsePage(source, "html"), {}));
for (const n of [1, 10, 100]) {
  const u = updates(source, n);
  const median = measure(`parse + merge, ${n} region(s) edited`, () => mergePage(parsePage(source, "html"), { regions: u }));
  if (n === 100) console.log(`target under 5 ms: ${median < 5 ? "met" : "NOT met"} (${median.toFixed(2)} ms)`);
}
