// The import rules of src/ and durable-objects/ (see ARCHITECTURE.md for the layers).
// `npm run check:imports` runs these with dependency-cruiser, and adds one rule that
// dependency-cruiser cannot say on its own: no cycle between folders (scripts/check-imports.mjs).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  // Leaf files shared by the layers below their folder's (read by scripts/check-imports.mjs, not
  // by dependency-cruiser): what a tool answers is known to agents and MCP code too.
  leaves: ["src/tools/result.ts"],
  forbidden: [
    {
      name: "no-file-cycle",
      comment:
        "Files import one way; a cycle means a type or helper belongs in a leaf file both can import. scripts/check-imports.mjs refuses the cycles that cross folders and counts those inside one folder.",
      severity: "warn",
      from: {},
      to: { circular: true },
    },
    {
      name: "syntax-is-a-leaf",
      comment: "The parser only builds syntax trees: it knows nothing of expansion or of the runner.",
      severity: "error",
      from: { path: "^src/shell/syntax/" },
      to: { path: "^src/shell/(expand|interp|builtins)/" },
    },
    {
      name: "expand-below-the-runner",
      comment:
        "Expansion reaches the runner only through the context it is handed (ExpandCtx: prompt expansion reads the history number through it, not from the Shell or the history builtin); it may use the runner's data types (variables, Maybe).",
      severity: "error",
      from: { path: "^src/shell/expand/" },
      to: { path: "^src/shell/(interp|builtins)/", pathNot: "^src/shell/interp/(vars|maybe|assoc)[.]ts$" },
    },
    {
      name: "runner-imports-no-builtin",
      comment: "The builtins are handed to the runner (RunShared.builtins, filled by src/shell/index.ts): the runner, expansion and the parser import none of them.",
      severity: "error",
      from: { path: "^src/shell/(interp|expand|syntax)/" },
      to: { path: "^src/shell/builtins/" },
    },
    {
      name: "shell-bytes-is-a-leaf",
      comment:
        "The byte helpers (encode, decode, concat, ...) are used by the parser, expansion, the runner, the builtins and the WASI layer: they import nothing, so using them ties no layer to another.",
      severity: "error",
      from: { path: "^src/shell/bytes[.]ts$" },
      to: { path: "^src/" },
    },
    {
      name: "interpreter-asks-its-host",
      comment: "The interpreter reaches the policy only through its host (ShellHost: checkCommand, wrapperValueOptions, ...).",
      severity: "error",
      from: { path: "^src/shell/(interp|expand|syntax|builtins)/" },
      to: { path: "^src/policy/" },
    },
    {
      name: "policy-and-vfs-import-no-tool",
      comment: "Every door asks the policy; the policy and the workspace do not know the doors.",
      severity: "error",
      from: { path: "^src/(policy|vfs)/" },
      to: { path: "^src/tools/" },
    },
    {
      name: "agents-mcp-models-import-no-registry",
      comment: "Agents, MCP and model code take tools as values; importing a registry pulls in every tool.",
      severity: "error",
      from: { path: "^src/(agents|mcp)/" },
      to: { path: "^src/(tools/registry|profiles/)" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|test)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".mjs", ".js", ".json"] },
  },
};
