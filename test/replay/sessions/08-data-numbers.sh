#### generate numbers
seq 1 20 > nums.txt && paste -sd+ nums.txt | bc 2>/dev/null || awk '{s+=$1} END {print s}' nums.txt
#### stats with awk
awk '{s+=$1; ss+=$1*$1} END {m=s/NR; printf "n=%d mean=%.2f sd=%.3f\n", NR, m, sqrt(ss/NR-m*m)}' nums.txt
#### min and max with sort
sort -n nums.txt | head -1; sort -n nums.txt | tail -1
#### even numbers via bash arithmetic
for n in $(seq 1 10); do (( n % 2 )) || printf '%d ' "$n"; done; echo
#### fizzbuzz
for i in $(seq 1 15); do if (( i % 15 == 0 )); then echo FizzBuzz; elif (( i % 3 == 0 )); then echo Fizz; elif (( i % 5 == 0 )); then echo Buzz; else echo $i; fi; done | tail -5
#### join two files on a key
printf '1 apple\n2 banana\n3 cherry\n' > names.txt; printf '1 red\n3 dark\n4 green\n' > colors.txt; join names.txt colors.txt
#### comm of sorted lists
printf 'a\nb\nc\n' > l1; printf 'b\nc\nd\n' > l2; comm -3 l1 l2 | tr -d '\t'
#### percentages with printf rounding
for v in 1 2 3; do printf '%.1f%%\n' "$(echo "$v 3" | awk '{print $1*100/$2}')"; done
#### hex and octal conversions
printf '%x %o %d\n' 255 8 0x1f; echo $(( 16#ff + 8#17 + 2#101 ))
#### number formatting
printf '%05d|%-6s|%+d|%e\n' 42 ab 7 12345.678
#### cumulative sum
awk '{c+=$1; print c}' nums.txt | tail -3
#### bucketing values
awk '{b=int(($1-1)/5); n[b]++} END {for (i=0;i<4;i++) printf "%d-%d: %d\n", i*5+1, i*5+5, n[i]}' nums.txt
#### column transpose
printf '1 2 3\n4 5 6\n' | awk '{for(i=1;i<=NF;i++) a[i]=a[i] (NR>1?" ":"") $i} END {for(i=1;i<=3;i++) print a[i]}'
#### integer overflow wraps like bash
echo $(( 2**63 - 1 )) $(( 2**62 * 4 ))
#### division by zero error
echo $(( 1 / 0 )); echo "rc=$?"
#### sort -u and numeric sort of mixed
printf '10\n9\n100\n9\n' | sort -u -n
