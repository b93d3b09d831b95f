//! tty, more and less. Commands here never run on a terminal: tty says so,
//! and the pagers copy their input through, as they do when their output is
//! a pipe (more then heads each named file with its name, as util-linux's
//! does).

use crate::args::{flag, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::input;
use std::io::Write;

const TTY_SPECS: &[Spec] = &[flag('s', "silent", "s"), flag('\0', "quiet", "s")];

pub fn run_tty(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, TTY_SPECS, "Usage: tty [OPTION]...\nPrint the file name of the terminal connected to standard input.\n\n  -s, --silent, --quiet   print nothing, only return an exit status\n", 2);
    if let Some(op) = p.operands.first() {
        super::extra_operand(ctx, op);
        return Ok(2);
    }
    if !p.has("s") {
        writeln!(ctx.out, "not a tty")?;
    }
    Ok(1)
}

/// more/less: every option is a display setting, meaningless off a
/// terminal, so options (`-R`, `-N`, `+/pattern`, `-n 20`) are skipped.
pub fn run_pager(ctx: &mut Ctx, args: &[String]) -> Res {
    if args.iter().any(|a| a == "--help") {
        write!(ctx.out, "Usage: {} [OPTIONS] FILE...\nStandard output is not a terminal here, so the files are copied to it\nwhole (options that only change the display are ignored).\n", ctx.name)?;
        return Ok(0);
    }
    let mut files = Vec::new();
    let mut i = 0;
    let mut opts_done = false;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if !opts_done && a == "--" {
            opts_done = true;
        } else if !opts_done && (a.starts_with('-') || a.starts_with('+')) && a.len() > 1 {
            // Options whose value is the next word (less -x 4, -b, -h, -y, -z, -j...).
            let takes_value = ["-b", "-h", "-j", "-k", "-o", "-O", "-p", "-P", "-t", "-T", "-x", "-y", "-z", "-n"];
            if takes_value.contains(&a.as_str()) && ctx.name == "less" || (ctx.name == "more" && a == "-n") {
                i += 1;
            }
        } else {
            files.push(a.clone());
        }
    }
    let banner = ctx.name == "more" && !files.is_empty();
    for f in input::or_stdin(&files) {
        let r = input::open(ctx.stdin, &f);
        match r {
            Ok(r) => {
                if banner {
                    write!(ctx.out, "::::::::::::::\n{}\n::::::::::::::\n", f)?;
                }
                if let Err(e) = super::cat::copy(r, &mut ctx.out) {
                    let failed = ctx.out.failed;
                    ctx.diag.file_err(failed, &f, e)?;
                }
            }
            Err(e) => ctx.diag.error(format!("{}: {}", q(&f), reason(&e))),
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        let (a, b) = (format!("{}/a", d), format!("{}/b", d));
        write(&a, "one\n");
        write(&b, "two\n");
        let head = |f: &str| format!("::::::::::::::\n{}\n::::::::::::::\n", f);
        let both = format!("{}one\n{}two\n", head(&a), head(&b));
        let one = format!("{}one\n", head(&a));
        let cases: &[(&str, &[&str], &str, &str, i32)] = &[
            ("tty", &[], "", "not a tty\n", 1),
            ("tty", &["-s"], "", "", 1),
            ("less", &[], "piped\n", "piped\n", 0),
            ("less", &["-R", "-N", &a], "", "one\n", 0),
            ("less", &["-x", "4", &a, &b], "", "one\ntwo\n", 0),
            ("more", &[&a], "", &one, 0),
            ("more", &[&a, &b], "", &both, 0),
            ("more", &["-n", "5", &a], "", &one, 0),
            ("more", &[], "piped\n", "piped\n", 0),
            ("less", &["/nonexistent-x"], "", "", 1),
        ];
        for (cmd, args, stdin, out, code) in cases {
            check(cmd, args, stdin, out, *code);
        }
    }
}
