//! mkdir [-p] [-v] [-m MODE] DIR...  (-m sets the bits of each DIR named, not of the
//! parents -p makes, as GNU does; -Z is accepted: there is no SELinux.)

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use std::fs;
use std::io::{self, Write};

const SPECS: &[Spec] = &[flag('p', "parents", "p"), flag('v', "verbose", "v"), val('m', "mode", "m"), flag('Z', "", "Z"), optval('\0', "context", "Z")];
const HELP: &str = "Usage: mkdir [OPTION]... DIRECTORY...\nCreate the DIRECTORY(ies), if they do not already exist.\n\n  -m, --mode=MODE   set file mode (as in chmod), not a=rwx - umask\n  -p, --parents     no error if existing, make parent directories as needed\n  -v, --verbose     print a message for each created directory\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.is_empty() {
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    let verbose = p.has("v");
    let mode = match p.last("m") {
        Some(m) => match crate::host::parse_mode(m, 0o777) {
            Some(bits) => Some(bits),
            None => {
                ctx.diag.error(format!("invalid mode {}", lq(m)));
                return Ok(1);
            }
        },
        None => None,
    };
    for d in &p.operands {
        let existed = fsx::metadata(d).is_ok();
        if p.has("p") {
            // Walk down the path so -v can name each directory created.
            let mut prefix = String::new();
            if d.starts_with('/') {
                prefix.push('/');
            }
            for comp in d.split('/').filter(|c| !c.is_empty()) {
                prefix.push_str(comp);
                match fsx::metadata(&prefix) {
                    Ok(m) if m.is_dir() => {}
                    Ok(_) => {
                        ctx.diag.error(format!("cannot create directory {}: Not a directory", lq(d)));
                        break;
                    }
                    Err(_) => match fs::create_dir(fsx::host(&prefix)) {
                        Ok(()) => {
                            if verbose {
                                writeln!(ctx.out, "mkdir: created directory {}", q(&prefix))?;
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                        Err(e) => {
                            ctx.diag.error(format!("cannot create directory {}: {}", lq(d), reason(&e)));
                            break;
                        }
                    },
                }
                prefix.push('/');
            }
        } else {
            match fs::create_dir(fsx::host(d)) {
                Ok(()) => {
                    if verbose {
                        writeln!(ctx.out, "mkdir: created directory {}", q(d))?;
                    }
                }
                Err(e) => ctx.diag.error(format!("cannot create directory {}: {}", lq(d), reason(&e))),
            }
        }
        if let (Some(bits), false) = (mode, existed) {
            if fsx::is_dir(d) {
                if let Err(e) = crate::host::set_mode(d, bits) {
                    ctx.diag.error(format!("cannot set permissions of {}: {}", q(d), reason(&e)));
                }
            }
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir, write};
    use std::path::Path;

    #[test]
    fn table() {
        let d = tmpdir();
        let a = format!("{}/a", d);
        check("mkdir", &[&a], "", "", 0);
        assert!(Path::new(&a).is_dir());
        check_err("mkdir", &[&a], "", &format!("mkdir: cannot create directory ‘{}’: File exists\n", a), 1);
        let deep = format!("{}/x/y/z", d);
        check_err("mkdir", &[&deep], "", &format!("mkdir: cannot create directory ‘{}’: No such file or directory\n", deep), 1);
        check("mkdir", &["-p", &deep], "", "", 0);
        assert!(Path::new(&deep).is_dir());
        check("mkdir", &["-p", &deep], "", "", 0);
        check("mkdir", &["-pv", &format!("{}/x/q/r", d)], "", &format!("mkdir: created directory '{}/x/q'\nmkdir: created directory '{}/x/q/r'\n", d, d), 0);
        let f = format!("{}/file", d);
        write(&f, "");
        check_err("mkdir", &["-p", &format!("{}/sub", f)], "", &format!("mkdir: cannot create directory ‘{}/sub’: Not a directory\n", f), 1);
        check_err("mkdir", &[], "", "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", 1);
    }
}
