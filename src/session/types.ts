import type { Denial } from "../policy/denied";

// What the session Durable Object (durable-objects/session.ts) answers its callers: the Worker's
// HTTP and RPC doors import these types without importing the object.

export interface SessionInfo {
  id: string;
  profile: string;
  tools: string[];
  /** Remote MCP servers attached at creation; their tools are deferred (tool_search). */
  mcpServers: string[];
  cwd: string;
  status: string;
  createdAt: string;
  lastUsedAt: string;
  usage: { bytes: number; files: number; maxBytes: number; maxFiles: number; toolCalls: number };
}

export interface CreateOptions {
  id: string;
  tenant: string;
  /** A profile name (src/profiles), already checked by the service. */
  profile: string;
  /** The tools the session serves (already checked against the profile). */
  tools: string[];
  cwd?: string;
  env?: Record<string, string>;
  urlRules?: { allow?: string[]; deny?: string[] };
  /** Remote MCP servers to attach (already checked against the operator's list). */
  mcpServers?: string[];
}

export interface DirEntry {
  name: string;
  /** Absolute (under /workspace). */
  path: string;
  kind: string;
  size: number;
  modified: string;
}

/** Failures a caller maps to its own protocol (HTTP status, RPC error). */
export type Failure =
  | { ok: false; error: "session_not_found"; message: string }
  | { ok: false; error: "tool_not_found"; message: string }
  | { ok: false; error: "invalid_arguments"; message: string }
  | { ok: false; error: "denied"; message: string; denied: Denial }
  | { ok: false; error: "fs"; code: string; message: string };

export type Outcome<T> = ({ ok: true } & T) | Failure;
