// vitest globalSetup (runs in Node): starts the network test servers on the ports
// vitest.config.ts gave the Worker as bindings, and hands them to the tests
// (`inject("netPorts")`, typed in provided.d.ts).
import { networkTestPorts } from "./ports.mjs";
import { startNetServers } from "./servers.mjs";

export default async function setup(project) {
  const ports = await networkTestPorts();
  project.provide("netPorts", ports);
  return startNetServers(ports);
}
