import { PROTECTIVE } from "../policy/rule-sets";
import { same, type Profile } from "./types";

/** Toolshed's own tool set: every tool, under its canonical name and parameters. */
export const toolshed: Profile = {
  name: "toolshed",
  seeds: [],
  tools: [
    same("bash"),
    same("exec"),
    same("read_file"),
    same("write_file"),
    same("edit_file"),
    same("list_dir"),
    same("grep"),
    same("glob"),
    same("set_status"),
    same("web_fetch"),
    same("web_search"),
    same("send_file"),
    same("read_skill"),
    same("email_search"),
    same("browser"),
    same("delegate"),
    same("spawn"),
    same("tool_search"),
    same("generate_image"),
    same("workflow"),
    same("checkpoint"),
  ],
  missing: [],
  rules: PROTECTIVE,
};
