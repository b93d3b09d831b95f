//! sed [-nEsz] [-i[SUFFIX]] [-e SCRIPT]... [-f FILE]... [SCRIPT] [FILE]...
//!
//! GNU sed's commands: s (with the w FILE flag) y d D p P n N g G h H x b t T : = l q Q a i c
//! z w W r R F v e { } ! (s flags g p N i m w e), addresses N, $, /RE/, \cREc, FIRST~STEP, 0,/RE/, ADDR,+N,
//! ADDR,~N. Regular expressions are POSIX BRE (ERE with -E) translated for
//! the `regex` crate, where `.` also matches the newlines that N puts into
//! the pattern space; a regex with back-references (`\1`..`\9`) runs on
//! the backtracking engine in `crate::backref` instead. The e command
//! and the s///e flag run their command through the session's shell (shell.rs), where the run
//! can wait for it; elsewhere they stop with an error that says to pipe the commands to bash.

mod parse;
mod exec;
mod shell;

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::input;
use std::io::Read;

const SPECS: &[Spec] = &[
    flag('n', "quiet", "n"),
    flag('n', "silent", "n"),
    val('e', "expression", "e"),
    val('f', "file", "f"),
    flag('E', "regexp-extended", "E"),
    flag('r', "", "E"),
    optval('i', "in-place", "i"),
    flag('s', "separate", "s"),
    flag('z', "null-data", "z"),
    flag('u', "unbuffered", "ignored"),
    // Binary mode only matters where text files end lines with CR LF: not here.
    flag('b', "binary", "ignored"),
    flag('\0', "posix", "ignored"),
    flag('\0', "debug", "ignored"),
    val('l', "line-length", "l"),
    flag('\0', "sandbox", "ignored"),
    flag('\0', "follow-symlinks", "ignored"),
];
const HELP: &str = "Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n\n  -n, --quiet, --silent\n                 suppress automatic printing of pattern space\n  -e script, --expression=script\n                 add the script to the commands to be executed\n  -f script-file, --file=script-file\n                 add the contents of script-file to the commands to be executed\n  -i[SUFFIX], --in-place[=SUFFIX]\n                 edit files in place (makes backup if SUFFIX supplied)\n  -l N, --line-length=N\n                 specify the desired line-wrap length for the `l' command\n  -E, -r, --regexp-extended\n                 use extended regular expressions in the script\n  -s, --separate\n                 consider files as separate rather than as a single\n                 continuous long stream.\n  -z, --null-data\n                 separate lines by NUL characters\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut ops = p.operands.clone();
    let mut script = String::new();
    let mut have = false;
    for f in &p.opts {
        match f.key {
            "e" => {
                if have {
                    script.push('\n');
                }
                script.push_str(f.val.as_deref().unwrap_or(""));
                have = true;
            }
            "f" => {
                let name = f.val.clone().unwrap_or_default();
                let mut text = String::new();
                let res = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_string(&mut text));
                if let Err(e) = res {
                    ctx.diag.error(format!("couldn't open file {}: {}", name, reason(&e)));
                    return Ok(1);
                }
                if have {
                    script.push('\n');
                }
                script.push_str(text.strip_suffix('\n').unwrap_or(&text));
                have = true;
            }
            _ => {}
        }
    }
    if !have {
        if ops.is_empty() {
            ctx.diag.usage("no script specified");
            return Ok(1);
        }
        script = ops.remove(0);
    }
    let prog = match parse::parse(&script, p.has("E")) {
        Ok(p) => p,
        Err((at, msg)) if at == parse::NO_POSITION => {
            ctx.diag.error(msg);
            return Ok(4);
        }
        Err(m) => {
            ctx.diag.error(format!("-e expression #1, char {}: {}", m.0, m.1));
            return Ok(1);
        }
    };
    let line_len = match p.last("l").map(|v| v.parse::<usize>()) {
        None => 70,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            ctx.diag.error(format!("invalid line length: {}", q(p.last("l").unwrap())));
            return Ok(1);
        }
    };
    let in_place = p.has("i");
    let opts = exec::Opts {
        quiet: p.has("n"),
        separate: p.has("s") || in_place,
        in_place: if in_place { Some(p.last("i").unwrap_or("").to_string()) } else { None },
        eol: if p.has("z") { 0 } else { b'\n' },
        line_len,
    };
    if in_place && ops.is_empty() {
        ctx.diag.error("no input files");
        return Ok(1);
    }
    exec::run(ctx, &prog, &opts, &input::or_stdin(&ops))
}

#[cfg(test)]
mod tests;
