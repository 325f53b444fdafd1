// Gzip size of the JavaScript and CSS each island set pulls in (static imports only; lazy chunks apart).
// Usage: npm run sizes -- Navbar,CookieConsent [Navbar,CookieConsent,BookingWidget ...]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";

const dist = resolve(import.meta.dirname, "../../static/dist");
const manifest = JSON.parse(readFileSync(resolve(dist, "manifest.json"), "utf8"));
const gz = (file) => gzipSync(readFileSync(resolve(dist, file))).length;

function collect(key, seen) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) collect(dep, seen);
}

function measure(keys) {
  const seen = new Set();
  keys.forEach((key) => collect(key, seen));
  let js = 0;
  let css = 0;
  const lazy = new Set();
  for (const key of seen) {
    js += gz(manifest[key].file);
    for (const file of manifest[key].css ?? []) css += gz(file);
    for (const dyn of manifest[key].dynamicImports ?? []) lazy.add(dyn);
  }
  return { js, css, lazy: [...lazy].filter((key) => !seen.has(key)) };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
for (const set of process.argv.slice(2)) {
  const keys = set.split(",").map((name) => `src/islands/${name}/main.tsx`);
  const { js, css, lazy } = measure(keys);
  console.log(`${set}: JS ${kb(js)} gzip, CSS ${kb(css)} gzip`);
  for (const key of lazy) {
    const sub = measure([key]);
    const shared = measure(keys);
    const extra = measure([...keys, key]);
    console.log(`  on demand ${key}: +JS ${kb(extra.js - shared.js)}, +CSS ${kb(extra.css - shared.css)} (alone ${kb(sub.js)})`);
  }
}
