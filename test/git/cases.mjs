// The git table: command sequences agents run, each in a fresh directory. Their stdout and exit
// status under Toolshed's git must equal Debian's git (test/git/git.global.mjs runs them there).
// `tick` (from prelude.mjs) moves the fixed clock a minute, so commits get distinct dates.

/** A repository with one commit of a.txt (three lines). */
const INIT = "git init -q && printf 'one\\ntwo\\nthree\\n' > a.txt && git add a.txt && git commit -q -m first";
/** INIT plus a second commit touching a.txt and adding b.txt. */
const TWO = `${INIT} && tick && printf 'one\\n2\\nthree\\n' > a.txt && echo bee > b.txt && git add -A && git commit -q -m second`;
/** A 20-line file, committed, for hunk and context tests. */
const LONG = "git init -q && seq 1 20 > n.txt && git add n.txt && git commit -q -m numbers";
/** Two branches that diverge: master changes a.txt line 1, feature changes line 3. */
const FORK = `${INIT} && git branch feature && tick && sed -i 's/one/ONE/' a.txt && git commit -q -am 'master edit' && git checkout -q feature && tick && sed -i 's/three/THREE/' a.txt && git commit -q -am 'feature edit' && git checkout -q master`;
/** Two branches changing the same line. */
const CLASH = `${INIT} && git branch feature && tick && sed -i 's/two/master-two/' a.txt && git commit -q -am 'master two' && git checkout -q feature && tick && sed -i 's/two/feature-two/' a.txt && git commit -q -am 'feature two' && git checkout -q master`;

export const CASES = [
  // init, status in its forms
  ["status in a new repository", "git init -q && git status"],
  ["status --porcelain, new repository", "git init -q && git status --porcelain"],
  ["status --porcelain, untracked files and dirs", "git init -q && echo x > a && mkdir -p d/e && echo y > d/e/b && git status --porcelain"],
  ["status --short, untracked", "git init -q && echo x > a && mkdir d && echo y > d/b && git status --short"],
  ["status long, untracked only", "git init -q && echo x > a && git status"],
  ["status long, staged in new repository", "git init -q && echo x > a && git add a && git status"],
  ["status --porcelain, staged new file", "git init -q && echo x > a && git add a && git status --porcelain"],
  ["status clean", `${INIT} && git status`],
  ["status --porcelain clean", `${INIT} && git status --porcelain`],
  ["status modified unstaged", `${INIT} && echo four >> a.txt && git status`],
  ["status --short modified", `${INIT} && echo four >> a.txt && git status --short`],
  ["status staged and unstaged", `${INIT} && echo four >> a.txt && git add a.txt && echo five >> a.txt && git status --porcelain && git status`],
  ["status deleted in work tree", `${INIT} && rm a.txt && git status --porcelain && git status`],
  ["status deleted staged", `${INIT} && git rm -q a.txt && git status --porcelain && git status`],
  ["status added then modified", "git init -q && echo x > f && git add f && echo y >> f && git status --porcelain"],
  ["status added then deleted", "git init -q && echo x > f && git add f && rm f && git status --porcelain"],
  ["status mixed", `${TWO} && echo c > c.txt && echo more >> b.txt && git rm -q --cached a.txt && git status --porcelain && git status --short`],
  [
    "status in a subdirectory (short is relative)",
    `${INIT} && mkdir sub && echo s > sub/s.txt && echo t > top.txt && git add sub && cd sub && echo four >> ../a.txt && git status --short && git status --porcelain`,
  ],
  ["status long in a subdirectory", `${INIT} && mkdir sub && echo s > sub/s.txt && cd sub && echo four >> ../a.txt && git status`],
  ["status -s -b", `${INIT} && echo x >> a.txt && git status -s -b`],
  ["status --porcelain -b new repo", "git init -q && git status --porcelain -b"],
  ["status -uno", `${INIT} && echo x > new && echo y >> a.txt && git status --porcelain -uno`],
  ["status -uall", "git init -q && mkdir -p d/e && echo y > d/e/b && echo z > d/c && git status --porcelain -uall"],
  [
    "status with .gitignore",
    "git init -q && printf '*.log\\nbuild/\\n' > .gitignore && echo x > a.log && mkdir build && echo y > build/o && echo z > keep.txt && git status --porcelain",
  ],
  ["status of a path with a space", "git init -q && echo x > 'a b.txt' && git status --porcelain && git add . && git status --porcelain"],
  ["status of a staged rename", `${INIT} && git mv a.txt renamed.txt && git status --porcelain && git status`],
  ["status pathspec", `${TWO} && echo x >> a.txt && echo y >> b.txt && git status --porcelain b.txt`],

  // add, commit
  ["add and commit output", "git init -q && echo hi > f && git add f && git commit -m 'add f' && git log --oneline"],
  ["commit two files output", "git init -q && echo a > a && printf '1\\n2\\n' > b && git add . && git commit -m 'two files'"],
  ["commit with modification and deletion", `${TWO} && tick && echo x >> a.txt && git rm -q b.txt && git commit -m third`],
  ["commit -am", `${INIT} && tick && echo four >> a.txt && git commit -am 'append four' && git status --porcelain`],
  ["commit -a with a deleted file", `${TWO} && tick && rm b.txt && git commit -a -m 'drop b' && git ls-files`],
  ["commit multi -m", `${INIT} && tick && echo x >> a.txt && git commit -q -am 'subject' -m 'body line' && git log -1 --format=%B`],
  ["commit with nothing to commit", `${INIT} && git commit -m nothing; echo "exit $?"`],
  ["commit with only untracked", `${INIT} && echo u > u && git commit -m nothing; echo "exit $?"`],
  ["commit with unstaged changes only", `${INIT} && echo z >> a.txt && git commit -m nothing; echo "exit $?"`],
  ["commit --allow-empty", `${INIT} && tick && git commit -q --allow-empty -m empty && git log --oneline`],
  ["commit --amend", `${INIT} && tick && echo x >> a.txt && git add a.txt && git commit -q --amend -m 'first, amended' && git log --oneline && git rev-parse HEAD`],
  [
    "commit with user.name from config",
    "git init -q && git config user.name 'Cfg User' && git config user.email cfg@example.com && unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL && echo x > f && git add f && git commit -q -m cfg && git log -1 --format='%an <%ae> %cn <%ce>' && git rev-parse HEAD",
  ],
  [
    "commit with global config",
    "git config --global user.name 'Glob User' && git config --global user.email glob@example.com && unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL && git init -q && echo x > f && git add f && git commit -q -m g && git log -1 --format='%an %ae' && git rev-parse HEAD",
  ],
  [
    "commit --author",
    `${INIT} && tick && echo x >> a.txt && git commit -q -am other --author='Bob Builder <bob@example.com>' && git log -1 --format='%an|%ae|%cn' && git rev-parse HEAD`,
  ],
  [
    "commit message whitespace cleanup",
    `${INIT} && tick && echo x >> a.txt && git commit -q -am '  padded subject  \n\n\n\nbody  ' && git log -1 --format=%B | od -c | head -5 && git rev-parse HEAD`,
  ],
  ["add . in a subdirectory adds only there", `git init -q && mkdir s && echo 1 > s/x && echo 2 > y && cd s && git add . && git status --porcelain`],
  ["add -A stages deletions", `${TWO} && rm b.txt && echo n > new && git add -A && git status --porcelain`],
  ["add -u leaves untracked", `${TWO} && rm b.txt && echo n > new && echo m >> a.txt && git add -u && git status --porcelain`],
  ["add a directory", "git init -q && mkdir -p d/e && echo 1 > d/e/f && echo 2 > d/g && git add d && git status --porcelain"],
  ["add a missing path", 'git init -q && git add nope; echo "exit $?"'],
  ["add an ignored file", "git init -q && echo '*.log' > .gitignore && echo x > a.log && git add a.log; echo \"exit $?\"; git status --porcelain"],
  ["add with a glob", "git init -q && echo 1 > a.md && echo 2 > b.md && echo 3 > c.txt && git add '*.md' && git status --porcelain"],
  ["add executable file mode", "git init -q && echo 'echo hi' > run.sh && chmod +x run.sh && git add run.sh && git commit -q -m exec && git ls-files -s"],

  // log
  ["log default format", `${TWO} && git log`],
  ["log --oneline", `${TWO} && git log --oneline`],
  ["log -n 1", `${TWO} && git log -n 1 --oneline && git log -1 --oneline && git log --max-count=1 --oneline`],
  ["log --format placeholders", `${TWO} && git log --format='%H|%h|%T|%t|%P|%p|%an|%ae|%at|%cn|%ce|%ct|%s'`],
  ["log --format dates", `${TWO} && git log --format='%ad|%ai|%aI|%cd|%ci|%cI'`],
  ["log --pretty=format with %n and %b", `${INIT} && tick && echo x >> a.txt && git commit -q -am 'subj' -m 'the body' && git log --pretty=format:'%s%n%b--'`],
  ["log --pretty=oneline", `${TWO} && git log --pretty=oneline`],
  ["log --pretty=short", `${TWO} && git log --pretty=short`],
  ["log --pretty=full", `${TWO} && git log --pretty=full`],
  ["log --pretty=fuller", `${TWO} && git log --pretty=fuller`],
  ["log --stat", `${TWO} && git log --stat`],
  ["log --oneline --stat", `${TWO} && git log --oneline --stat`],
  ["log -p", `${TWO} && git log -p`],
  ["log --oneline -p", `${TWO} && git log --oneline -p`],
  ["log --name-only", `${TWO} && git log --name-only`],
  ["log --name-status", `${TWO} && git log --name-status --oneline`],
  ["log -- path", `${TWO} && git log --oneline -- b.txt`],
  ["log a range", `${TWO} && tick && echo c > c && git add c && git commit -q -m third && git log --oneline HEAD~2..HEAD`],
  ["log --reverse", `${TWO} && git log --oneline --reverse`],
  ["log --author and --grep", `${TWO} && git log --oneline --author=Ann && git log --oneline --grep=sec`],
  ["log --format=%d --decorate", `${TWO} && git tag v1 HEAD~1 && git branch side && git log --format='%h%d'`],
  ["log on an unborn branch", 'git init -q && git log; echo "exit $?"'],
  [
    "log -3 of many",
    `${INIT} && for i in 1 2 3 4 5; do tick; echo $i >> a.txt; git commit -q -am "c$i"; done && git log -3 --oneline && git log --skip=2 -2 --format=%s`,
  ],

  // diff
  ["diff worktree", `${INIT} && printf 'one\\n2\\nthree\\n' > a.txt && git diff`],
  ["diff --cached", `${INIT} && printf 'one\\n2\\nthree\\n' > a.txt && git add a.txt && git diff && git diff --cached && git diff --staged`],
  ["diff new file staged", "git init -q && printf 'a\\nb\\n' > f && git add f && git diff --cached"],
  ["diff deleted file", `${INIT} && rm a.txt && git diff`],
  ["diff no newline at end", `${INIT} && printf 'one\\ntwo\\nthree' > a.txt && git diff`],
  ["diff adding a newline at end", "git init -q && printf 'x' > f && git add f && git commit -q -m x && printf 'x\\ny\\n' > f && git diff"],
  ["diff two hunks", `${LONG} && sed -i 's/^2$/two/; s/^18$/eighteen/' n.txt && git diff`],
  ["diff merged hunks (close changes)", `${LONG} && sed -i 's/^5$/five/; s/^11$/eleven/' n.txt && git diff`],
  ["diff split hunks (7 apart)", `${LONG} && sed -i 's/^5$/five/; s/^13$/thirteen/' n.txt && git diff`],
  ["diff -U1 and -U0", `${LONG} && sed -i 's/^10$/ten/' n.txt && git diff -U1 && git diff -U0`],
  ["diff --unified=5", `${LONG} && sed -i 's/^10$/ten/' n.txt && git diff --unified=5`],
  [
    "diff hunk header function context",
    "git init -q && printf 'def alpha():\\n    a = 1\\n    b = 2\\n    c = 3\\n    d = 4\\n    e = 5\\n    return a\\n' > m.py && git add m.py && git commit -q -m m && sed -i 's/e = 5/e = 50/' m.py && git diff",
  ],
  [
    "diff function context carried to a later hunk",
    "git init -q && (echo 'int main() {'; for i in $(seq 1 30); do echo \"  x$i;\"; done; echo '}') > m.c && git add m.c && git commit -q -m m && sed -i 's/x5;/y5;/; s/x25;/y25;/' m.c && git diff",
  ],
  [
    "diff where Myers alignments tie: git's xdiff choice",
    "git init -q && printf '  if (a) {\\n\\n  return x;\\n\\nfunction f() {\\n  return x;\\n  return x;\\n\\n  return x;\\n{\\n  return x;\\n  if (a) {\\nfunction f() {\\nfunction f() {\\n  return x;\\n{\\n    y = 1;\\n  return;\\n  if (a) {\\n// note\\n  return;\\n// note\\n  }\\n  x++;\\n' > f.c && git add f.c && git commit -q -m f && printf '  if (a) {\\n\\n  return x;\\n\\n\\n  return x;\\n\\n  return x;\\n  if (a) {\\nfunction f() {\\nfunction f() {\\n  return x;\\n{\\n    y = 1;\\n  return;\\n  if (a) {\\n// note\\n  return;\\n// note\\n  }\\n  x++;\\n' > f.c && git diff",
  ],
  ["diff --stat", `${TWO} && echo x >> a.txt && echo y >> b.txt && git diff --stat`],
  ["diff --stat with long counts", `${INIT} && seq 1 100 > big && git add big && git diff --cached --stat`],
  ["diff --stat scaling", `${INIT} && seq 1 200 > big && echo s > small && git add . && git diff --cached --stat`],
  [
    "diff --name-only and --name-status",
    `${TWO} && echo x >> a.txt && git rm -q b.txt && echo n > n && git add n && git diff --cached --name-only && git diff --cached --name-status`,
  ],
  ["diff --numstat and --shortstat", `${TWO} && echo x >> a.txt && echo y >> b.txt && git diff --numstat && git diff --shortstat`],
  ["diff between commits", `${TWO} && git diff HEAD~1 HEAD && git diff HEAD~1..HEAD --stat`],
  ["diff against a commit", `${TWO} && echo x >> b.txt && git diff HEAD~1`],
  ["diff -- path", `${TWO} && echo x >> a.txt && echo y >> b.txt && git diff -- b.txt`],
  [
    "diff --quiet and --exit-code",
    `${INIT} && git diff --quiet; echo "clean $?"; echo x >> a.txt; git diff --quiet; echo "dirty $?"; git diff --exit-code --stat; echo "code $?"`,
  ],
  ["diff of a binary file", "git init -q && printf 'a\\0b' > bin && git add bin && git commit -q -m bin && printf 'a\\0c' > bin && git diff && git diff --stat"],
  ["diff of a mode change", "git init -q && echo x > s && git add s && git commit -q -m s && chmod +x s && git diff"],
  ["diff of a staged rename", `${INIT} && git mv a.txt b.txt && git diff --cached && git diff --cached --name-status && git diff --cached --stat`],
  ["diff with a path with a space", "git init -q && echo x > 'a b' && git add . && git commit -q -m s && echo y >> 'a b' && git diff"],
  ["diff of a line replaced in the middle of many", "git init -q && seq 1 50 > f && git add f && git commit -q -m f && sed -i '25d' f && echo end >> f && git diff"],
  ["diff of an empty file made non-empty", "git init -q && touch e && git add e && git commit -q -m e && echo now > e && git diff"],

  // show
  ["show HEAD", `${TWO} && git show`],
  ["show --stat", `${TWO} && git show --stat HEAD~1`],
  ["show --name-only", `${TWO} && git show --name-only --format=%s`],
  ["show -s --format", `${TWO} && git show -s --format='%h %s'`],
  ["show REV:path", `${TWO} && git show HEAD~1:a.txt && git show HEAD:b.txt`],
  ["show --oneline", `${TWO} && git show --oneline HEAD`],

  // branch, checkout, switch
  ["branch list", `${INIT} && git branch feature && git branch zeta && git branch`],
  ["branch -v", `${TWO} && git branch old HEAD~1 && git branch -v`],
  ["branch --show-current", `${INIT} && git branch --show-current && git checkout -q -b topic && git branch --show-current`],
  ["checkout -b", `${INIT} && git checkout -b topic && git branch && git status`],
  ["switch -c and back", `${INIT} && git switch -c topic && git switch master && git branch`],
  ["checkout a branch changes files", `${FORK} && cat a.txt && git checkout -q feature && cat a.txt && git log --oneline`],
  ["checkout a commit (detached)", `${TWO} && git checkout -q HEAD~1 && git status && git branch && git rev-parse --abbrev-ref HEAD`],
  ["checkout -- file discards changes", `${INIT} && echo junk >> a.txt && git checkout -- a.txt && git status --porcelain && cat a.txt`],
  ["checkout refuses to overwrite changes", `${FORK} && echo local >> a.txt && git checkout feature; echo "exit $?"; git branch --show-current`],
  ["branch -d merged and unmerged", `${FORK} && git branch -d feature; echo "exit $?"; git branch -D feature && git branch`],
  ["branch -m", `${INIT} && git branch old && git branch -m old new && git branch && git branch -m main && git branch`],
  ["branch with a bad name", `${INIT} && git branch 'bad..name'; echo "exit $?"`],
  ["branch that exists", `${INIT} && git branch x && git branch x; echo "exit $?"`],
  ["switch to a missing branch", `${INIT} && git switch nope; echo "exit $?"`],

  // restore, reset
  ["restore a file", `${INIT} && echo junk >> a.txt && git restore a.txt && git status --porcelain`],
  ["restore --staged", `${INIT} && echo more >> a.txt && git add a.txt && git restore --staged a.txt && git status --porcelain`],
  ["restore --source", `${TWO} && git restore --source=HEAD~1 a.txt && cat a.txt && git status --porcelain`],
  ["reset --soft", `${TWO} && git reset --soft HEAD~1 && git status --porcelain && git log --oneline`],
  ["reset (mixed)", `${TWO} && git reset HEAD~1 && git status --porcelain && git log --oneline`],
  ["reset --hard", `${TWO} && echo dirty >> a.txt && git reset --hard HEAD~1 && git status --porcelain && ls && cat a.txt`],
  ["reset a path", `${INIT} && echo x >> a.txt && echo n > n && git add . && git reset -q n && git status --porcelain`],
  ["reset --hard drops staged new files", `${INIT} && echo n > n && git add n && git reset --hard && ls && git status --porcelain`],

  // merge
  [
    "merge fast-forward",
    `${INIT} && git checkout -q -b topic && tick && echo t > t && git add t && git commit -q -m topic && git checkout -q master && git merge topic && git log --oneline`,
  ],
  ["merge already up to date", `${TWO} && git branch old HEAD~1 && git merge old`],
  ["merge three-way", `${FORK} && tick && git merge feature && cat a.txt && git log --oneline && git rev-parse HEAD`],
  ["merge three-way into another branch", `${FORK} && git checkout -q feature && tick && git merge master && git log -1 --format=%s && git rev-parse HEAD`],
  [
    "merge --no-ff",
    `${INIT} && git checkout -q -b topic && tick && echo t > t && git add t && git commit -q -m topic && git checkout -q master && tick && git merge --no-ff topic && git log --oneline && git rev-parse HEAD`,
  ],
  ["merge conflict", `${CLASH} && git merge feature; echo "exit $?"; cat a.txt; git status --porcelain; git status`],
  [
    "merge conflict resolved and committed",
    `${CLASH} && git merge feature >/dev/null; printf 'one\\nboth\\nthree\\n' > a.txt && git add a.txt && tick && git commit -q --no-edit && git log --oneline && git status --porcelain && git rev-parse HEAD`,
  ],
  ["merge --abort", `${CLASH} && git merge feature >/dev/null; git merge --abort && git status --porcelain && cat a.txt`],
  ["merge --ff-only refused", `${FORK} && git merge --ff-only feature; echo "exit $?"`],
  [
    "merge with conflicts in two files",
    `${INIT} && echo b > b && git add b && git commit -q -m b && git branch feature && tick && echo m > b && sed -i 's/one/M/' a.txt && git commit -q -am m && git checkout -q feature && tick && echo f > b && sed -i 's/one/F/' a.txt && git commit -q -am f && git checkout -q master && git merge feature; echo "exit $?"; cat a.txt b; git diff --name-only`,
  ],

  // tag, rev-parse, config, ls-files, rm, mv, stash
  ["tag and list", `${TWO} && git tag v1.0 && git tag v0.9 HEAD~1 && git tag && git rev-parse v0.9 && git tag -l 'v1*'`],
  ["annotated tag", `${TWO} && git tag -a v2 -m 'release 2' && git tag && git log --oneline -1 v2 && git rev-parse v2^{commit}`],
  ["tag -d", `${INIT} && git tag t1 && git tag -d t1 && git tag`],
  [
    "rev-parse forms",
    `${TWO} && git rev-parse HEAD~1 && git rev-parse HEAD^ && git rev-parse --abbrev-ref HEAD && git rev-parse --short=10 HEAD && git rev-parse HEAD^{tree}`,
  ],
  [
    "rev-parse --show-toplevel and prefix",
    `${INIT} && mkdir -p x/y && cd x/y && git rev-parse --show-prefix && git rev-parse --show-cdup && git rev-parse --is-inside-work-tree && basename $(git rev-parse --show-toplevel)`,
  ],
  ["rev-parse --git-dir", `${INIT} && git rev-parse --git-dir`],
  ["rev-parse a bad revision", `${INIT} && git rev-parse nope; echo "exit $?"; git rev-parse --verify -q nope; echo "exit $?"`],
  ["rev-parse outside a repository", 'git rev-parse HEAD; echo "exit $?"'],
  [
    "config get and set",
    "git init -q && git config core.editor vim && git config core.editor && git config user.name 'X Y' && git config user.name && git config nope.key; echo \"exit $?\"",
  ],
  ["config --list local", "git init -q && git config user.name 'X' && git config --local --list | grep -v '^core\\.' "],
  ["config --unset", 'git init -q && git config a.b c && git config --unset a.b && git config a.b; echo "exit $?"'],
  ["ls-files", `${TWO} && mkdir d && echo x > d/x && git add d && git ls-files && cd d && git ls-files`],
  ["ls-files -s", `${TWO} && git ls-files -s`],
  ["ls-files -m -o -d", `${TWO} && echo x >> a.txt && rm b.txt && echo o > other && git ls-files -m && git ls-files -d && git ls-files -o --exclude-standard`],
  ["rm a file", `${TWO} && git rm b.txt && git status --porcelain && ls`],
  ["rm --cached", `${TWO} && git rm --cached b.txt && git status --porcelain && ls`],
  [
    "rm -r a directory",
    "git init -q && mkdir -p d/e && echo 1 > d/e/f && echo 2 > d/g && git add . && git commit -q -m d && git rm -r d && git status --porcelain && ls",
  ],
  ["rm without -r on a directory", 'git init -q && mkdir d && echo 1 > d/f && git add . && git commit -q -m d && git rm d; echo "exit $?"'],
  ["mv a file", `${TWO} && git mv b.txt c.txt && git status --porcelain && ls`],
  ["mv into a directory", `${TWO} && mkdir d && git mv a.txt d/ && git status --porcelain`],
  ["stash and pop", `${INIT} && echo x >> a.txt && git stash -q && git status --porcelain && git stash list && git stash pop -q && git status --porcelain && cat a.txt`],
  ["stash -m and list", `${INIT} && echo x >> a.txt && git stash push -q -m 'my work' && git stash list`],
  ["stash with nothing", `${INIT} && git stash; echo "exit $?"`],
];
