// gzip byte for byte (issue 26): what scripts print about compressed data (md5 of `gzip -c`, sizes
// from `wc -c`/`ls -l`, `gzip -l`, `gzip -v`'s percentages, `tar czf`) must equal Debian 12's GNU
// gzip 1.12 and tar at every level. SETUP makes the inputs once (text, random bytes, a 5 MB file,
// highly repetitive, zeros, empty, one byte, a mix, a directory, all with one fixed mtime); each
// case then runs in that directory, in real bash as `nobody` (gzip.global.mjs) and in one session
// (gzip.test.ts), and must leave the directory as it found it.

export const SETUP = [
  "export TZ=UTC",
  `awk 'BEGIN{for(i=1;i<=30000;i++) printf "%d line of text %d the quick brown fox\\n", i, i*7%13}' > t.txt`,
  // Random-looking bytes from a fixed generator both sides compute alike (hex through xxd -r -p).
  `awk 'BEGIN{x=1; for(i=0;i<150000;i++){x=(x*69069+1)%4294967296; printf "%02x", int(x/16777216)}}' | xxd -r -p > r.bin`,
  `awk 'BEGIN{for(i=0;i<400000;i++) printf "w%d %s\\n", (i*i)%977, (i%3?"alpha":"beta gamma")}' > big.txt`,
  "yes abcabc | head -c 600000 > rep.txt",
  "yes '' | head -c 500000 | tr '\\n' '\\000' > z.bin",
  ": > e; printf x > one",
  "cat r.bin t.txt r.bin rep.txt > mix.bin",
  "mkdir -p d/sub; cp t.txt d/a.txt; cp r.bin d/sub/b.bin; printf 'hi\\n' > d/sub/c",
  "touch -d '2024-03-01 12:00:00' t.txt r.bin big.txt rep.txt z.bin e one mix.bin d/a.txt d/sub/b.bin d/sub/c d/sub d",
].join("\n");

const FILES = ["e", "one", "t.txt", "r.bin", "big.txt", "rep.txt", "z.bin", "mix.bin"];
const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const TAR = "tar --sort=name --owner=0 --group=0 --numeric-owner";

export const CASES = [
  // gzip -c FILE stores the name and the file's mtime.
  ...FILES.map((f) => `gzip -c ${f} | md5sum`),
  ...LEVELS.map((l) => `gzip -${l} -c big.txt | md5sum`),
  // From standard input: no name, mtime 0.
  ...LEVELS.map((l) => `gzip -${l} < mix.bin | md5sum`),
  ...[1, 3, 5, 9].map((l) => `gzip -${l} -n -c t.txt | wc -c`),
  ...[2, 4, 6, 8].map((l) => `cat r.bin | gzip -${l} | md5sum`),
  "gzip -c -N t.txt | md5sum",
  "gzip -cn r.bin | md5sum",
  "gzip --fast -c rep.txt | md5sum; gzip --best -c z.bin | md5sum",
  // The last level given wins.
  "gzip -9 -1 -c t.txt | md5sum; gzip --fast --best -c t.txt | md5sum",
  "gzip --rsyncable -c big.txt | md5sum; gzip --rsyncable -9 < mix.bin | md5sum",
  "gzip -k t.txt && gzip -l t.txt.gz; rm t.txt.gz",
  "gzip -k big.txt r.bin e && gzip -l big.txt.gz r.bin.gz e.gz; rm -f big.txt.gz r.bin.gz e.gz",
  "gzip -k -9 mix.bin && gzip -lv mix.bin.gz; rm mix.bin.gz",
  "gzip -v -k rep.txt 2>&1; rm rep.txt.gz",
  "gzip -kv1 t.txt r.bin one 2>&1; rm -f t.txt.gz r.bin.gz one.gz",
  "gzip -v < big.txt 2>&1 > /dev/null",
  "gzip -k -9 big.txt && ls -l big.txt.gz | awk '{print $5}' && wc -c < big.txt.gz; rm big.txt.gz",
  "gzip -c t.txt > a.gz && stat -c %s a.gz && gzip -cd a.gz | cmp - t.txt && echo same; rm a.gz",
  `${TAR} -czf - d | wc -c`,
  `${TAR} -czf x.tgz d && md5sum x.tgz; rm x.tgz`,
  `${TAR} -cf - d | gzip -9 | md5sum`,
  `${TAR} -czf x.tgz d && gzip -l x.tgz; rm x.tgz`,
  // Decompression: several members, trailing garbage, names back with -N.
  "gzip -c t.txt > a.gz; gzip -c r.bin > b.gz; cat a.gz b.gz | gunzip | md5sum; rm a.gz b.gz",
  'gzip -c one > a.gz; (cat a.gz; echo junk) | gunzip; echo "exit $?"; rm a.gz',
  "gzip -c one > a.gz; (cat a.gz; printf '\\0\\0\\0') | gunzip; echo \"exit $?\"; rm a.gz",
  "mkdir n && gzip -c t.txt > n/x.gz && cd n && gunzip -N x.gz && stat -c '%n %s %Y' *; cd ..; rm -r n",
  "mkdir n && gzip -c t.txt > n/x.gz && cd n && gunzip x.gz && stat -c '%n %s' *; cd ..; rm -r n",
  'gzip -c t.txt > x.gz; gunzip -N x.gz; echo "exit $?"; rm -f x.gz',
  "gzip -c big.txt | zcat | md5sum; md5sum < big.txt",
];
