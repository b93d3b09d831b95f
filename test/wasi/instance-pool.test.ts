import { describe, expect, it } from "vitest";
import { acquire, capture, type ImportTable } from "../../src/wasi/instance-pool";
import { TOOLBOX } from "../../src/wasi/programs";
import trap from "./fixtures/trap.wasm";
import { run, withFs } from "./helpers";

const MiB = 1024 * 1024;

/** Imports that answer every call with 0; enough to instantiate and inspect, never to run. */
function inert(module: WebAssembly.Module): ImportTable {
  const table: ImportTable = {};
  for (const i of WebAssembly.Module.imports(module)) (table[i.module] ??= {})[i.name] = () => 0;
  return table;
}

const memoryOf = (i: WebAssembly.Instance) => new Uint8Array((i.exports.memory as WebAssembly.Memory).buffer);

describe("instance pool", () => {
  it("hands a released toolbox instance out again, reset to the state of a fresh one", () => {
    const first = acquire(TOOLBOX, inert(TOOLBOX));
    const fresh = memoryOf(first.instance).slice();
    const stack = first.instance.exports.toolshed_global_0 as WebAssembly.Global;
    const sp = stack.value;
    // What a run leaves behind: a changed stack pointer, data, stack and heap bytes.
    memoryOf(first.instance).fill(0xa5, 0, 64);
    memoryOf(first.instance).fill(0x5a, fresh.length - 4096);
    memoryOf(first.instance)[1 << 20] ^= 0xff;
    stack.value = 12345;
    first.release();
    const again = acquire(TOOLBOX, inert(TOOLBOX));
    expect(again.instance).toBe(first.instance);
    expect(stack.value).toBe(sp);
    const now = memoryOf(again.instance);
    expect(now.length).toBe(fresh.length);
    let differing = 0;
    for (let i = 0; i < now.length; i++) if (now[i] !== fresh[i]) differing++;
    expect(differing).toBe(0);
    again.release();
  });

  it("drops an instance whose memory grew: the next run starts with the initial memory", () => {
    const a = acquire(TOOLBOX, inert(TOOLBOX));
    const initial = (a.instance.exports.memory as WebAssembly.Memory).buffer.byteLength;
    (a.instance.exports.memory as WebAssembly.Memory).grow(1);
    a.release();
    const b = acquire(TOOLBOX, inert(TOOLBOX));
    expect(b.instance).not.toBe(a.instance);
    expect((b.instance.exports.memory as WebAssembly.Memory).buffer.byteLength).toBe(initial);
    b.release();
  });

  it("starts instances from a captured state, grown memory included, and puts them back into it", () => {
    const a = acquire(TOOLBOX, inert(TOOLBOX));
    const mem = a.instance.exports.memory as WebAssembly.Memory;
    mem.grow(2);
    memoryOf(a.instance).fill(0x3c, 4096, 8192);
    memoryOf(a.instance)[memoryOf(a.instance).length - 1] = 7;
    (a.instance.exports.toolshed_global_0 as WebAssembly.Global).value = 4242;
    const image = capture(a.instance)!;
    const wanted = memoryOf(a.instance).slice();
    a.release();
    const same = (i: WebAssembly.Instance) => {
      const now = memoryOf(i);
      expect(now.length).toBe(wanted.length);
      let differing = 0;
      for (let k = 0; k < now.length; k++) if (now[k] !== wanted[k]) differing++;
      expect(differing).toBe(0);
      expect((i.exports.toolshed_global_0 as WebAssembly.Global).value).toBe(4242);
    };
    const b = acquire(TOOLBOX, inert(TOOLBOX), undefined, undefined, image);
    same(b.instance);
    memoryOf(b.instance).fill(0x11, 0, 100_000);
    (b.instance.exports.toolshed_global_0 as WebAssembly.Global).value = 1;
    b.release();
    const c = acquire(TOOLBOX, inert(TOOLBOX), undefined, undefined, image);
    expect(c.instance).toBe(b.instance);
    same(c.instance);
    // A fresh run is not handed an instance in the captured state.
    const d = acquire(TOOLBOX, inert(TOOLBOX));
    expect(d.instance).not.toBe(c.instance);
    expect((d.instance.exports.toolshed_global_0 as WebAssembly.Global).value).not.toBe(4242);
    c.release();
    d.release();
  });

  it("instantiates modules wasm/meter did not mark resettable for every run", () => {
    const a = acquire(trap, inert(trap));
    a.release();
    const b = acquire(trap, inert(trap));
    expect(b.instance).not.toBe(a.instance);
  });

  it("gives the same results as fresh instances, run after run, whatever ended the previous run", () =>
    withFs((fs, ws) => {
      ws.writeFile("/workspace/n.txt", "3\n1\n2\n");
      const big = Array.from({ length: 200_000 }, (_, i) => `${(i * 7919) % 200_000}\n`).join("");
      ws.writeFile("/workspace/big.txt", big);
      const rounds = [
        () => run(TOOLBOX, fs, ["sort", "-n", "n.txt"]),
        () => run(TOOLBOX, fs, ["wc", "-c", "/dev/null"]),
        // Killed by the step limit mid-run, then a run that grows memory past the initial size.
        () => run(TOOLBOX, fs, ["sort", "big.txt"], { limits: { maxSteps: 100_000 } }),
        () => run(TOOLBOX, fs, ["sort", "-n", "big.txt"]),
        () => run(TOOLBOX, fs, ["sh-missing-command"]),
        () => run(TOOLBOX, fs, ["seq", "3"]),
      ];
      const first = rounds.map((r) => r());
      expect(first[0]!.out).toBe("1\n2\n3\n");
      expect(first[2]!.error).toMatch(/step limit/);
      expect(first[3]!.stats.memoryBytes).toBeGreaterThan(3 * MiB);
      for (let i = 0; i < 3; i++) {
        const again = rounds.map((r) => r());
        for (const [k, r] of again.entries()) {
          expect({ exit: r.exitCode, out: r.out, err: r.err, error: r.error, stats: r.stats }).toEqual({
            exit: first[k]!.exitCode,
            out: first[k]!.out,
            err: first[k]!.err,
            error: first[k]!.error,
            stats: first[k]!.stats,
          });
        }
      }
    }));
});
