//! tee [-a] [-i] [-p] [FILE]...

use crate::args::{flag, optval, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::fsx;
use std::fs::{File, OpenOptions};
use std::io::Write;

const SPECS: &[Spec] = &[
    flag('a', "append", "a"),
    flag('i', "ignore-interrupts", "i"),
    flag('p', "", "p"),
    optval('\0', "output-error", "p"),
];
const HELP: &str = "Usage: tee [OPTION]... [FILE]...\nCopy standard input to each FILE, and also to standard output.\n\n  -a, --append              append to the given FILEs, do not overwrite\n  -i, --ignore-interrupts   ignore interrupt signals (no effect here)\n  -p                        diagnose errors writing to non pipes\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut files: Vec<(String, Option<File>)> = Vec::new();
    for name in &p.operands {
        // "-" is a file like any other (coreutils 9 on Debian; older tees meant stdout).
        let r = if p.has("a") {
            OpenOptions::new().create(true).append(true).open(fsx::host(name))
        } else {
            File::create(fsx::host(name))
        };
        match r {
            Ok(f) => files.push((name.clone(), Some(f))),
            Err(e) => ctx.diag.error(format!("{}: {}", name, reason(&e))),
        }
    }
    // Without -p a reader that went away ends tee as SIGPIPE ends GNU tee (141); with -p
    // the files keep being fed and a broken pipe is not an error.
    let keep_going = p.has("p");
    let mut out_ok = true;
    let mut broken_pipe = false;
    loop {
        let n = {
            let buf = ctx.stdin.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            if out_ok {
                if let Err(e) = ctx.out.write_all(buf) {
                    if e.kind() == std::io::ErrorKind::BrokenPipe && !keep_going {
                        return Err(e);
                    }
                    broken_pipe = e.kind() == std::io::ErrorKind::BrokenPipe;
                    out_ok = false;
                }
            }
            for (name, f) in files.iter_mut() {
                match f {
                    Some(file) => {
                        if let Err(e) = file.write_all(buf) {
                            ctx.diag.error(format!("{}: {}", name, reason(&e)));
                            *f = None;
                        }
                    }
                    None => {}
                }
            }
            buf.len()
        };
        ctx.stdin.consume(n);
    }
    if !out_ok {
        ctx.out.failed = false;
        if !broken_pipe {
            ctx.diag.error("standard output: write error");
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, read, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        let (a, b) = (format!("{}/a", d), format!("{}/b", d));
        check("tee", &[&a, &b], "hi\n", "hi\n", 0);
        assert_eq!(read(&a), "hi\n");
        assert_eq!(read(&b), "hi\n");
        write(&a, "old\n");
        check("tee", &["-a", &a], "new\n", "new\n", 0);
        assert_eq!(read(&a), "old\nnew\n");
        check("tee", &[&format!("{}/no/x", d)], "z", "z", 1);
    }
}
