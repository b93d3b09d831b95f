#### write some prose
cat > story.txt <<'TXT'
The quick brown fox jumps over the lazy dog.
The dog sleeps; the fox runs away!
A fox, a dog, and a cat walk into a bar.
Nobody laughs.
TXT
wc -w story.txt
#### word frequencies
tr -cs 'A-Za-z' '\n' < story.txt | tr 'A-Z' 'a-z' | grep -v '^$' | sort | uniq -c | sort -k1,1nr -k2 | head -5
#### longest line
awk '{ if (length > max) { max = length; line = $0 } } END { print max ": " line }' story.txt
#### lines containing fox, numbered
grep -n fox story.txt
#### replace words with sed
sed -e 's/fox/cat/g' -e 's/dog/mouse/2' story.txt | head -2
#### reverse each line's words
while read -r -a w; do for (( i=${#w[@]}-1; i>=0; i-- )); do printf '%s ' "${w[i]}"; done; echo; done < story.txt | head -2
#### capitalise first letters
awk '{for (i=1;i<=NF;i++) $i = toupper(substr($i,1,1)) substr($i,2)} 1' story.txt | tail -1
#### character counts
echo -n "$(head -1 story.txt)" | wc -c; head -1 story.txt | fold -w 10 | head -3
#### sentences split on punctuation
tr '.!;' '\n\n\n' < story.txt | sed 's/^ *//' | grep -v '^$' | wc -l
#### trim whitespace with awk gsub
printf '  east  \n\twest\t\n' | awk '{gsub(/^[ \t]+|[ \t]+$/, ""); print "[" $0 "]"}'
#### split on pipe with awk
printf 'id|name|score\n1|ann|90\n2|bob|85\n' | awk -F'|' 'NR>1 {s+=$3} END {print s/(NR-1)}'
#### gensub and match arrays
echo "user=alice id=42" | awk '{ print gensub(/([a-z]+)=([a-z0-9]+)/, "\\2:\\1", "g"); if (match($0, /id=([0-9]+)/, m)) print m[1] }'
#### printf %c of numbers
awk 'BEGIN { for (i = 65; i < 70; i++) printf "%c", i; print "" }'
#### pattern substitution in bash
s="path/to/some/file.tar.gz"; echo "${s##*/} ${s%%.*} ${s%.*} ${s#*/}"
#### case conversion in a loop
for w in Alpha beta GAMMA; do echo "${w,,}:${w^^}:${w^}"; done
#### uniq -d duplicates
printf 'a\nb\na\nc\nb\n' | sort | uniq -d
#### rg from stdin
printf 'alpha\nbeta\ngamma\n' | rg -n 'a$'
