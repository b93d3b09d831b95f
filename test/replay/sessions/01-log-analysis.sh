#### create an access log to analyse
mkdir -p logs && cat > logs/access.log <<'LOG'
10.0.0.1 - - [12/Mar/2024:10:00:01 +0000] "GET /index.html HTTP/1.1" 200 512
10.0.0.2 - - [12/Mar/2024:10:00:05 +0000] "GET /api/users HTTP/1.1" 200 1024
10.0.0.1 - - [12/Mar/2024:10:01:11 +0000] "POST /api/login HTTP/1.1" 401 64
10.0.0.3 - - [12/Mar/2024:10:02:42 +0000] "GET /missing HTTP/1.1" 404 0
10.0.0.2 - - [12/Mar/2024:10:03:00 +0000] "GET /api/users HTTP/1.1" 500 128
10.0.0.4 - - [12/Mar/2024:10:04:19 +0000] "GET /index.html HTTP/1.1" 200 512
10.0.0.1 - - [12/Mar/2024:10:05:33 +0000] "POST /api/login HTTP/1.1" 200 256
10.0.0.3 - - [12/Mar/2024:10:06:02 +0000] "GET /api/orders HTTP/1.1" 200 2048
10.0.0.5 - - [12/Mar/2024:10:07:45 +0000] "DELETE /api/orders/7 HTTP/1.1" 403 32
10.0.0.2 - - [12/Mar/2024:10:08:10 +0000] "GET /api/users HTTP/1.1" 200 1024
LOG
wc -l logs/access.log
#### requests per IP, busiest first
awk '{print $1}' logs/access.log | sort | uniq -c | sort -rn
#### status code histogram
awk '{print $9}' logs/access.log | sort | uniq -c | sort -k2n
#### error lines only
grep -E '" (4|5)[0-9]{2} ' logs/access.log | cut -d' ' -f1,7,9
#### bytes served per path
awk '{bytes[$7] += $10} END {for (p in bytes) print bytes[p], p}' logs/access.log | sort -rn | head -3
#### total bytes and average
awk '{s += $10; n++} END {printf "total=%d avg=%.1f\n", s, s/n}' logs/access.log
#### which methods appear
grep -o '"[A-Z]* ' logs/access.log | tr -d '" ' | sort -u
#### first and last timestamps
head -1 logs/access.log | grep -o '\[[^]]*\]'; tail -n 1 logs/access.log | grep -o '\[[^]]*\]'
#### failed logins per IP with a while loop
grep 'POST /api/login' logs/access.log | while read -r ip _ _ ts _ _ _ _ status _; do
  if [ "$status" != 200 ]; then echo "fail $ip"; fi
done
#### count 5xx with grep -c and arithmetic
n=$(grep -c '" 5[0-9][0-9] ' logs/access.log); total=$(wc -l < logs/access.log); echo "5xx: $n of $total ($(( n * 100 / total ))%)"
#### extract minute buckets
sed -E 's/.*:([0-9]{2}):([0-9]{2}):[0-9]{2} .*/\1:\2/' logs/access.log | uniq -c | head -4
#### regex parse with bash
set -euo pipefail
while IFS= read -r line; do
  if [[ $line =~ ^([0-9.]+)\ .*\"([A-Z]+)\ ([^ ]+) ]]; then
    printf '%-9s %-6s %s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}"
  fi
done < logs/access.log | sort -u | head -5
#### write a report file
{
  echo "# Report"
  echo "lines: $(wc -l < logs/access.log)"
  echo "unique ips: $(cut -d' ' -f1 logs/access.log | sort -u | wc -l)"
} > logs/report.md
cat logs/report.md
#### unknown file gives an error
grep -c GET logs/nope.log; echo "status=$?"
#### sorted unique paths
awk '{print $7}' logs/access.log | sort -u
