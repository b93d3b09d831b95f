// Reading a repository's files and logs, the first calls of most agent sessions: one form per
// question, asked of every file or every value that fits (templates × parameters).
import { FILES } from "./fixture.mjs";

const cross = (a, b, f) => a.flatMap((x) => b.map((y) => f(x, y)));
const paths = Object.keys(FILES).sort();

export const files = cross(
  paths,
  [
    "wc -l F",
    "head -n 3 F",
    "tail -n 2 F",
    "cat -n F | head -4",
    "stat -c '%s %n' F",
    "file F",
    "sha1sum F",
    "grep -c . F",
    "cut -c1-40 F | head -3",
    "nl -ba F | tail -1",
    "awk 'END{print NR, length($0)}' F",
    "sed -n '2{p;q}' F",
  ],
  (p, form) => form.replace("F", p),
);

const codes = ["200", "201", "301", "403", "404", "500"];
const ips = ["10.0.0.1", "10.0.0.2", "192.168.1.10", "172.16.0.5"];
const urls = ["/", "/api/users", "/api/orders", "/login", "/static/app.js", "/health", "/api/users/7"];
const levels = ["INFO", "WARN", "ERROR", "DEBUG"];
const comps = ["db", "http", "cache", "worker"];
export const logs = [
  ...cross(
    codes,
    [
      "awk '$9 == C' logs/access.log | wc -l",
      "grep -c '\" C ' logs/access.log",
      "awk '$9 == C {print $7}' logs/access.log | sort | uniq -c | sort -rn",
      "awk '$9 == C {print $1}' logs/access.log | sort -u",
    ],
    (c, f) => f.replaceAll("C", c),
  ),
  ...cross(
    ips,
    [
      "grep -c '^I ' logs/access.log",
      "awk '$1 == \"I\" {print $7}' logs/access.log | sort | uniq -c",
      "awk '$1 == \"I\" {b += $10} END {print b+0}' logs/access.log",
      "grep '^I ' logs/access.log | head -1 | cut -d'[' -f2 | cut -d']' -f1",
    ],
    (i, f) => f.replaceAll("I", i),
  ),
  ...cross(
    urls,
    [
      "grep -c ' U HTTP' logs/access.log",
      "awk '$7 == \"U\" {print $6}' logs/access.log | tr -d '\"' | sort | uniq -c",
      "awk '$7 == \"U\" {s[$9]++} END {for (k in s) print k, s[k]}' logs/access.log | sort",
    ],
    (u, f) => f.replaceAll("U", u),
  ),
  ...cross(levels, comps, (l, c) => `grep -c '${l} \\[${c}\\]' logs/app.log`),
  ...cross(
    levels,
    [
      "awk '$2 == \"L\" {print $1}' logs/app.log | tail -1",
      "grep ' L ' logs/app.log | sed -E 's/^[^ ]+ [A-Z]+ //' | sort | uniq -c",
      "grep -n ' L ' logs/app.log | cut -d: -f1 | head -3 | paste -sd' '",
    ],
    (l, f) => f.replaceAll("L", l),
  ),
  ...["08", "09", "10", "11"].map((h) => `awk -v h=${h} 'substr($1, 12, 2) == h' logs/app.log | wc -l`),
  ...[
    "awk '{print substr($4, 2, 17)}' logs/access.log | cut -d: -f1-2 | uniq -c",
    "awk '{print $4}' logs/access.log | cut -c14-15 | sort | uniq -c",
    "awk -F'\"' '{print $2}' logs/access.log | awk '{print $1}' | sort | uniq -c",
    "awk -F'\"' '{print $6}' logs/access.log | sort | uniq -c",
    "sort -k10,10n logs/access.log | tail -1 | awk '{print $7, $10}'",
    "awk '{print $10}' logs/access.log | sort -n | awk '{a[NR]=$1} END{print a[1], a[int(NR/2)], a[NR]}'",
    "awk '{print $1}' logs/access.log | sort | uniq -c | sort -rn | head -3",
    "grep -E '\" (4|5)[0-9]{2} ' logs/access.log | wc -l",
    "cut -d' ' -f1 logs/access.log | sort -u | wc -l",
    "grep -o 'HTTP/[0-9.]*' logs/access.log | sort | uniq -c",
    'awk \'{ split($4, t, ":"); m[t[2]":"t[3]]++ } END { for (k in m) print k, m[k] }\' logs/access.log | sort | head -3',
    "tail -n 5 logs/access.log | awk '{print $9}' | paste -sd,",
    "awk 'NR % 10 == 0 {print NR\": \"$7}' logs/access.log",
    "sed -E 's/^([0-9.]+) .*\"(GET|POST) ([^ ]+).*/\\1 \\2 \\3/' logs/access.log | head -3",
    "awk '{print $3}' logs/app.log | tr -d '[]' | sort | uniq -c | sort -rn",
    "grep -E 'ERROR|WARN' logs/app.log | awk '{print $2}' | sort | uniq -c",
    "grep -oE '[0-9]+ms' logs/app.log | tr -d ms | sort -n | tail -1",
    "grep -oE 'after [0-9]+s' logs/app.log | sort -u",
    "awk '{$1=\"\"; print}' logs/app.log | sort | uniq -c | sort -rn | head -2",
    "grep -c '' logs/*.log",
    'ls logs | while read -r f; do echo "$f: $(wc -l < logs/$f)"; done',
    "zcat -f logs/app.log | grep -c INFO",
    "awk '/ERROR/ {print prev} {prev = $0}' logs/app.log | head -2",
    "grep -A1 ERROR logs/app.log | grep -v -- -- | head -4",
    "awk '{print $2}' logs/app.log | sort | uniq -c | awk '{printf \"%-6s %s\\n\", $2, $1}'",
  ],
];

const fields = ["id", "name", "price", "stock", "tags"];
export const jsonQueries = [
  ...cross(
    fields,
    [
      "jq -c 'map(.F)' data/items.json",
      "jq -r '.[].F' data/items.json | head -2",
      "jq -c 'sort_by(.F) | map(.id)' data/items.json",
      "jq -c 'group_by(.F) | length' data/items.json",
      "jq -c '[.[] | select(.F != null)] | length' data/items.json",
      "jq -c 'map(.F | type) | unique' data/items.json",
    ],
    (f, q) => q.replaceAll("F", f),
  ),
  ...cross(
    ["name", "version", "scripts", "dependencies", "devDependencies", "private", "main"],
    ["jq -c '.K' package.json", "jq -r '.K | type' package.json", "jq -e 'has(\"K\")' package.json; echo rc=$?"],
    (k, q) => q.replaceAll("K", k),
  ),
];
