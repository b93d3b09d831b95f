export function networkTestPorts(): Promise<{ site: number; canary: number; doh: number }>;
