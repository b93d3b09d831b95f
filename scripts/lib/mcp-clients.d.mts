export type Era = "2026-07-28" | "2025";
export declare const ERAS: Era[];
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;
export interface McpTestClient {
  era: Era;
  listTools(): Promise<Array<{ name: string; inputSchema: unknown; description?: string }>>;
  callTool(name: string, args: Record<string, unknown>, onProgress?: (p: { progress: number; message?: string }) => void): Promise<any>;
  close(): Promise<void>;
}
export declare function connectMcp(era: Era, url: string, key: string, fetch?: FetchLike): Promise<McpTestClient>;
