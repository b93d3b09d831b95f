//! env [-i] [-0] [-u NAME]... [NAME=VALUE]... [COMMAND [ARG]...]
//! timeout [OPTION] DURATION COMMAND [ARG]...
//! Both run COMMAND in-process, and it must be one of this toolbox's
//! commands (WASI cannot start programs); the host is asked first, as for
//! xargs. timeout cannot interrupt a running command (the host's step limit
//! bounds every run instead); it checks its arguments like GNU and runs it.

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, q, Ctx, Res};
use std::io::{self, Write};

/// Runs toolbox command `argv[0]` with our stdin and stdout; `who` names
/// the caller in messages. Unknown commands give 127 like GNU's "No such file".
fn run_inproc(ctx: &mut Ctx, argv: &[String]) -> Res {
    let name = crate::fsx::base_name(&argv[0]).to_string();
    if crate::cmd::lookup(&name).is_none() {
        ctx.diag.error(format!("{}: No such file or directory (only this toolbox's commands can run here)", q(&argv[0])));
        return Ok(127);
    }
    if !crate::host::command_allowed(argv) {
        return Ok(crate::host::EXIT_DENIED);
    }
    let Ctx { stdin, out, diag, .. } = &mut *ctx;
    let code = crate::run(&name, &argv[1..], *stdin, out, diag.raw());
    if out.failed {
        return Err(io::Error::new(io::ErrorKind::BrokenPipe, "write error"));
    }
    Ok(code)
}

const ENV_SPECS: &[Spec] = &[flag('i', "ignore-environment", "i"), flag('0', "null", "0"), val('u', "unset", "u"), val('C', "chdir", "C"), flag('v', "debug", "v")];
const ENV_HELP: &str = "Usage: env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]\nSet each NAME to VALUE in the environment and run COMMAND (one of this\ntoolbox's commands), or print the resulting environment.\n\n  -i, --ignore-environment  start with an empty environment\n  -0, --null           end each output line with NUL, not newline\n  -u, --unset=NAME     remove variable from the environment\n";

pub fn run_env(ctx: &mut Ctx, args: &[String]) -> Res {
    // Options stop at the first NAME=VALUE or command word.
    let p = match crate::args::parse_with(args, ENV_SPECS, false) {
        Ok(p) => p,
        Err(m) => {
            ctx.diag.usage(m);
            return Ok(125);
        }
    };
    if p.has(crate::args::HELP) {
        ctx.out.write_all(ENV_HELP.as_bytes())?;
        return Ok(0);
    }
    if p.has("C") {
        ctx.diag.error("--chdir is not supported here (set PWD instead)");
        return Ok(125);
    }
    let mut ops: &[String] = &p.operands;
    let mut clear = p.has("i");
    if ops.first().map(|s| s.as_str()) == Some("-") {
        clear = true;
        ops = &ops[1..];
    }
    if clear {
        for (k, _) in std::env::vars() {
            std::env::remove_var(k);
        }
    }
    for u in p.all("u") {
        if u.is_empty() || u.contains('=') {
            ctx.diag.error(format!("cannot unset {}: Invalid argument", lq(u)));
            return Ok(125);
        }
        std::env::remove_var(u);
    }
    let mut i = 0;
    while i < ops.len() {
        match ops[i].split_once('=') {
            Some((k, v)) if !k.is_empty() => std::env::set_var(k, v),
            _ => break,
        }
        i += 1;
    }
    if i == ops.len() {
        let end = if p.has("0") { "\0" } else { "\n" };
        for (k, v) in std::env::vars() {
            write!(ctx.out, "{}={}{}", k, v, end)?;
        }
        return Ok(0);
    }
    if p.has("0") {
        ctx.diag.usage("cannot specify --null (-0) with command");
        return Ok(125);
    }
    run_inproc(ctx, &ops[i..])
}

const TIMEOUT_SPECS: &[Spec] = &[val('s', "signal", "s"), val('k', "kill-after", "k"), flag('\0', "preserve-status", "p"), flag('\0', "foreground", "f"), flag('v', "verbose", "v")];
const TIMEOUT_HELP: &str = "Usage: timeout [OPTION] DURATION COMMAND [ARG]...\nStart COMMAND (one of this toolbox's commands). Here a command cannot be\ninterrupted after DURATION; every run is bounded by the sandbox's step limit.\n\n      --preserve-status  accepted\n      --foreground       accepted\n  -k, --kill-after=DURATION  accepted\n  -s, --signal=SIGNAL    accepted\n  -v, --verbose          accepted\n";

pub fn run_timeout(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = match crate::args::parse_with(args, TIMEOUT_SPECS, false) {
        Ok(p) => p,
        Err(m) => {
            ctx.diag.usage(m);
            return Ok(125);
        }
    };
    if p.has(crate::args::HELP) {
        ctx.out.write_all(TIMEOUT_HELP.as_bytes())?;
        return Ok(0);
    }
    for k in ["k"] {
        if let Some(d) = p.last(k) {
            if crate::cmd::sysinfo::parse_duration(d).is_none() {
                ctx.diag.usage(format!("invalid time interval {}", lq(d)));
                return Ok(125);
            }
        }
    }
    let ops = &p.operands;
    if ops.len() < 2 {
        if ops.is_empty() {
            crate::cmd::missing_operand(ctx, None);
        } else {
            ctx.diag.usage(format!("missing operand after {}", q(&ops[0])));
        }
        return Ok(125);
    }
    if crate::cmd::sysinfo::parse_duration(&ops[0]).is_none() {
        ctx.diag.usage(format!("invalid time interval {}", lq(&ops[0])));
        return Ok(125);
    }
    run_inproc(ctx, &ops[1..])
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let cases: &[(&str, &[&str], &str, &str, i32)] = &[
            ("env", &["echo", "hi"], "", "hi\n", 0),
            ("env", &["-u", "NOPE_X", "TB_T1=v", "printenv", "TB_T1"], "", "v\n", 0),
            ("env", &["cat"], "piped\n", "piped\n", 0),
            ("env", &["false"], "", "", 1),
            ("timeout", &["5", "echo", "x"], "", "x\n", 0),
            ("timeout", &["1.5s", "cat"], "in\n", "in\n", 0),
            ("timeout", &["5", "false"], "", "", 1),
        ];
        for (cmd, args, input, out, code) in cases {
            check(cmd, args, input, out, *code);
        }
        check_err("env", &["python3"], "", "env: 'python3': No such file or directory (only this toolbox's commands can run here)\n", 127);
        check_err("timeout", &["x", "echo"], "", "timeout: invalid time interval ‘x’\nTry 'timeout --help' for more information.\n", 125);
        check_err("timeout", &["5"], "", "timeout: missing operand after '5'\nTry 'timeout --help' for more information.\n", 125);
    }
}
