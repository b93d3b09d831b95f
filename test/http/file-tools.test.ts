import { describe, expect, it } from "vitest";
import { api, newSession, tool } from "../helpers";

describe("read_file", () => {
  it("numbers lines cat -n style and honours offset and limit", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "f.txt", content: "one\ntwo\nthree\nfour\n" });
    expect((await tool(id, "read_file", { path: "f.txt" })).output).toBe("     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour");
    expect((await tool(id, "read_file", { path: "f.txt", offset: 2, limit: 2 })).output).toBe("     2\ttwo\n     3\tthree");
    const past = await tool(id, "read_file", { path: "f.txt", offset: 10 });
    expect(past.success).toBe(false);
    expect(past.error).toContain("past the end");
  });

  it("shows binary files as a hex summary", async () => {
    const id = await newSession();
    await api("PUT", `/v1/sessions/${id}/files/bin.dat`, { raw: new Uint8Array([0, 1, 2, 0x41, 0xff]) });
    const r = await tool(id, "read_file", { path: "bin.dat" });
    expect(r.success).toBe(true);
    expect(r.binary).toBe(true);
    expect(r.output).toContain("Binary file, 5 bytes");
    expect(r.output).toContain("00 01 02 41 ff");
  });

  it("caps output at 30,000 characters, cutting the middle", async () => {
    const id = await newSession();
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${"x".repeat(20)}`);
    await tool(id, "write_file", { path: "big.txt", content: lines.join("\n") });
    const r = await tool(id, "read_file", { path: "big.txt" });
    expect(r.output.length).toBeLessThanOrEqual(30_000);
    expect(r.output).toContain("     1\tline 0 ");
    expect(r.output).toContain(" 5000\tline 4999 ");
    expect(r.output).toMatch(/truncated|omitted/);
  });

  it("reports missing files and directories as tool errors, not HTTP errors", async () => {
    const id = await newSession();
    const r = await tool(id, "read_file", { path: "nope.txt" });
    expect(r).toMatchObject({ success: false, error: "nope.txt: No such file or directory" });
    await tool(id, "write_file", { path: "d/x", content: "" });
    expect((await tool(id, "read_file", { path: "d" })).error).toContain("Is a directory");
  });
});

describe("write_file and edit_file", () => {
  it("creates parents and replaces content", async () => {
    const id = await newSession();
    const w = await tool(id, "write_file", { path: "a/b/c.txt", content: "v1" });
    expect(w).toMatchObject({ success: true, size: 2, path: "a/b/c.txt" });
    await tool(id, "write_file", { path: "/workspace/a/b/c.txt", content: "version two" });
    expect((await tool(id, "read_file", { path: "a/b/c.txt" })).output).toBe("     1\tversion two");
  });

  it("edits exactly, requires uniqueness unless replace_all", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "e.txt", content: "foo bar foo $& baz" });
    let r = await tool(id, "edit_file", { path: "e.txt", old_string: "foo", new_string: "x" });
    expect(r.success).toBe(false);
    expect(r.error).toContain("found 2 times");
    r = await tool(id, "edit_file", { path: "e.txt", old_string: "qux", new_string: "x" });
    expect(r.error).toContain("not found");
    r = await tool(id, "edit_file", { path: "e.txt", old_string: "bar", new_string: "$&$1" });
    expect(r).toMatchObject({ success: true, replacements: 1 });
    r = await tool(id, "edit_file", { path: "e.txt", old_string: "foo", new_string: "F", replace_all: true });
    expect(r).toMatchObject({ success: true, replacements: 2 });
    const raw = await api("GET", `/v1/sessions/${id}/files/e.txt`);
    expect(raw.body).toBe("F $&$1 F $& baz");
  });
});

describe("list_dir, grep, glob", () => {
  it("lists directories first with types and sizes", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "zeta.txt", content: "12345" });
    await tool(id, "write_file", { path: "alpha/x.txt", content: "" });
    await tool(id, "write_file", { path: "beta.md", content: "b" });
    const r = await tool(id, "list_dir", {});
    expect(r.entries).toEqual([
      { name: "alpha", type: "directory", size: 0 },
      { name: "beta.md", type: "file", size: 1 },
      { name: "zeta.txt", type: "file", size: 5 },
    ]);
    expect(r.output.split("\n")[0]).toBe("[dir]  alpha/");
  });

  it("greps with path:line:text, glob filters, case folding, and skips binaries", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "src/a.ts", content: "const Foo = 1;\nlet bar;\nfoo();\n" });
    await tool(id, "write_file", { path: "src/b.js", content: "foo\n" });
    await api("PUT", `/v1/sessions/${id}/files/src/c.bin`, { raw: new Uint8Array([102, 111, 111, 0, 1]) });
    let r = await tool(id, "grep", { pattern: "foo" });
    expect(r.output.split("\n").sort()).toEqual(["src/a.ts:3:foo();", "src/b.js:1:foo"]);
    r = await tool(id, "grep", { pattern: "foo", glob: "*.ts", case_insensitive: true });
    expect(r.output).toBe("src/a.ts:1:const Foo = 1;\nsrc/a.ts:3:foo();");
    r = await tool(id, "grep", { pattern: "(" });
    expect(r.success).toBe(false);
    expect(r.error).toContain("Invalid regular expression");
  });

  it("caps grep at 250 lines with a note", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "many.txt", content: "hit\n".repeat(300) });
    const r = await tool(id, "grep", { pattern: "hit" });
    expect(r.output.split("\n").filter((l: string) => l.startsWith("many.txt:")).length).toBe(250);
    expect(r.truncated).toBe(true);
    expect(r.output).toContain("50 more");
  });

  it("globs with ** newest first, capped at 100", async () => {
    const id = await newSession();
    await tool(id, "write_file", { path: "old.ts", content: "" });
    await new Promise((r) => setTimeout(r, 5));
    await tool(id, "write_file", { path: "deep/er/new.ts", content: "" });
    await tool(id, "write_file", { path: "x.md", content: "" });
    expect((await tool(id, "glob", { pattern: "**/*.ts" })).files).toEqual(["deep/er/new.ts", "old.ts"]);
    expect((await tool(id, "glob", { pattern: "*.ts" })).files).toEqual(["old.ts"]);
    expect((await tool(id, "glob", { pattern: "*.ts", path: "deep/er" })).files).toEqual(["deep/er/new.ts"]);
  });
});

describe("set_status", () => {
  it("truncates to 256 characters and shows in the session info", async () => {
    const id = await newSession();
    const r = await tool(id, "set_status", { status: "s".repeat(300) });
    expect(r).toMatchObject({ success: true, worker_id: id, truncated: true });
    expect(r.status.length).toBe(256);
    expect((await api("GET", `/v1/sessions/${id}`)).body.status).toBe("s".repeat(256));
  });
});
