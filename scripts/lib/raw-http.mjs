// A raw HTTP/1.1 client: sends the request target and body bytes exactly as given (fetch would
// normalise `\`, dot segments and bad bytes away before they reach the server).
import { connect } from "node:net";

/** Decodes a `transfer-encoding: chunked` body. */
function dechunk(buf) {
  const parts = [];
  let at = 0;
  for (;;) {
    const eol = buf.indexOf("\r\n", at);
    if (eol < 0) break;
    const size = parseInt(buf.subarray(at, eol).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(buf.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

/**
 * One request on its own connection. `cutAfter` closes the socket after that many body bytes
 * (a client that disconnects mid-request); the answer is then `{ status: 0 }`.
 */
export function rawRequest(port, { method, target, headers = {}, body = Buffer.alloc(0), cutAfter }, timeoutMs = 60_000) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks = [];
    const done = (r) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => done({ status: -1, headers: {}, body: Buffer.alloc(0), error: "timeout" }), timeoutMs);
    socket.on("connect", () => {
      const head = [`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
      for (const [k, v] of Object.entries(headers)) head.push(`${k}: ${v}`);
      socket.write(Buffer.concat([Buffer.from(head.join("\r\n") + "\r\n\r\n", "latin1"), body.subarray(0, cutAfter ?? body.length)]));
      if (cutAfter !== undefined) setTimeout(() => done({ status: 0, headers: {}, body: Buffer.alloc(0) }), 20);
    });
    // workerd may keep the socket open despite `Connection: close`: finish once the body is in.
    const parse = (closed) => {
      const all = Buffer.concat(chunks);
      const sep = all.indexOf("\r\n\r\n");
      if (sep < 0) return closed ? done({ status: -1, headers: {}, body: all, error: "no response" }) : undefined;
      const lines = all.subarray(0, sep).toString("latin1").split("\r\n");
      const status = Number(lines[0].split(" ")[1]);
      const hs = {};
      for (const l of lines.slice(1)) {
        const i = l.indexOf(":");
        hs[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const rest = all.subarray(sep + 4);
      if (method === "HEAD" || status === 204 || status === 304) done({ status, headers: hs, body: rest });
      else if (/chunked/i.test(hs["transfer-encoding"] ?? "")) {
        if (closed || rest.includes("0\r\n\r\n")) done({ status, headers: hs, body: dechunk(rest) });
      } else if (hs["content-length"] !== undefined ? rest.length >= Number(hs["content-length"]) : closed) done({ status, headers: hs, body: rest });
      else if (closed) done({ status: -1, headers: hs, body: rest, error: "body cut short" });
    };
    socket.on("data", (d) => {
      chunks.push(d);
      parse(false);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => parse(true));
  });
}
