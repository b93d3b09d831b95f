// Option-sweep cases for the "files" group of toolbox commands (see ../cases.mjs for the rules of a
// case). FIXTURE_FILES adds the files these cases need; it runs after the base fixture and before the
// timestamps are set. What depends on the machine is compared by shape only: absolute paths have
// $PWD masked as P, numeric ids and random names are masked, host names and CPU counts are counted.
export const FIXTURE_FILES = String.raw`printf 'x\n' | gzip -n > z1.gz
printf 'a.txt\nnosuch\n' > names.txt
mkdir -p ft
printf '#!/bin/bash\necho\n' > ft/b.sh
printf '#!/usr/bin/env bash\necho\n' > ft/eb.sh
printf '#!/bin/sh\necho\n' > ft/s.sh
printf '#!/usr/bin/env sh\necho\n' > ft/es.sh
printf '#!/bin/dash -e\necho\n' > ft/d.sh
printf '#!/usr/bin/env python3\nprint(1)\n' > ft/p3
printf '#!/usr/bin/env node\nx\n' > ft/n
printf '#!/usr/bin/perl\nx\n' > ft/pl
printf '#!/usr/bin/env ruby\nx\n' > ft/rb
printf '#!/usr/bin/gawk -f\n{print}\n' > ft/g.awk
printf 'import sys\nfrom util import parse\n' > ft/m.py
printf 'def main(argv):\n    pass\n' > ft/d.py
printf 'def f(a, b=1):\n' > ft/nd.py
printf 'class Foo(Base):\n    pass\n' > ft/c.py
printf "const x = require('x');\n" > ft/r.js
printf 'function f() {}\nmodule.exports = { f };\n' > ft/m.js
printf 'export const up = (s) => s;\n' > ft/e.js
printf 'function f() {}\n' > ft/f.js
printf '# Title\n\ntext\n' > ft/r.md
printf '<!DOCTYPE html>\n<html></html>\n' > ft/i.html
printf '<?xml version="1.0"?>\n<a/>\n' > ft/x.xml
printf '[1,2]\n' > ft/a.json
`;

// The same prefix as ../cases.mjs FRESH (a fresh copy `w` of `d`); written out because that file
// imports this one.
const fresh = "rm -rf w && cp -r d w && ";
/** Masks $PWD (the absolute path of the fixture) as P. */
const P = ` | sed "s|$PWD|P|g"`;
/** Masks the random part of a mktemp name. */
const R = " | sed 's/[A-Za-z0-9]\\{4,\\}$/R/'";

/** @type {Record<string, Array<string | {run: string, opts?: string[], refused?: string}>>} */
export const CASES_FILES = {
  ln: [
    fresh + "ln -s a.txt w/l && cat w/l", fresh + "ln w/a.txt w/h && stat -c %h w/a.txt", fresh + "ln -s a.txt w/l && ls -l w/l | cut -c1",
    fresh + "ln -s --backup=numbered a.txt w/b.txt && ls w", fresh + "ln -s -b a.txt w/b.txt && ls w", fresh + "ln -d w/sub w/x 2>/dev/null; echo $?",
    fresh + "ln -F w/sub w/x 2>/dev/null; echo $?", fresh + "ln -sf a.txt w/b.txt && cat w/b.txt", fresh + "ln -si a.txt w/b.txt < /dev/null 2>/dev/null; cat w/b.txt",
    fresh + "ln -s a.txt w/l && ln -L w/l w/h && cat w/h", fresh + "ln -s a.txt w/l && ln -P w/l w/h && cat w/h", fresh + "ln -s sub w/l && ln -sfn b.txt w/l && cat w/l",
    fresh + "ln -sr w/a.txt w/sub/l && cat w/sub/l", fresh + "ln -s -S .old -b a.txt w/b.txt && ls w", fresh + "ln -t w/sub w/a.txt && cat w/sub/a.txt",
    fresh + "ln -T w/a.txt w/z && cat w/z", fresh + "ln -sv a.txt w/l", fresh + "ln --symbolic --force a.txt w/b.txt && cat w/b.txt",
    fresh + "ln --backup --suffix=.o -s a.txt w/b.txt && ls w", fresh + "ln --target-directory=w/sub w/b.txt && ls w/sub", fresh + "ln --no-target-directory w/a.txt w/y && cat w/y",
    fresh + "ln --verbose w/a.txt w/y", fresh + "ln --relative --symbolic w/a.txt w/sub/l && cat w/sub/l", fresh + "ln -s sub w/l && ln --no-dereference -sf a.txt w/l && cat w/l",
    fresh + "ln --logical w/a.txt w/y && cat w/y", fresh + "ln --physical w/a.txt w/y && cat w/y", fresh + "ln --interactive w/a.txt w/b.txt < /dev/null 2>/dev/null; cat w/b.txt",
    fresh + "ln --directory w/sub w/x 2>/dev/null; echo $?", "ln d/nosuch x 2>/dev/null; echo $?",
  ],
  readlink: [
    fresh + "ln -s a.txt w/l && readlink w/l", fresh + "ln -s sub w/l && readlink -f w/l/c.md" + P, fresh + "ln -s x w/a && ln -s a w/x && readlink -e w/a; echo $?",
    "readlink d/a.txt; echo $?", "readlink -f d/sub/../a.txt" + P, "readlink -e d/nosuch; echo $?", "readlink -e d/sub" + P, "readlink -m d/x/../y/z" + P,
    "readlink -n -f d" + P + "; echo .", "readlink -q d/a.txt; echo $?", "readlink -s d/a.txt; echo $?", "readlink -v d/a.txt 2>/dev/null; echo $?",
    "readlink -z -f d d/sub" + P + " | tr '\\0' ,", "readlink --canonicalize d/./a.txt" + P, "readlink --canonicalize-existing d/a.txt" + P,
    "readlink --canonicalize-missing d/no/pe" + P, "readlink --no-newline -f d" + P + "; echo .", "readlink --quiet d; echo $?", "readlink --silent d; echo $?",
    "readlink --verbose d 2>/dev/null; echo $?", "readlink --zero -f d" + P + " | tr '\\0' ,", "readlink -f d/a.txt/x; echo $?", "readlink -e d/a.txt/x; echo $?",
  ],
  realpath: [
    fresh + "ln -s sub w/l && realpath w/l/c.md" + P, fresh + "ln -s sub w/l && realpath -s w/l/c.md" + P, fresh + "ln -s sub/c.md w/l && realpath --relative-to=w w/l",
    "realpath d/a.txt" + P, "realpath -e d/nosuch; echo $?", "realpath -e d/sub" + P, "realpath -m d/x/../y" + P, "realpath -L d/sub/../a.txt" + P,
    "realpath -P d/sub/.." + P, "realpath -q d/nosuch/x; echo $?", "realpath --relative-to=d/sub d/a.txt", "realpath --relative-to=d d/sub/deep/e.log",
    "realpath --relative-base=d d/a.txt lines.txt" + P, "realpath -s d/./sub" + P, "realpath --strip d//a.txt" + P, "realpath --no-symlinks d/sub/" + P,
    "realpath -z d d/sub" + P + " | tr '\\0' ,", "realpath --canonicalize-existing d/a.txt" + P, "realpath --canonicalize-missing d/q/r" + P,
    "realpath --logical d/sub/../b.txt" + P, "realpath --physical d" + P, "realpath --quiet nosuch/x; echo $?", "realpath --zero d" + P + " | tr '\\0' ,",
    "realpath nosuch" + P, "realpath --relative-to=. --relative-base=d d/a.txt" + P,
  ],
  basename: [
    "basename d/sub/c.md", "basename d/sub/c.md .md", "basename -a d/a.txt d/sub/", "basename -s .txt d/a.txt d/b.txt", "basename -z d/a.txt | tr '\\0' ,",
    "basename --multiple x/y z", "basename --suffix=.md d/sub/c.md", "basename --zero -a a/b c/d | tr '\\0' ,", "basename /", "basename a/b/ b",
    "basename; echo $?", "basename a b c; echo $?", "basename -as .log d/sub/deep/e.log x.log",
  ],
  dirname: ["dirname d/sub/c.md", "dirname a", "dirname / a/ a/b//", "dirname -z d/a.txt x/y | tr '\\0' ,", "dirname --zero a/b | tr '\\0' ,", "dirname; echo $?"],
  // Each in a fresh `w` (in a subshell, so neither the directory nor TMPDIR outlive the case), so
  // the random names do not pile up beside the fixture.
  mktemp: [
    "mktemp -u | sed 's/tmp\\..*/tmp.X/'",
    "mktemp -p . tmp.XXXX" + R, "d=$(mktemp -d -p .) && test -d $d && stat -c %a $d", "f=$(mktemp -p .) && test -f $f && stat -c '%a %s' $f",
    "f=$(mktemp -u -p .) && test -e $f; echo $?", "mktemp -q -p nosuch; echo $?", "mktemp -p . --suffix=.txt x.XXXX | sed 's/[A-Za-z0-9]\\{4\\}\\.txt$/R.txt/'",
    "mktemp --tmpdir=. x.XXXXXX" + R, "export TMPDIR=$PWD && mktemp -t x.XXXXXX" + P + R, "mktemp -p . | sed 's/tmp\\.[A-Za-z0-9]\\{10\\}$/tmp.R/'",
    "mktemp x.XX; echo $?", "mktemp -p . abc 2>/dev/null; echo $?", "mktemp --directory -p . | sed 's/[A-Za-z0-9]\\{10\\}$/R/'",
    "mktemp --dry-run --tmpdir=. y.XXXX" + R, "mktemp --quiet nosuch/x.XXXX; echo $?", "mktemp -p . a/x.XXXX 2>/dev/null; echo $?",
    "export TMPDIR=$PWD/sub && mktemp --tmpdir" + P + " | sed 's/[A-Za-z0-9]\\{10\\}$/R/'", "mktemp --suffix=/x -p . 2>/dev/null; echo $?", "mktemp -d x.XXXXXX | sed 's/[A-Za-z0-9]\\{6\\}$/R/'",
    "mktemp | sed 's/[A-Za-z0-9]\\{10\\}$/R/'",
  ].map((c) => `${fresh}(cd w && ${c})`),
  install: [
    fresh + "install w/a.txt w/z && stat -c %a w/z", fresh + "install -m 644 w/run.sh w/z && stat -c %a w/z", fresh + "install --mode=600 w/a.txt w/z && stat -c %a w/z",
    fresh + "install -d w/n/a && find w/n | sort && stat -c %a w/n/a", fresh + "install -D w/a.txt w/n/x/y.txt && cat w/n/x/y.txt", fresh + "install -C w/a.txt w/z && install -C -v w/a.txt w/z",
    fresh + "install -c w/a.txt w/z && cat w/z", fresh + "install -b w/a.txt w/b.txt && ls w", fresh + "install --backup=numbered w/a.txt w/b.txt && ls w",
    fresh + "install -S .old -b w/a.txt w/b.txt && ls w", fresh + "install -g $(id -g) w/a.txt w/z && stat -c %a w/z", fresh + "install -o $(id -u) w/a.txt w/z && stat -c %a w/z",
    fresh + "install -p d/a.txt w/z && stat -c %Y w/z", fresh + "install -t w/sub w/a.txt w/b.txt && ls w/sub", fresh + "install -T w/a.txt w/z && cat w/z",
    fresh + "install -v w/a.txt w/z", fresh + "install -Z w/a.txt w/z && cat w/z", fresh + "install --preserve-context w/a.txt w/z 2>/dev/null && cat w/z",
    fresh + "install --context w/a.txt w/z && cat w/z", fresh + "install --compare w/a.txt w/z && cat w/z", fresh + "install --directory w/q && ls -d w/q",
    fresh + "install --group=$(id -gn) w/a.txt w/z && cat w/z", fresh + "install --owner=$(id -un) w/a.txt w/z && cat w/z", fresh + "install --preserve-timestamps d/a.txt w/z && stat -c %Y w/z",
    fresh + "install --suffix=.x --backup w/a.txt w/b.txt && ls w", fresh + "install --target-directory=w/sub w/a.txt && ls w/sub", fresh + "install --no-target-directory w/a.txt w/z && cat w/z",
    fresh + "install --verbose -d w/v/x", fresh + "install -D -t w/n/m w/a.txt && ls w/n/m", fresh + "install -m u+x,go-rwx w/a.txt w/z && stat -c %a w/z",
    fresh + "install w/a.txt w/nosuch/z 2>/dev/null; echo $?", fresh + "install w/sub w/z 2>/dev/null; echo $?",
    { run: fresh + "install -s w/run.sh w/z", refused: "-s" }, { run: fresh + "install --strip-program=strip w/run.sh w/z", refused: "--strip-program" },
    { run: fresh + "install --strip w/run.sh w/z", refused: "--strip" },
  ],
  rmdir: [
    fresh + "rmdir w/emptydir && ls w", fresh + "rmdir w/sub 2>/dev/null; echo $?", fresh + "rmdir --ignore-fail-on-non-empty w/sub; echo $?",
    fresh + "mkdir -p w/p/q/r && rmdir -p w/p/q/r 2>/dev/null; echo $?; ls w", fresh + "rmdir -v w/emptydir", fresh + "mkdir -p w/p/q && rmdir --parents --verbose w/p/q 2>/dev/null",
    fresh + "rmdir w/a.txt 2>/dev/null; echo $?", fresh + "rmdir w/nosuch 2>/dev/null; echo $?", fresh + "mkdir -p w/p/q && cd w && rmdir -pv p/q",
  ],
  truncate: [
    fresh + "truncate -s 5 w/a.txt && cat w/a.txt", fresh + "truncate -s +3 w/a.txt && od -c w/a.txt | tail -3", fresh + "truncate -s -30 w/a.txt && cat w/a.txt",
    fresh + "truncate -s '<10' w/a.txt && wc -c w/a.txt", fresh + "truncate -s '>100' w/a.txt && wc -c w/a.txt", fresh + "truncate -s /16 w/a.txt && wc -c w/a.txt",
    fresh + "truncate -s %16 w/a.txt && wc -c w/a.txt", fresh + "truncate -c -s 1 w/nosuch; ls w/nosuch 2>/dev/null; echo $?", fresh + "truncate -s 1 w/new && wc -c w/new",
    fresh + "truncate -o -s 1 w/a.txt && wc -c w/a.txt", fresh + "truncate -r d/b.txt w/a.txt && wc -c w/a.txt", fresh + "truncate -r d/b.txt -s +1 w/a.txt && wc -c w/a.txt",
    fresh + "truncate --size=1K w/a.txt && wc -c w/a.txt", fresh + "truncate --no-create --size=0 w/a.txt w/nope && wc -c w/a.txt", fresh + "truncate --io-blocks --size=0 w/a.txt && wc -c w/a.txt",
    fresh + "truncate --reference=d/empty w/a.txt && wc -c w/a.txt", "truncate w/a.txt 2>/dev/null; echo $?", fresh + "truncate -s x w/a.txt 2>/dev/null; echo $?",
    fresh + "truncate -s 2KB w/a.txt && wc -c w/a.txt", fresh + "truncate -s 0 w/sub 2>/dev/null; echo $?",
  ],
  chown: [
    fresh + "chown $(id -u) w/a.txt && echo ok", fresh + "chown $(id -u):$(id -g) w/a.txt && [ $(stat -c %u w/a.txt) = $(id -u) ] && echo same",
    fresh + "chown -c $(id -un) w/a.txt", fresh + "chown -v $(id -un) w/a.txt", fresh + "chown -f 0 w/a.txt; echo $?", fresh + "chown 0 w/a.txt 2>/dev/null; echo $?",
    fresh + "chown --dereference $(id -u) w/a.txt; echo $?", fresh + "chown -h $(id -u) w/a.txt; echo $?", fresh + "chown --from=$(id -u) $(id -u) w/a.txt; echo $?",
    fresh + "chown --no-preserve-root $(id -u) w/a.txt; echo $?", fresh + "chown --preserve-root -R $(id -u) w/sub; echo $?", fresh + "chown --reference=d/b.txt w/a.txt; echo $?",
    fresh + "chown -R -v $(id -un) w/sub | sort", fresh + "chown -R -H $(id -u) w/sub; echo $?", fresh + "chown -R -L $(id -u) w/sub; echo $?", fresh + "chown -R -P $(id -u) w/sub; echo $?",
    fresh + "chown --changes $(id -u) w/a.txt", fresh + "chown --silent 0 w/a.txt; echo $?", fresh + "chown --quiet 0 w/a.txt; echo $?", fresh + "chown --verbose :$(id -gn) w/a.txt",
    fresh + "chown --no-dereference $(id -u) w/a.txt; echo $?", fresh + "chown --recursive $(id -u) w/sub; echo $?", fresh + "chown $(id -u) w/nosuch 2>/dev/null; echo $?",
    fresh + "chown nosuchuser w/a.txt 2>/dev/null; echo $?", "chown 2>/dev/null; echo $?", fresh + "chown -v $(id -un): w/a.txt",
  ],
  chgrp: [
    fresh + "chgrp $(id -g) w/a.txt && echo ok", fresh + "chgrp -c $(id -gn) w/a.txt", fresh + "chgrp -v $(id -gn) w/a.txt", fresh + "chgrp -f 0 w/a.txt; echo $?",
    fresh + "chgrp 0 w/a.txt 2>/dev/null; echo $?", fresh + "chgrp --dereference $(id -g) w/a.txt; echo $?", fresh + "chgrp -h $(id -g) w/a.txt; echo $?",
    fresh + "chgrp --no-preserve-root $(id -g) w/a.txt; echo $?", fresh + "chgrp --preserve-root -R $(id -g) w/sub; echo $?", fresh + "chgrp --reference=d/b.txt w/a.txt; echo $?",
    fresh + "chgrp -R -v $(id -gn) w/sub | sort", fresh + "chgrp -R -H $(id -g) w/sub; echo $?", fresh + "chgrp -R -L $(id -g) w/sub; echo $?", fresh + "chgrp -R -P $(id -g) w/sub; echo $?",
    fresh + "chgrp --changes $(id -g) w/a.txt", fresh + "chgrp --silent 0 w/a.txt; echo $?", fresh + "chgrp --quiet 0 w/a.txt; echo $?", fresh + "chgrp --verbose $(id -g) w/a.txt",
    fresh + "chgrp --no-dereference $(id -g) w/a.txt; echo $?", fresh + "chgrp --recursive $(id -g) w/sub; echo $?", fresh + "chgrp nosuchgroup w/a.txt 2>/dev/null; echo $?",
  ],
  env: [
    "env -i A=1 B=2 env", "env -i A=1 -0 | tr '\\0' ,", "(export A=1; env -u A env | grep -c '^A=')", "env -C d ls | head -2", "env -S 'echo a  b'", "env -i", "env -i A=1",
    "env --block-signal=INT echo x", "env --default-signal=INT echo x", "env --ignore-signal=INT echo x", "env --list-signal-handling true", "env -v -i A=1 true 2>/dev/null",
    "env --ignore-environment X=y env", "env --null -i A=1 B=2 | tr '\\0' ,", "(export A=1; env --unset=A | grep -c '^A=')", "env --chdir=d/sub cat c.md", "env --split-string='echo x y' z",
    "env --debug -i true 2>/dev/null; echo $?", "env -i PATH=/usr/bin:/bin sh -c 'echo $A' A=1", "env A=2 sh -c 'echo $A'", "env nosuchcmd 2>/dev/null; echo $?", "env -- echo --x",
    "env -i A=1 B=2 printenv B", "env -u 2>/dev/null; echo $?",
  ],
  printenv: ["A=1 printenv A", "printenv NOSUCH; echo $?", "(export A=1 B=2; printenv -0 A B | tr '\\0' ,)", "env -i A=1 B=2 printenv", "(export A=x; printenv --null A | tr '\\0' ,)",
    "A=1 printenv A NOSUCH; echo $?", "env -i A=1 printenv -0 | tr '\\0' ,", "printenv A=B; echo $?"],
  id: [
    "id | sed 's/[0-9]\\+/N/g'", "id -u | sed 's/^[0-9]\\+$/N/'", "id -un", "id -g | sed 's/^[0-9]\\+$/N/'", "id -gn", "id -G | sed 's/[0-9]\\+/N/g'", "id -Gn",
    "id -ur | sed 's/^[0-9]\\+$/N/'", "id -z -u | tr '\\0' , | sed 's/[0-9]\\+/N/'", "id -a | sed 's/[0-9]\\+/N/g'", "id -Z; echo $?", "id nosuchuser; echo $?",
    "id $(id -un) | sed 's/[0-9]\\+/N/g'", "id --user --name", "id --group --name", "id --groups --name", "id --real --user | sed 's/^[0-9]\\+$/N/'",
    "id --zero -gn | tr '\\0' ,", "id --context 2>/dev/null; echo $?", "id -n 2>/dev/null; echo $?", "id -u -g 2>/dev/null; echo $?", "[ $(id -u) = $(stat -c %u d/a.txt) ] && echo owner",
  ],
  // The sandbox is Linux on x86_64 like Debian; the host name and kernel build are the machine's, so
  // they are compared by shape.
  uname: [
    "uname", "uname -s", "uname -n | grep -c .", "uname -r | grep -c '^[0-9]\\+\\.[0-9]\\+'", "uname -v | cut -c1-2", "uname -m", "uname -p", "uname -i", "uname -o",
    "uname -a | awk '{print $1, $(NF-1), $NF}'", "uname -a | wc -l", "uname --all | awk '{print $1}'", "uname --kernel-name", "uname --nodename | wc -l",
    "uname --kernel-release | grep -c '^[0-9]'", "uname --kernel-version | cut -c1", "uname --machine", "uname --processor", "uname --hardware-platform",
    "uname --operating-system", "uname -sm", "uname -mso", "[ \"$(uname -n)\" = \"$(hostname)\" ] && echo same", "uname x 2>/dev/null; echo $?",
  ],
  hostname: [
    "hostname | grep -c '^[a-z0-9-]\\+$'", "hostname -s | grep -c .", "[ \"$(hostname -f)\" = \"$(hostname)\" ] && echo same", "hostname -i",
    "hostname -d", "hostname -a", "hostname -A | wc -l", "hostname -y; echo $?", "hostname -b x 2>/dev/null; echo $?", "hostname -F /etc/hostname 2>/dev/null; echo $?",
    "hostname -I | wc -l", "hostname -f | wc -l", "hostname --short | wc -l", "hostname --fqdn | wc -l", "hostname --long | wc -l", "hostname --ip-address", "hostname --domain",
    "hostname --alias", "hostname --all-fqdns | wc -l", "hostname --all-ip-addresses | wc -l", "hostname --yp; echo $?", "hostname --nis; echo $?", "hostname --boot x 2>/dev/null; echo $?",
    "hostname --file /etc/hostname 2>/dev/null; echo $?", "hostname newname 2>/dev/null; echo $?",
  ],
  nproc: ["nproc | grep -c '^[1-9][0-9]*$'", "nproc --all | grep -c '^[1-9][0-9]*$'", "nproc --ignore=1000", "nproc --ignore=x 2>/dev/null; echo $?", "nproc x 2>/dev/null; echo $?",
    "[ $(nproc --all) -ge $(nproc) ] && echo ok"],
  timeout: [
    "timeout 5 echo hi", "timeout 0.2 sleep 3; echo $?", "timeout --preserve-status 0.2 sleep 3; echo $?", "timeout --foreground 5 echo fg", "timeout -k 1 0.2 sleep 3; echo $?",
    "timeout -s KILL 0.2 sleep 3; echo $?", "timeout -v 0.2 sleep 3 2>&1; echo $?", "timeout --kill-after=1 5 echo k", "timeout --signal=INT 0.2 sleep 3; echo $?",
    "timeout --verbose 5 echo v", "timeout 5 sh -c 'exit 3'; echo $?", "timeout 5 nosuchcmd 2>/dev/null; echo $?", "timeout x echo 2>/dev/null; echo $?", "timeout 1s true; echo $?",
    "timeout 0 echo zero", "timeout -s 9 0.2 sleep 3; echo $?",
  ],
  mkfifo: [
    fresh + "mkfifo w/f && stat -c %F w/f", fresh + "mkfifo -m 600 w/f && stat -c '%a %F' w/f", fresh + "mkfifo --mode=640 w/f && ls -l w/f | cut -c1-10",
    fresh + "mkfifo -Z w/f && stat -c %F w/f", fresh + "mkfifo --context w/f && stat -c %F w/f", fresh + "mkfifo w/a.txt 2>/dev/null; echo $?",
  ],
  // Debian's rename is Perl's File::Rename (`rename.ul`, util-linux's, is the other one): compared with it.
  rename: [
    "rename -h | head -1", { run: "rename -m", refused: "-m" }, { run: "rename --man", refused: "--man" },
    "rename -V",
    fresh + "rename 's/\\.txt$/.bak/' w/*.txt && ls w", fresh + "rename -v 's/a/A/' w/a.txt", fresh + "rename -n 's/a/A/' w/a.txt && ls w", fresh + "rename -f 's/a/b/' w/a.txt && ls w && cat w/b.txt",
    fresh + "rename 's/a/b/' w/a.txt 2>/dev/null; ls w", fresh + "rename -d 's/^/x_/' w/sub/c.md && ls w/sub", fresh + "rename --path 's/w/W/' w/a.txt 2>/dev/null; ls w",
    fresh + "printf 'w/a.txt\\0' | rename -0 's/a/Q/' && ls w", fresh + "rename -e 's/a/X/' -e 's/txt/T/' w/a.txt && ls w", fresh + "rename -E 's/a/Y/' w/a.txt && ls w",
    fresh + "rename -u 's/a/U/' w/a.txt && ls w", fresh + "rename --verbose 'y/a-z/A-Z/' w/a.txt", fresh + "rename --nono 'tr/a-z/A-Z/' w/b.txt", fresh + "rename --force 's/a/b/' w/a.txt && ls w",
    fresh + "rename --filename 's/c/C/' w/sub/c.md && ls w/sub", fresh + "rename --nopath 's/e/E/' w/sub/deep/e.log && ls w/sub/deep", fresh + "rename --nofullpath 's/c/K/' w/sub/c.md && ls w/sub",
    fresh + "rename --fullpath 's/x/y/' w/a.txt && ls w", fresh + "printf 'w/b.txt\\0' | rename --null 's/b/B/' && ls w", fresh + "rename --unicode 's/a/V/' w/a.txt && ls w",
    fresh + "echo w/run.sh | rename 's/run/go/' && ls w", fresh + "rename 'lc' w/a.txt; ls w", fresh + "rename 'uc' w/a.txt && ls w", fresh + "rename -n 's/(\\w+)\\.txt/$1.md/' w/a.txt",
    fresh + "rename --no-act 's/a/Z/' w/a.txt", fresh + "rename 's/a/b' w/a.txt 2>/dev/null; echo $?",
  ],
  file: [
    "file ft/b.sh ft/eb.sh ft/s.sh ft/es.sh ft/d.sh", "file ft/p3 ft/n ft/pl ft/rb ft/g.awk", "file ft/m.py ft/d.py ft/nd.py ft/c.py",
    "file ft/r.js ft/m.js ft/e.js ft/f.js", "file ft/r.md ft/i.html ft/x.xml ft/a.json", "file -i ft/b.sh ft/p3 ft/n ft/pl ft/m.py ft/r.js",
    "file d/a.txt d/run.sh d/sub d/empty", "file t.csv x.json nul.txt z1.gz", "file -b d/a.txt", "file -i d/a.txt d/sub", "file --mime-type d/a.txt d/run.sh", "file --mime-encoding d/a.txt nul.txt",
    "file -F ' -' d/a.txt", "file -N d/a.txt d/run.sh", "file -0 d/a.txt | tr '\\0' ,", "file -f names.txt", "file -L d/a.txt", "file -h d/a.txt", "file -z z1.gz", "file -Z z1.gz",
    "file -k d/a.txt", "file -r d/a.txt", "file -s d/a.txt", "file -n d/a.txt", "file -p d/a.txt", "file -e ascii d/a.txt", "file --exclude-quiet x d/a.txt", "file --extension z1.gz",
    "file --apple d/a.txt", "file -S d/a.txt", "file --brief --mime d/run.sh", "file --separator=: d/b.txt", "file --no-pad d/b.txt lines.txt", "file --print0 d/b.txt | tr '\\0' ,",
    "file --files-from names.txt", "file --dereference d/b.txt", "file --no-dereference d/b.txt", "file --uncompress z1.gz", "file --uncompress-noreport z1.gz", "file --keep-going d/b.txt",
    "file --raw d/b.txt", "file --special-files d/b.txt", "file --no-buffer d/b.txt", "file --preserve-date d/b.txt", "file --exclude compress z1.gz", "file --no-sandbox d/b.txt",
    "file nosuch; echo $?", "file -E nosuch; echo $?", "file -P bytes=100 d/a.txt", "file --parameter elf_notes=10 d/a.txt", "file -d d/a.txt 2>/dev/null | tail -1",
    "file -l 2>/dev/null | head -0; echo $?", "file -c 2>/dev/null | head -0; echo $?", "file -m nosuch d/a.txt 2>/dev/null; echo $?", "file -C -m nosuch 2>/dev/null; echo $?",
  ],
};
