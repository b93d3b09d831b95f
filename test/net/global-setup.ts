// vitest globalSetup (runs in Node): starts the network test servers on the ports
// vitest.config.ts chose and gave the Worker as bindings, and hands them to the tests.
import type { TestProject } from "vitest/node";
import { startNetServers } from "./servers";

declare module "vitest" {
  export interface ProvidedContext {
    netPorts: { site: number; canary: number; doh: number };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const ports = JSON.parse(process.env.TOOLSHED_TEST_NET_PORTS ?? "null") as { site: number; canary: number; doh: number } | null;
  if (!ports) throw new Error("vitest.config.ts did not choose the network test ports");
  project.provide("netPorts", ports);
  return startNetServers(ports);
}
