// The lines every git case starts with, in the session and under Debian's git alike: a fixed
// identity and clock (so commit ids are equal), a private HOME, and `tick` to move the clock.
export const PRELUDE = [
  "mkdir -p home work && export HOME=$PWD/home && cd work",
  'export GIT_AUTHOR_NAME="Ann Agent" GIT_AUTHOR_EMAIL=ann@example.com GIT_COMMITTER_NAME="Ann Agent" GIT_COMMITTER_EMAIL=ann@example.com',
  "T=1700000000",
  'tick() { T=$((T+60)); export GIT_AUTHOR_DATE="@$T +0000" GIT_COMMITTER_DATE="@$T +0000"; }',
  "tick",
].join("\n");
