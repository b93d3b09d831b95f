#### write a json inventory
cat > inv.json <<'JSON'
{"items":[{"sku":"A1","name":"bolt","qty":120,"tags":["metal","small"]},{"sku":"B2","name":"nut","qty":0,"tags":["metal"]},{"sku":"C3","name":"washer","qty":35,"tags":[]},{"sku":"D4","name":"gear","qty":7,"tags":["metal","large"]}],"warehouse":"north"}
JSON
jq -r '.warehouse' inv.json
#### list names
jq -r '.items[].name' inv.json
#### out of stock
jq -r '.items[] | select(.qty == 0) | .sku' inv.json
#### total quantity
jq '[.items[].qty] | add' inv.json
#### tags flattened and counted
jq -r '.items[].tags[]' inv.json | sort | uniq -c
#### csv export
jq -r '.items[] | [.sku, .name, .qty] | @csv' inv.json
#### tsv export piped to awk
jq -r '.items[] | [.name, .qty] | @tsv' inv.json | awk -F'\t' '$2 > 10 {print $1}'
#### build json from shell variables
name="bolt"; qty=5; jq -n --arg n "$name" --argjson q "$qty" '{name: $n, qty: $q}'
#### transform into a keyed object
jq -c '.items | map({(.sku): .qty}) | add' inv.json
#### low stock report with bash loop
jq -r '.items[] | "\(.sku) \(.qty)"' inv.json | while read -r sku qty; do
  if (( qty < 10 )); then echo "LOW $sku ($qty)"; fi
done
#### count items with jq length
jq '.items | length' inv.json
#### sort by qty descending
jq -r '.items | sort_by(-.qty) | .[] | .name' inv.json
#### invalid json error
echo '{bad json' | jq . > /dev/null 2>&1; echo "exit=$?"
#### update a field and save
jq '.items[1].qty = 50' inv.json > inv2.json && jq '.items[1]' -c inv2.json
#### compare the files
cmp -s inv.json inv2.json || echo differ
#### pretty print a small object
echo '{"a":1,"b":[1,2]}' | jq .
