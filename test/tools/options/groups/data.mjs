// Option-sweep cases for the "data" group of toolbox commands (see ../cases.mjs for the rules of a
// case). FIXTURE_DATA adds the files these cases need; it runs after the base fixture and before the
// timestamps are set.
export const FIXTURE_DATA = "";

/** @type {Record<string, Array<string | {run: string, opts?: string[], refused?: string}>>} */
export const CASES_DATA = {};
