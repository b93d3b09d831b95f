// Builtin registry: name -> implementation.
import type { Builtin } from "./io";
import { echo, printf } from "./printf";
import { declare, set, shift, shopt, unset } from "./vars";
import { FLOW } from "./flow";
import { getopts, mapfile, read } from "./read";
import { testBuiltin } from "./test";
import { compgen, complete, compopt } from "./complete";
import { fg, jobsB, kill, waitJobs } from "./jobs";
import { umask } from "./umask";
import { ulimit } from "./ulimit";
import { dirs, popd, pushd } from "./dirs";
import { history } from "./history";
import { bind } from "./bind";
import { fc } from "./fc";
import { nohup, ps } from "./procs";
import { help } from "./help";
import { caller, disown, enable, logout, suspend, times } from "./enable";

export const BUILTINS: Record<string, Builtin> = Object.assign(Object.create(null) as Record<string, Builtin>, {
  echo,
  printf,
  declare,
  typeset: declare,
  local: declare,
  export: declare,
  readonly: declare,
  unset,
  set,
  shopt,
  shift,
  read,
  mapfile,
  readarray: mapfile,
  getopts,
  test: testBuiltin,
  "[": testBuiltin,
  ...FLOW,
  complete,
  compgen,
  compopt,
  kill,
  jobs: jobsB,
  wait: waitJobs,
  umask,
  ulimit,
  pushd,
  popd,
  dirs,
  history,
  bind,
  fc,
  fg,
  bg: fg,
  nohup,
  ps,
  help,
  enable,
  times,
  caller,
  disown,
  logout,
  suspend,
});
