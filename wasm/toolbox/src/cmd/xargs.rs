//! xargs [-0] [-d DELIM] [-n N] [-L N] [-I STR] [-r] [-t] [-a FILE]
//!       [COMMAND [ARG]...]
//! COMMAND runs in-process and must be one of this toolbox's commands
//! (WASI cannot start other programs); the default is echo.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use std::io::{self, Read, Write};

const SPECS: &[Spec] = &[
    flag('0', "null", "0"),
    val('d', "delimiter", "d"),
    val('n', "max-args", "n"),
    val('L', "max-lines", "L"),
    optval('l', "", "L"),
    val('I', "", "I"),
    optval('i', "replace", "I"),
    flag('r', "no-run-if-empty", "r"),
    flag('t', "verbose", "t"),
    val('a', "arg-file", "a"),
    val('P', "max-procs", "ignored"),
    val('s', "max-chars", "ignored"),
    val('E', "", "E"),
    optval('e', "eof", "E"),
    flag('x', "exit", "ignored"),
    val('\0', "process-slot-var", "slot"),
    flag('\0', "show-limits", "limits"),
    flag('o', "open-tty", "o"),
];
const HELP: &str = "Usage: xargs [OPTION]... COMMAND [INITIAL-ARGS]...\nRun COMMAND with arguments INITIAL-ARGS and more arguments read from input.\nCOMMAND must be one of this toolbox's commands.\n\n  -0, --null                   items are separated by a null, not whitespace\n  -a, --arg-file=FILE          read arguments from FILE, not standard input\n  -d, --delimiter=CHARACTER    items in input stream are separated by CHARACTER\n  -E END                       set logical EOF string\n  -e, --eof[=END]              equivalent to -E END if END is specified;\n                                 otherwise, there is no end-of-file string\n  -I R                         same as --replace=R\n  -i, --replace[=R]            replace R in INITIAL-ARGS with names read\n  -L, --max-lines=MAX-LINES    use at most MAX-LINES non-blank input lines per\n                                 command line\n  -n, --max-args=MAX-ARGS      use at most MAX-ARGS arguments per command line\n  -r, --no-run-if-empty        if there are no arguments, then do not run COMMAND\n  -o, --open-tty               reopen stdin as /dev/tty in the child process\n                                 (fails here: a session has no terminal)\n      --process-slot-var=VAR   set environment variable VAR in child processes\n      --show-limits            show limits on command-line length\n  -t, --verbose                print commands before executing them\n";

/// Splits xargs input the default way: blanks separate, quotes and
/// backslashes protect. Items carry their input line number (for -L).
fn split_default(text: &str) -> Result<Vec<(String, usize)>, String> {
    let mut items = Vec::new();
    let mut cur = String::new();
    let mut have = false;
    let mut quote: Option<char> = None;
    let mut line = 0;
    let mut it = text.chars();
    while let Some(c) = it.next() {
        if let Some(qc) = quote {
            if c == qc {
                quote = None;
            } else if c == '\n' {
                return Err(format!("unmatched {} quote; by default quotes are special to xargs unless you use the -0 option", if qc == '"' { "double" } else { "single" }));
            } else {
                cur.push(c);
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                have = true;
            }
            '\\' => {
                if let Some(n) = it.next() {
                    cur.push(n);
                    have = true;
                }
            }
            ' ' | '\t' | '\n' => {
                if have {
                    items.push((std::mem::take(&mut cur), line));
                    have = false;
                }
                if c == '\n' {
                    line += 1;
                }
            }
            _ => {
                cur.push(c);
                have = true;
            }
        }
    }
    if quote.is_some() {
        return Err("unmatched quote; by default quotes are special to xargs unless you use the -0 option".into());
    }
    if have {
        items.push((cur, line));
    }
    Ok(items)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    // Options end at the command name.
    let p = match crate::args::parse_with(args, SPECS, false) {
        Ok(p) => p,
        Err(m) => {
            ctx.diag.usage(m);
            return Ok(1);
        }
    };
    if p.has(crate::args::HELP) {
        ctx.out.write_all(HELP.as_bytes())?;
        return Ok(0);
    }
    if p.has("o") {
        // There is no terminal in a session for the command to read from.
        ctx.diag.error("'/dev/tty': No such device or address");
        return Ok(125);
    }
    if p.has("limits") {
        let env: usize = std::env::vars_os().map(|(k, v)| k.len() + v.len() + 2).sum();
        ctx.diag.warn(format!("Your environment variables take up {} bytes\nCommand lines here are bounded by the session's limits (output, steps), not by an argument-length limit", env));
    }
    if let Some(var) = p.last("slot") {
        // One command at a time: every child runs in slot 0.
        std::env::set_var(var, "0");
    }
    let mut text = Vec::new();
    let res = match p.last("a") {
        Some(f) => std::fs::File::open(fsx::host(f)).and_then(|mut r| r.read_to_end(&mut text)),
        None => ctx.stdin.read_to_end(&mut text),
    };
    if let Err(e) = res {
        match p.last("a") {
            Some(f) => ctx.diag.error(format!("Cannot open input file {}: {}", crate::ctx::lq(f), reason(&e))),
            None => ctx.diag.error(format!("standard input: {}", reason(&e))),
        }
        return Ok(1);
    }
    let text = String::from_utf8_lossy(&text).into_owned();
    let replace = p.opts.iter().rev().find(|o| o.key == "I").map(|o| o.val.clone().unwrap_or_else(|| "{}".into()));
    let delim = if p.has("0") {
        Some('\0')
    } else {
        match p.last("d") {
            Some(d) => {
                let mut v = Vec::new();
                crate::cmd::echo::unescape(d, &mut v);
                if v.len() != 1 {
                    ctx.diag.error(format!("invalid input delimiter specification {}: the delimiter must be either a single character or an escape sequence starting with \\.", lq(d)));
                    return Ok(1);
                }
                Some(v[0] as char)
            }
            None => None,
        }
    };
    let mut items: Vec<(String, usize)> = match delim {
        Some(dc) => {
            let mut v: Vec<(String, usize)> = text.split(dc).enumerate().map(|(i, s)| (s.to_string(), i)).collect();
            if v.last().map(|l| l.0.is_empty()).unwrap_or(false) {
                v.pop();
            }
            v
        }
        None if replace.is_some() => {
            // -I: one item per line, leading blanks dropped.
            text.lines().enumerate().map(|(i, l)| (l.trim_start().to_string(), i)).filter(|(l, _)| !l.is_empty()).collect()
        }
        None => match split_default(&text) {
            Ok(v) => v,
            Err(m) => {
                ctx.diag.error(m);
                return Ok(1);
            }
        },
    };
    if let Some(eof) = p.last("E") {
        if let Some(pos) = items.iter().position(|(s, _)| s == eof) {
            items.truncate(pos);
        }
    }
    let cmd: Vec<String> = if p.operands.is_empty() { vec!["echo".into()] } else { p.operands.clone() };
    let name = fsx::base_name(&cmd[0]).to_string();
    let num = |k: &str| -> Result<Option<usize>, String> {
        match p.last(k) {
            None => Ok(None),
            Some(v) => v.parse::<usize>().ok().filter(|n| *n > 0).map(Some).ok_or_else(|| format!("invalid number {} for -{} option", lq(v), k)),
        }
    };
    let (max_n, max_l) = match (num("n"), num("L")) {
        (Ok(a), Ok(b)) => (a, b.or(if p.has("L") { Some(1) } else { None })),
        (Err(m), _) | (_, Err(m)) => {
            ctx.diag.error(m);
            return Ok(1);
        }
    };
    // Group the items into command lines.
    let mut groups: Vec<Vec<String>> = Vec::new();
    if replace.is_some() {
        groups = items.iter().map(|(s, _)| vec![s.clone()]).collect();
    } else if let Some(l) = max_l {
        let mut cur: Vec<String> = Vec::new();
        let mut lines_in = 0;
        let mut last_line = None;
        for (s, ln) in &items {
            if last_line != Some(*ln) {
                if lines_in == l {
                    groups.push(std::mem::take(&mut cur));
                    lines_in = 0;
                }
                lines_in += 1;
                last_line = Some(*ln);
            }
            cur.push(s.clone());
        }
        if !cur.is_empty() {
            groups.push(cur);
        }
    } else {
        let n = max_n.unwrap_or(usize::MAX);
        let all: Vec<String> = items.iter().map(|(s, _)| s.clone()).collect();
        if all.is_empty() {
            groups.push(Vec::new());
        } else {
            for ch in all.chunks(n.min(all.len().max(1))) {
                groups.push(ch.to_vec());
            }
        }
    }
    if p.has("r") || replace.is_some() {
        groups.retain(|g| !g.is_empty());
    }
    let mut status = 0;
    for g in groups {
        let argv: Vec<String> = match &replace {
            Some(r) => cmd.iter().map(|a| a.replace(r.as_str(), &g[0])).collect(),
            None => cmd.iter().cloned().chain(g.into_iter()).collect(),
        };
        if p.has("t") {
            let _ = writeln!(ctx.diag.raw(), "{}", argv.join(" "));
        }
        // The host has the last word on every command line built here (it explains a refusal).
        if !crate::host::command_allowed(&argv) {
            return Ok(crate::host::EXIT_DENIED);
        }
        // Checked after the policy, so a refused command line is reported as refused.
        if crate::cmd::lookup(&name).is_none() {
            ctx.diag.error(format!("{}: command not available (only this toolbox's commands can run here)", q(&cmd[0])));
            return Ok(127);
        }
        let mut empty = io::empty();
        let mut stdin = io::BufReader::new(&mut empty);
        let Ctx { out, diag, .. } = &mut *ctx;
        let code = crate::run(&name, &argv[1..], &mut stdin, out, diag.raw());
        if out.failed {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "write error"));
        }
        if code == 255 {
            ctx.diag.error(format!("{}: exited with status 255; aborting", name));
            return Ok(124);
        }
        if code != 0 {
            status = 123;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str, i32)] = &[
            (&[], "a b\nc\n", "a b c\n", 0),
            (&["-n", "2"], "a b c\n", "a b\nc\n", 0),
            (&["-L", "1"], "a b\nc\n", "a b\nc\n", 0),
            (&["-0"], "a b\0c\0", "a b c\n", 0),
            (&["-d", ","], "x,y", "x y\n", 0),
            (&["-I", "{}", "echo", "<{}>"], "a\nb\n", "<a>\n<b>\n", 0),
            (&["echo", "-n"], "", "", 0),
            (&["-r", "echo", "x"], "", "", 0),
            (&[], "'a b' \"c d\" e\\ f\n", "a b c d e f\n", 0),
            (&["false"], "a\n", "", 123),
            (&["wc", "-c"], "/dev/null\n", "0 /dev/null\n", 0),
        ];
        for (args, input, out, code) in cases {
            check("xargs", args, input, out, *code);
        }
        check_err("xargs", &["python3"], "x", "xargs: 'python3': command not available (only this toolbox's commands can run here)\n", 127);
    }
}
