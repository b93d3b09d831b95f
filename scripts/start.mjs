// `npm start`: makes the clone ready, ensures a local API key, then runs `wrangler dev`
// on 127.0.0.1:8787 with state kept under .wrangler/state (survives restarts).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { execSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
execSync("node scripts/prepare.mjs", { cwd: root, stdio: "inherit" });

const devVars = join(root, ".dev.vars");
const current = existsSync(devVars) ? readFileSync(devVars, "utf8") : "";
let keyLine = current.split("\n").find((l) => l.startsWith("TOOLSHED_API_KEYS="));
if (!keyLine) {
  keyLine = `TOOLSHED_API_KEYS=dev=${randomBytes(24).toString("hex")}`;
  writeFileSync(devVars, `${current}${current && !current.endsWith("\n") ? "\n" : ""}${keyLine}\n`, { mode: 0o600 });
  console.log("[start] wrote .dev.vars with a random API key for tenant 'dev'");
}
// send_file's download links are signed with this; without it the Worker derives a key from TOOLSHED_API_KEYS.
if (
  !readFileSync(devVars, "utf8")
    .split("\n")
    .some((l) => l.startsWith("TOOLSHED_SIGNING_KEY="))
) {
  const vars = readFileSync(devVars, "utf8");
  writeFileSync(devVars, `${vars}${vars.endsWith("\n") ? "" : "\n"}TOOLSHED_SIGNING_KEY=${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
  console.log("[start] added a random TOOLSHED_SIGNING_KEY to .dev.vars (signs send_file download links)");
}
const firstKey = keyLine.slice("TOOLSHED_API_KEYS=".length).split(",")[0]?.split("=").slice(1).join("=");
console.log(`
Toolshed is starting on http://127.0.0.1:8787
  API key (from .dev.vars, tenant ${keyLine.slice(18).split("=")[0]}): ${firstKey}
  Try:  curl -s -X POST http://127.0.0.1:8787/v1/sessions -H "Authorization: Bearer ${firstKey}"
`);

const child = spawn("npx", ["wrangler", "dev", "--ip", "127.0.0.1", "--port", "8787", "--persist-to", ".wrangler/state", ...process.argv.slice(2)], {
  cwd: root,
  stdio: "inherit",
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
