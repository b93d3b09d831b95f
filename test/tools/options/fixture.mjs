// The tree every option case runs over, built by the same bash script on local disk (for the real
// tools) and in the session (for the toolbox). Every timestamp is set, directories last, so
// `ls -l`, `find -newer` and `stat` print the same times on both sides.
import { FIXTURE_DATA } from "./groups/data.mjs";
import { FIXTURE_FILES } from "./groups/files.mjs";
import { FIXTURE_TEXT } from "./groups/text.mjs";

const BASE = String.raw`set -e
mkdir -p d/sub/deep d/emptydir
printf 'alpha\nbeta\ngamma\nAlpha\n\ndelta beta\n' > d/a.txt
printf '10\n9\n100\n-3\n2.5\n9\n' > d/b.txt
printf '# Title\n\nSome *text* here.\nTODO: more\n' > d/sub/c.md
printf 'deep line\n' > d/sub/deep/e.log
printf 'hidden\n' > d/.hidden
: > d/empty
printf '#!/bin/sh\necho run\n' > d/run.sh
printf 'secret\n' > d/secret.txt
chmod 755 d/run.sh
chmod 600 d/secret.txt
printf 'apple 3\nbanana 1\nApple 2\ncherry 5\nbanana 1\napple 3\n' > words.txt
printf '2K\n1M\n512\n3G\n1K\n' > sizes.txt
printf 'v1.10\nv1.2\nv1.9\nv2.0\n' > versions.txt
printf 'Mar\nJan\nDec\nFeb\n' > months.txt
printf 'id,name,score\n1,ann,90\n2,bob,75\n3,cy,88\n' > t.csv
printf 'x\ty\tz\n1\t2\t3\n' > t.tsv
printf 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n' > lines.txt
printf 'a\nb\nc\nd\n' > f1.txt
printf 'a\nB\nc\nd\ne\n' > f2.txt
printf 'k1 v1\nk2 v2\nk4 v4\n' > j1.txt
printf 'k1 w1\nk3 w3\nk4 w4\n' > j2.txt
printf '{"name":"ann","tags":["x","y"],"n":3,"o":{"b":2,"a":1}}\n{"name":"bob","tags":[],"n":null,"o":{}}\n' > x.json
printf 'line  with   spaces\nTabs\there\nUPPER lower 123\n' > mixed.txt
printf 'a b\0c d\0' > nul.txt
printf 'a.txt\nb.txt\n' > list.txt
`;
// Last, so every file the groups add gets the same times.
const TIMES = `for f in $(find . -type f); do touch -d '2024-01-02 03:04:05' "$f"; done
touch -d '2024-03-04 05:06:07' d/b.txt lines.txt
touch -d '2023-12-31 23:59:59' d/sub/c.md
for f in $(find . -type d | sort -r); do touch -d '2024-01-02 03:04:05' "$f"; done
`;

export const FIXTURE = [BASE, FIXTURE_TEXT, FIXTURE_FILES, FIXTURE_DATA, TIMES].join("\n");
