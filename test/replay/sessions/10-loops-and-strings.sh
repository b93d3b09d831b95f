#### create numbered files
mkdir -p out && for i in 1 2 3 4 5; do printf 'line %d\n' $(seq 1 $i) > "out/file$i.txt"; done; ls out
#### line counts per file
for f in out/*.txt; do echo "$(wc -l < "$f") $f"; done
#### concatenate with headers
for f in out/file[12].txt; do echo "== $f"; cat "$f"; done
#### while read over find output
find out -name '*.txt' | sort | while IFS= read -r f; do n=$(grep -c . "$f"); (( n > 3 )) && echo "big: $f"; done
#### C-style loop and break/continue
for (( i=0; i<10; i++ )); do (( i == 2 )) && continue; (( i == 6 )) && break; printf '%d,' $i; done; echo
#### until loop
n=0; until (( n >= 3 )); do echo "n=$n"; n=$((n+1)); done
#### nested loops with labels
for a in x y; do for b in 1 2 3; do [[ $b == 2 ]] && continue 2; echo "$a$b"; done; done
#### string padding and substrings
for w in a bb ccc; do printf '[%5s][%-5s]\n' "$w" "$w"; done; s=abcdef; echo "${s:1:3} ${s: -2} ${s:0:-1}"
#### arrays: slices and appends
a=(one two three); a+=(four); echo "${#a[@]} ${a[@]:1:2} ${a[-1]}"; unset 'a[1]'; echo "${!a[@]}"
#### associative array key order
declare -A m=([apple]=1 [banana]=2 [cherry]=3 [date]=4); for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done
#### associative array printed with declare -p
declare -A h; h[one]=1; h[two]=2; h[three]=3; declare -p h
#### IFS splitting
IFS=: read -r -a parts <<< "a:b::c"; echo "${#parts[@]}"; printf '<%s>' "${parts[@]}"; echo
#### brace expansion
echo {a,b}{1,2} file{1..3}.txt {01..03} {z..x}
#### printf reuse of format
printf '%s=%s\n' a 1 b 2 c
#### quoting and word splitting
v="a  b   c"; echo $v; echo "$v"; set -- $v; echo $#
#### command substitution trimming
x=$(printf 'a\n\n\n'); echo "[$x]"
#### process substitution
while read -r l; do echo "got $l"; done < <(printf 'p\nq\n')
#### exit codes through pipes with PIPESTATUS
false | true | (exit 3); echo "${PIPESTATUS[@]}"
#### set -euo pipefail at the top of an agent script
set -euo pipefail; echo start; ls out/file1.txt; echo done
#### byte escapes in printf and $'...'
printf 'tab\there\n'; echo $'a\tb' | cat -A; printf '%s\n' $'\x41\x42'
