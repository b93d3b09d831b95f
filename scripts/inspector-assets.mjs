// Copies xterm.js (an npm package) into the inspector's static assets (public/inspect/vendor/,
// not committed), so the Worker serves it from its own origin like the rest of the page.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const vendor = join(root, "public", "inspect", "vendor");
const xterm = dirname(createRequire(import.meta.url).resolve("@xterm/xterm/package.json"));
const files = { "xterm.js": "lib/xterm.js", "xterm.css": "css/xterm.css" };

mkdirSync(vendor, { recursive: true });
for (const [name, from] of Object.entries(files)) {
  const source = join(xterm, from);
  const target = join(vendor, name);
  if (!existsSync(target) || !readFileSync(target).equals(readFileSync(source))) copyFileSync(source, target);
}
