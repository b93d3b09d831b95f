// Types of cases.mjs for the TypeScript test.
export interface NodeCase {
  name: string;
  files: Record<string, string>;
  cmd: string;
  stdin?: string;
  known?: string;
  compare?: "error-line" | "exit" | "none";
}
export const STACK: string;
export const CASES: NodeCase[];
