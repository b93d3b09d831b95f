// The corpus's third round (issue 26): more calls of the kinds agents type, one per line as typed,
// over the fixture project (fixture.mjs). Each export joins the family of the same kind in
// index.mjs, or starts a family of its own (printf and here-documents, strings, functions and
// arrays, read loops, arithmetic). Deterministic only: no clock, pid, user, host or /proc in the
// output, no pipelines under `set -x`, and only programs a small Debian has.
//
// The calls are written as bash reads them: `lines` takes a template literal's raw text (no
// escapes processed), one call per line; `call` takes one multi-line call. JavaScript keeps two
// spellings for itself, so bash's `${` is written `$\{` and a backquote "\`".

const raw = (s) =>
  s.raw
    .join("")
    .replace(/\$\\\{/g, "${")
    .replace(/\\`/g, "`");
const lines = (s) =>
  raw(s)
    .split("\n")
    .filter((l) => l.trim());
const call = (s) => raw(s).replace(/^\n/, "").replace(/\n$/, "");

export const archives = lines`
tar -czf src.tgz src && tar -tzf src.tgz | grep '\.py$'
tar -czf bundle.tar.gz README.md docs && tar -tzf bundle.tar.gz | sort
tar -czf b.tgz src && mkdir -p restore && tar -xzf b.tgz -C restore src/lib/math.js && find restore -type f
tar -cf d.tar data && tar -xOf d.tar data/users.csv | cut -d, -f2 | tail -n +2
tar -czf c.tgz config && tar -tzf c.tgz | awk -F/ '$NF!=""{print $NF}' | sort
mkdir -p release/demo-app-1.4.2 && cp -r src README.md package.json release/demo-app-1.4.2/ && tar -C release -czf demo-app-1.4.2.tgz demo-app-1.4.2 && tar -tzf demo-app-1.4.2.tgz | sort | head -5
tar -czf logs.tgz logs && rm -r logs && tar -xzf logs.tgz logs/app.log && ls logs
tar -czf s.tgz src && tar -tzf s.tgz | grep -c ''
tar -cf a.tar src && tar -tf a.tar src/lib/ | sort
tar -czf a.tgz src docs && tar -xzf a.tgz -O docs/api.md | grep '^## '
tar -czf x.tgz --transform 's,^src,app,' src && tar -tzf x.tgz | sort
tar -czf x.tgz -C data users.csv sales.csv && tar -tzf x.tgz
tar -cf x.tar -C src main.py -C ../docs api.md && tar -tf x.tar
tar -czf x.tgz src tests && mkdir t && tar -xzf x.tgz -C t tests && find t | sort
tar -czf x.tgz src && tar -tzf x.tgz | sed 's|/$||' | awk -F/ '{print NF-1, $0}' | sort -n | tail -3
tar -czf x.tgz src && tar -xzf x.tgz src/nope.py 2>&1; echo rc=$?
tar -czf x.tgz nosuchdir; echo rc=$?
tar cf - src | tar tf - | wc -l
for a in src docs; do tar -czf "$a.tgz" "$a" && echo "$a.tgz: $(tar -tzf "$a.tgz" | wc -l) entries"; done
tar -czf x.tgz src && tar -xzvf x.tgz -C . src/main.py
tar -czf x.tgz src && mkdir o && tar -xzf x.tgz -C o --exclude='*.js' && find o -type f | sort
mkdir -p backup && tar -czf backup/config.tgz config && tar -tzf backup/config.tgz | while read -r f; do [ -f "$f" ] && echo "ok $f"; done
tar -czf x.tgz src && tar -tzf x.tgz > manifest.txt && wc -l < manifest.txt && head -1 manifest.txt
gzip -c data/sales.csv > sales.csv.gz && zcat sales.csv.gz | awk -F, 'NR>1{u+=$4} END{print u}'
gzip -k logs/app.log && gunzip -c logs/app.log.gz | grep -c ERROR
gzip -t data/users.csv 2>&1; echo rc=$?
cp services.txt s.txt && gzip s.txt && gzip -d s.txt.gz && cmp s.txt services.txt && echo restored
tar -czf x.tgz src && mkdir n && (cd n && tar -xzf ../x.tgz src/lib && find . -type f | sort)
tar --exclude='*.md' -czf x.tgz docs README.md src && tar -tzf x.tgz | grep -c md
tar -czf x.tgz -T <(printf '%s\n' src/main.py data/users.csv) && tar -tzf x.tgz
tar -cf x.tar src && tar -tf x.tar | head -1
tar -czf x.tgz src && tar -tzf x.tgz | grep -v '/$' | xargs -n1 dirname | sort -u
tar -czf site.tgz docs README.md && mkdir -p public && tar -xzf site.tgz -C public && ls public public/docs
tar -czf x.tgz config && tar -xzf x.tgz --to-stdout config/local.ini | grep -c =
tar -czf x.tgz src && tar -xzf x.tgz -C . --strip-components=2 src/lib && ls *.js
tar -czf x.tgz data && tar -tzf x.tgz | awk -F. '/\./{print $NF}' | sort | uniq -c
tar --list -f nothing.tar 2>&1 | head -1; echo rc=$?
tar -cf x.tar src && tar -tf x.tar --exclude='*.py' | sort
`;

export const config = [
  ...lines`
awk -F' = ' '/^\[/{s=substr($0,2,length($0)-2); next} NF==2{print s"."$1"="$2}' config/app.ini
awk -F' = ' '/^\[/{s=substr($0,2,length($0)-2); next} NF==2{print s"."$1"="$2}' config/app.ini config/local.ini | awk -F= '{v[$1]=$2} END{for(k in v) print k"="v[k]}' | sort
get_ini() { sed -n "/^\[$1\]/,/^\[/{s/^$2 *= *//p}" config/app.ini; }; get_ini server port; get_ini database url; get_ini log level
ini_get() { awk -F' *= *' -v s="[$2]" -v k="$3" '$0==s{f=1;next} /^\[/{f=0} f&&$1==k{print $2}' "$1"; }; echo "port=$(ini_get config/local.ini server port) level=$(ini_get config/local.ini log level)"
grep -v '^[;#]' config/app.ini | grep -v '^$'
sed -e 's/;.*//' -e '/^\s*$/d' config/app.ini | wc -l
crudini --get config/app.ini server port 2>&1; echo rc=$?
printf 'APP_PORT=8080\nAPP_NAME=my app\n' > app.env.example && while IFS='=' read -r k v; do printf 'export %s=%q\n' "$k" "$v"; done < app.env.example
APP_NAME=web APP_PORT=3000 DB_HOST=db DB_NAME=prod envsubst < config/app.env.tmpl
export APP_NAME=x; envsubst '$APP_NAME' < config/app.env.tmpl | head -3
envsubst -v 'name $A and $\{B} but not $'
DB_HOST=pg DB_NAME=main envsubst '$\{DB_HOST} $\{DB_NAME}' < config/app.env.tmpl | grep DB_URL
grep -o '$\{[A-Z_]*}' config/app.env.tmpl config/nginx.conf.tmpl | sort -u
grep -oh '$\{[A-Z_]*}' config/*.tmpl | tr -d '$\{}' | sort -u | paste -sd' '
PORT=1; for v in $(grep -oh '$\{[A-Z_]*}' config/*.tmpl | tr -d '$\{}' | sort -u); do [ -n "$\{!v:-}" ] || echo "unset: $v"; done
sed 's/\$\{\([A-Z_]*\)}/{{\1}}/g' config/nginx.conf.tmpl | head -3
PORT=80; DOMAIN=example.org; APP_PORT=3000; sed -e "s/\$\{PORT}/$PORT/" -e "s/\$\{DOMAIN}/$DOMAIN/" -e "s/\$\{APP_PORT}/$APP_PORT/" config/nginx.conf.tmpl
PORT=7000; port=$(awk -F' = ' '/^port/{print $2}' config/local.ini); echo "$\{PORT:-$\{port:-8080}}"; unset PORT; echo "$\{PORT:-$\{port:-8080}}"
awk -F= 'NR==FNR{a[$1]=$2; next} {a[$1]=$2} END{for(k in a) print k"="a[k]}' v1/settings.conf v2/settings.conf | sort
comm -13 <(cut -d= -f1 v1/settings.conf | sort) <(cut -d= -f1 v2/settings.conf | sort)
declare -A cfg; while IFS='=' read -r k v; do cfg[$k]=$v; done < v2/settings.conf; echo "$\{cfg[name]} $\{cfg[version]} $\{cfg[cache]}"; echo "$\{#cfg[@]} keys"
while IFS= read -r line; do [[ $line =~ ^\[(.*)\]$ ]] && sec=$\{BASH_REMATCH[1]} && continue; [[ $line =~ ^([a-z]+)\ =\ (.*)$ ]] && echo "$\{sec^^}_$\{BASH_REMATCH[1]^^}=$\{BASH_REMATCH[2]}"; done < config/app.ini
sed -n 's/^\([a-z]*\) = \(.*\)/\1="\2"/p' config/local.ini > local.sh && . ./local.sh && echo "$port $level $file"
jq -n --arg p "$(sed -n 's/^port = //p' config/app.ini)" '{port: ($p|tonumber)}' -c
awk -F' = ' '/^\[/{if(s) printf "},"; s=substr($0,2,length($0)-2); printf "\"%s\":{", s; n=0; next} NF==2{printf "%s\"%s\":\"%s\"", (n++?",":""), $1, $2} END{print "}"}' config/app.ini | sed 's/^/{/; s/$/}/' | jq -c .
sed -i.bak 's/^port = .*/port = 9999/' config/app.ini && diff config/app.ini.bak config/app.ini; echo rc=$?
cp config/app.ini new.ini && printf '\n[cache]\nbackend = redis\n' >> new.ini && grep -c '^\[' new.ini
grep -A2 '^\[database\]' config/app.ini
awk '/^\[log\]/{f=1} f && /^level/{sub(/=.*/, "= warn")} 1' config/app.ini | tail -2
envsubst < config/nginx.conf.tmpl | sed -n 2,3p | cat -A
printf 'name=%s\nport=%d\n' demo 8080 > gen.conf && cat gen.conf
awk -F= -v OFS='=' '$1=="timeout"{$2=$2*2} 1' v1/settings.conf
sed -n '/^features=/{s/.*=//; s/,/\n/g; p}' v2/settings.conf
grep -h '^version=' v*/settings.conf | sort -t= -k2 -V | tail -1
for f in v1 v2; do printf '%s: ' "$f"; grep -c . "$f/settings.conf"; done
`,
  call`
name=demo port=8080
cat > app.conf <<EOF
[app]
name = $name
port = $port
EOF
cat app.conf`,
  call`
cat > defaults.conf <<'EOF'
color=blue
size=10
mode=fast
EOF
printf 'size=12\nextra=yes\n' > user.conf
awk -F= '{cfg[$1]=$2; if (!($1 in seen)) {seen[$1]=1; order[++n]=$1}} END {for (i=1;i<=n;i++) print order[i] "=" cfg[order[i]]}' defaults.conf user.conf`,
];

export const changelog = [
  ...lines`
awk -F'|' '{print "- " $4 " (" $1 ")"}' git.log | head -3
grep -E '\|(feat|fix)' git.log | wc -l
awk -F'|' '$4 ~ /!:/ || $4 ~ /BREAKING/ {print "BREAKING: " $4}' git.log
awk -F'|' '{t=$4; sub(/[(:!].*/,"",t); s=substr($4, index($4,":")+2); g[t]=g[t] "\n- " s} END{n=asorti(g,k); for(i=1;i<=n;i++) print "### " k[i] g[k[i]] "\n"}' git.log
for type in feat fix docs chore; do n=$(grep -c "|$type[(:!]" git.log); printf '%-6s %2d\n' "$type" "$n"; done
awk -F'|' '$2 >= "2024-03-05" && $2 <= "2024-03-10"' git.log | cut -d'|' -f1,4
echo "Contributors: $(cut -d'|' -f3 git.log | sort -u | paste -sd, | sed 's/,/, /g')"
awk -F'|' '{print substr($2,1,7)}' git.log | uniq -c
grep -oE '\(([a-z]+)\)' git.log | tr -d '()' | sort | uniq -c | sort -rn
sed -E 's/^([^|]*)\|([^|]*)\|([^|]*)\|(.*)$/\2 \1 \4/' git.log | head -4
while IFS='|' read -r hash date author subject; do echo "$date $\{hash:0:4} $\{subject%%:*}"; done < git.log | tail -4
jq -Rn '[inputs | split("|") | {type: (.[3] | capture("^(?<t>[a-z]+)").t)}] | group_by(.type) | map({(.[0].type): length}) | add' git.log -c
jq -R 'split("|") | {h: .[0], s: .[3]}' git.log | jq -s 'length'
tac git.log | head -3 | cut -d'|' -f4
awk -F'|' 'BEGIN{print "| Commit | Date | Summary |"; print "|---|---|---|"} {printf "| \`%s\` | %s | %s |\n", $1, $2, $4}' git.log | head -5
prev=1.4.2; IFS=. read -r ma mi pa <<< "$prev"; if grep -q '|feat!' git.log; then ma=$((ma+1)); mi=0; pa=0; elif grep -q '|feat' git.log; then mi=$((mi+1)); pa=0; else pa=$((pa+1)); fi; echo "next: $ma.$mi.$pa"
grep -n 'Alice' git.log | cut -d: -f1 | paste -sd' '
awk -F'|' '{a[$3]=a[$3] ? a[$3] ", " $1 : $1} END{for(k in a) print k ": " a[k]}' git.log | sort
sed -n '/2024-03-07/,/2024-03-11/p' git.log | cut -d'|' -f4
cut -d'|' -f4 git.log | sed -E 's/^([a-z]+)(\([^)]*\))?!?: //' | awk '{print length, $0}' | sort -rn | head -2
cut -d'|' -f4 git.log | grep -vE '^(feat|fix|docs|chore|refactor|test|ci)(\(.+\))?!?: '; echo "nonconforming rc=$?"
printf '%s\n' "## Unreleased" "" > CHANGELOG.md; awk -F'|' '{print "- " $4}' git.log >> CHANGELOG.md; sed -n '1,4p' CHANGELOG.md; wc -l < CHANGELOG.md
tr '|' ',' < git.log | head -2
awk -F'|' 'NR%3==0' git.log | cut -d'|' -f1
last_fix=$(grep '|fix' git.log | tail -1 | cut -d'|' -f2); echo "last fix on $last_fix"
awk -F'|' '{d[$2]++} END{for(k in d) if(d[k]>1) print k, d[k]}' git.log
echo "$(wc -l < git.log) commits since v1.4.2"
awk -F'|' '{printf "%-8s %-12s %s\n", $1, $3, $4}' git.log | sed -n '1p;$p'
grep -i 'cache' git.log | cut -d'|' -f1 | xargs echo
awk -F'|' '$4 ~ /^fix/ {sub(/^fix(\([a-z]+\))?: /, "", $4); print toupper(substr($4,1,1)) substr($4,2)}' git.log
`,
  call`
version=$(jq -r .version package.json)
{
  echo "# Release v$version"
  echo
  echo "## Features"
  grep '|feat' git.log | cut -d'|' -f4 | sed 's/^feat[^:]*: /- /'
  echo
  echo "## Fixes"
  grep '|fix' git.log | cut -d'|' -f4 | sed 's/^fix[^:]*: /- /'
} > RELEASE.md
cat RELEASE.md`,
  call`
declare -A title=([feat]="Features" [fix]="Bug Fixes" [docs]="Documentation")
for t in feat fix docs; do
  entries=$(awk -F'|' -v t="$t" '$4 ~ "^" t {print "* " $4 " (" $1 ")"}' git.log)
  [ -n "$entries" ] || continue
  printf '### %s\n\n%s\n\n' "$\{title[$t]}" "$entries"
done`,
];

const backup = `cat > backup.sh <<'EOF'
#!/bin/bash
verbose=0; out=backup; keep=3
usage() { echo "usage: backup.sh [-v] [-o DIR] [-k N] PATH..." >&2; exit 2; }
while getopts ':vo:k:' opt; do
  case $opt in
    v) verbose=1 ;;
    o) out=$OPTARG ;;
    k) keep=$OPTARG ;;
    :) echo "option -$OPTARG needs a value" >&2; exit 2 ;;
    \\?) echo "unknown option -$OPTARG" >&2; usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] && usage
[[ $keep =~ ^[0-9]+$ ]] || { echo "keep must be a number: $keep" >&2; exit 2; }
mkdir -p "$out"
for p in "$@"; do
  [ -e "$p" ] || { echo "skip missing $p" >&2; continue; }
  name=$(basename "$p")
  tar -czf "$out/$name.tgz" "$p"
  [ $verbose -eq 1 ] && echo "saved $p -> $out/$name.tgz"
done
files=("$out"/*)
echo "keep=$keep files=\${#files[@]}"
EOF
chmod +x backup.sh; `;
const backupArgs = ["-v src", "-o out -k 5 src docs", "-k x src", "-o", "-z src", "", "-v nosuch src", "-vk2 -o b2 config"];

const builder = `cat > build.sh <<'EOF'
#!/usr/bin/env bash
set -eu
mode=debug; jobs=1; targets=()
while getopts 'rj:t:' o; do
  case $o in
    r) mode=release ;;
    j) jobs=$OPTARG ;;
    t) targets+=("$OPTARG") ;;
    *) exit 64 ;;
  esac
done
set -x
out="dist/$mode"
mkdir -p "$out"
for t in "\${targets[@]:-all}"; do
  echo "building $t with $jobs jobs" > "$out/$t.log"
done
(( jobs > 4 )) && echo "many jobs" || true
[[ $mode == release ]] && cp README.md "$out/"
set +x
ls "$out"
EOF
`;
const builderArgs = ["", "-r", "-j 8 -t api -t web", "-r -t cli", "-x", "-j"];

export const getopts = [
  ...backupArgs.map((a) => `${backup}./backup.sh ${a}; echo "exit=$?"`),
  ...backupArgs.map((a) => `${backup}bash -x backup.sh ${a} 2>&1; echo "exit=$?"`),
  ...builderArgs.map((a) => `${builder}bash build.sh ${a} 2>&1; echo "exit=$?"`),
  ...lines`
set -x; name=world; greeting="hello $name"; echo "$greeting"
set -x; f() { return 3; }; f || echo "f failed with $?"
set -x; if [ -f package.json ]; then v=$(jq -r .version package.json); fi; echo "$v"
set -x; until [ "$\{n:=0}" -ge 2 ]; do n=$((n+1)); done
set -x; arr=(a b); arr+=(c); echo "$\{#arr[@]}"
set -x; x=5; (( x *= 2 )); echo $x
set -x; cd src && cd ..
set -x; echo 'single' "double" $'ansi\n'
set -x; true && false || echo recovered
set -x; for f in src/*.py; do echo "$\{f##*/}"; done
set -x; printf -v out '%05d' 42; echo "$out"
set -x; v=1; unset v; echo "$\{v:-unset}"
set -x; exec 3>out.txt; echo hi >&3; exec 3>&-; cat out.txt
set -x; { echo grouped; echo twice; } > g.txt; wc -l < g.txt
set -x; OPTIND=1; while getopts 'x:y' opt -x 1 -y; do echo "$opt $\{OPTARG-}"; done
set -x; getopts ':a:' opt -a; echo "$opt $OPTARG"
set -x; set -- -f file.txt -v; while getopts 'f:v' o; do case $o in f) file=$OPTARG;; v) verbose=1;; esac; done; echo "$file $verbose"
set -x; show() { echo "$1"; shift; echo "$#"; }; show a b c
set -x; [ -d src ] && [ ! -e nope ] && echo checks
set -x; n=$(( 2 + 3 )); echo "$n"
`,
  call`
set -x
cat <<EOF > note.txt
home=$\{HOME:+set}
EOF
cat note.txt`,
  call`
usage() { echo "usage: $0 -n NAME [-c COUNT]"; }
name= count=1
set -- -n widget -c 3
while getopts 'n:c:h' flag; do
  case "$flag" in
    n) name=$OPTARG ;;
    c) count=$OPTARG ;;
    h) usage; exit 0 ;;
    *) usage >&2; exit 1 ;;
  esac
done
set -x
for ((i = 1; i <= count; i++)); do echo "$name #$i"; done`,
];

export const csvJson = lines`
jq -Rsc 'split("\n") | map(select(length > 0) | split(",")) | .[0] as $h | .[1:] | map([$h, .] | transpose | map({(.[0]): .[1]}) | add)' data/users.csv | jq '.[2].name'
awk -F, 'NR>1{printf "%s{\"id\":%d,\"name\":\"%s\"}", (NR>2?",":"["), $1, $2} END{print "]"}' data/users.csv | jq -c 'map(.id)'
jq -Rn '[inputs | split(",") | select(.[0] != "id") | {id: (.[0]|tonumber), active: (.[5] == "true")}] | map(select(.active)) | length' data/users.csv
jq -Rn 'input | split(",")' data/sales.csv -c
jq -Rn '[inputs | split(",")] | .[1:] | map({region: .[1], rev: ((.[3]|tonumber) * (.[4]|tonumber))}) | group_by(.region) | map({region: .[0].region, total: (map(.rev) | add)})' data/sales.csv -c
jq -Rn '[inputs | split(",")] | .[1:] | map(.[2]) | unique' data/sales.csv -c
tail -n +2 data/users.csv | while IFS=, read -r id name email role age active; do jq -nc --arg n "$name" --arg r "$role" --argjson a "$age" '{name: $n, role: $r, age: $a}'; done | head -3
jq -r '.[] | [.id, .name, (.tags | join("|"))] | @csv' data/items.json
jq -r '.[] | [.name, .price] | @tsv' data/items.json
jq -r '.[0] | keys_unsorted | map(select(. != "tags")) | @csv' data/items.json
awk -F, 'NR==1{split($0,h); next} {printf "{"; for(i=1;i<=NF;i++) printf "%s\"%s\":\"%s\"", (i>1?",":""), h[i], $i; print "}"}' data/users.csv | head -2
jq '[.[].price] | add' data/items.json
jq '[.[] | .price * .stock] | add' data/items.json
jq -r '.[] | select(.tags | index("metal")) | .name' data/items.json
jq -c 'map({(.name): .stock}) | add' data/items.json
jq -c 'INDEX(.name) | map_values(.price)' data/items.json
jq -r 'to_entries[] | "\(.key)\t\(.value.name)"' data/items.json
cut -d, -f1,2,4 data/users.csv | sed 's/,/;/g' | head -3
awk -F, 'NR>1{s+=$5; if(min==""||$5<min)min=$5; if($5>max)max=$5} END{printf "min=%d max=%d avg=%.2f\n", min, max, s/(NR-1)}' data/users.csv
jq -Rn '[inputs | split(",")] | (.[0] | map(ascii_upcase)) as $h | .[1:3] | map([$h, .] | transpose | map({key: .[0], value: .[1]}) | from_entries)' data/users.csv -c
paste -d, <(cut -d, -f2 data/users.csv) <(cut -d, -f4 data/users.csv) | head -3
jq -r '["name","stock"], (.[] | [.name, .stock]) | @tsv' data/items.json | column -t
mlr --icsv --ojson cat data/users.csv 2>&1 | head -1; echo rc=$?
jq -nr '[1,"two",3.5] | @csv'
jq -r '@sh "echo \(.[0].name)"' data/items.json
jq -r '.[] | "\(.id),\(.name | ascii_upcase),\(.price)"' data/items.json
jq --slurp --raw-input 'split("\n")[:-1] | length' data/users.csv
jq -Rn --arg role dev '[inputs | split(",") | select(.[3] == $role) | .[1]]' data/users.csv -c
awk -F, 'NR>1{print $4}' data/users.csv | sort | uniq -c | awk '{printf "%s\"%s\":%d", (NR>1?",":"{"), $2, $1} END{print "}"}' | jq -c .
jq -r '.[] | select(.stock == 0) | "out of stock: \(.name)"' data/items.json
jq -c '[.[] | {name, tags: (.tags | length)}] | sort_by(-.tags) | .[0]' data/items.json
jq -r 'map(.price) | "min=\(min) max=\(max)"' data/items.json
jq -Rn '[inputs | split(",") | .[4]] | .[1:] | map(tonumber) | {n: length, sum: add}' data/users.csv -c
awk 'BEGIN{FS=","; OFS="\t"} {$1=$1; print}' data/users.csv | head -2 | cat -A
`;

export const toc = lines`
grep -n '^#' README.md
awk '/^#+ /{level=length($1); sub(/^#+ /,""); printf "%*s- %s\n", (level-1)*2, "", $0}' README.md
grep '^##' docs/guide.md | sed -E 's/^(#+) (.*)/\1|\2/' | awk -F'|' '{ind=""; for(i=3;i<=length($1);i++) ind=ind "  "; slug=tolower($2); gsub(/[^a-z0-9 -]/,"",slug); gsub(/ /,"-",slug); print ind "- [" $2 "](#" slug ")"}'
awk '/^\`\`\`/{f=!f} !f && /^## /' docs/guide.md
for f in README.md docs/*.md; do printf '%s %d\n' "$f" "$(grep -c '^#' "$f")"; done
grep -E '^#{1,6} ' docs/guide.md | awk '{print $1}' | sort | uniq -c
{ head -1 README.md; echo; echo '## Contents'; grep '^## ' README.md | sed 's/## \(.*\)/- \1/'; tail -n +2 README.md; } > R.md && sed -n 1,9p R.md
sed -n 's/^## //p' README.md | nl -w1 -s') '
grep -E '^#+ ' README.md | awk '{ $1 = ""; print substr($0, 2) }' | paste -sd'|'
grep -oE '^## [A-Z]+ /[a-z]+' docs/api.md
grep -h '^## ' README.md docs/*.md | sort | uniq -d; echo rc=$?
awk -F'|' '/^\| [a-z]/{gsub(/ /,""); print $2"="$3}' docs/api.md
grep '^### ' docs/guide.md | sed -E 's/^### //; s/./\L&/g; s/[^a-z0-9 ]//g; s/ /-/g'
awk 'BEGIN{print "<ul>"} /^## /{sub(/^## /,""); print "  <li>" $0 "</li>"} END{print "</ul>"}' README.md
sed '/^\`\`\`/,/^\`\`\`/d' docs/guide.md | grep -c '^#'
grep '^## ' README.md | sed 's/^## /* /' > toc.md && wc -l toc.md
while read -r hashes title; do echo "$\{#hashes} $title"; done < <(grep '^#' README.md)
grep -m2 '^## ' README.md
awk '/^## /{n++} END{print n " sections"}' README.md docs/guide.md docs/api.md
grep -o '^#*' README.md | awk '{print length}' | sort -n | tail -1
awk '/^## /{if (sec) print sec ": " n " lines"; sec=substr($0,4); n=0; next} sec{n++} END{print sec ": " n " lines"}' README.md
grep -c '^|' docs/api.md
awk 'FNR==1{print "## " FILENAME} /^## /{print "  -" substr($0,3)}' README.md docs/api.md
`;

export const health = [
  ...lines`
check() { if [ -e "$1" ]; then echo "PASS $1"; else echo "FAIL $1"; fi; }; for f in package.json src/app.js dist/index.js; do check "$f"; done
required=(package.json README.md Makefile LICENSE); missing=0; for f in "$\{required[@]}"; do [ -f "$f" ] || { echo "missing: $f"; missing=$((missing+1)); }; done; echo "$missing missing"; [ $missing -eq 0 ]
grep -q '"test"' package.json && echo 'test script present'
err=$(grep -c ERROR logs/app.log); warn=$(grep -c WARN logs/app.log); if [ "$err" -gt 3 ]; then echo "CRITICAL: $err errors"; exit 2; elif [ "$warn" -gt 0 ]; then echo "WARNING: $warn warnings"; exit 1; fi; echo OK
rate=$(awk '$9>=500{e++} END{printf "%.1f", e*100/NR}' logs/access.log); echo "5xx rate: $rate%"
awk '{print $3}' services.txt | sort | uniq -c | awk '{printf "%s=%s ", $2, $1} END{print ""}'
awk '{print $1, $3}' services.txt | jq -Rn '[inputs | split(" ") | {(.[0]): (.[1] == "up")}] | add' -c
if grep -qv ' up$' services.txt; then echo degraded; else echo healthy; fi
grep -E 'down|degraded' services.txt | while read -r n p s; do echo "ALERT $n ($p) is $s"; done
kill -0 $$ && echo 'shell alive'
( sleep 5 & pid=$!; kill -0 $pid && echo running; kill $pid; wait $pid; echo "exit=$?" )
timeout 0.2 sleep 2; echo rc=$?
for f in data/*.csv; do n=$(head -1 "$f" | tr ',' '\n' | wc -l); bad=$(awk -F, -v n=$n 'NF!=n' "$f" | wc -l); echo "$f: $n cols, $bad bad rows"; done
jq -e '.scripts.test' package.json >/dev/null && echo has-tests; jq -e '.scripts.deploy' package.json >/dev/null || echo no-deploy
[ -r config/app.ini ] && [ -s config/app.ini ] && echo 'config readable'
port=$(sed -n 's/^port = //p' config/app.ini); if [[ $port =~ ^[0-9]+$ ]] && (( port > 0 && port < 65536 )); then echo "port $port valid"; fi
grep ERROR logs/app.log | tail -1 | cut -d' ' -f1
checks=0 fails=0; run_check() { checks=$((checks+1)); if "$@" >/dev/null 2>&1; then printf '  ✓ %s\n' "$*"; else printf '  ✗ %s\n' "$*"; fails=$((fails+1)); fi; }; run_check test -f package.json; run_check grep -q express package.json; run_check test -d node_modules; echo "$((checks-fails))/$checks passed"
echo ok > status && [ "$(cat status)" = ok ] && echo healthy
if [ -e app.lock ]; then echo locked; else touch app.lock && echo acquired; fi; [ -e app.lock ] && echo 'lock present'
grep -c 'HTTP/1.1" 5' logs/access.log
printf '{"status":"%s","checks":%d}\n' ok 3 | jq -r .status
jq -e '.ok' <<< '{"ok":false}'; echo rc=$?
jq -e '.missing' package.json; echo rc=$?
for svc in api db cache; do state=$(awk -v s=$svc '$1==s{print $3}' services.txt); printf '%-6s %s\n' "$svc" "$\{state:-unknown}"; done
test -x src/main.py || echo 'main.py not executable'; chmod +x src/main.py && test -x src/main.py && echo now-executable
command -v jq >/dev/null && echo 'jq installed'; command -v nosuchtool >/dev/null || echo 'nosuchtool missing'
for cmd in tar gzip jq awk sed; do command -v "$cmd" >/dev/null 2>&1 || echo "missing: $cmd"; done; echo checked
`,
  call`
status=0
while read -r name port state; do
  case $state in
    up) ;;
    degraded) echo "WARN $name"; [ $status -lt 1 ] && status=1 ;;
    *) echo "CRIT $name"; status=2 ;;
  esac
done < services.txt
echo "status=$status"
exit $status`,
];

export const traps = [
  ...lines`
trap 'echo "caught EXIT"' EXIT; echo working
cleanup() { rm -rf work && echo "removed work"; }; trap cleanup EXIT; mkdir work && touch work/a && ls work
set -e; trap 'echo "failed at line $LINENO" >&2' ERR; echo start; false; echo unreachable
trap 'echo interrupted; exit 130' INT; kill -INT $$; echo not-reached
trap 'echo term' TERM; kill -TERM $$; echo after-term
( trap 'echo sub-exit' EXIT; echo in-sub ); echo "after sub"
trap 'echo first' EXIT; trap 'echo second' EXIT; echo body
trap -p EXIT; trap 'echo x' EXIT; trap -p EXIT
trap '' INT; kill -INT $$; echo ignored
f() { trap 'echo "return from f"' RETURN; echo body; }; f; echo done
set -E; trap 'echo "ERR in $\{FUNCNAME[0]:-main}"' ERR; inner() { false; }; inner; echo ok
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT && cp services.txt "$tmp/" && ls "$tmp"
trap 'echo "exit code $?"' EXIT; exit 7
trap 'echo cleanup >&2' EXIT; echo out
bash -c 'trap "rm -f app.lock" EXIT; touch app.lock; echo held'; ls app.lock 2>&1; echo rc=$?
trap 'echo "count=$count"' EXIT; count=0; for i in 1 2 3; do count=$((count+i)); done
trap 'echo caught USR2' USR2; kill -USR2 $$; kill -USR2 $$; echo twice
bash -c 'trap "echo child-exit" EXIT; exit 3'; echo "child rc=$?"
trap 'echo in-trap; false' EXIT; true
set -u; trap 'echo "unbound caught rc=$?"' EXIT; echo "$undefined_var"
trap 'rm -f part.*; echo cleaned' EXIT; split -l 2 services.txt part. && ls part.* | wc -l
on_exit() { local rc=$?; [ $rc -ne 0 ] && echo "build failed ($rc)"; }; trap on_exit EXIT; grep -q nope services.txt
trap 'echo ERR $LINENO' ERR; false; true; echo end
kill -l 15; kill -l TERM
trap 'echo done' EXIT; set -e; grep -q api services.txt; echo found
trap 'echo "cleanup ran"; exit 0' EXIT; false; exit 3
`,
  call`
set -euo pipefail
workdir=$(mktemp -d)
cleanup() {
  local rc=$?
  rm -rf "$workdir"
  echo "cleanup done (rc=$rc)"
}
trap cleanup EXIT
cp data/users.csv "$workdir/"
wc -l < "$workdir/users.csv"
grep -q nobody "$workdir/users.csv"
echo unreachable`,
  call`
stack=()
push_cleanup() { stack+=("$1"); }
run_cleanups() { for ((i=$\{#stack[@]}-1; i>=0; i--)); do eval "$\{stack[i]}"; done; }
trap run_cleanups EXIT
mkdir a && push_cleanup 'rmdir a; echo "removed a"'
touch f && push_cleanup 'rm f; echo "removed f"'
echo working`,
];

export const builds = [
  ...lines`
RED=$'\e[31m'; GREEN=$'\e[32m'; RESET=$'\e[0m'; for s in lint test build; do printf '%s[ OK ]%s %s\n' "$GREEN" "$RESET" "$s"; done | cat -v
step() { printf '\033[1;34m==>\033[0m \033[1m%s\033[0m\n' "$*"; }; step Installing deps; step Compiling
title="Build Report"; w=$(( $\{#title} + 4 )); line=$(printf '%*s' $w '' | sed 's/ /═/g'); printf '╔%s╗\n║  %s  ║\n╚%s╝\n' "$line" "$title" "$line"
printf '┌%s┬%s┐\n' "$(printf '─%.0s' {1..10})" "$(printf '─%.0s' {1..8})"; printf '│%-10s│%8s│\n' stage status lint ok test ok; printf '└%s┴%s┘\n' "$(printf '─%.0s' {1..10})" "$(printf '─%.0s' {1..8})"
for i in 1 2 3 4; do printf '\r[%-4s] %d%%' "$(printf '#%.0s' $(seq $i))" $((i*25)); done; echo
NO_COLOR=1; c() { [ -n "$\{NO_COLOR:-}" ] && printf '%s' "$2" || printf '\e[%sm%s\e[0m' "$1" "$2"; }; c 32 ok; echo
[ -t 1 ] && echo tty || echo 'not a tty'
if [ -t 1 ]; then C=$'\e[32m'; N=$'\e[0m'; else C=; N=; fi; echo "$\{C}done$\{N}"
echo "$TERM"
SECONDS=0; echo build; echo "took $\{SECONDS}s"
for os in linux darwin; do for arch in amd64 arm64; do echo "app-$os-$arch"; done; done
ver=$(jq -r .version package.json); sed "s/__VERSION__/$ver/" <<< 'const VERSION = "__VERSION__";'
{ echo '[1/2] compile'; echo '[2/2] link'; } | tee build.log | sed 's/^/  /'; wc -l < build.log
set -e; build() { echo compiling; return 2; }; build || { rc=$?; echo "build failed: $rc" >&2; exit $rc; }
printf '\e[1m%-10s\e[0m %s\n' Name demo-app Version 1.4.2 | sed 's/\x1b\[[0-9]*m//g'
printf '%s\n' 'lint ok' 'test passed' 'build done' | awk '{if(length>m)m=length; a[NR]=$0} END{s=""; for(i=0;i<m+2;i++) s=s "─"; print "┌" s "┐"; for(i=1;i<=NR;i++) printf "│ %-" m "s │\n", a[i]; print "└" s "┘"}'
passed=3 failed=1; printf '✔ %d passed  ✖ %d failed\n' $passed $failed
mkdir -p dist && cp src/*.py dist/ && (cd dist && sha256sum *.py > SHA256SUMS && sha256sum -c SHA256SUMS)
echo -e '\033[1;31mERROR\033[0m build broke' | cat -v
printf '%b\n' '\e[33mwarn\e[0m' | od -c | head -1
printf '%.0s=' $(seq 1 30); echo
targets=$(grep -oE '^[a-z]+:' Makefile | tr -d ':' | paste -sd' '); echo "targets: $targets"
log() { local lvl=$1; shift; case $lvl in info) c=36;; warn) c=33;; err) c=31;; esac; printf '\e[%sm%-5s\e[0m %s\n' "$c" "$\{lvl^^}" "$*"; }; log info start; log warn slow; log err failed
printf '%s\n' '━━━ stage 1: lint ━━━' '━━━ stage 2: test ━━━' | sed 's/━//g; s/^ *//; s/ *$//'
w=30; for s in fetch compile; do printf '%s %s %s\n' "$s" "$(printf '.%.0s' $(seq $((w - $\{#s} - 4))))" OK; done
`,
  call`
set -e
stages=(clean deps compile package)
clean() { rm -rf dist; }
deps() { mkdir -p dist/lib && cp src/lib/*.js dist/lib/; }
compile() { for f in src/*.py; do sed '/^\s*#/d' "$f" > "dist/$(basename "$f")"; done; }
package() { tar -czf dist.tgz dist; }
for s in "$\{stages[@]}"; do printf '\e[36m[%s]\e[0m\n' "$s"; "$s"; done
tar -tzf dist.tgz | sort`,
  call`
BOLD=$'\033[1m'; DIM=$'\033[2m'; OK=$'\033[32m✓\033[0m'; FAIL=$'\033[31m✗\033[0m'; RST=$'\033[0m'
run_stage() {
  local name=$1; shift
  printf '%s▶ %s%s\n' "$BOLD" "$name" "$RST"
  if "$@" > "stage-$name.log" 2>&1; then
    printf '  %s %s\n' "$OK" "$name"
  else
    printf '  %s %s %s(see stage-%s.log)%s\n' "$FAIL" "$name" "$DIM" "$name" "$RST"
    return 1
  fi
}
run_stage lint grep -q express src/app.js
run_stage test test -d tests
run_stage build false || echo "build stage failed"
ls stage-*.log`,
];

export const diffs = lines`
diff -u v1/settings.conf v2/settings.conf | grep -c '^[+-][^+-]'
diff -u v1/settings.conf v2/settings.conf | awk '/^\+[^+]/{a++} /^-[^-]/{d++} END{printf "+%d -%d\n", a, d}'
diff --side-by-side --suppress-common-lines -W 50 v1/settings.conf v2/settings.conf
diff -c v1/settings.conf v2/settings.conf
diff <(sort v1/settings.conf) <(sort v2/settings.conf) | grep '^>' | cut -c3-
comm -3 <(sort v1/settings.conf) <(sort v2/settings.conf) | sed 's/^\t/    + /'
join -t= -a1 -a2 -e '(none)' -o 0,1.2,2.2 <(sort v1/settings.conf) <(sort v2/settings.conf) | awk -F= '$2!=$3{printf "%-10s %-8s -> %s\n", $1, $2, $3}'
cp README.md R2.md && sed -i 's/MIT/Apache-2.0/' R2.md && diff README.md R2.md
cp README.md R2.md && sed -i 's/MIT/Apache-2.0/' R2.md && diff -u --label old --label new README.md R2.md
cp -r src s2 && echo x >> s2/app.js && touch s2/new.txt && diff -qr src s2 | sort
cp -r src s2 && echo x >> s2/app.js && diff -r --exclude='*.js' src s2 && echo 'same apart from js'
diff -w <(printf 'a  b\n') <(printf 'a b\n') && echo ws-equal
diff -i <(echo Hello) <(echo hello) && echo case-equal
diff -B <(printf 'a\n\nb\n') <(printf 'a\nb\n'); echo rc=$?
diff <(jq -S . package.json) <(jq -S '.version="1.5.0"' package.json)
cmp services.txt services.txt && echo same; cmp -s services.txt README.md || echo differ
cmp -l <(printf abc) <(printf abd)
diff /dev/null services.txt | head -3
diff nosuch.txt services.txt; echo rc=$?
diff --unchanged-line-format= --old-line-format='-%L' --new-line-format='+%L' v1/settings.conf v2/settings.conf
diff -e v1/settings.conf v2/settings.conf
diff -u --label a/settings.conf --label b/settings.conf v1/settings.conf v2/settings.conf > p.diff; cp v1/settings.conf s.conf && patch -s s.conf < p.diff && cmp s.conf v2/settings.conf && echo patched
diff -u --label a --label b v1/settings.conf v2/settings.conf > p.diff; patch --dry-run v1/settings.conf < p.diff; echo rc=$?
for f in v1/settings.conf config/app.ini; do if diff -q "$f" "$f" >/dev/null; then echo "unchanged $f"; fi; done
diff -y -W 40 <(cut -d= -f1 v1/settings.conf) <(cut -d= -f1 v2/settings.conf)
diff <(ls src) <(ls src/lib); echo rc=$?
diff -q <(jq -c . data/items.json) <(jq -c . data/items.json) && echo 'json equal'
diff --color=never -u --label x --label y <(seq 3) <(seq 0 3)
`;

export const logs = lines`
awk '{print $1}' logs/access.log | sort | uniq -c | sort -rn
awk '{print $9}' logs/access.log | sort | uniq -c | sort -k2n
awk '$9 >= 400 {print $7}' logs/access.log | sort | uniq -c | sort -rn | head -3
grep -oE '"(GET|POST) [^ ]+' logs/access.log | cut -d' ' -f2 | sort | uniq -c | sort -rn | head -3
awk '{bytes[$1]+=$10} END{for(ip in bytes) print ip, bytes[ip]}' logs/access.log | sort -k2 -rn
awk -F'[][]' '{split($2,t,":"); print t[2]":"t[3]}' logs/access.log | sort | uniq -c | head -3
grep -c '"POST' logs/access.log
awk '{print $4}' logs/access.log | cut -c2- | cut -d: -f1 | sort -u
awk '{s+=$10} END{printf "total %d bytes, avg %.1f\n", s, s/NR}' logs/access.log
awk '{print $2}' logs/app.log | sort | uniq -c
grep -E 'ERROR|WARN' logs/app.log | awk '{print $3}' | sort | uniq -c
sed -n 's/.*\[\([a-z]*\)\].*/\1/p' logs/app.log | sort | uniq -c | sort -rn
awk '$2=="ERROR"{print $1, $4, $5, $6}' logs/app.log | head -3
grep -oE '[0-9]+ms' logs/app.log | tr -d ms | sort -n | uniq -c
awk '{h=substr($1,12,2); c[h]++} END{for(k in c) print k, c[k]}' logs/app.log | sort
grep -n 'timeout' logs/app.log | head -2 | cut -d: -f1
awk '/ERROR/{e++} /WARN/{w++} END{print "errors="e+0, "warnings="w+0}' logs/app.log
grep -B1 -A1 'ERROR' logs/app.log | head -7
tail -5 logs/app.log | cut -d' ' -f2-
awk 'BEGIN{FS="\""} {split($2,r," "); print r[1]}' logs/access.log | sort | uniq -c
jq -Rn '[inputs | capture("^(?<ts>\\S+) (?<lvl>[A-Z]+) \\[(?<comp>[a-z]+)\\] (?<msg>.*)$")] | group_by(.lvl) | map({(.[0].lvl): length}) | add' logs/app.log -c
awk '$9==404 || $9==403' logs/access.log | wc -l
grep -v ' 200 ' logs/access.log | awk '{print $9}' | sort -u | paste -sd,
awk '{print $1}' logs/access.log | sort -u | while read -r ip; do printf '%-14s %s\n' "$ip" "$(grep -c "^$ip " logs/access.log)"; done
awk '{ua[$12]++} END{for(u in ua) print ua[u], u}' logs/access.log
head -1 logs/app.log | cut -d' ' -f1; tail -1 logs/app.log | cut -d' ' -f1
sort -k2,2 -s logs/app.log | head -3
awk '$1 >= "2024-01-15T09:00:00Z" && $1 < "2024-01-15T10:00:00Z"' logs/app.log | wc -l
gzip -c logs/app.log > app.log.1.gz && cat logs/app.log <(zcat app.log.1.gz) | grep -c INFO
grep -h 'users' logs/access.log | awk '{print $7}' | sort | uniq -c
awk '{split($7, p, "/"); print "/" p[2]}' logs/access.log | sort | uniq -c | sort -rn
awk '{k=$1" "$9} !seen[k]++' logs/access.log | wc -l
grep -E '"GET /api/users/[0-9]+' logs/access.log | awk '{print $1, $9}'
awk -v OFS='\t' '{print $9, $7}' logs/access.log | sort -u | head -4
awk '$10 > 800 {print $7, $10}' logs/access.log | sort -k2 -n | tail -3
tac logs/app.log | grep -m1 ERROR
grep -o '\[[a-z]*\]' logs/app.log | sort | uniq -c | awk '{print $2, $1}'
`;

export const findXargs = lines`
find . -name '*.py' -o -name '*.js' | sort
find src -type f -exec basename {} \; | sort
find . -type f -name '*.md' | xargs grep -l 'API' | sort
find . -type f -newer README.md | sort
find . -type f -empty; touch e.txt; find . -type f -empty
find . -name '*.csv' -exec sh -c 'printf "%s: %s rows\n" "$1" "$(($(wc -l < "$1") - 1))"' _ {} \; | sort
find src -name '*.js' -print0 | xargs -0 grep -c 'function' | sort
find . -maxdepth 2 -type d -name 'lib'
find . -type f | wc -l
find . -type f -name '*.py' | xargs -I{} cp {} {}.bak && find . -name '*.bak' | sort
find . -type f -regex '.*/[a-z]+\.py' | sort
find . -type f \( -name '*.ini' -o -name '*.conf' \) | sort
find . -type f -name '*.log' -exec grep -c ERROR {} +
find . -mindepth 2 -type f -path '*src*' | sort
find . -type f -printf '%f\n' | sort | head -5
find . -type f -printf '%d %p\n' | sort -n | tail -3
find docs -type f -name '*.md' -delete && ls docs | wc -l
find . -type f -name '*.txt' | sed 's|.*/||' | sort
printf '%s\n' src/*.py | xargs -I{} sh -c 'echo "== {}"; head -1 {}'
find src -type f | sort | xargs -n2 echo
find . -name '*.js' | sort | xargs sed -n '1p'
echo src docs config | xargs -n1 sh -c 'echo "$0: $(find "$0" -type f | wc -l)"'
find . -type f -size -200c | sort
find . -not -name '*.py' -type f -path './src/*' | sort
find . -type f -name '*.py' -exec grep -Hn 'TODO\|FIXME' {} + | sort
xargs -a <(printf '%s\n' a b c) -I{} echo item-{}
printf '%s\0' 'a b' c | xargs -0 -n1 printf '[%s]\n'
seq 10 | xargs -n3 | awk '{print NF}'
find . -type d | sort | sed 's|[^/]*/|  |g'
find . -type f -name '*.js' | xargs wc -l | sort -n | tail -1
find . -type f -name '*.json' -exec jq -r 'type' {} \; | sort | uniq -c
find src tests -name '*.py' | sort | xargs grep -h '^def ' | sed 's/(.*//'
find . -type f -iname '*.MD' | sort
find . -path ./src -prune -o -name '*.py' -print
find . -type f -name 'nosuch*' | xargs -r rm; echo rc=$?
printf 'a.txt\nb.txt\n' | xargs touch && ls a.txt b.txt
find . -maxdepth 1 -type f -name '*.txt' -exec wc -w {} + | sort -n
find . -type f -name '*.csv' | xargs -n1 head -1 | sort
`;

export const sortUniq = lines`
sort -t, -k4,4 -k5,5nr data/users.csv | cut -d, -f2,4,5 | head -5
tail -n +2 data/users.csv | sort -t, -k5 -n | cut -d, -f2 | head -3
cut -d, -f4 data/users.csv | tail -n +2 | sort | uniq -c | sort -k1,1nr -k2
join -t, <(tail -n +2 data/users.csv | cut -d, -f1,2 | sort -t, -k1,1) <(printf '1,200\n3,50\n7,120\n')
join -1 2 -2 1 <(sort -k2 services.txt) <(printf '25 smtp\n5432 postgres\n8080 http\n' | sort)
comm -12 <(cut -d, -f3 data/sales.csv | tail -n +2 | sort -u) <(jq -r '.[].name' data/items.json | sort)
comm -23 <(jq -r '.[].name' data/items.json | sort) <(cut -d, -f3 data/sales.csv | sort -u)
paste -d, <(seq 3) <(printf 'a\nb\nc\n')
paste - - < services.txt
paste -sd' ' services.txt | wc -w
sort -k3,3 -k1,1 services.txt
sort -t'|' -k2,2r -k1,1 git.log | head -3 | cut -d'|' -f1,2
sort -V <(printf '%s\n' v1.10 v1.2 v1.9 v2.0)
sort -h <(printf '%s\n' 10K 2M 512 1G)
sort -c services.txt; echo rc=$?
sort -n -k2 services.txt | sort -c -n -k2 && echo sorted
uniq -u <(printf 'a\na\nb\nc\nc\n')
uniq -i <(printf 'A\na\nB\n')
uniq -f1 <(printf '1 x\n2 x\n3 y\n')
uniq -w3 <(printf 'abc1\nabc2\nabd\n')
cut -d, -f2 data/sales.csv | tail -n +2 | sort | uniq -c | awk '{print $2": "$1}'
join -t, -a1 -e 0 -o 0,2.2 <(printf 'a,1\nb,2\nc,3\n') <(printf 'a,x\nc,z\n')
printf 'b 1\na 2\n' > l.txt; printf 'a x\nb y\n' > r.txt; join l.txt r.txt; echo rc=$?
sort -m <(printf '1\n3\n') <(printf '2\n4\n')
tail -n +2 data/sales.csv | sort -t, -k1.6,1.7 -k1.9,1.10 -s | head -3 | cut -d, -f1
sort -o services.txt services.txt && cat services.txt
paste -d'\n' <(seq 2) <(printf 'a\nb\n')
comm <(printf 'a\nb\nc\n') <(printf 'b\nc\nd\n')
printf '%s\n' 1e3 5 2.5e1 | sort -g
tr -s ' \t' '\n' < notes.txt | sort | uniq -c | sort -k1,1nr -k2,2 | head -4
sort -t, -k3 data/sales.csv | tail -n +2 | head -2 | cut -d, -f1,3
sort -u -k3,3 services.txt
cut -d, -f2,3 data/sales.csv | sort -u | wc -l
uniq -c <(sort <(cut -d'|' -f3 git.log)) | sort -rn | head -1
sort -k2,2n -k1,1r <(printf 'b 2\na 1\nc 2\n')
join -t= -o 1.1,2.2 <(sort v1/settings.conf) <(sort v2/settings.conf)
paste -d: <(cut -d' ' -f1 services.txt) <(cut -d' ' -f3 services.txt) | sort -t: -k2
comm -2 -3 <(seq 1 5) <(seq 3 7)
`;

export const printfHeredoc = [
  ...lines`
printf '%-15s %8s %6s\n' Name Price Stock; jq -r '.[] | "\(.name) \(.price) \(.stock)"' data/items.json | while read -r n p s; do printf '%-15s %8.2f %6d\n' "$n" "$p" "$s"; done
printf '%05.1f|%+d|%x|%o|%e\n' 3.14159 42 255 8 12345.678
printf '%s=%s\n' a 1 b 2 c
printf '%c%c\n' hello world
printf '%*d|%-*d|\n' 5 42 5 42
printf '%.3s\n' abcdef
printf '%b' 'tab\there\n'
printf "%'d\n" 1234567
printf '%d\n' 0x10 010 "'A"
printf '%d\n' abc; echo rc=$?
printf -v line '%*s' 20 ''; echo "$\{line// /-}"
TZ=UTC printf '%(%Y-%m-%d)T\n' 86400
wc -l <<< "$(printf 'a\nb\nc')"
tr a-z A-Z <<< 'shout'
printf 'Total: %6.2f\n' "$(awk -F, 'NR>1{s+=$4*$5} END{print s}' data/sales.csv)"
printf '%s\t%s\n' key value | cat -A
printf '%i items\n' 3
printf '%%s literal\n'
printf 'no newline'; echo ' then echo'
printf '%s\n' | wc -l
printf '%10.4f|\n' 3.14159265
printf '%-8s|%8s|\n' left right
printf '%s\n' "$\{undefined_array[@]:-empty}"
printf '%3s|%-3s|%03d\n' 7 7 7
printf '%x %X %#x %#o\n' 255 255 255 8
printf '%s %s\n' one
printf '%.2e\n' 0.000123
printf '[%5.1f%%]\n' 42.25
jq -n --argjson n 3 '{n: $n}' -c
`,
  call`
cat <<EOF
Name: $(jq -r .name package.json)
Version: $(jq -r .version package.json)
Deps: $(jq '.dependencies | length' package.json)
EOF`,
  call`
cat <<'EOF'
$HOME stays literal
\`not run\` and $(not run either)
EOF`,
  "cat <<-EOF\n\tindented with a tab\n\t\ttwo tabs\n\tEOF\necho after",
  call`
while read -r line; do echo "> $line"; done <<EOF
first
second
EOF`,
  call`
{ cat <<A; cat <<B; }
one
A
two
B`,
  call`
cat > script.sh <<'EOF'
#!/bin/bash
echo "args: $#"
for a; do echo "- $a"; done
EOF
bash script.sh x 'y z'`,
  call`
sql=$(cat <<SQL
SELECT *
FROM users
WHERE role = 'dev';
SQL
)
echo "$sql" | tr '\n' ' '; echo`,
  call`
cat <<EOF | sed 's/^/  /'
line a
line b
EOF`,
  call`
n=3
cat <<EOF > report.md
# Report

Items: $n
Total: $(( n * 4 ))
Escaped: \$n
EOF
cat report.md`,
  call`
python_code=$(cat <<'PY'
import sys
print("hello")
PY
)
echo "$python_code" | grep -c import`,
  call`
cat <<EOF > config.json
{
  "name": "$(jq -r .name package.json)",
  "port": 8080
}
EOF
jq -c . config.json`,
  call`
cat <<"END"
quoted "END" delimiter: $PATH
END`,
];

export const strings = lines`
s='Hello, World'; echo "$\{s,,} $\{s^^} $\{s/World/There} $\{#s}"
path=/usr/local/lib/app.tar.gz; echo "$\{path##*/} $\{path%/*} $\{path##*.} $\{path%%.*}"
s=abcdef; echo "$\{s:2} $\{s:0:2} $\{s: -3:2}"
url='https://example.com:8443/api/v1?x=1'; proto=$\{url%%://*}; rest=$\{url#*://}; host=$\{rest%%[:/]*}; port=$\{rest#*:}; port=$\{port%%/*}; echo "$proto $host $port"
s='a-b-c'; echo "$\{s//-/_}" "$\{s/-/+}" "$\{s/#a/A}" "$\{s/%c/C}"
csv='x,y,z'; IFS=, read -ra parts <<< "$csv"; echo "$\{#parts[@]} $\{parts[1]}"
name=report; ext=$\{name##*.}; [ "$ext" = "$name" ] && echo 'no extension'
s='  trim me  '; read -r t <<< "$s"; echo "[$t]"
[[ 'v1.4.2' =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] && echo "$\{BASH_REMATCH[1]}-$\{BASH_REMATCH[2]}-$\{BASH_REMATCH[3]}"
s=hello; for ((i=$\{#s}-1; i>=0; i--)); do r+=$\{s:i:1}; done; echo "$r"
word=banana; echo "$\{word//[^a]/}" | wc -c
str='one two three'; set -- $str; echo "$# $2"
s=MiXeD; echo "$\{s~~}"
var=; echo "$\{var:-default} $\{var:=assigned} $var"
unset u; echo "$\{u-unset} $\{u:+set}x"
s='key: value'; echo "$\{s%%:*}" "$\{s#*: }"
x='a b  c'; echo $x; echo "$x"
s=$(printf '%s' {a..e}); echo "$s $\{s:1:3}"
echo {1..5} {a..c} {01..03} {1..10..3}
echo file{A,B}.{txt,md}
str='path/to/file'; IFS=/ read -ra seg <<< "$str"; echo "$\{seg[-1]} $\{#seg[@]}"
str=abc; echo "$\{str@Q}" "$\{str@U}"
n=007; echo $((10#$n + 1))
grep -o . <<< 'hello' | sort | uniq -c | sort -k1,1rn -k2 | head -2
echo 'camelCaseString' | sed -E 's/([A-Z])/_\L\1/g'
echo 'snake_case_here' | awk -F_ '{for(i=1;i<=NF;i++) printf "%s%s", (i>1 ? toupper(substr($i,1,1)) substr($i,2) : $i), (i==NF ? "\n" : "")}'
echo 'Hello World' | rev
s='a,b;c d'; echo "$\{s//[,; ]/|}"
s='x=1'; [[ $s == *=* ]] && echo "has equals: key=$\{s%%=*}"
v='1.4.2'; echo "$\{v//./}" "$\{v%%.*}" "$\{v#*.}"
s='The quick brown fox'; echo "$s" | wc -w; echo "$\{#s}"
name='my file.txt'; echo "$\{name// /_}"
text='ERROR: disk full'; [[ $text == ERROR:* ]] && echo "level=$\{text%%:*} msg=$\{text#*: }"
str='aaa'; echo "$\{str/a/b} $\{str//a/b}"
printf '%s\n' "$\{PATH%%:*}"
s='hello'; echo "$\{s^}" "$\{s^^[lo]}"
a='foo'; b='bar'; c="$a$b"; echo "$\{c} $\{#c}"; c+='baz'; echo "$c"
echo 'a:b:c' | cut -d: -f2- | tr : ' '
echo '  lots   of   space  ' | xargs
expr index abcdef d; expr substr hello 2 3
echo "$(tr '[:upper:]' '[:lower:]' <<< 'MiXeD Case')"
line='key = some value'; k=$\{line%% =*}; v=$\{line#*= }; echo "[$k] [$v]"
`;

export const functionsArrays = lines`
fruits=(apple banana cherry); fruits+=(date); echo "$\{#fruits[@]} $\{fruits[-1]} $\{fruits[@]:1:2}"
a=(3 1 2); IFS=$'\n' s=($(printf '%s\n' "$\{a[@]}" | sort -n)); unset IFS; echo "$\{s[*]}"
declare -A port=([api]=8080 [db]=5432); for k in $(echo "$\{!port[@]}" | tr ' ' '\n' | sort); do echo "$k=$\{port[$k]}"; done
mapfile -t lines < services.txt; echo "$\{#lines[@]}: $\{lines[2]}"
readarray -t cols < <(head -1 data/users.csv | tr , '\n'); printf '%s|' "$\{cols[@]}"; echo
arr=(a b c d); unset 'arr[1]'; echo "$\{arr[@]} $\{!arr[@]} $\{#arr[@]}"
sum() { local t=0; for n; do ((t += n)); done; echo $t; }; sum 1 2 3 4
max() { local m=$1; shift; for n; do ((n > m)) && m=$n; done; echo "$m"; }; max 3 9 2 7
fact() { (( $1 <= 1 )) && echo 1 || echo $(( $1 * $(fact $(( $1 - 1 ))) )); }; fact 6
fib() { local a=0 b=1 i; for ((i=0; i<$1; i++)); do printf '%d ' $a; ((b = a + b, a = b - a)); done; echo; }; fib 10
greet() { local name=$\{1:?name required}; echo "hi $name"; }; greet bob; greet; echo rc=$?
counter=0; inc() { counter=$((counter+1)); }; inc; inc; inc; echo $counter
f() { local x=inner; g; }; g() { echo "x=$x"; }; x=outer; f; g
ret() { return 42; }; ret; echo $?
f() { echo "$# args: $*"; }; f "a b" c; f
arr=(one two three); for i in "$\{!arr[@]}"; do echo "$i: $\{arr[i]}"; done
declare -a nums=(5 3 8); echo $(( nums[0] + nums[2] ))
declare -A m; for i in 1 2; do for j in 1 2; do m[$i,$j]=$((i*j)); done; done; echo "$\{m[2,2]} $\{m[1,2]}"
a=(x y 'z w'); b=("$\{a[@]}"); echo "$\{#b[@]} $\{b[2]}"
arr=(a b c); (IFS=,; echo "$\{arr[*]}")
contains() { local e; for e in "$\{@:2}"; do [[ $e == "$1" ]] && return 0; done; return 1; }; contains b a b c && echo found; contains z a b c || echo missing
upper() { tr '[:lower:]' '[:upper:]' <<< "$1"; }; upper hello
local x=1; echo rc=$?
walk() { local d=$1 p=$2 e; for e in "$d"/*; do echo "$p$\{e##*/}"; [ -d "$e" ] && walk "$e" "$p  "; done; }; walk src ''
typeset -i n=5; n+=3; echo $n
f() { echo "$\{FUNCNAME[0]}:$LINENO"; }; f
arr=( $(seq 3) ); echo "$\{arr[@]/#/n}"
declare -A h; h[a]=1; [[ -v h[a] ]] && echo has-a; [[ -v h[b] ]] || echo no-b
a=(1 2 3); echo "$\{a[@]:1}" "$\{#a[*]}" "$\{a[*]: -1}"
out=$(f() { echo captured; }; f); echo "$out"
stack=(); stack+=(a); stack+=(b); top=$\{stack[-1]}; unset 'stack[-1]'; echo "$top $\{#stack[@]}"
declare -A seen; for w in b a b c a; do [[ -n $\{seen[$w]:-} ]] && continue; seen[$w]=1; echo "$w"; done
keys=(name version); for k in "$\{keys[@]}"; do printf '%s=%s\n' "$k" "$(jq -r ".$k" package.json)"; done
split() { local IFS=$2; read -ra out <<< "$1"; printf '%s\n' "$\{out[@]}"; }; split 'a:b:c' :
repeat() { local i; for ((i=0; i<$2; i++)); do printf '%s' "$1"; done; echo; }; repeat ab 3
is_num() { [[ $1 =~ ^-?[0-9]+$ ]]; }; for v in 12 -3 x1 ''; do is_num "$v" && echo "$v: number" || echo "'$v': not"; done
declare -f sum 2>/dev/null || echo 'no function sum'; sum() { echo s; }; declare -F sum
files=(src/*.py); echo "$\{#files[@]} python files: $\{files[*]##*/}"
arr=(c b a); for ((i=$\{#arr[@]}-1; i>=0; i--)); do printf '%s ' "$\{arr[i]}"; done; echo
f() { local -a list=("$@"); echo "$\{#list[@]}"; }; f a 'b c' d
`;

export const readLoops = lines`
while IFS=, read -r id name _; do [ "$id" = id ] && continue; echo "$id:$name"; done < data/users.csv | head -3
n=0; while read -r _; do ((n++)); done < services.txt; echo $n
while read -r a b c; do echo "$c $b $a"; done < services.txt
cat services.txt | while read -r n _; do last=$n; done; echo "last=$\{last:-unset}"
while read -r n _; do last=$n; done < services.txt; echo "last=$last"
while IFS= read -r line || [ -n "$line" ]; do echo "[$line]"; done < <(printf 'a\nno-newline')
while read -r -d '' f; do echo "got $f"; done < <(find src -name '*.py' -print0 | sort -z)
i=0; while IFS= read -r line; do i=$((i+1)); printf '%3d  %s\n' $i "$line"; done < src/lib/math.js | head -4
read -r first rest <<< 'one two three'; echo "$first|$rest"
read -r -a words <<< 'x y z'; echo "$\{words[2]}"
IFS=: read -r a b c <<< 'p:q:r:s'; echo "$c"
while read -r line; do case $line in *ERROR*) echo "E: $\{line##*] }";; esac; done < logs/app.log | head -3
exec 3< services.txt; read -r l1 <&3; read -r l2 <&3; exec 3<&-; echo "$l1 / $l2"
read -n 3 x <<< 'abcdef'; echo "$x"
read -r -d , field <<< 'a,b'; echo "$field"
read -p 'Name: ' name <<< 'bob'; echo "hello $name"
yes | head -3
while read -r k v; do printf '%s=%q\n' "$k" "$v"; done <<< $'a 1\nb two words'
paste -d' ' - - <<< $'k1\nv1\nk2\nv2'
while IFS='|' read -r h d a s; do [[ $a == Bob* ]] && echo "$h $s"; done < git.log
total=0; while IFS=, read -r _ _ _ units price; do [[ $units == units ]] && continue; total=$((total + units)); done < data/sales.csv; echo "units=$total"
while read -r name port state; do [ "$state" = up ] || continue; echo "$name:$port"; done < services.txt | paste -sd' '
declare -A by; while IFS=, read -r id name email role rest; do [ "$id" = id ] && continue; by[$role]+="$\{name%% *} "; done < data/users.csv; for r in admin dev ops qa; do echo "$r: $\{by[$r]}"; done
while read -r line; do echo "$\{#line}"; done < notes.txt | paste -sd' '
while IFS= read -r line; do echo "$\{#line}"; done < notes.txt | paste -sd' '
{ read -r h; echo "header: $h"; cat | wc -l; } < data/users.csv
while read -r f; do printf '%s %s\n' "$(wc -l < "$f")" "$f"; done < <(find src -type f -name '*.py' | sort)
cnt=0; while read -r -n1 ch; do [[ $ch == a ]] && ((cnt++)); done <<< 'banana'; echo $cnt
mapfile -t -s 1 -n 2 rows < data/users.csv; printf '%s\n' "$\{rows[@]}"
while read -r x; do echo $((x * x)); done < <(seq 4)
until ! read -r line; do echo "got: $line"; done <<< $'one\ntwo'
lineno=0; while IFS= read -r l; do ((++lineno)); [[ $l == '#'* ]] && echo "$lineno: $l"; done < README.md
`;

export const arith = lines`
echo $(( 7 / 2 )) $(( 7 % 3 )) $(( 2 ** 10 )) $(( -7 / 2 ))
echo $(( (3 + 4) * 2 - 1 ))
x=10; (( x += 5, x *= 2 )); echo $x
echo $(( 1 << 4 )) $(( 255 & 15 )) $(( 8 | 3 )) $(( 6 ^ 3 )) $(( ~0 ))
a=3 b=4; echo $(( a > b ? a : b ))
echo $(( 16#ff )) $(( 8#17 )) $(( 36#z ))
i=0; ((i++)); echo "rc=$? i=$i"
total=0; for n in $(cut -d' ' -f2 services.txt); do total=$((total + n)); done; echo $total
pct=$(( 100 * 3 / 8 )); echo "$pct%"
echo "scale=3; 10/3" | bc; echo '5 > 3' | bc
awk 'BEGIN{printf "%.2f\n", 22/7}'
expr 5 + 3; expr 10 / 3; expr length hello
seq -s+ 1 10 | bc
echo $(( $(wc -l < services.txt) * 2 ))
let a=5 b=a*2; echo $a $b
declare -i x=3*4; echo $x
n=5; echo $(( n-- )) $n $(( --n ))
printf '%d\n' $(( 2**31 )) $(( 2**63 - 1 ))
echo $(( 2**63 ))
for ((i=1; i<=15; i++)); do if ((i%15==0)); then echo FizzBuzz; elif ((i%3==0)); then echo Fizz; elif ((i%5==0)); then echo Buzz; else echo $i; fi; done | tail -5
seq 1 5 | paste -sd'*' | bc
((5 > 3)) && echo yes; ((0)) || echo zero-false
avg=$(awk -F, 'NR>1{s+=$5; n++} END{print int(s/n)}' data/users.csv); echo "avg age $avg"
numfmt --to=iec 1048576 1536; numfmt --from=iec 2K
hex=$(printf '%x' 3735928559); echo $hex; echo $((16#$hex))
echo $(( 0x7fffffffffffffff + 1 < 0 ))
x=7; if (( x % 2 )); then echo odd; else echo even; fi
echo $(( 10 > 5 && 3 < 1 )) $(( 10 > 5 || 3 < 1 )) $(( !0 ))
for i in {1..3}; do echo $(( i * i * i )); done | paste -sd+ | bc
mins=135; printf '%dh%02dm\n' $((mins / 60)) $((mins % 60))
bytes=5368709; echo "$(( bytes / 1024 / 1024 )) MiB"; echo "scale=2; $bytes / 1048576" | bc
echo "$(( $(date -u -d 2024-03-01 +%s) - $(date -u -d 2024-02-01 +%s) )) / 86400" | bc
a=5; b=3; echo "$a + $b = $((a+b))"; echo "$a * $b = $((a*b))"
r=$(( (17 + 5 - 1) / 5 )); echo "pages=$r"
echo 'ibase=16; FF' | bc; echo 'obase=2; 10' | bc
v=$(echo '1.5 * 4' | bc); echo "$\{v%.*}"
x=3; y=$(( x++ + ++x )); echo "$x $y"
echo $(( 2 ** 0 )) $(( 0 ** 0 ))
awk 'BEGIN{print int(7.9), int(-7.9), 7%3, -7%3}'
awk 'BEGIN{x=0.1+0.2; print (x==0.3) ? "eq" : "ne"; printf "%.17g\n", x}'
echo '3 4' | awk '{print $1^$2, sqrt($1*$1+$2*$2)}'
`;
