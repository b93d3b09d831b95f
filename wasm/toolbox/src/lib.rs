//! toolbox: the shell's commands as one multicall WASI program. The command
//! comes from argv[0] (`cat`, `/bin/cat`, `cat.wasm`) or, when argv[0] is
//! `toolbox`, from the first argument.

pub mod args;
pub mod backref;
pub mod bytescan;
pub mod cmd;
pub mod ctx;
pub mod digest;
pub mod fsx;
pub mod host;
pub mod input;
pub mod num;
pub mod tz;
pub mod pcre;
pub mod rand;
pub mod regex_posix;
pub mod text;
#[cfg(test)]
pub mod testutil;

use ctx::{reason, Ctx, Diag, Out};
use std::io::{BufRead, Write};

pub type RunFn = fn(&mut Ctx, &[String]) -> ctx::Res;

/// Exit status the shell reports for a process killed by SIGPIPE; WASI has no
/// signals, so a command whose reader went away exits with it silently.
pub const EXIT_PIPE: i32 = 141;

/// Runs command `name` with `args` (argv[1..]) over the given streams and
/// returns its exit status. Unknown names exit 127 like a shell would.
pub fn run(name: &str, args: &[String], stdin: &mut dyn BufRead, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let (name, f) = match cmd::lookup(name) {
        Some(c) => c,
        None => {
            let _ = writeln!(err, "toolbox: {}: command not found", name);
            return 127;
        }
    };
    let mut ctx = Ctx { name, stdin, out: Out::new(out), diag: Diag::new(name, err) };
    let res = f(&mut ctx, args).and_then(|code| ctx.out.flush().map(|_| code));
    match res {
        Ok(code) => code,
        Err(e) if ctx.out.failed => {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                EXIT_PIPE
            } else {
                ctx.diag.error(format!("write error: {}", reason(&e)));
                1
            }
        }
        Err(e) => {
            ctx.diag.error(reason(&e));
            1
        }
    }
}

/// Picks the command from argv the multicall way.
pub fn main_args(argv: Vec<String>) -> (String, Vec<String>) {
    let argv0 = argv.first().cloned().unwrap_or_default();
    let base = fsx::base_name(&argv0);
    let base = base.strip_suffix(".wasm").unwrap_or(base).to_string();
    if cmd::lookup(&base).is_some() {
        return (base, argv[1..].to_vec());
    }
    match argv.get(1) {
        Some(n) => (n.clone(), argv[2..].to_vec()),
        None => (String::new(), Vec::new()),
    }
}
