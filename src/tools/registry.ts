import { browser } from "./browser/browser";
import { checkpoint } from "./checkpoints/checkpoint";
import { delegate } from "./agents/delegate";
import { spawn } from "./agents/spawn";
import { toolSearch } from "./deferred/tool-search";
import { workflow } from "./agents/workflow";
import { editFile } from "./files/edit-file";
import { glob } from "./files/glob";
import { grep } from "./files/grep";
import { listDir } from "./files/list-dir";
import { readFile } from "./files/read-file";
import { readSkill } from "./files/read-skill";
import { sendFile } from "./files/send-file";
import { setStatus } from "./files/set-status";
import { writeFile } from "./files/write-file";
import { generateImage } from "./images/generate-image";
import { emailSearch } from "./mail/email-search";
import { webFetch } from "./net/web-fetch";
import { webSearch } from "./net/web-search";
import { bash } from "./shell/bash";
import { exec } from "./shell/exec";
import type { ToolDefinition } from "./types";

export { formatValidationError } from "../lib/validation";

/** Every tool Toolshed implements, by its canonical name; profiles (src/profiles/) map onto these. */
export const CANONICAL = {
  bash,
  exec,
  read_file: readFile,
  write_file: writeFile,
  edit_file: editFile,
  list_dir: listDir,
  grep,
  glob,
  set_status: setStatus,
  web_fetch: webFetch,
  web_search: webSearch,
  send_file: sendFile,
  read_skill: readSkill,
  email_search: emailSearch,
  browser,
  delegate,
  spawn,
  tool_search: toolSearch,
  generate_image: generateImage,
  workflow,
  checkpoint,
} as const;

export const TOOLS: ReadonlyMap<string, ToolDefinition> = new Map(Object.entries(CANONICAL).map(([name, t]) => [name, t as unknown as ToolDefinition]));
