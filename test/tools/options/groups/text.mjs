// Option-sweep cases for the "text" group of toolbox commands (see ../cases.mjs for the rules of a
// case). FIXTURE_TEXT adds the files these cases need; it runs after the base fixture and before the
// timestamps are set. Everything lives under tx/ so the core cases' listings of d/ do not change.
export const FIXTURE_TEXT = String.raw`mkdir -p tx/rg/sub tx/rg/.git tx/rg/skip
printf 'This is a long paragraph of text that fmt should wrap at some width because it goes on.\nIt continues here.\n\n  Indented first line\nand the rest of it follows.\n> quoted one\n> quoted two\n' > tx/para.txt
printf 'a\tb\tc\n\tindented\n        eight spaces\nx   y       z\n    four\n' > tx/tabs.txt
printf 'name age city\nann 30 paris\nbob 4 rome\n\ncy 101 oslo\n' > tx/tbl.txt
printf '\\:\\:\\:\nhead\n\\:\\:\nbody1\n\n\nbody2\n\\:\nfoot\n\\:\\:\nnext\n' > tx/sec.txt
printf 'apple\nbanana\ncherry\n' > tx/s1.txt
printf 'banana\ncherry\ndate\n' > tx/s2.txt
printf 'b\na\n' > tx/uns.txt
printf 'id name\n1 ann\n2 bob\n3 cy\n' > tx/h1.txt
printf 'id score\n1 90\n3 88\n4 70\n' > tx/h2.txt
printf 'K1 v1\nk2 v2\n' > tx/c1.txt
printf 'k1 w1\nK2 w2\n' > tx/c2.txt
printf '{ n++ } END { print n, "lines" }\n' > tx/prog.awk
printf 'function f(s) { return "<" s ">" }\n' > tx/inc.awk
printf '.name\n' > tx/filter.jq
printf 'h\xc3\xa9llo w\xc3\xb6rld\n' > tx/utf.txt
printf 'a,b,c,' > tx/sep.txt
printf '[1,2]\n' > tx/arr.json
printf 'raw text\n' > tx/raw.txt
printf 'a\0b\0c\0' > tx/z.txt
printf '0x10 011 7\n' > tx/hex.txt
printf 'skip/\n*.log\n' > tx/rg/.gitignore
printf 'sub/b.txt\n' > tx/rg/.ignore
printf 'alpha Beta\nbeta gamma\nfoo bar foo\nTODO fix\n' > tx/rg/a.txt
printf 'beta in sub\n' > tx/rg/sub/b.txt
printf 'beta code\nfn main() {}\n' > tx/rg/sub/m.rs
printf 'beta ignored\n' > tx/rg/skip/s.txt
printf 'beta logged\n' > tx/rg/x.log
printf 'beta hidden\n' > tx/rg/.h.txt
printf 'bin\0beta\n' > tx/rg/bin.dat
printf 'one\r\nbeta\r\n' > tx/rg/crlf.txt
printf 'a\nb' | gzip > tx/rg/z.gz
printf 'beta\n' > tx/pats.txt
printf 'x\n' > tx/one.txt
seq 1 100000 > tx/big.txt
yes abcdefghij | head -n 7000 | tr -d '\n' >> tx/big.txt
echo >> tx/big.txt
seq 5 5 250000 >> tx/big.txt
yes 0123456789 | head -n 15000 | tr -d '\n' >> tx/big.txt
`;

const tee = "rm -rf te && mkdir te && ";
const sp = "rm -rf sp && mkdir sp && ";

/** @type {Record<string, Array<string | {run: string, opts?: string[], refused?: string}>>} */
export const CASES_TEXT = {
  awk: [
    "awk '{print $1}' d/a.txt", "awk -F, '{print $2}' t.csv", "awk --field-separator=, 'NR>1{s+=$3}END{print s}' t.csv",
    "awk -v x=5 'BEGIN{print x*2}'", "awk --assign=x=3 'BEGIN{print x}'", "awk -f tx/prog.awk d/a.txt", "awk --file=tx/prog.awk lines.txt",
    "awk -b '{print length($0)}' tx/utf.txt", "awk --characters-as-bytes '{print length($0)}' tx/utf.txt", "awk --characters-as-bytes '{print substr($0,1,2)}' tx/utf.txt | od -An -c",
    "awk '{print length($0)}' tx/utf.txt", "awk '{print index($0, \"l\"), substr($0, 2, 3)}' tx/utf.txt", "awk -b '{print match($0, /w/), RSTART, RLENGTH}' tx/utf.txt", "awk -c '{print $1}' words.txt", "awk --traditional 'NR==2' words.txt",
    "awk -C >/dev/null; echo $?", "awk --copyright >/dev/null; echo $?", "awk -d/dev/null 'BEGIN{x=1; print x}'",
    "awk -dvars.txt 'BEGIN{x=1; y=\"s\"}' && grep -E '^(x|y):' vars.txt", "awk --dump-variables=vars.txt 'BEGIN{z=2}' && grep '^z:' vars.txt",
    "awk -e 'BEGIN{print 1}' -e 'END{print NR}' d/a.txt", "awk --source='{print NR\": \"$0}' months.txt", "awk -E tx/prog.awk d/a.txt",
    "awk --exec tx/prog.awk words.txt", "awk -i tx/inc.awk '{print f($1)}' months.txt", "awk --include=tx/inc.awk 'BEGIN{print f(1)}'",
    "awk -I 'BEGIN{print 1}' 2>/dev/null", "awk --trace 'BEGIN{print 2}' 2>/dev/null", "awk -L 'BEGIN{print 1}' 2>/dev/null",
    "awk --lint 'BEGIN{print 3}' 2>/dev/null", "awk -t 'BEGIN{print 1}' 2>/dev/null", "awk --lint-old 'BEGIN{print 4}' 2>/dev/null",
    { run: "awk -M 'BEGIN{print 2^70}'", refused: "-M" }, { run: "awk --bignum 'BEGIN{print 3^50}'", refused: "--bignum" }, "awk -N 'BEGIN{print 1.5}'", "awk --use-lc-numeric 'BEGIN{print 2.5}'",
    "awk -n '{print $1+0, $2+0, $3+0}' tx/hex.txt", "awk --non-decimal-data '{print $1+1}' tx/hex.txt", "awk '{print $1+0}' tx/hex.txt",
    "awk -O '{s+=$1} END{print s}' d/b.txt", "awk --optimize 'BEGIN{print 1+2}'", "awk -s 'BEGIN{print 1+2}'", "awk --no-optimize 'BEGIN{print 3}'",
    "awk -P '{print $2}' words.txt", "awk --posix 'BEGIN{print length(\"abc\")}'", "awk -r '/p{2}/' words.txt", "awk --re-interval '/n{1}a/' words.txt",
    "awk -S 'BEGIN{print 1; system(\"echo hi\")}' 2>/dev/null; echo $?", "awk --sandbox '{print > \"o.txt\"}' d/a.txt 2>/dev/null; echo $?",
    "awk -S 'BEGIN{getline x < \"f1.txt\"; print x}' 2>/dev/null; echo $?", "awk --sandbox 'BEGIN{\"echo\" | getline x; print x}' 2>/dev/null; echo $?",
    "awk -S '{print | \"sort\"}' f1.txt 2>/dev/null; echo $?", "awk 'BEGIN{getline x < \"f1.txt\"; print x}'",
    "awk -V >/dev/null; echo $?", "awk --version >/dev/null; echo $?", "awk -h >/dev/null; echo $?",
    { run: "awk -o- 'BEGIN { x = 1; print x }'", refused: "-o" }, { run: "awk --pretty-print=pp.awk '{print $1}' d/a.txt", refused: "--pretty-print" },
    { run: "awk -p/dev/null 'BEGIN{print 1}'", refused: "-p" }, { run: "awk --profile=/dev/null 'BEGIN{print 2}'", refused: "--profile" },
    { run: "awk -g 'BEGIN{print _\"hello\"}'", refused: "-g" }, { run: "awk --gen-pot 'BEGIN{print _\"x\"}'", refused: "--gen-pot" },
    { run: "awk -l ordchr 'BEGIN{print ord(\"A\")}'", refused: "-l" }, { run: "awk --load=ordchr 'BEGIN{print chr(66)}'", refused: "--load" },
    { run: "awk -D 'BEGIN{print 1}' < /dev/null", refused: "-D" }, { run: "awk --debug 'BEGIN{print 1}' < /dev/null", refused: "--debug" },
  ],
  jq: [
    "jq . x.json", "jq -c . x.json", "jq -r .name x.json", "jq -S .o x.json", "jq --tab .o x.json", "jq -n '1+2'", "jq -s length x.json",
    "jq -e .n x.json; echo $?", "jq -e '.missing' x.json; echo $?", "jq -R . tx/raw.txt", "jq -Rs . d/a.txt", "jq -M .o x.json", "jq -C -c .o x.json",
    "jq --arg v hi -n '$v'", "jq --argjson v '{\"a\":1}' -n '$v.a'", "jq -n --args '$ARGS.positional' a b", "jq -n --jsonargs '$ARGS.positional' 1 '\"s\"'",
    "jq --rawfile f tx/raw.txt -n '$f'", "jq --slurpfile f tx/arr.json -n '$f'", "jq -r '.tags[]' x.json", "jq -cr '.o|keys' x.json",
    "jq -nr '\"a\\tb\"'", "jq -j -n '\"a\",\"b\"'", "jq -a -n '\"é\"'", "jq --indent 1 .o x.json", "jq -f tx/filter.jq x.json",
    "jq --from-file tx/filter.jq x.json", "jq --raw-output0 -n '\"a\"' 2>/dev/null; echo $?", "jq --seq -c .n x.json", "jq --stream -c . tx/arr.json",
    "printf '\\036{\"a\":1}\\n\\036[2' | jq --seq -c . | od -An -c", "jq --seq -n '1,\"s\"' | od -An -c", "jq --stream -c . x.json",
    "jq -nc --stream '[inputs]' tx/arr.json", "jq -nc --stream 'fromstream(inputs)' x.json", "jq -c 'fromstream(tostream)' x.json",
    "jq -nc '[1|truncate_stream([[0],1],[[1,0],2],[[1,0]],[[1]])]'",
    "jq -n 'input' x.json", "jq -n '[inputs.name]' x.json", "jq --exit-status .name x.json", "jq --null-input '[1,2]|add'", "jq --slurp 'map(.n)' x.json",
    "jq --raw-input -c 'split(\" \")' mixed.txt", "jq --sort-keys -c . x.json", "jq --compact-output .tags x.json", "jq --raw-output .tags[0] x.json",
    "jq --monochrome-output .n x.json", "jq --color-output .n x.json", "jq --join-output .name x.json", "jq --ascii-output -n '\"ü\"'",
    "jq '.[' x.json 2>/dev/null; echo $?", "jq . nosuch.json 2>/dev/null; echo $?", "jq -n '$ENV|type'", "jq -n 'env|type'",
  ],
  rg: [
    "rg beta tx/rg | sort", "rg -A 1 alpha tx/rg/a.txt", "rg --after-context=1 foo tx/rg/a.txt", "rg --auto-hybrid-regex beta tx/rg/a.txt",
    "rg -B 1 foo tx/rg/a.txt", "rg --before-context 1 TODO tx/rg/a.txt", "rg --binary beta tx/rg/bin.dat", "rg beta tx/rg/bin.dat",
    "rg --block-buffered beta tx/rg/a.txt", "rg -b beta tx/rg/a.txt", "rg --byte-offset foo tx/rg/a.txt", "rg -s Beta tx/rg/a.txt",
    "rg -i -s beta tx/rg/a.txt", "rg --case-sensitive beta tx/rg/a.txt", "rg --color never beta tx/rg/a.txt", "rg --color always beta tx/rg/a.txt",
    "rg --colors 'match:fg:red' --color always beta tx/rg/a.txt", "rg --column beta tx/rg/a.txt", "rg -C 1 foo tx/rg/a.txt", "rg --context=1 gamma tx/rg/a.txt",
    "rg -C 1 --context-separator=XX 'alpha|TODO' tx/rg/a.txt", "rg -c beta tx/rg | sort", "rg --count -i beta tx/rg/a.txt", "rg --count-matches foo tx/rg/a.txt",
    "rg --crlf 'beta$' tx/rg/crlf.txt", "rg 'beta$' tx/rg/crlf.txt", "rg --debug beta tx/rg/a.txt 2>/dev/null", "rg --dfa-size-limit 10M beta tx/rg/a.txt",
    "rg -E utf-8 beta tx/rg/a.txt", { run: "rg -E latin1 beta tx/rg/a.txt", refused: "-E" }, "rg --encoding utf-8 beta tx/rg/a.txt", "rg --engine default beta tx/rg/a.txt", "rg --engine auto 'b(?=e)' tx/rg/a.txt",
    "rg -C 1 --field-context-separator=: -n foo tx/rg/a.txt", "rg --field-match-separator='|' -n foo tx/rg/a.txt", "rg -f tx/pats.txt tx/rg/a.txt",
    "rg --file=tx/pats.txt tx/rg/sub/b.txt", "rg --files tx/rg | sort", "rg -l beta tx/rg | sort", "rg --files-with-matches foo tx/rg",
    "rg --files-without-match foo tx/rg | sort", "rg -F 'a.' tx/rg/a.txt; echo $?", "rg --fixed-strings '()' tx/rg/sub/m.rs", "rg -L beta tx/rg/a.txt",
    "rg --follow -l beta tx/rg | sort", "rg -g '*.rs' beta tx/rg", "rg --glob '!*.rs' beta tx/rg | sort", "rg --glob-case-insensitive -g '*.RS' beta tx/rg",
    "rg -j1 --heading beta tx/rg/a.txt tx/rg/sub/m.rs", "rg --hidden beta tx/rg | sort", "rg -. -l beta tx/rg | sort", "rg --iglob '*.RS' beta tx/rg",
    "rg -i BETA tx/rg/a.txt", "rg --ignore-case ALPHA tx/rg/a.txt", "rg --ignore-file tx/one.txt beta tx/rg | sort", "rg --ignore-file-case-insensitive beta tx/rg | sort",
    "rg --include-zero -c zzz tx/rg/a.txt", "rg -v beta tx/rg/a.txt", "rg --invert-match foo tx/rg/a.txt", "rg --json beta tx/rg/sub/b.txt | jq -c 'del(.data.stats.elapsed, .data.elapsed_total)'",
    "rg --json -A1 alpha tx/rg/a.txt | jq -c 'del(.data.stats.elapsed, .data.elapsed_total)'", "rg --json zzz tx/rg/a.txt | jq -c .data.stats",
    "rg --json -n -i 'o|BETA' tx/rg/a.txt | jq -c 'select(.type == \"match\") | [.data.line_number, .data.absolute_offset, .data.submatches]'",
    "rg --line-buffered beta tx/rg/a.txt", "rg -n beta tx/rg/a.txt", "rg --line-number foo tx/rg/a.txt", "rg -x 'TODO fix' tx/rg/a.txt", "rg --line-regexp 'foo' tx/rg/a.txt; echo $?",
    "rg -M 5 beta tx/rg/a.txt", "rg --max-columns 8 --max-columns-preview beta tx/rg/a.txt", "rg -m 1 beta tx/rg/a.txt", "rg --max-count=1 -i beta tx/rg/a.txt",
    "rg --max-depth 1 beta tx/rg | sort", "rg --max-filesize 5 beta tx/rg | sort", "rg --mmap beta tx/rg/a.txt", "rg --no-mmap beta tx/rg/a.txt",
    "rg -U 'Beta\\nbeta' tx/rg/a.txt", "rg --multiline 'foo\\nTODO' tx/rg/a.txt", "rg --multiline-dotall 'gamma.foo' tx/rg/a.txt; echo $?",
    "rg -U --multiline-dotall -n 'gamma.foo' tx/rg/a.txt", "rg -U -c 'Beta\\nbeta|gamma' tx/rg/a.txt", "rg -U -c foo tx/rg/a.txt", "rg -U -n -o 'a\\nb|foo' tx/rg/a.txt",
    "rg -U -b 'ta\\nbe' tx/rg/a.txt", "rg -U -l 'r foo\\nT' tx/rg | sort", "rg -U -n '(?s)beta.*TODO' tx/rg/a.txt", "rg -U -P -n '(?<=a)\\nb' tx/rg/a.txt", "rg --no-config beta tx/rg/a.txt",
    "rg -I beta tx/rg | sort", "rg -j1 --no-filename beta tx/rg/a.txt tx/rg/sub/b.txt", "rg -j1 --no-heading beta tx/rg/a.txt tx/rg/sub/m.rs", "rg --no-ignore beta tx/rg | sort",
    "rg --no-ignore-dot beta tx/rg | sort", "rg --no-ignore-exclude beta tx/rg | sort", "rg --no-ignore-files beta tx/rg | sort", "rg --no-ignore-global beta tx/rg | sort",
    "rg --no-ignore-messages beta tx/rg | sort", "rg --no-ignore-parent beta tx/rg | sort", "rg --no-ignore-vcs beta tx/rg | sort", "rg -N beta tx/rg/a.txt",
    "rg --no-line-number -n beta tx/rg/a.txt", "rg --no-messages beta nosuch tx/rg/a.txt; echo $?", "rg --no-pcre2-unicode beta tx/rg/a.txt", "rg --no-require-git beta tx/rg | sort",
    "rg --no-unicode 'w.rld' tx/utf.txt", "rg -0 -l beta tx/rg/a.txt | tr '\\0' ,", "rg --null -c beta tx/rg/a.txt | tr '\\0' ,", "rg --null-data b tx/z.txt | tr '\\0' ,",
    "rg --one-file-system beta tx/rg/a.txt", "rg -o 'fo+' tx/rg/a.txt", "rg --only-matching -n 'b[a-z]+' tx/rg/a.txt", "rg --passthru foo tx/rg/a.txt",
    "rg --path-separator '#' beta tx/rg | sort", "rg -P 'b(?=eta)' tx/rg/a.txt", "rg --pcre2 '(?<=foo) bar' tx/rg/a.txt",
    "rg -P -o '(\\w)\\1' tx/rg/a.txt", "rg -P -w 'b(?=eta)eta' tx/rg/a.txt", "rg --engine pcre2 -n '(?<!foo )bar' tx/rg/a.txt",
    "rg -P -r '<$1>' '(o)(?=o)' tx/rg/a.txt", "rg --auto-hybrid-regex -c '(a)\\1|l(?=p)' tx/rg/a.txt", { run: "rg --pcre2-version", refused: "--pcre2-version" },
    { run: "rg --pre cat beta tx/rg/a.txt", refused: "--pre" }, { run: "rg --pre-glob '*.txt' beta tx/rg/a.txt", refused: "--pre-glob" }, "rg -p beta tx/rg/a.txt", "rg --pretty foo tx/rg/a.txt",
    "rg -q beta tx/rg; echo $?", "rg --quiet zzz tx/rg; echo $?", "rg --regex-size-limit 1M beta tx/rg/a.txt", "rg -e foo -e TODO tx/rg/a.txt",
    "rg --regexp=-x tx/rg/a.txt; echo $?", "rg -r X beta tx/rg/a.txt", "rg --replace '[$0]' 'fo(o)' tx/rg/a.txt", "rg -o -r '$1' 'fo(o)' tx/rg/a.txt",
    "rg -z a tx/rg/z.gz", "rg --search-zip b tx/rg/z.gz", "rg -S beta tx/rg/a.txt", "rg --smart-case Beta tx/rg/a.txt", "rg --sort path beta tx/rg",
    "rg --sortr path beta tx/rg", "rg --sort=none beta tx/rg | sort", "rg --stats beta tx/rg/a.txt | head -2", "rg -a beta tx/rg/bin.dat | tr '\\0' @",
    "rg --text beta tx/rg/bin.dat | tr '\\0' @", "rg -j 1 beta tx/rg | sort", "rg --threads 2 beta tx/rg | sort", "rg --trim Indented tx/para.txt",
    "rg -t rust beta tx/rg", "rg --type txt beta tx/rg | sort", "rg --type-add 'foo:*.rs' -t foo beta tx/rg", "rg --type-clear txt --type-add 'txt:*.log' -t txt -u beta tx/rg",
    "rg --type-list | grep '^rust:'", "rg -T txt beta tx/rg", "rg --type-not rust beta tx/rg | sort", "rg -u beta tx/rg | sort", "rg -uu beta tx/rg | sort",
    "rg --unrestricted -uu -l beta tx/rg | sort", "rg -V | head -c 7", "rg --vimgrep foo tx/rg/a.txt", "rg -H beta tx/rg/a.txt", "rg --with-filename foo tx/rg/a.txt",
    "rg -w foo tx/rg/a.txt", "rg --word-regexp bet tx/rg/a.txt; echo $?", "rg -h | head -1 | cut -c1-7", "rg zzz tx/rg; echo $?", "rg '(' tx/rg 2>/dev/null; echo $?",
    "rg beta < tx/rg/a.txt", "rg -c beta - < tx/rg/a.txt",
  ],
  tee: [
    tee + "echo hi | tee te/o.txt && cat te/o.txt", tee + "echo a > te/o.txt && echo b | tee -a te/o.txt >/dev/null && cat te/o.txt",
    tee + "echo a > te/o.txt && echo c | tee --append te/o.txt && cat te/o.txt", tee + "echo x | tee -i te/o.txt", tee + "echo y | tee --ignore-interrupts te/o.txt te/p.txt && cat te/p.txt",
    tee + "echo z | tee -p te/o.txt", tee + "echo z | tee --output-error=warn te/o.txt", tee + "echo z | tee --output-error=exit te/o.txt", tee + "echo q | tee te/nodir/o.txt 2>/dev/null; echo $?",
    tee + "echo q | tee -p te/nodir/o.txt te/o.txt 2>/dev/null; echo $?; cat te/o.txt", "echo w | tee", "echo w | tee -",
  ],
  seq: [
    "seq 5", "seq 2 5", "seq 1 3 10", "seq 5 -1 1", "seq 0.5 0.5 2", "seq -w 8 11", "seq --equal-width 1 10", "seq -f '%03g' 3", "seq --format='x%.2f' 1 2",
    "seq -s , 5", "seq --separator=' ' 3", "seq -s '' 3", "seq -w -s: 9 11", "seq 1 0", "seq -f %e 2", "seq 1e2 1e2", "seq 10 -3 1", "seq 0x10 0x12", "seq -- -2 0",
    "seq 1 2>/dev/null 1 2 3; echo $?", "seq x 2>/dev/null; echo $?", "seq 1.0 3", "seq 1 0.25 2",
  ],
  paste: [
    "paste f1.txt f2.txt", "paste -d, f1.txt f2.txt", "paste --delimiters=': ' f1.txt f2.txt f1.txt", "paste -s f1.txt", "paste --serial -d, f1.txt f2.txt",
    "paste -z tx/z.txt tx/z.txt | tr '\\0' ,", "paste --zero-terminated -s tx/z.txt | tr '\\0' ,", "paste - - < lines.txt", "paste -d '\\n' f1.txt f2.txt",
    "paste -s -d '\\t,' lines.txt", "paste f1.txt nosuch 2>/dev/null; echo $?", "paste -d '' f1.txt f2.txt",
  ],
  comm: [
    "comm tx/s1.txt tx/s2.txt", "comm -1 tx/s1.txt tx/s2.txt", "comm -2 tx/s1.txt tx/s2.txt", "comm -3 tx/s1.txt tx/s2.txt", "comm -12 tx/s1.txt tx/s2.txt",
    "comm -23 tx/s1.txt tx/s2.txt", "comm --check-order tx/uns.txt tx/s2.txt 2>/dev/null; echo $?", "comm tx/uns.txt tx/s2.txt 2>/dev/null; echo $?",
    "comm --nocheck-order tx/uns.txt tx/s2.txt", "comm --output-delimiter=, tx/s1.txt tx/s2.txt", "comm --total tx/s1.txt tx/s2.txt", "comm -z tx/z.txt tx/z.txt | tr '\\0' ,",
    "comm --zero-terminated -3 tx/z.txt tx/z.txt | tr '\\0' ,", "comm -1 -2 --total tx/s1.txt tx/s2.txt", "comm - tx/s2.txt < tx/s1.txt",
  ],
  join: [
    "join j1.txt j2.txt", "join -1 1 -2 1 j1.txt j2.txt", "join -a 1 j1.txt j2.txt", "join -a 2 j1.txt j2.txt", "join -a1 -a2 j1.txt j2.txt", "join -v 1 j1.txt j2.txt",
    "join -v 2 j1.txt j2.txt", "join -e X -a1 -a2 -o 0,1.2,2.2 j1.txt j2.txt", "join -o 1.2,2.2 j1.txt j2.txt", "join -o auto -a1 -e - j1.txt j2.txt", "join -t , t.csv t.csv",
    "join -i tx/c1.txt tx/c2.txt", "join --ignore-case -a1 tx/c1.txt tx/c2.txt", "join -j 1 j1.txt j2.txt", "join --header tx/h1.txt tx/h2.txt",
    "join --check-order tx/uns.txt tx/uns.txt 2>/dev/null; echo $?", "join --nocheck-order tx/uns.txt tx/uns.txt", "join tx/uns.txt tx/uns.txt 2>/dev/null; echo $?",
    "join -z tx/z.txt tx/z.txt | tr '\\0' ,", "join --zero-terminated tx/z.txt tx/z.txt | tr '\\0' ,", "join -t '\\t' t.tsv t.tsv", "join -2 2 j1.txt j1.txt",
  ],
  nl: [
    "nl d/a.txt", "nl -b a d/a.txt", "nl --body-numbering=t d/a.txt", "nl -b n d/a.txt", "nl -b pa d/a.txt", "nl -d '\\:' tx/sec.txt", "nl --section-delimiter=@ tx/sec.txt",
    "nl -f a tx/sec.txt", "nl --footer-numbering=t tx/sec.txt", "nl -h a tx/sec.txt", "nl --header-numbering=t tx/sec.txt", "nl tx/sec.txt", "nl -i 2 lines.txt",
    "nl --line-increment=5 d/a.txt", "nl -l 2 -b a d/a.txt", "nl --join-blank-lines=2 -ba tx/sec.txt", "nl -n ln d/a.txt", "nl -n rz d/a.txt", "nl --number-format=rn d/a.txt",
    "nl -p tx/sec.txt", "nl --no-renumber tx/sec.txt", "nl -s ': ' d/a.txt", "nl --number-separator=. d/a.txt", "nl -v 10 d/a.txt", "nl --starting-line-number=0 d/a.txt",
    "nl -w 2 lines.txt", "nl --number-width=1 lines.txt", "nl -v -1 -i -2 d/a.txt", "nl - < d/a.txt",
  ],
  tac: [
    "tac d/a.txt", "tac -s , tx/sep.txt", "tac --separator=, tx/sep.txt", "tac -b -s , tx/sep.txt", "tac --before -s , tx/sep.txt", "tac -r -s '[,b]' tx/sep.txt",
    "tac --regex --separator='a.' d/a.txt", "tac d/a.txt lines.txt", "printf 'x\\ny' | tac", "tac nosuch 2>/dev/null; echo $?",
  ],
  rev: ["rev d/a.txt", "rev tx/utf.txt", "rev < lines.txt", "rev d/a.txt f1.txt", "rev -V >/dev/null; echo $?", "rev -h >/dev/null; echo $?", "printf 'ab' | rev", "rev nosuch 2>/dev/null; echo $?"],
  fold: [
    "fold -w 10 tx/para.txt", "fold --width=20 tx/para.txt", "fold -s -w 20 tx/para.txt", "fold --spaces -w 15 tx/para.txt", "fold -b -w 4 tx/utf.txt", "fold --bytes -w 5 lines.txt",
    "fold -w 4 tx/utf.txt", "fold -w 6 tx/tabs.txt", "fold tx/para.txt", "fold -5 lines.txt",
  ],
  fmt: [
    "fmt tx/para.txt", "fmt -w 30 tx/para.txt", "fmt --width=40 tx/para.txt", "fmt -g 20 tx/para.txt", "fmt --goal=25 -w 30 tx/para.txt", "fmt -c -w 30 tx/para.txt",
    "fmt --crown-margin -w 30 tx/para.txt", "fmt -t -w 30 tx/para.txt", "fmt --tagged-paragraph -w 30 tx/para.txt", "fmt -s -w 20 tx/para.txt", "fmt --split-only -w 30 tx/para.txt",
    "fmt -u mixed.txt", "fmt --uniform-spacing tx/para.txt", "fmt -p '>' -w 10 tx/para.txt", "fmt --prefix='> ' -w 12 tx/para.txt", "fmt -20 tx/para.txt", "fmt lines.txt",
  ],
  expand: [
    "expand tx/tabs.txt", "expand -t 4 tx/tabs.txt", "expand --tabs=2 tx/tabs.txt", "expand -t 3,6,12 tx/tabs.txt", "expand -i tx/tabs.txt", "expand --initial -t 4 tx/tabs.txt",
    "expand -t '2 5' tx/tabs.txt", "expand -t 4,/3 tx/tabs.txt", "expand -t 2,+4 tx/tabs.txt", "expand -3 t.tsv", "expand t.tsv",
  ],
  unexpand: [
    "unexpand tx/tabs.txt | od -An -c", "unexpand -a tx/tabs.txt | od -An -c", "unexpand --all -t 4 tx/tabs.txt | od -An -c", "unexpand -t 4 tx/tabs.txt | od -An -c",
    "unexpand --tabs=2 tx/tabs.txt | od -An -c", "unexpand --first-only -t 4 tx/tabs.txt | od -An -c", "unexpand -t 3,8 tx/tabs.txt | od -An -c", "expand t.tsv | unexpand -a | od -An -c",
  ],
  column: [
    "column tx/tbl.txt", "column -t tx/tbl.txt", "column --table -s, t.csv", "column -t -s, -o ' | ' t.csv", "column -t --output-separator=: tx/tbl.txt",
    "column -c 30 lines.txt", "column --output-width=40 -x lines.txt", "column -x -c 30 lines.txt", "column --fillrows -c 50 lines.txt", "column -t -R 2 tx/tbl.txt",
    "column -t --table-right=2,3 tx/tbl.txt", "column -t -N A,B,C tx/tbl.txt", "column -t --table-columns=X,Y,Z -d tx/tbl.txt", "column -t -N a,b,c --table-noheadings tx/tbl.txt",
    "column -t -N a,b,c -H b tx/tbl.txt", "column -t -N a,b,c --table-hide=1 tx/tbl.txt", "column -t -N a,b,c -O c,a tx/tbl.txt", "column -t -N a,b,c --table-order=b tx/tbl.txt",
    "column -t -l 2 tx/tbl.txt", "column -t --table-columns-limit=2 tx/tbl.txt", "column -t -L tx/tbl.txt", "column -t --keep-empty-lines tx/tbl.txt",
    "column -J -N a,b,c tx/tbl.txt", "column --json -n T -N a,b,c tx/tbl.txt", "column -J --table-name=X -N a,b,c tx/tbl.txt", "column -t -N a,b,c -E a tx/tbl.txt",
    "column -t -N a,b,c --table-noextreme=c tx/tbl.txt", { run: "column -t -N a,b,c -T a -c 12 tx/tbl.txt", refused: "-T" }, { run: "column -t -N a,b,c --table-truncate=c -c 14 tx/tbl.txt", refused: "--table-truncate" },
    { run: "column -t -N a,b,c -W c -c 14 tx/tbl.txt", refused: "-W" }, { run: "column -t -N a,b,c --table-wrap=a -c 14 tx/tbl.txt", refused: "--table-wrap" }, "column -t -N a,b,c -e tx/tbl.txt", "column -t -N a,b,c --table-header-repeat tx/tbl.txt",
    { run: "printf '1 0 a\\n2 1 b\\n3 1 c\\n' | column -t -N id,p,n -r n -i id -p p", refused: "-r" }, { run: "printf '1 0 a\\n2 1 b\\n' | column -t -N id,p,n --tree n", refused: "--tree" }, { run: "printf '1 0 a\\n' | column -t -N id,p,n --tree-id id", refused: "--tree-id" }, { run: "printf '1 0 a\\n' | column -t -N id,p,n --tree-parent p", refused: "--tree-parent" },
    "column -s, -t --separator=, t.csv", "column -V >/dev/null; echo $?", "column -h >/dev/null; echo $?", "column nosuch 2>/dev/null; echo $?",
  ],
  shuf: [
    "shuf d/a.txt | sort", "shuf -e a b c | sort", "shuf --echo x y | sort", "shuf -i 1-5 | sort -n", "shuf --input-range=3-6 | sort -n", "shuf -i 7-7", "shuf -n 1 -i 4-4",
    "shuf -n 2 lines.txt | wc -l", "shuf --head-count=3 -i 1-10 | wc -l", "shuf -o out.txt -i 1-3 && sort out.txt", "shuf --output=out.txt -e q && cat out.txt",
    "shuf --random-source=lines.txt -i 1-9 | sort", "shuf --random-source=words.txt words.txt | sort", "shuf -r -n 3 -e a", "shuf --repeat -n 2 -i 5-5",
    "shuf -z tx/z.txt | sort -z | tr '\\0' ,", "shuf --zero-terminated -e a b | sort -z | tr '\\0' ,", "shuf -n 0 lines.txt", "shuf -i 3-1 2>/dev/null; echo $?",
  ],
  split: [
    "rm -rf sp && mkdir sp && split lines.txt sp/x && ls sp && cat sp/xaa | wc -l", "rm -rf sp && mkdir sp && split -l 5 lines.txt sp/ && ls sp && cat sp/ac",
    "rm -rf sp && mkdir sp && split --lines=4 lines.txt sp/p && ls sp", "rm -rf sp && mkdir sp && split -b 20 lines.txt sp/ && ls sp && cat sp/aa",
    "rm -rf sp && mkdir sp && split --bytes=30 lines.txt sp/ && wc -c sp/*", "rm -rf sp && mkdir sp && split -C 20 lines.txt sp/ && wc -c sp/*",
    "rm -rf sp && mkdir sp && split --line-bytes=25 lines.txt sp/ && head -n 20 sp/*", "rm -rf sp && mkdir sp && split -a 3 -l 6 lines.txt sp/ && ls sp",
    "rm -rf sp && mkdir sp && split --suffix-length=1 -l 6 lines.txt sp/ && ls sp", "rm -rf sp && mkdir sp && split -d -l 5 lines.txt sp/ && ls sp",
    "rm -rf sp && mkdir sp && split --numeric-suffixes=3 -l 5 lines.txt sp/ && ls sp", "rm -rf sp && mkdir sp && split -x -l 2 lines.txt sp/ && ls sp",
    "rm -rf sp && mkdir sp && split --hex-suffixes=9 -l 5 lines.txt sp/ && ls sp", "rm -rf sp && mkdir sp && split --additional-suffix=.txt -l 6 lines.txt sp/ && ls sp",
    "rm -rf sp && mkdir sp && split -n 3 lines.txt sp/ && wc -c sp/*", "rm -rf sp && mkdir sp && split --number=l/3 lines.txt sp/ && wc -l sp/*",
    "split -n 2/3 lines.txt", "split -n l/2/3 lines.txt", "split -n r/3 lines.txt sp/ 2>/dev/null; split -n r/1/3 lines.txt",
    "rm -rf sp && mkdir sp && split -e -n 20 d/a.txt sp/ && ls sp", "rm -rf sp && mkdir sp && split --elide-empty-files -n 40 d/b.txt sp/ && ls sp | wc -l",
    "rm -rf sp && mkdir sp && split -t , -l 1 tx/sep.txt sp/ && head sp/*", "rm -rf sp && mkdir sp && split --separator=, -l 2 tx/sep.txt sp/ && cat sp/aa",
    "rm -rf sp && mkdir sp && split -u -l 6 lines.txt sp/ && ls sp", "rm -rf sp && mkdir sp && split --unbuffered -n r/2 lines.txt sp/ && cat sp/ab",
    "rm -rf sp && mkdir sp && split --verbose -l 6 lines.txt sp/", { run: "split -l 4 --filter='wc -l' lines.txt", refused: "--filter" },
    "rm -rf sp && mkdir sp && cat lines.txt | split -l 6 - sp/ && ls sp", "split -l 0 lines.txt 2>/dev/null; echo $?",
    // tx/big.txt: about 1 MiB, many 64 KiB blocks, lines of 70 KB and a last one of 150 KB without its newline.
    `${sp}split -l 30000 tx/big.txt sp/ && md5sum sp/*`, `${sp}split -b 300K tx/big.txt sp/ && md5sum sp/*`, `${sp}split --bytes=65537 tx/big.txt sp/ && md5sum sp/*`,
    `${sp}split -C 100000 tx/big.txt sp/ && md5sum sp/*`, `${sp}split -C 40000 tx/big.txt sp/ && md5sum sp/*`, `${sp}split -t 5 -C 30000 tx/big.txt sp/ && md5sum sp/*`,
    `${sp}split -n 3 tx/big.txt sp/ && md5sum sp/*`, `${sp}split -n l/3 tx/big.txt sp/ && md5sum sp/*`, `${sp}split -n l/40 tx/big.txt sp/ && md5sum sp/*`,
    `${sp}split -e -n l/40 tx/big.txt sp/ && md5sum sp/*`, `${sp}split -n r/3 tx/big.txt sp/ && md5sum sp/*`, `${sp}split -n l/3 - sp/ < tx/big.txt && md5sum sp/*`,
    "split -n 2/3 tx/big.txt | md5sum", "split -n l/2/3 tx/big.txt | md5sum", "split -n r/2/3 tx/big.txt | md5sum",
  ],
};
