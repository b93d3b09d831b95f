// Types for the `diff3` package (isomorphic-git's three-way line merge), which ships none.
declare module "diff3" {
  export type Diff3Block<T> = { ok?: T[]; conflict?: { a: T[]; aIndex: number; o: T[]; oIndex: number; b: T[]; bIndex: number } };
  export default function diff3Merge<T>(a: T[], o: T[], b: T[], excludeFalseConflicts?: boolean): Diff3Block<T>[];
}
