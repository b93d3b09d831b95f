// Option-sweep cases for the "text" group of toolbox commands (see ../cases.mjs for the rules of a
// case). FIXTURE_TEXT adds the files these cases need; it runs after the base fixture and before the
// timestamps are set.
export const FIXTURE_TEXT = "";

/** @type {Record<string, Array<string | {run: string, opts?: string[], refused?: string}>>} */
export const CASES_TEXT = {};
