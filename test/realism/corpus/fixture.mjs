// The small project every corpus call starts in: the files an agent finds in a repository it was
// handed (sources, data, logs, configs, docs, a git-style log). Both sides write them with the same
// bash script (setupScript) and give every file the same fixed time, so listings and diff headers
// agree; each call then runs in its own copy.

const users = [
  "id,name,email,role,age,active",
  "1,Alice Martin,alice@example.com,admin,34,true",
  "2,Bob Stone,bob@example.org,dev,28,true",
  "3,Carol White,carol@example.com,dev,41,false",
  "4,Dan Brown,dan@example.net,ops,39,true",
  "5,Eve Black,eve@example.com,dev,25,true",
  "6,Frank Green,frank@example.org,qa,31,false",
  "7,Grace Hall,grace@example.com,admin,45,true",
  "8,Heidi Klum,heidi@example.net,ops,29,true",
];

const regions = ["north", "south", "east", "west"];
const products = ["widget", "gadget", "gizmo"];
const sales = ["date,region,product,units,price"];
for (let i = 0; i < 24; i++) {
  const d = `2024-0${1 + (i % 3)}-${String(1 + ((i * 7) % 28)).padStart(2, "0")}`;
  sales.push(`${d},${regions[i % 4]},${products[(i * 5) % 3]},${((i * 13) % 17) + 1},${(9.5 + (i % 5) * 2.25).toFixed(2)}`);
}

const paths = ["/", "/api/users", "/api/orders", "/login", "/static/app.js", "/health", "/api/users/7"];
const codes = [200, 200, 200, 404, 500, 301, 200, 201, 403];
const ips = ["10.0.0.1", "10.0.0.2", "192.168.1.10", "172.16.0.5", "10.0.0.1"];
const access = [];
for (let i = 0; i < 40; i++) {
  const method = i % 6 === 0 ? "POST" : "GET";
  access.push(
    `${ips[i % 5]} - - [15/Jan/2024:10:${String(i % 60).padStart(2, "0")}:${String((i * 17) % 60).padStart(2, "0")} +0000] "${method} ${paths[i % 7]} HTTP/1.1" ${codes[i % 9]} ${100 + ((i * 37) % 900)} "-" "curl/7.88"`,
  );
}

const levels = ["INFO", "INFO", "WARN", "ERROR", "DEBUG", "INFO"];
const comps = ["db", "http", "cache", "worker"];
const msgs = ["connection established", "request took 120ms", "retrying in 5s", "timeout after 30s", "cache miss for key user:42", "job finished"];
const app = [];
for (let i = 0; i < 30; i++) {
  app.push(`2024-01-15T${String(8 + (i >> 3)).padStart(2, "0")}:${String((i * 7) % 60).padStart(2, "0")}:00Z ${levels[i % 6]} [${comps[i % 4]}] ${msgs[(i * 5) % 6]}`);
}

const commits = [
  ["a1b2c3d", "2024-03-01", "Alice Martin", "feat(api): add pagination to /users"],
  ["b2c3d4e", "2024-03-02", "Bob Stone", "fix: handle empty CSV rows"],
  ["c3d4e5f", "2024-03-02", "Alice Martin", "docs: describe the config merge"],
  ["d4e5f6a", "2024-03-04", "Carol White", "chore(deps): bump lodash to 4.17.21"],
  ["e5f6a7b", "2024-03-05", "Bob Stone", "feat: health endpoint reports cache state"],
  ["f6a7b8c", "2024-03-07", "Dan Brown", "fix(db): close connections on shutdown"],
  ["a7b8c9d", "2024-03-08", "Eve Black", "refactor: split util.py"],
  ["b8c9d0e", "2024-03-09", "Alice Martin", "feat(cli): --dry-run flag"],
  ["c9d0e1f", "2024-03-11", "Carol White", "fix: typo in error message"],
  ["d0e1f2a", "2024-03-12", "Bob Stone", "test: cover the tar export"],
  ["e1f2a3b", "2024-03-14", "Dan Brown", "ci: cache node_modules"],
  ["f2a3b4c", "2024-03-15", "Eve Black", "feat!: drop Python 3.7 support"],
];

export const FILES = {
  "README.md":
    "# Demo App\n\nA small service used to try things.\n\n## Install\n\nRun `make install`.\n\n## Usage\n\n### CLI\n\nRun `app --help`.\n\n### API\n\nSee docs/api.md.\n\n## Configuration\n\nEdit `config/app.ini`.\n\n## License\n\nMIT\n",
  "docs/guide.md":
    "# Guide\n\n## Getting started\n\nText.\n\n## Deploying to production\n\n### Docker & Compose\n\nMore text.\n\n### Bare metal\n\n```\n# not a heading\n```\n\n## FAQ\n\n## Troubleshooting: common errors\n",
  "docs/api.md": "# API\n\n## GET /users\n\n| field | type |\n|---|---|\n| id | int |\n| name | string |\n\n## POST /orders\n\nCreates an order.\n",
  "data/users.csv": users.join("\n") + "\n",
  "data/sales.csv": sales.join("\n") + "\n",
  "data/items.json":
    JSON.stringify(
      [
        { id: 1, name: "widget", price: 9.5, tags: ["tools", "metal"], stock: 12 },
        { id: 2, name: "gadget", price: 24.0, tags: ["tools"], stock: 0 },
        { id: 3, name: "gizmo", price: 3.25, tags: [], stock: 40 },
        { id: 4, name: "doohickey", price: 14.75, tags: ["misc", "metal"], stock: 5 },
      ],
      null,
      2,
    ) + "\n",
  "package.json":
    JSON.stringify(
      {
        name: "demo-app",
        version: "1.4.2",
        private: true,
        scripts: { build: "tsc -p .", test: "vitest run", lint: "eslint src" },
        dependencies: { express: "^4.18.2", lodash: "4.17.21" },
        devDependencies: { typescript: "^5.3.3", vitest: "^1.2.0" },
      },
      null,
      2,
    ) + "\n",
  "config/app.ini": "; defaults\n[server]\nhost = 0.0.0.0\nport = 8080\nworkers = 4\n\n[database]\nurl = postgres://db:5432/app\npool = 10\n\n[log]\nlevel = info\n",
  "config/local.ini": "[server]\nport = 9090\n\n[log]\nlevel = debug\nfile = /tmp/app.log\n",
  "config/app.env.tmpl": 'APP_NAME=${APP_NAME}\nAPP_PORT=${APP_PORT}\nDB_URL=postgres://${DB_HOST}:5432/${DB_NAME}\nGREETING="hello $USER"\n',
  "config/nginx.conf.tmpl": "server {\n    listen ${PORT};\n    server_name ${DOMAIN};\n    location / {\n        proxy_pass http://127.0.0.1:${APP_PORT};\n    }\n}\n",
  "v1/settings.conf": "name=demo\nversion=1.3.0\ndebug=false\ntimeout=30\nretries=3\nfeatures=a,b\n",
  "v2/settings.conf": "name=demo\nversion=1.4.0\ndebug=false\ntimeout=45\nfeatures=a,b,c\ncache=redis\n",
  "logs/access.log": access.join("\n") + "\n",
  "logs/app.log": app.join("\n") + "\n",
  "git.log": commits.map((c) => c.join("|")).join("\n") + "\n",
  "services.txt": "api 8080 up\nworker 9000 up\ncache 6379 down\ndb 5432 up\nmail 25 degraded\n",
  "src/main.py":
    'import sys\nfrom util import parse\n\n\ndef main(argv):\n    # TODO: validate argv\n    for arg in argv[1:]:\n        print(parse(arg))\n    return 0\n\n\nif __name__ == "__main__":\n    sys.exit(main(sys.argv))\n',
  "src/util.py":
    'def parse(value):\n    """Parse a key=value pair."""\n    key, _, val = value.partition("=")\n    # FIXME: strip quotes\n    return {key: val}\n\n\ndef unused():\n    pass\n',
  "src/app.js":
    "const express = require('express');\nconst { sum } = require('./lib/math');\n\nconst app = express();\n// TODO: read the port from config\napp.get('/health', (req, res) => res.json({ ok: true }));\napp.listen(8080);\nconsole.log('sum', sum(1, 2));\n",
  "src/lib/math.js": "function sum(a, b) {\n  return a + b;\n}\n\nfunction mul(a, b) {\n  return a * b;\n}\n\nmodule.exports = { sum, mul };\n",
  "src/lib/strings.js": "// FIXME: unicode\nexport const upper = (s) => s.toUpperCase();\nexport const lower = (s) => s.toLowerCase();\n",
  "tests/test_util.py": "from util import parse\n\n\ndef test_parse():\n    assert parse('a=1') == {'a': '1'}\n",
  Makefile: "build:\n\tnpm run build\n\ntest:\n\tnpm test\n\n.PHONY: build test\n",
  "notes.txt": "apple banana cherry\nbanana apple\ncherry cherry apple\n\n  indented line  \nTabs\there\tand\tthere\nUPPER lower MiXeD\n",
};

/** One bash script that writes FILES under the current directory and dates them 2024-01-15 12:00 (both sides' clocks are UTC). */
export function setupScript() {
  const parts = [];
  // Written in reverse order of names: a copy (cp -a) of a directory on tmpfs then lists its entries
  // by name, the order Toolshed lists them in (Linux leaves the order of readdir to the file system).
  for (const [path, text] of Object.entries(FILES).sort(([a], [b]) => (a < b ? 1 : -1))) {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir) parts.push(`mkdir -p '${dir}'`);
    if (text.includes("__FX__")) throw new Error(`fixture ${path} holds the here-document's delimiter`);
    // A here-document adds a final newline; every fixture already ends with one.
    parts.push(`cat > '${path}' <<'__FX__'\n${text.replace(/\n$/, "")}\n__FX__`);
  }
  parts.push("find . -exec touch -d '2024-01-15 12:00:00' {} +");
  return parts.join("\n") + "\n";
}
