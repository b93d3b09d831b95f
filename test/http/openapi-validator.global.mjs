// The OpenAPI validator, in Node: @seriousme/openapi-schema-validator checks a document
// against the OpenAPI Initiative's published JSON Schema for its version (3.1 here) and
// resolves every $ref. It reads its schemas from disk and compiles them with Ajv, neither of
// which workerd allows, so it runs here, behind POST /validate on 127.0.0.1, and
// test/http/openapi.test.ts sends it the document the Worker serves.
// Runs in Node (plain JavaScript: the project's TypeScript is typed for workerd only).
import { createServer } from "node:http";
import { Validator } from "@seriousme/openapi-schema-validator";

/** @param {import("vitest/node").TestProject} project */
export default async function setup(project) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", async () => {
      let answer;
      try {
        const validator = new Validator();
        const r = await validator.validate(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        answer = { valid: r.valid, version: validator.version ?? null, errors: r.valid ? [] : r.errors };
      } catch (e) {
        answer = { valid: false, version: null, errors: [String(e)] };
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  project.provide("openapiValidator", `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/validate`);
  return () => new Promise((resolve) => server.close(resolve));
}
