#### create sales data
cat > sales.csv <<'CSV'
date,region,product,units,price
2024-01-03,north,widget,10,2.50
2024-01-03,south,gadget,3,10.00
2024-01-04,north,gadget,1,10.00
2024-01-05,east,widget,7,2.50
2024-01-05,south,widget,12,2.50
2024-01-06,east,gizmo,2,99.99
2024-01-07,north,widget,4,2.50
CSV
head -3 sales.csv
#### column count and rows
echo "cols: $(head -1 sales.csv | tr ',' '\n' | wc -l)"; echo "rows: $(( $(wc -l < sales.csv) - 1 ))"
#### revenue per region
awk -F, 'NR > 1 {rev[$2] += $4 * $5} END {for (r in rev) printf "%s %.2f\n", r, rev[r]}' sales.csv | sort
#### units per product sorted
tail -n +2 sales.csv | cut -d, -f3,4 | awk -F, '{u[$1]+=$2} END {for (p in u) print u[p], p}' | sort -rn
#### top sale by revenue
tail -n +2 sales.csv | awk -F, '{print $4*$5, $0}' | sort -rn | head -1 | cut -d' ' -f2
#### filter rows with csv header kept
awk -F, 'NR == 1 || $2 == "north"' sales.csv
#### convert to TSV
tr ',' '\t' < sales.csv | head -2 | cat -A
#### per-day totals with a bash associative array
declare -A day
while IFS=, read -r d region product units price; do
  [[ $d == date ]] && continue
  day[$d]=$(( ${day[$d]:-0} + units ))
done < sales.csv
for d in $(printf '%s\n' "${!day[@]}" | sort); do echo "$d ${day[$d]}"; done
#### build a markdown table
{
  echo "| region | units |"
  echo "|---|---|"
  awk -F, 'NR>1 {u[$2]+=$4} END {for (r in u) print r, u[r]}' sales.csv | sort | while read -r r u; do echo "| $r | $u |"; done
} | tee summary.md
#### distinct products joined by commas
cut -d, -f3 sales.csv | tail -n +2 | sort -u | paste -sd, -
#### validate numeric units
bad=0; while IFS=, read -r _ _ _ units _; do [[ $units =~ ^[0-9]+$ ]] || { [[ $units == units ]] || bad=$((bad+1)); }; done < sales.csv; echo "bad=$bad"
#### add a computed column
awk -F, -v OFS=, 'NR==1 {print $0, "revenue"; next} {printf "%s,%s,%s,%s,%s,%.2f\n", $1, $2, $3, $4, $5, $4*$5}' sales.csv > sales_rev.csv && tail -2 sales_rev.csv
#### sort by price then units
sort -t, -k5,5n -k4,4nr sales.csv | head -4
#### count rows per month
cut -d, -f1 sales.csv | grep -E '^[0-9]' | cut -c1-7 | uniq -c
#### column with printf alignment
while IFS=, read -r d r p u pr; do printf '%-10s|%-6s|%5s\n' "$d" "$r" "$u"; done < sales.csv | head -4
