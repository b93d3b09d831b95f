// Floors for the "text" group's cases (see ../floors.ts).
export const FLOORS_TEXT: Record<string, { equal: number; refused: number }> = {
  awk: { equal: 53, refused: 12 },
  column: { equal: 33, refused: 8 },
  comm: { equal: 15, refused: 0 },
  expand: { equal: 11, refused: 0 },
  fmt: { equal: 17, refused: 0 },
  fold: { equal: 9, refused: 0 },
  join: { equal: 22, refused: 0 },
  jq: { equal: 54, refused: 0 },
  // nl follows coreutils >= 9.2 on unnumbered lines (a tab, as the bash fixtures recorded); Debian 12 pads with spaces.
  nl: { equal: 4, refused: 0 },
  paste: { equal: 12, refused: 0 },
  rev: { equal: 7, refused: 0 },
  // -U/--multiline(-dotall) and --json are compared with ripgrep now, no longer refused.
  rg: { equal: 162, refused: 4 },
  seq: { equal: 23, refused: 0 },
  shuf: { equal: 19, refused: 0 },
  split: { equal: 43, refused: 1 },
  tac: { equal: 10, refused: 0 },
  tee: { equal: 12, refused: 0 },
  unexpand: { equal: 8, refused: 0 },
};
