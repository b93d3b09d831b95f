import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { checkConsistency } from "../../src/vfs/consistency";
import { CHUNK_SIZE } from "../../src/vfs/schema";
import { newSession, tool } from "../helpers";
import { stubOf } from "./helpers";

/** Each corruption breaks one invariant; the check must name it (and a healthy session shows none). */
const CORRUPTIONS: [string, string, RegExp][] = [
  ["nothing", "SELECT 1", /^$/],
  ["a chunk row of a deleted blob", "DELETE FROM vfs_blobs WHERE id = (SELECT blob FROM vfs_nodes WHERE path = '/workspace/d/a.txt')", /orphaned chunk row/],
  ["a file larger in chunks than its size", "UPDATE vfs_nodes SET size = 3 WHERE path = '/workspace/d/a.txt'", /beyond its size|past the end/],
  ["a chunk past the end", `INSERT INTO vfs_chunks (blob, idx, data) SELECT blob, 5, x'00' FROM vfs_nodes WHERE path = '/workspace/d/a.txt'`, /beyond its size/],
  ["a missing parent", "DELETE FROM vfs_nodes WHERE path = '/workspace/d'", /parent directory \/workspace\/d does not exist/],
  ["a wrong parent column", "UPDATE vfs_nodes SET parent = '/workspace' WHERE path = '/workspace/d/a.txt'", /records parent/],
  ["a parent that is a file", "UPDATE vfs_nodes SET kind = 1, blob = NULL WHERE path = '/workspace/d'", /parent directory/],
  ["a directory with content", "UPDATE vfs_nodes SET size = 4 WHERE path = '/workspace/d'", /directory \/workspace\/d holds content/],
  ["an uncommitted blob", "INSERT INTO vfs_blobs (committed) VALUES (0)", /uncommitted blob/],
  ["a leaked committed blob", "INSERT INTO vfs_blobs (committed) VALUES (1)", /leaked/],
  // Files may share a blob (checkpoints, restores), but its reference count must say so.
  [
    "a blob shared behind its count's back",
    "UPDATE vfs_nodes SET blob = (SELECT blob FROM vfs_nodes WHERE path = '/workspace/d/a.txt') WHERE path = '/workspace/b.txt'",
    /records 1 reference\(s\) but 2 point at it/,
  ],
  ["a history row of no checkpoint", "INSERT INTO cp_delta (path, cp, present) VALUES ('/workspace/x', 999, 0)", /checkpoint 999, which does not exist/],
  ["a file pointing at a missing blob", "UPDATE vfs_nodes SET blob = 99999 WHERE path = '/workspace/b.txt'", /missing/],
  ["a missing stored root", "DELETE FROM vfs_nodes WHERE path = '/tmp'", /stored root \/tmp/],
];

it.each(CORRUPTIONS)("finds %s", async (_name, corrupt, expected) => {
  const id = await newSession();
  await tool(id, "write_file", { path: "d/a.txt", content: "x".repeat(CHUNK_SIZE + 10) });
  await tool(id, "write_file", { path: "b.txt", content: "bee\n" });
  const problems = await runInDurableObject(stubOf(id), (_o, state) => {
    state.storage.sql.exec(corrupt);
    return checkConsistency(state.storage.sql);
  });
  expect(problems.join("\n")).toMatch(expected);
});
