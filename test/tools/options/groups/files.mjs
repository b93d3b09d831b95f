// Option-sweep cases for the "files" group of toolbox commands (see ../cases.mjs for the rules of a
// case). FIXTURE_FILES adds the files these cases need; it runs after the base fixture and before the
// timestamps are set.
export const FIXTURE_FILES = "";

/** @type {Record<string, Array<string | {run: string, opts?: string[], refused?: string}>>} */
export const CASES_FILES = {};
