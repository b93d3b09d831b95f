// Ports of the network test servers, chosen once per vitest run: vitest.config.ts needs them
// for the Worker's bindings and global-setup.mjs for the servers, so they travel in the
// environment of the one vitest process.
import { freePort } from "./servers.mjs";

export async function networkTestPorts() {
  if (!process.env.TOOLSHED_TEST_NET_PORTS) {
    const ports = { site: await freePort(), canary: await freePort(), doh: await freePort() };
    process.env.TOOLSHED_TEST_NET_PORTS = JSON.stringify(ports);
  }
  return JSON.parse(process.env.TOOLSHED_TEST_NET_PORTS);
}
