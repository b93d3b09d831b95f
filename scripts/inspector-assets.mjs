// Copies xterm.js and its fit addon (npm packages) into the inspector's static assets
// (public/inspect/vendor/, not committed), so the Worker serves them from its own origin.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const vendor = join(root, "public", "inspect", "vendor");
const require = createRequire(import.meta.url);
const pkg = (name) => dirname(require.resolve(`${name}/package.json`));
const files = {
  "xterm.js": join(pkg("@xterm/xterm"), "lib/xterm.js"),
  "xterm.css": join(pkg("@xterm/xterm"), "css/xterm.css"),
  "addon-fit.js": join(pkg("@xterm/addon-fit"), "lib/addon-fit.js"),
};

mkdirSync(vendor, { recursive: true });
for (const [name, source] of Object.entries(files)) {
  const target = join(vendor, name);
  if (!existsSync(target) || !readFileSync(target).equals(readFileSync(source))) copyFileSync(source, target);
}
