import { describe, expect, it } from "vitest";
import { BytesReader, InStream, Pipe } from "../../src/shell/interp/streams";
import { decode, encode } from "../../src/shell/bytes";
import { programFor } from "../../src/wasi/programs";
import { runWasi, runWasiStreaming } from "../../src/wasi/runner";
import { withFs } from "./helpers";

const toolbox = () => programFor("toolbox")!.module;
const base = { env: {}, cwd: "/workspace" };

/** Bytes a pipe's reader gets until `want` of them have come (or the pipe ends). */
async function take(pipe: Pipe, want: number): Promise<string> {
  let got = "";
  while (got.length < want) {
    const c = await pipe.reader.read();
    if (!c) break;
    got += decode(c);
  }
  return got;
}

describe("runWasi with a writer that never waits (stdoutSync)", () => {
  it("hands each write over as the program makes it, past the collected-output limit", async () => {
    await withFs(async (fs) => {
      const writes: number[] = [];
      const r = runWasi(toolbox(), {
        ...base,
        fs,
        argv: ["toolbox", "seq", "200000"],
        limits: { maxOutputBytes: 4096 },
        stdoutSync: (data) => writes.push(data.length),
      });
      expect(r.exitCode).toBe(0);
      expect(r.stdout.length).toBe(0);
      expect(writes.length).toBeGreaterThan(1);
      expect(writes.reduce((a, b) => a + b, 0)).toBe(1_288_895);
    });
  });

  it("a writer that fails ends the run and its error comes back as `failure`", async () => {
    await withFs(async (fs) => {
      const refused = new Error("quota exceeded");
      const r = runWasi(toolbox(), {
        ...base,
        fs,
        argv: ["toolbox", "yes"],
        stdoutSync: () => {
          throw refused;
        },
      });
      expect(r.failure).toBe(refused);
      expect(r.exitCode).not.toBe(0);
    });
  });
});

describe("runWasiStreaming (JSPI)", () => {
  it("passes on what a program writes while it is still running, and waits for input", async () => {
    await withFs(async (fs) => {
      const input = new Pipe(64 * 1024);
      const output = new Pipe(64 * 1024);
      let done = false;
      const run = runWasiStreaming(toolbox(), {
        ...base,
        fs,
        argv: ["toolbox", "cat"],
        stdin: new InStream(input.reader),
        stdout: output.writer,
        stderr: output.writer,
      }).then((r) => ((done = true), r));
      // More than cat's 64 KiB output buffer, so it has to pass some on before its input ends.
      const chunk = "x".repeat(50_000);
      const feeding = (async () => {
        for (let i = 0; i < 4; i++) await input.writer.write(encode(chunk));
      })();
      let got = (await take(output, 65_536)).length;
      expect(got).toBeGreaterThanOrEqual(65_536);
      expect(done).toBe(false);
      const draining = take(output, Infinity);
      await feeding;
      input.writer.close();
      const r = await run;
      output.writer.close();
      got += (await draining).length;
      expect(done).toBe(true);
      expect(r.exitCode).toBe(0);
      expect(got).toBe(200_000);
    });
  });

  it("a writer whose reader went away sees EPIPE and exits 141", async () => {
    await withFs(async (fs) => {
      const output = new Pipe(64 * 1024);
      const run = runWasiStreaming(toolbox(), { ...base, fs, argv: ["toolbox", "yes"], stdin: new Uint8Array(0), stdout: output.writer, stderr: output.writer });
      expect((await take(output, 2)).slice(0, 2)).toBe("y\n");
      output.reader.close();
      const r = await run;
      expect(r.exitCode).toBe(141);
      expect(r.error).toBeUndefined();
    });
  });

  it("takes from a shared stdin only what the program reads; a file's offset moves back with lseek", async () => {
    await withFs(async (fs) => {
      const piped = new InStream(new BytesReader(encode("a\nb\nc\n")));
      const r1 = runWasi(toolbox(), { ...base, fs, argv: ["toolbox", "true"], stdin: piped });
      expect(r1.exitCode).toBe(0);
      expect(decode(await piped.readAll())).toBe("a\nb\nc\n");

      const file = new InStream(new BytesReader(encode("a\nb\nc\n"), true));
      const r2 = runWasi(toolbox(), { ...base, fs, argv: ["toolbox", "head", "-n", "1"], stdin: file });
      expect(decode(r2.stdout)).toBe("a\n");
      expect(decode(await file.readAll())).toBe("b\nc\n");
    });
  });
});
