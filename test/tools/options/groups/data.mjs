// Option-sweep cases for the "data" group of toolbox commands (see ../cases.mjs for the rules of a
// case). FIXTURE_DATA adds the files these cases need; it runs after the base fixture and before the
// timestamps are set. Everything it makes lives under k/, so other groups' listings do not change.
export const FIXTURE_DATA = String.raw`mkdir -p k/p k/gz/in
printf 'hello world\n' > k/h.txt
printf 'x\n' > 'k/back\slash.txt'
printf '\000\001\002\003ABCDEFGH\377\376\200\177' > k/bin.dat
printf '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >> k/bin.dat
printf '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >> k/bin.dat
printf '\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000\000' >> k/bin.dat
printf 'text string here more\tstuff ok\nend\000xy\000long-enough\n' >> k/bin.dat
printf 'ab\000\000\000wide\000' > k/w.dat
printf 'w\000i\000d\000e\000s\000!\000\000\000' >> k/w.dat
for a in md5 sha1 sha224 sha256 sha384 sha512; do
  "$a"sum d/a.txt d/b.txt > k/sums.$a
  "$a"sum --tag d/a.txt d/b.txt > k/tag.$a
  { "$a"sum d/a.txt; "$a"sum d/a.txt | sed 's/a\.txt/b.txt/'; } > k/bad.$a
  { cat k/sums.$a; echo 'not a checksum line'; } > k/mal.$a
  { cat k/sums.$a; "$a"sum d/a.txt | sed 's/a\.txt/nosuch.txt/'; } > k/miss.$a
done
printf 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n' > k/p/f.txt
printf 'one\ntwo\nTHREE\nfour\nfive\nsix\nseven\neight\n' > k/f.new
printf 'bye\n' > k/p/gone.txt
printf 'zero\nextra\none\ntwo\nthree\nfour\nfive\nsix\nseven\n' > k/p/g.txt
diff -u --label a/f.txt --label b/f.txt k/p/f.txt k/f.new > k/u.diff || true
diff -c --label a/f.txt --label b/f.txt k/p/f.txt k/f.new > k/c.diff || true
diff k/p/f.txt k/f.new > k/n.diff || true
sed 's/f\.txt/g.txt/' k/u.diff > k/g.diff
sed 's/^ four/ FOUR/' k/u.diff > k/fuzz.diff
sed 's/^-three/-tree/; s/^ two/ TWO/' k/u.diff > k/rej.diff
printf -- '--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+n1\n+n2\n' > k/new.diff
printf -- '--- a/gone.txt\n+++ b/gone.txt\n@@ -1 +0,0 @@\n-bye\n' > k/gone.diff
printf 'caf\351 na\357ve\n' > k/latin1.txt
printf 'caf\303\251 \342\202\2545\n' > k/utf8.txt
printf 'plain ascii\n' > k/ascii.txt
printf 'size 1024\nsize 2048000\nsize 3.5\nbad x1\n' > k/num.txt
printf '1M\n2K\n1.5G\n' > k/si.txt
printf 'a:1500:b\nc:25000000:d\n' > k/colon.txt
printf '2^64\n' > k/big.bc
printf 'define f(n) { if (n < 2) return 1; return n * f(n - 1) }\nf(30)\nx = 7; x %% 3\nscale = 4; 10 / 3\nsqrt(2)\nlength(1234.50)\nscale(1.250)\nibase = 16; FF\nobase = 2; 10\n' > k/f.bc
printf 'scale=20; 4*a(1)\ns(1); c(1); l(10); e(1); j(1,2)\n' > k/l.bc
printf 'for (i = 0; i < 3; i++) { print i, " " }\nprint "\\n"\nwhile (i > 0) { i = i - 1; i }\n' > k/loop.bc
printf 'x\n' | gzip > k/gz/one.gz
printf 'y\n' | gzip > k/gz/in/two.gz
printf 'zz\n' | gzip -n > k/three.gz
`;

// The six checksum programs share one implementation; each gets the same cases.
const hashCases = (cmd) => {
  const a = cmd.replace("sum", "");
  return [
    `${cmd} d/a.txt d/b.txt`, `${cmd} < d/a.txt`, `${cmd} - < d/a.txt`, `${cmd} -b d/a.txt`, `${cmd} -t d/a.txt`,
    `${cmd} --binary d/a.txt`, `${cmd} --text d/a.txt`, `${cmd} --tag d/a.txt d/empty`, `${cmd} --tag -b d/a.txt`,
    `${cmd} -z d/a.txt | tr '\\0' ,`, `${cmd} --zero d/a.txt d/b.txt | tr '\\0' ,`, `${cmd} 'k/back\\slash.txt'`,
    `${cmd} -z 'k/back\\slash.txt' | tr '\\0' ,`, `${cmd} d/nosuch d/a.txt 2>/dev/null; echo $?`, `${cmd} d 2>/dev/null; echo $?`,
    `${cmd} -c k/sums.${a}`, `${cmd} --check k/sums.${a}`, `${cmd} -c k/tag.${a}`, `${cmd} -c < k/sums.${a}`,
    `${cmd} -c k/bad.${a} 2>/dev/null; echo $?`, `${cmd} --quiet -c k/bad.${a} 2>/dev/null; echo $?`,
    `${cmd} --quiet -c k/sums.${a}; echo $?`, `${cmd} --status -c k/bad.${a}; echo $?`, `${cmd} --status -c k/sums.${a}; echo $?`,
    `${cmd} -c k/mal.${a} 2>/dev/null; echo $?`, `${cmd} --strict -c k/mal.${a} 2>/dev/null; echo $?`,
    `${cmd} -w -c k/mal.${a} 2>&1; echo $?`, `${cmd} --warn -c k/mal.${a} 2>&1; echo $?`,
    `${cmd} -c k/miss.${a} 2>/dev/null; echo $?`, `${cmd} --ignore-missing -c k/miss.${a}; echo $?`,
    `${cmd} -c k/mal.${a} 2>&1 >/dev/null; echo $?`, `${cmd} -c k/bad.${a} 2>&1 >/dev/null`,
    `${cmd} -c -z k/sums.${a}`, `${cmd} -c --tag k/sums.${a} 2>/dev/null; echo $?`,
  ];
};

// A copy of tx/big.txt with byte 65537 (just past the first 64 KiB block) changed.
const cm = "head -c 65536 tx/big.txt > cm.txt && printf X >> cm.txt && tail -c +65538 tx/big.txt >> cm.txt && ";

/** @type {Record<string, Array<string | {run: string, opts?: string[], refused?: string}>>} */
export const CASES_DATA = {
  md5sum: hashCases("md5sum"),
  sha256sum: hashCases("sha256sum"),
  sha1sum: hashCases("sha1sum"),
  sha224sum: hashCases("sha224sum"),
  sha384sum: hashCases("sha384sum"),
  sha512sum: hashCases("sha512sum"),
  cksum: [
    "cksum --length=64 d/a.txt; echo $?", "cksum -l 64 d/a.txt; echo $?",
    "cksum d/a.txt d/b.txt", "cksum < d/a.txt", "cksum d/empty", "cksum -a crc d/a.txt", "cksum -a sysv d/a.txt d/b.txt", "cksum -a bsd d/a.txt d/b.txt",
    "cksum -a md5 d/a.txt", "cksum -a sha1 d/a.txt", "cksum -a sha224 d/a.txt", "cksum -a sha256 d/a.txt", "cksum -a sha384 d/a.txt", "cksum -a sha512 d/a.txt",
    "cksum --algorithm=sha256 d/a.txt d/b.txt", "cksum -a sha256 --untagged d/a.txt", "cksum -a md5 --untagged d/a.txt d/b.txt", "cksum -a sha1 --tag d/a.txt",
    "cksum -a sha256 < d/a.txt", "cksum -a bsd < d/a.txt", "cksum -a sysv < d/a.txt", "cksum -z d/a.txt | tr '\\0' ,", "cksum --zero -a md5 d/a.txt | tr '\\0' ,",
    "cksum -a sha256 'k/back\\slash.txt'", "cksum -a crc 'k/back\\slash.txt'", "cksum d/nosuch 2>/dev/null; echo $?",
    "cksum -a sha256 d/a.txt d/b.txt > ck && cksum -c ck", "cksum -a sha256 d/a.txt > ck && cksum --check ck",
    "cksum -a md5 d/a.txt > ck && sed 's/a\\.txt/b.txt/' ck > ck2 && cksum -c ck2 2>/dev/null; echo $?",
    "cksum -a md5 d/a.txt > ck && sed 's/a\\.txt/b.txt/' ck > ck2 && cksum --quiet -c ck ck2 2>/dev/null; echo $?",
    "cksum -a md5 d/a.txt > ck && sed 's/a\\.txt/b.txt/' ck > ck2 && cksum --status -c ck2; echo $?",
    "cksum -a md5 d/a.txt > ck && echo junk >> ck && cksum --strict -c ck 2>/dev/null; echo $?",
    "cksum -a md5 d/a.txt > ck && echo junk >> ck && cksum -w -c ck 2>&1; echo $?",
    "cksum -a md5 d/a.txt > ck && echo junk >> ck && cksum --warn -c ck 2>&1; echo $?",
    "cksum -a md5 d/nosuch 2>/dev/null; cksum -a md5 d/a.txt | sed 's/a\\.txt/gone.txt/' > ck && cksum --ignore-missing -c ck; echo $?",
    "cksum -c k/tag.sha256", "cksum -c k/tag.md5 k/tag.sha512", "cksum -c k/sums.sha256 2>/dev/null; echo $?", "cksum -a sha256 -c k/sums.sha256",
    "cksum -c k/tag.sha1 -z", "cksum -a crc -c k/sums.md5 2>/dev/null; echo $?", "cksum --debug -a sha256 d/a.txt 2>/dev/null",
    "cksum -a nosuch d/a.txt 2>/dev/null; echo $?", "cksum -l 256 -a sha256 d/a.txt 2>/dev/null; echo $?",
    { run: "cksum -a blake2b d/a.txt", refused: "blake2b" }, { run: "cksum -a sm3 d/a.txt", refused: "sm3" },
    { run: "cksum -a blake2b -l 256 d/a.txt", refused: "blake2b", opts: ["-l"] }, { run: "cksum -a blake2b --length=128 d/a.txt", refused: "blake2b", opts: ["--length"] },
  ],
  // cmp words its message by locale ("char" in C, "byte" elsewhere): the real tool runs under
  // LC_ALL=C, so each case sets it too (an export in the sweep's setup does not outlive that call).
  cmp: [
    "cmp f1.txt f2.txt; echo $?", "cmp f1.txt f1.txt; echo $?", "cmp -b f1.txt f2.txt", "cmp --print-bytes f1.txt f2.txt", "cmp -l f1.txt f2.txt; echo $?",
    "cmp --verbose f1.txt f2.txt", "cmp -lb f1.txt f2.txt", "cmp -s f1.txt f2.txt; echo $?", "cmp --silent f1.txt f1.txt; echo $?", "cmp --quiet f1.txt f2.txt; echo $?",
    "cmp -n 2 f1.txt f2.txt; echo $?", "cmp --bytes=3 f1.txt f2.txt; echo $?", "cmp -i 2 f1.txt f2.txt; echo $?", "cmp -i 2:4 d/a.txt d/a.txt; echo $?",
    "cmp --ignore-initial=1 f1.txt f2.txt; echo $?", "cmp f1.txt f2.txt 1 1; echo $?", "cmp d/a.txt d/b.txt", "cmp f1.txt lines.txt", "cmp d/empty f1.txt 2>&1; echo $?",
    "cmp f1.txt d/empty 2>&1; echo $?", "cmp lines.txt f1.txt 2>&1", "cmp - f2.txt < f1.txt", "cmp f1.txt nosuch 2>/dev/null; echo $?", "cmp -l k/bin.dat k/w.dat 2>/dev/null | head -5",
    "cmp -bl k/bin.dat k/w.dat 2>/dev/null | head -5", "cmp -n 1K f1.txt f2.txt; echo $?", "cmp -i 1K f1.txt f2.txt; echo $?", "cmp -v >/dev/null; echo $?",
    // tx/big.txt (about 1 MiB, many 64 KiB blocks): cmp streams it; cm.txt differs at byte 65537.
    `${cm}cmp tx/big.txt cm.txt; echo $?`, `${cm}cmp -b tx/big.txt cm.txt; echo $?`, `${cm}cat tx/big.txt | cmp - cm.txt; echo $?`,
    `${cm}cmp -n 65536 tx/big.txt cm.txt; echo $?`, `${cm}cmp -i 65537 tx/big.txt cm.txt; echo $?`, `${cm}cmp -l tx/big.txt cm.txt; echo $?`,
    "tr 5 6 < tx/big.txt | cmp -l tx/big.txt - | tail -3", "tr 5 6 < tx/big.txt | cmp -l - tx/big.txt | wc -l",
    "head -c 200000 tx/big.txt | cmp tx/big.txt - 2>&1; echo $?", "head -c 200000 tx/big.txt | cmp -l -i 70000 - tx/big.txt 2>&1; echo $?",
  ].map((run) => `export LC_ALL=C; ${run}`),
  od: [
    "od k/bin.dat", "od -v k/bin.dat | head -3", "od --output-duplicates k/bin.dat | wc -l", "od -A d k/bin.dat | head -2", "od -A x k/bin.dat | tail -2", "od -A o k/h.txt",
    "od -A n k/h.txt", "od --address-radix=x k/h.txt", "od -N 5 k/h.txt", "od --read-bytes=3 -c k/h.txt", "od -j 6 -c k/h.txt", "od --skip-bytes=4 -c k/h.txt",
    "od -a k/bin.dat | head -2", "od -b k/h.txt", "od -c k/bin.dat", "od -d k/h.txt", "od -f k/bin.dat | head -1", "od -i k/h.txt", "od -l k/h.txt", "od -o k/h.txt",
    "od -s k/h.txt", "od -x k/h.txt", "od -t x1 k/h.txt", "od -t x2 k/h.txt", "od -t x4 k/bin.dat | head -2", "od -t x8 k/h.txt", "od -t o1 k/h.txt", "od -t u1 k/h.txt",
    "od -t u2 k/h.txt", "od -t d1 k/bin.dat | head -2", "od -t d2 k/bin.dat | head -1", "od -t d4 k/h.txt", "od -t d8 k/h.txt", "od -t c k/h.txt", "od -t a k/bin.dat | head -2",
    "od -t f4 k/h.txt", "od -t f8 k/h.txt", "od -t x1z k/bin.dat | head -2", "od -t x1 -t c k/h.txt", "od --format=x2 k/h.txt", "od -tx1 -w4 k/h.txt", "od -w8 -c k/h.txt",
    "od --width=4 -An -tx1 k/h.txt", "od -w -c k/bin.dat | head -2", "od --endian=big -t x2 k/h.txt", "od --endian=little -t x4 k/h.txt", "od -S 4 k/bin.dat", "od --strings=10 k/bin.dat",
    "od -S 3 -A d k/w.dat", "od --traditional k/h.txt", "od -An -tx1 < k/h.txt", "od -c d/a.txt d/empty", "od -c - < d/b.txt", "od -j 100 k/h.txt 2>/dev/null; echo $?",
    "od -t x3 k/h.txt 2>/dev/null; echo $?", "od -N 0x4 -c k/h.txt", "od -j 1k k/bin.dat; echo $?", "od -t dL k/h.txt", "od -t uC k/h.txt", "od -t dS k/h.txt", "od -t fD k/h.txt 2>/dev/null | head -1",
  ],
  hexdump: [
    "hexdump -h | head -3",
    "hexdump k/h.txt", "hexdump k/bin.dat", "hexdump -C k/bin.dat", "hexdump --canonical k/h.txt", "hexdump -b k/h.txt", "hexdump --one-byte-octal k/h.txt",
    "hexdump -c k/bin.dat", "hexdump --one-byte-char k/h.txt", "hexdump -d k/h.txt", "hexdump --two-bytes-decimal k/h.txt", "hexdump -o k/h.txt", "hexdump --two-bytes-octal k/h.txt",
    "hexdump -x k/h.txt", "hexdump --two-bytes-hex k/h.txt", "hexdump -n 4 -C k/h.txt", "hexdump --length=6 -C k/h.txt", "hexdump -s 6 -C k/h.txt", "hexdump --skip=2 -c k/h.txt",
    "hexdump -v -C k/bin.dat | wc -l", "hexdump --no-squeezing k/bin.dat | wc -l", "hexdump -e '16/1 \"%02x \" \"\\n\"' k/h.txt", "hexdump -e '\"%07.7_ax \" 8/1 \"%03o \" \"\\n\"' k/h.txt",
    "hexdump --format '4/1 \"%c|\" \"\\n\"' k/h.txt", "hexdump -e '1/4 \"%08x\" \"\\n\"' k/h.txt", "hexdump -e '\"%_p\"' k/bin.dat; echo", "hexdump -e '/1 \"%_u \"' k/h.txt; echo",
    "printf '16/1 \"%%02X\" \"\\\\n\"\\n' > fmt.hd && hexdump -f fmt.hd k/h.txt", "printf '\"%%_ad:\" 4/1 \" %%d\" \"\\\\n\"\\n' > fmt.hd && hexdump --format-file fmt.hd k/h.txt",
    "hexdump -L -C k/h.txt", "hexdump --color=never -C k/h.txt", "hexdump -C < k/h.txt", "hexdump -C d/a.txt k/h.txt", "hexdump -C d/empty", "hexdump -C nosuch 2>/dev/null; echo $?",
    "hexdump -V >/dev/null; echo $?", "hexdump -h | head -3", "hexdump -C -s 1 -n 3 k/bin.dat", "hexdump -s 0x10 -n 0x20 -C k/bin.dat",
  ],
  xxd: [
    "xxd k/h.txt", "xxd k/bin.dat", "xxd -a k/bin.dat", "xxd -b k/h.txt", "xxd -c 8 k/h.txt", "xxd -g 1 k/h.txt", "xxd -g 4 k/h.txt", "xxd -e k/h.txt", "xxd -e -g 2 k/h.txt",
    "xxd -i k/h.txt", "xxd -i -C k/h.txt", "xxd -i -n data k/h.txt", "xxd -i < k/h.txt", "xxd -l 5 k/h.txt", "xxd -o 16 k/h.txt", "xxd -p k/bin.dat", "xxd -ps k/h.txt", "xxd -p -c 4 k/h.txt",
    "xxd -s 6 k/h.txt", "xxd -s -4 k/h.txt", "xxd -u k/bin.dat | head -1", "xxd -d k/h.txt", "xxd -E k/h.txt", "xxd -E k/bin.dat", "xxd < k/h.txt", "xxd -p k/h.txt | xxd -r -p", "xxd k/h.txt | xxd -r",
    "xxd -p k/bin.dat | xxd -r -p | cmp - k/bin.dat; echo $?", "xxd -r -s 2 k/h.txt 2>/dev/null | od -c | head -1 >/dev/null; echo $?", "xxd k/h.txt out.hex && cat out.hex", "xxd d/empty",
    "xxd -c 4 -g 3 k/h.txt", "xxd -b -c 2 k/h.txt", "xxd -l 0x10 k/bin.dat", "xxd -v >/dev/null 2>&1; echo $?",
  ],
  strings: [
    "strings k/bin.dat", "strings -a k/bin.dat", "strings --all k/bin.dat", "strings -d k/bin.dat", "strings --data k/bin.dat", "strings -n 8 k/bin.dat", "strings --bytes=3 k/bin.dat",
    "strings -3 k/bin.dat", "strings -f k/bin.dat", "strings --print-file-name k/bin.dat k/w.dat", "strings -t x k/bin.dat", "strings -t d k/bin.dat", "strings -t o k/bin.dat",
    "strings --radix=d k/bin.dat", "strings -o k/bin.dat", "strings -w k/bin.dat", "strings --include-all-whitespace k/bin.dat", "strings -e s k/w.dat", "strings -e l k/w.dat",
    "strings --encoding=l -n 3 k/w.dat", "strings -e b k/w.dat", "strings -e S k/latin1.txt", "strings -s , k/bin.dat; echo", "strings --output-separator=: k/bin.dat; echo",
    "strings -U d k/utf8.txt", "strings -U e k/utf8.txt", "strings -U i k/utf8.txt", "strings --unicode=hex k/utf8.txt", "strings --unicode=escape k/utf8.txt", "strings -U s k/utf8.txt",
    "strings < k/bin.dat", "strings d/a.txt", "strings nosuch 2>/dev/null; echo $?", "strings -v >/dev/null; echo $?", "strings -V >/dev/null; echo $?",
    "strings -T binary k/bin.dat", "strings --target=binary k/bin.dat", "strings -h >/dev/null; echo $?",
  ],
  gunzip: [
    "rm -rf gz && cp -r k/gz gz && gunzip gz/one.gz && ls gz && cat gz/one", "gunzip -c k/gz/one.gz", "gunzip --stdout k/three.gz", "gunzip < k/three.gz",
    "rm -rf gz && cp -r k/gz gz && gunzip -k gz/one.gz && ls gz", "rm -rf gz && cp -r k/gz gz && gunzip --keep gz/one.gz && ls gz",
    "rm -rf gz && cp -r k/gz gz && gunzip -r gz && find gz | sort", "rm -rf gz && cp -r k/gz gz && gunzip --recursive gz && find gz -type f | sort",
    "rm -rf gz && cp -r k/gz gz && printf 'o\\n' > gz/one && gunzip gz/one.gz < /dev/null 2>/dev/null; echo $?; cat gz/one",
    "rm -rf gz && cp -r k/gz gz && printf 'o\\n' > gz/one && gunzip -f gz/one.gz; cat gz/one", "rm -rf gz && cp -r k/gz gz && printf 'o\\n' > gz/one && gunzip --force gz/one.gz; cat gz/one",
    "gunzip -t k/three.gz; echo $?", "gunzip --test k/three.gz; echo $?", "gunzip -t d/a.txt 2>/dev/null; echo $?", "gunzip -q -t k/three.gz; echo $?",
    "gunzip --quiet -c k/three.gz", "rm -f t3 && cp k/three.gz t3.gz && gunzip -v t3.gz 2>/dev/null; cat t3", "gunzip --verbose -t k/three.gz 2>/dev/null; echo $?",
    "gunzip -l k/three.gz", "gunzip --list k/three.gz", "gunzip -l -v k/three.gz | cut -c1-5,31-", "gunzip -n -c k/three.gz", "gunzip --no-name -c k/three.gz",
    "gunzip -N -c k/three.gz", "gunzip --name -c k/three.gz", "rm -f t3 && cp k/three.gz t3.z && gunzip -S .z t3.z && cat t3", "rm -f t3 && cp k/three.gz t3.x && gunzip --suffix=.x t3.x && cat t3",
    "gunzip --synchronous -c k/three.gz", "gunzip nosuch.gz 2>/dev/null; echo $?", "gunzip -c k/three.gz k/gz/one.gz", "gunzip -l k/three.gz k/gz/one.gz", "gunzip -lq k/three.gz", "gunzip -c d/a.txt 2>/dev/null; echo $?",
    "gunzip -cf d/a.txt", "cat k/three.gz k/three.gz | gunzip", "printf 'x\\n' | gzip | gunzip -c -",
  ],
  patch: [
    "rm -rf pw && cp -r k/p pw && patch -d pw -p1 < k/u.diff && cat pw/f.txt", "rm -rf pw && cp -r k/p pw && patch -d pw --strip=1 -i ../k/u.diff && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch pw/f.txt k/u.diff && cat pw/f.txt", "rm -rf pw && cp -r k/p pw && patch pw/f.txt < k/c.diff && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch pw/f.txt k/n.diff && cat pw/f.txt", "rm -rf pw && cp -r k/p pw && patch -i k/u.diff pw/f.txt && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch --input=k/u.diff pw/f.txt && cat pw/f.txt", "rm -rf pw && cp -r k/p pw && patch --directory=pw -p1 < k/u.diff && ls pw",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw --dry-run < k/u.diff && cat pw/f.txt", "rm -rf pw && cp -r k/p pw && patch -s -p1 -d pw < k/u.diff && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch --silent -p1 -d pw < k/u.diff; echo $?", "rm -rf pw && cp -r k/p pw && patch --quiet -p1 -d pw < k/u.diff; echo $?",
    "rm -rf pw && cp -r k/p pw && patch --verbose -p1 -d pw < k/u.diff | grep -v '^Hmm'", "rm -rf pw && cp -r k/p pw && patch -b -p1 -d pw < k/u.diff && ls pw && cat pw/f.txt.orig",
    "rm -rf pw && cp -r k/p pw && patch --backup -p1 -d pw < k/u.diff && ls pw", "rm -rf pw && cp -r k/p pw && patch -b -z .bak -p1 -d pw < k/u.diff && ls pw",
    "rm -rf pw && cp -r k/p pw && patch --suffix=.was -b -p1 -d pw < k/u.diff && ls pw", "rm -rf pw && cp -r k/p pw && patch -B old/ -b -p1 -d pw < k/u.diff && find pw | sort",
    "rm -rf pw && cp -r k/p pw && patch --prefix=o_ -b -p1 -d pw < k/u.diff && ls pw", "rm -rf pw && cp -r k/p pw && patch -Y o_ -b -p1 -d pw < k/u.diff && ls pw",
    "rm -rf pw && cp -r k/p pw && patch --basename-prefix=x. -b -p1 -d pw < k/u.diff && ls pw", "rm -rf pw && cp -r k/p pw && patch -V numbered -b -p1 -d pw < k/u.diff && ls pw",
    "rm -rf pw && cp -r k/p pw && patch --version-control=simple -b -p1 -d pw < k/u.diff && ls pw", "rm -rf pw && cp -r k/p pw && patch -o out.txt pw/f.txt < k/u.diff && cat out.txt && cat pw/f.txt | wc -l",
    "rm -rf pw && cp -r k/p pw && patch --output=- pw/f.txt < k/u.diff", "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/u.diff && patch -R -p1 -d pw < k/u.diff && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/u.diff && patch --reverse -p1 -d pw < k/u.diff && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/u.diff && patch -N -p1 -d pw < k/u.diff; echo $?; ls pw",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/u.diff && patch --forward -p1 -d pw < k/u.diff; echo $?",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/u.diff && patch -t -p1 -d pw < k/u.diff; echo $?; cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/u.diff && patch --batch -p1 -d pw < k/u.diff; echo $?",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/u.diff && patch -f -p1 -d pw < k/u.diff; echo $?; ls pw",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/u.diff && patch --force -p1 -d pw < k/u.diff; echo $?; ls pw",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/g.diff && cat pw/g.txt", "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/fuzz.diff; echo $?; cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch -F 0 -p1 -d pw < k/fuzz.diff; echo $?; ls pw", "rm -rf pw && cp -r k/p pw && patch --fuzz=1 -p1 -d pw < k/fuzz.diff; echo $?",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/rej.diff; echo $?; ls pw; cat pw/f.txt.rej", "rm -rf pw && cp -r k/p pw && patch -r rj -p1 -d pw < k/rej.diff; echo $?; ls pw",
    "rm -rf pw && cp -r k/p pw && patch --reject-file=- -p1 -d pw < k/rej.diff; echo $?", "rm -rf pw && cp -r k/p pw && patch --reject-format=unified -p1 -d pw < k/rej.diff; cat pw/f.txt.rej",
    "rm -rf pw && cp -r k/p pw && patch --reject-format=context -p1 -d pw < k/rej.diff; cat pw/f.txt.rej", { run: "rm -rf pw && cp -r k/p pw && patch --merge -p1 -d pw < k/rej.diff", refused: "--merge" },
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/new.diff && cat pw/new.txt", "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < k/gone.diff; ls pw",
    "rm -rf pw && cp -r k/p pw && patch -E -p1 -d pw < k/gone.diff; ls pw", "rm -rf pw && cp -r k/p pw && patch --remove-empty-files -p1 -d pw < k/gone.diff; ls pw",
    "rm -rf pw && cp -r k/p pw && patch --posix -p1 -d pw < k/gone.diff; ls pw", "rm -rf pw && cp -r k/p pw && patch -D NEW pw/f.txt < k/u.diff && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch --ifdef=X pw/f.txt < k/u.diff && cat pw/f.txt", "rm -rf pw && cp -r k/p pw && patch -u pw/f.txt < k/u.diff && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch --unified pw/f.txt < k/u.diff; echo $?", "rm -rf pw && cp -r k/p pw && patch -c pw/f.txt < k/c.diff && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch --context pw/f.txt < k/c.diff; echo $?", "rm -rf pw && cp -r k/p pw && patch -n pw/f.txt < k/n.diff && cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && patch --normal pw/f.txt < k/n.diff; echo $?", "rm -rf pw && cp -r k/p pw && diff -e k/p/f.txt k/f.new > e.diff; patch -e pw/f.txt < e.diff; cat pw/f.txt",
    "rm -rf pw && cp -r k/p pw && diff -e k/p/f.txt k/f.new > e.diff; patch --ed pw/f.txt < e.diff; echo $?",
    "rm -rf pw && cp -r k/p pw && sed 's/^ four/ four  /' k/u.diff > ws.diff && patch -l -p1 -d pw < ws.diff; echo $?",
    "rm -rf pw && cp -r k/p pw && sed 's/^ four/ four  /' k/u.diff > ws.diff && patch --ignore-whitespace -p1 -d pw < ws.diff; echo $?",
    "rm -rf pw && cp -r k/p pw && patch -T -p1 -d pw < k/u.diff 2>/dev/null; cat pw/f.txt", "rm -rf pw && cp -r k/p pw && patch --set-time -p1 -d pw < k/u.diff 2>/dev/null; echo $?",
    "rm -rf pw && cp -r k/p pw && patch -Z -p1 -d pw < k/u.diff 2>/dev/null; echo $?", "rm -rf pw && cp -r k/p pw && patch --set-utc -p1 -d pw < k/u.diff 2>/dev/null; echo $?",
    "rm -rf pw && cp -r k/p pw && patch -g 0 -p1 -d pw < k/u.diff; echo $?", "rm -rf pw && cp -r k/p pw && patch --get=0 -p1 -d pw < k/u.diff; echo $?",
    "rm -rf pw && cp -r k/p pw && patch --binary -p1 -d pw < k/u.diff; echo $?", "rm -rf pw && cp -r k/p pw && patch --read-only=ignore -p1 -d pw < k/u.diff; echo $?",
    "rm -rf pw && cp -r k/p pw && patch --quoting-style=literal -p1 -d pw < k/u.diff", "rm -rf pw && cp -r k/p pw && patch --backup-if-mismatch -p1 -d pw < k/g.diff; ls pw",
    "rm -rf pw && cp -r k/p pw && patch --no-backup-if-mismatch -p1 -d pw < k/g.diff; ls pw", "rm -rf pw && cp -r k/p pw && patch -p0 -d pw < k/u.diff 2>/dev/null; echo $?",
    "rm -rf pw && cp -r k/p pw && patch -p1 -d pw < d/a.txt 2>/dev/null; echo $?", "patch -v >/dev/null; echo $?",
  ],
  iconv: [
    "iconv -V | head -c 6",
    "iconv --usage",
    "iconv -f ISO-8859-1 -t UTF-8 k/latin1.txt", "iconv -f latin1 -t utf-8 k/latin1.txt", "iconv --from-code=ISO-8859-1 --to-code=UTF-8 k/latin1.txt",
    "iconv -f UTF-8 -t ISO-8859-1 k/utf8.txt 2>/dev/null | od -An -c; echo $?", "iconv -c -f UTF-8 -t ISO-8859-1 k/utf8.txt | od -An -tx1; echo $?",
    "iconv -f UTF-8 -t UTF-16LE k/utf8.txt | od -An -tx1", "iconv -f UTF-8 -t UTF-16BE k/utf8.txt | od -An -tx1", "iconv -f UTF-8 -t UTF-16 k/ascii.txt | od -An -tx1",
    "iconv -f UTF-8 -t UTF-32BE k/ascii.txt | od -An -tx1", "iconv -f UTF-8 -t UTF-32LE k/ascii.txt | od -An -tx1", "iconv -f UTF-8 -t UTF-32 k/ascii.txt | od -An -tx1 | head -1",
    "iconv -f UTF-8 -t UTF-16 k/ascii.txt | iconv -f UTF-16 -t UTF-8", "iconv -f UTF-8 -t UTF-16BE k/utf8.txt | iconv -f UTF-16BE -t UTF-8",
    "iconv -f UTF-8 -t ASCII k/ascii.txt", "iconv -f UTF-8 -t ASCII k/utf8.txt 2>/dev/null; echo $?", "iconv -f UTF-8 -t WINDOWS-1252 k/utf8.txt | od -An -tx1",
    "iconv -f CP1252 -t UTF-8 k/latin1.txt", "iconv -f US-ASCII -t UTF-8 k/ascii.txt", "iconv -t UTF-8 -f UTF-8 k/utf8.txt", "iconv -f UTF-8 -t LATIN1 < k/ascii.txt",
    "iconv -f UTF-8 -t ISO-8859-1 -o out.txt k/latin1.txt 2>/dev/null; echo $?", "iconv -f ISO-8859-1 -t UTF-8 -o out.txt k/latin1.txt && cat out.txt",
    "iconv -f ISO-8859-1 -t UTF-8 --output=out.txt k/latin1.txt && cat out.txt", "iconv -s -f UTF-8 -t ASCII k/utf8.txt; echo $?", "iconv --silent -c -f UTF-8 -t ASCII k/utf8.txt; echo $?",
    "iconv -f UTF-8 -t ASCII k/latin1.txt 2>/dev/null; echo $?", "iconv -f ISO-8859-1 -t UTF-8 k/latin1.txt k/ascii.txt", "iconv --verbose -f ISO-8859-1 -t UTF-8 k/latin1.txt k/ascii.txt",
    "iconv -f NOSUCH -t UTF-8 k/ascii.txt 2>/dev/null; echo $?", "iconv -l | grep -c '^UTF-8//$'", "iconv --list | grep -c '^ISO-8859-1//$'",
    "iconv -c -f UTF-8 -t ASCII//IGNORE k/utf8.txt; echo $?", "iconv -f UTF-8 -t ISO-8859-1 nosuch 2>/dev/null; echo $?", "iconv -f utf8 -t latin1 k/ascii.txt",
  ],
  numfmt: [
    "numfmt 1000", "numfmt --to=si 1000 1500000 999", "numfmt --to=iec 1024 1536 1048576", "numfmt --to=iec-i 1024 3000000", "numfmt --to=auto 1000 2>/dev/null; echo $?",
    "numfmt --from=si 1K 1.5M 2G", "numfmt --from=iec 1K 1.5M", "numfmt --from=iec-i 1Ki 4Mi", "numfmt --from=auto 1Ki 1K", "numfmt --from=none 100",
    "numfmt --from-unit=1024 2", "numfmt --to-unit=1000 5000 12345", "numfmt --from=si --to=iec 1M", "numfmt --to=si --round=up 1001", "numfmt --to=si --round=down 1999",
    "numfmt --to=si --round=nearest 1500 1499", "numfmt --to=si --round=towards-zero 1999", "numfmt --to=si --round=from-zero 1001", "numfmt --format='%.2f' 3.14159",
    "numfmt --format='%10f' 42", "numfmt --format='%-10f|' 42", "numfmt --format='%010f' 42", "numfmt --format='%'\"'\"'f' 1234567", "numfmt --format='<%f>' 5", "numfmt --format='%.1f' --to=si 123456",
    "numfmt --grouping 1234567", "numfmt --header k/num.txt 2>/dev/null | head -2", "numfmt --header=2 --field=2 --to=si k/num.txt 2>/dev/null; echo $?",
    "numfmt --field=2 --to=si k/num.txt; echo $?", "numfmt --field=2 --invalid=ignore --to=si k/num.txt; echo $?", "numfmt --field=2 --invalid=warn --to=si k/num.txt 2>/dev/null; echo $?",
    "numfmt --field=2 --invalid=fail --to=si k/num.txt 2>/dev/null; echo $?", "numfmt --field=2 --invalid=abort --to=si k/num.txt 2>/dev/null; echo $?",
    "numfmt --padding=8 42 1000", "numfmt --padding=-8 42 | cat -A", "numfmt --suffix=B --to=iec 2048", "numfmt --suffix=B --from=iec 2KB 2>/dev/null; echo $?",
    "numfmt -d : --field=2 --to=si k/colon.txt", "numfmt --delimiter=: --field 2 --to=iec k/colon.txt", "numfmt --from=si < k/si.txt", "numfmt -z --to=si 1000 | tr '\\0' ,",
    "printf '2000\\0003000\\000' | numfmt --zero-terminated --to=si | tr '\\0' ,", "numfmt --debug --to=si 1000 2>/dev/null", "numfmt --field=1,2 -d : k/colon.txt 2>/dev/null; echo $?",
    "numfmt --field=- --to=si 1000 2000", "numfmt abc 2>/dev/null; echo $?", "numfmt --to=si -- -1500", "numfmt --to=iec 0 1 1023", "numfmt --to=si 999999 1000000",
    "numfmt --from=si 1.5K 2>&1", "numfmt --to=iec --format='%.3f' 1000000", "numfmt --from=iec 1E", "numfmt --to=si 123456789012345678",
  ],
  bc: [
    "echo '2+3*4' | bc", "echo '10/3' | bc", "echo '10/3' | bc -l", "echo 'scale=3; 10/3' | bc", "echo 's(1)' | bc -l", "echo 'a(1)*4' | bc --mathlib", "bc < k/f.bc",
    "bc -l < k/l.bc", "bc -q < k/loop.bc", "bc --quiet k/f.bc < /dev/null", "bc -q k/big.bc < /dev/null", "echo '2^200' | bc", "echo '-7 % 3; 7 % -3' | bc", "echo 'obase=16; 255' | bc",
    "echo 'ibase=2; 1010' | bc", "echo 'x=5; x+=2; x; x++; x' | bc", "echo '1 == 1; 2 < 1; !0' | bc", "echo '1 && 0; 1 || 0' | bc", "echo 'sqrt(16); sqrt(2)' | bc -l",
    "echo 'scale=50; sqrt(2)' | bc", "echo '1/0' | bc 2>/dev/null; echo $?", "echo 'syntax error here' | bc 2>/dev/null; echo $?", "echo '\"hi\\n\"' | bc",
    "echo 'print 1, \"a\\n\"' | bc", "echo 'define g(x) { auto y; y = x * 2; return (y) }; g(21)' | bc", "echo 'a[2]=5; a[2]+1' | bc", "echo 'e(1)' | bc -l", "echo 'l(2)' | bc -l",
    "echo 'c(0)' | bc -l", "echo 'j(0,1)' | bc -l", "echo '0.1 + 0.2' | bc", "echo '.5 * 3' | bc", "echo 'scale=2; 1.005 * 1' | bc", "echo 'last=3; 4; last' | bc", "echo '3; .' | bc",
    "echo 'x = 2^3^2; x' | bc", "echo '-2^2' | bc", "echo 'length(0.001); scale(0.001)' | bc", "echo 'scale=0; 5/2; scale=1; 5/2' | bc", "echo '2+2' | bc -s", "echo '2+2' | bc --standard",
    "echo '2+2' | bc -w 2>/dev/null", "echo '2+2' | bc --warn 2>/dev/null", "echo '2+2' | bc -i", "echo '2+2' | bc --interactive", "bc -v | head -1 >/dev/null; echo $?",
    "bc -h >/dev/null; echo $?", "echo 'halt' | bc; echo $?", "echo 'quit' | bc; echo $?", "echo '/* c */ 1 # x' | bc", "echo 'if (1) 5 else 6' | bc", "echo 'while (0) { }; 7' | bc",
    "echo 'for (i=0;i<3;i++) i' | bc", "echo 'obase=10; ibase=16; A' | bc", "echo 'scale=20; 1/7' | bc", "echo 'a=1;b=2;a<b' | bc",
  ],
  getopt: [
    "getopt -n myprog -o a -- -b; echo $?", "getopt --name=myprog -o a -- -b; echo $?",
    "getopt ab:c -a -b x y", "getopt -o ab:c -- -a -b x y", "getopt --options=ab:c -- -ab x y", "getopt -o a:: -- -a1 -a y", "getopt -o a -l long,arg: -- -a --long --arg=v x",
    "getopt -o '' --longoptions=opt: -- --opt v", "getopt -o a -l all -- --al x", "getopt -o x -- -y 2>/dev/null; echo $?", "getopt -o x -- -y 2>&1",
    "getopt -n prog -o x -- -y 2>&1", "getopt --name=me -o x -- -y 2>&1", "getopt -q -o x -- -y; echo $?", "getopt --quiet -o x -- -y; echo $?", "getopt -Q -o ab -- -a z; echo $?",
    "getopt --quiet-output -o ab -- -a z; echo $?", "getopt -s sh -o a: -- -a \"it's\"", "getopt -s csh -o a: -- -a \"it's\"", "getopt --shell=bash -o a: -- -a 'x y'",
    "getopt --shell=tcsh -o a: -- -a 'x!y'", "getopt -T; echo $?", "getopt --test; echo $?", "getopt -u -o a: -- -a 'x y' z", "getopt --unquoted -o ab -- -b -a q",
    "getopt -a -o x -l long: -- -long v", "getopt --alternative -o x -l long: -- -long=v", "getopt -o ab -- x -a y", "POSIXLY_CORRECT=1 getopt -o ab -- x -a y", "getopt -o +ab -- x -a y",
    "getopt -o -ab -- x -a y", "getopt -o a -- -- -a", "getopt -o a -l b: -- --b 2>/dev/null; echo $?", "getopt -o a -l bb,bc -- --b 2>/dev/null; echo $?", "getopt 2>/dev/null; echo $?",
    "getopt -h >/dev/null; echo $?", "getopt -V >/dev/null; echo $?", "getopt -o 'a' -- 'x'\"'\"'y' -a",
  ],
  expr: [
    "expr 1 + 2", "expr 10 - 4 \\* 2", "expr 7 / 2", "expr 7 % 3", "expr -7 / 2", "expr 3 \\< 10", "expr a \\< b", "expr 3 = 3", "expr 3 != 3; echo $?", "expr 5 \\>= 5",
    "expr 0 \\| 7", "expr 0 \\& 7; echo $?", "expr '' \\| 0; echo $?", "expr length hello", "expr substr hello 2 3", "expr index hello l", "expr match hello 'h.l'", "expr hello : 'h\\(.*\\)o'",
    "expr hello : 'x'; echo $?", "expr abc : 'a\\(b\\)\\?'", "expr 'a+b' : 'a+b'", "expr + length", "expr \\( 1 + 2 \\) \\* 3", "expr 1 / 0; echo $?", "expr a + 1 2>/dev/null; echo $?",
    "expr 2>/dev/null; echo $?", "expr 99999999999999999999 + 1", "expr -- -5 + 1", "expr 010 + 1", "expr 5", "expr abc \\> abd; echo $?", "expr 1 + 2 3 2>/dev/null; echo $?",
  ],
  // dd's statistics line carries the time: cases keep the records lines (status=noxfer) or none.
  dd: [
    "dd if=d/a.txt status=none", "dd if=d/a.txt bs=4 count=2 status=none", "dd if=d/a.txt ibs=3 obs=5 status=noxfer 2>&1",
    "dd if=d/a.txt bs=5 skip=1 count=1 status=none", "dd if=d/a.txt iflag=skip_bytes,count_bytes skip=2 count=7 status=none",
    "dd if=d/a.txt conv=ucase status=none", "dd if=d/a.txt conv=lcase,sync bs=16 status=none | od -c | head -3",
    "dd if=/dev/zero bs=1K count=10 status=none | wc -c", "dd if=/dev/zero of=z bs=512 count=3 2>&1 | head -2; wc -c < z",
    "printf 0123456789 > s && printf ab | dd of=s bs=1 seek=2 conv=notrunc status=none && cat s",
    "printf 0123456789 > s && printf Z | dd of=s bs=1 seek=3 status=none && cat s",
    "printf 0123456789 > s && printf xy | dd of=s oflag=seek_bytes seek=4 conv=notrunc status=none && cat s",
    "printf abc | dd of=s2 conv=excl status=none; printf abc | dd of=s2 conv=excl status=none; echo $?",
    "dd of=nope/x conv=nocreat status=none < d/a.txt; echo $?", "printf 'a\nb' | dd status=noxfer 2>&1",
    "printf 12345678 | dd ibs=2 obs=3 count=3 status=noxfer 2>&1", "printf 123 | dd iflag=fullblock bs=2 status=none",
    "dd if=d/a.txt bs=2x3 count=1 status=none", "dd if=d/a.txt bs=1b count=1 status=none | wc -c",
    "dd bogus 2>&1; echo $?", "dd bs=1Q 2>&1; echo $?", "dd conv=wat 2>&1; echo $?", "dd status=loud 2>&1; echo $?",
    "dd conv=ucase,lcase 2>&1; echo $?", "dd if=nosuch 2>&1; echo $?", "dd --version | head -1",
  ],
};
