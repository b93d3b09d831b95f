/** A tree: path → content (0644), {content, mode}, or {link: target}. */
export type TreeSpec = Record<string, string | { content: string; mode: number } | { link: string }>;
export declare const DIFF_CASES: { name: string; from: TreeSpec; to: TreeSpec }[];
