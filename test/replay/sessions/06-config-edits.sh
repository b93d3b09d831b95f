#### create config files
mkdir -p conf && cat > conf/app.ini <<'INI'
[server]
host = 127.0.0.1
port = 8080
debug = true

[database]
url = postgres://db:5432/app
pool = 5
INI
cat > conf/defaults.cfg <<'ENV'
API_KEY=abc123
# comment
TIMEOUT=30
EMPTY=
ENV
cat conf/app.ini | wc -l
#### read a key from an ini section
awk -F' = ' '/^\[/{s=$0} s=="[server]" && $1=="port"{print $2}' conf/app.ini
#### change a value in place with sed
sed -i 's/^debug = .*/debug = false/' conf/app.ini && grep debug conf/app.ini
#### bump the pool size
sed -i -E 's/^(pool = )([0-9]+)/echo "\1$((\2*2))"/e' conf/app.ini 2>/dev/null || awk -F' = ' -v OFS=' = ' '$1=="pool"{$2=$2*2} 1' conf/app.ini > conf/tmp && mv conf/tmp conf/app.ini; grep pool conf/app.ini
#### list sections
grep -o '^\[[^]]*\]' conf/app.ini | tr -d '[]'
#### parse sections with bash regex
while IFS= read -r line; do
  if [[ $line =~ ^\[([^\]]+)\] ]]; then sec=${BASH_REMATCH[1]}
  elif [[ $line =~ ^([a-z]+)\ =\ (.*)$ ]]; then echo "$sec.${BASH_REMATCH[1]}=${BASH_REMATCH[2]}"
  fi
done < conf/app.ini
#### load defaults.cfg skipping comments
while IFS='=' read -r k v; do [[ -z $k || $k == \#* ]] && continue; echo "$k -> '${v}'"; done < conf/defaults.cfg
#### export the defaults file and use it
set -a; . conf/defaults.cfg; set +a; echo "timeout=$TIMEOUT key=${API_KEY:0:3}***"
#### add a new key if missing
grep -q '^RETRIES=' conf/defaults.cfg || echo 'RETRIES=3' >> conf/defaults.cfg; grep -c = conf/defaults.cfg
#### delete comment lines
sed -i '/^#/d' conf/defaults.cfg && cat conf/defaults.cfg
#### insert a line after a section header
sed -i '/^\[database\]/a user = app' conf/app.ini && sed -n '/\[database\]/,$p' conf/app.ini
#### check required keys
for k in host port url missing_key; do grep -q "^$k = " conf/app.ini && echo "ok $k" || echo "MISSING $k"; done
#### noclobber protects a file
set -C; echo x > conf/app.ini; echo "rc=$?"; set +C; head -1 conf/app.ini
#### show effective options
set -euo pipefail; echo "$-" | grep -o '[eu]' | sort | tr -d '\n'; echo; shopt -o pipefail
#### diff against a copy
cp conf/app.ini conf/app.ini.bak && sed -i 's/8080/9090/' conf/app.ini && diff conf/app.ini.bak conf/app.ini; echo "rc=$?"
