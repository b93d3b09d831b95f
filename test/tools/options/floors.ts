// Cases of the option sweep that must stay equal to GNU (and options refused with a clear
// message), per command: raise these when a fix makes more cases pass, never lower them.
import { FLOORS_DATA } from "./groups/data.floors";
import { FLOORS_FILES } from "./groups/files.floors";
import { FLOORS_TEXT } from "./groups/text.floors";

const CORE: Record<string, { equal: number; refused: number }> = {
  cat: { equal: 17, refused: 0 },
  cp: { equal: 54, refused: 1 },
  cut: { equal: 16, refused: 0 },
  date: { equal: 25, refused: 0 },
  df: { equal: 29, refused: 0 },
  diff: { equal: 87, refused: 0 },
  du: { equal: 43, refused: 0 },
  find: { equal: 78, refused: 6 },
  grep: { equal: 91, refused: 0 },
  gzip: { equal: 44, refused: 0 },
  head: { equal: 16, refused: 0 },
  ls: { equal: 95, refused: 0 },
  mkdir: { equal: 12, refused: 0 },
  mv: { equal: 26, refused: 0 },
  rm: { equal: 17, refused: 0 },
  sed: { equal: 27, refused: 0 },
  sort: { equal: 65, refused: 0 },
  stat: { equal: 18, refused: 0 },
  tail: { equal: 21, refused: 3 },
  tar: { equal: 211, refused: 36 },
  touch: { equal: 17, refused: 0 },
  tr: { equal: 12, refused: 0 },
  uniq: { equal: 21, refused: 0 },
  wc: { equal: 14, refused: 0 },
  xargs: { equal: 34, refused: 0 },
  zcat: { equal: 16, refused: 0 },
  bash: { equal: 42, refused: 2 },
  base64: { equal: 8, refused: 0 },
  tree: { equal: 51, refused: 14 },
};

export const FLOORS = { ...CORE, ...FLOORS_TEXT, ...FLOORS_FILES, ...FLOORS_DATA };
