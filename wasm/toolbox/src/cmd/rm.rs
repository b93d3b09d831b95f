//! rm [-f] [-r|-R] [-d] [-v] FILE...  (-i/-I would need a terminal; refused)

use crate::args::{flag, optval, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use std::fs;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('f', "force", "f"),
    flag('r', "recursive", "r"),
    flag('R', "", "r"),
    flag('d', "dir", "d"),
    flag('v', "verbose", "v"),
    flag('i', "", "i"),
    flag('I', "", "I"),
    optval('\0', "interactive", "i"),
    flag('\0', "one-file-system", "one-fs"),
    flag('\0', "no-preserve-root", "no-preserve-root"),
    flag('\0', "preserve-root", "preserve-root"),
];
const HELP: &str = "Usage: rm [OPTION]... [FILE]...\nRemove (unlink) the FILE(s).\n\n  -f, --force           ignore nonexistent files and arguments, never prompt\n  -r, -R, --recursive   remove directories and their contents recursively\n  -d, --dir             remove empty directories\n  -i                    prompt before every removal (answers are read from stdin)\n  -I                    prompt once before removing more than three files, or recursively\n      --interactive[=WHEN]  never, once (-I), or always (-i)\n  -v, --verbose         explain what is being done\n";

struct Opts {
    force: bool,
    recursive: bool,
    dir: bool,
    verbose: bool,
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    // Later -f / -i / -I override each other. Prompts go to stderr and read the answer from
    // stdin (end of input is a no, as for GNU without a terminal).
    let last = p.opts.iter().rev().find(|o| matches!(o.key, "f" | "i" | "I")).map(|o| match (o.key, o.val.as_deref()) {
        ("i", Some("never") | Some("no") | Some("none")) => "never",
        ("i", Some("once")) | ("I", _) => "once",
        ("i", Some("always") | Some("yes") | None) => "always",
        ("i", Some(_)) => "bad",
        (k, _) => k,
    });
    if last == Some("bad") {
        ctx.diag.error(format!("invalid argument {} for '--interactive'\nValid arguments are:\n  - 'never', 'no', 'none'\n  - 'once'\n  - 'always', 'yes'", lq(p.last("i").unwrap_or(""))));
        ctx.diag.try_help();
        return Ok(1);
    }
    let o = Opts { force: last == Some("f"), recursive: p.has("r"), dir: p.has("d"), verbose: p.has("v") };
    if last == Some("once") && (p.operands.len() > 3 || o.recursive) {
        let n = p.operands.len();
        let what = format!("remove {} argument{}{}? ", n, if n == 1 { "" } else { "s" }, if o.recursive { " recursively" } else { "" });
        if !super::cp::confirm(ctx, &what)? {
            return Ok(0);
        }
    }
    if p.operands.is_empty() {
        if o.force {
            return Ok(0);
        }
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    for f in &p.operands {
        let base = fsx::base_name(f);
        if base == "." || base == ".." {
            ctx.diag.error(format!("refusing to remove '.' or '..' directory: skipping {}", q(f)));
            continue;
        }
        if o.recursive && f.trim_end_matches('/').is_empty() && f.starts_with('/') {
            ctx.diag.error(format!("it is dangerous to operate recursively on {}", q("/")));
            ctx.diag.warn("use --no-preserve-root to override this failsafe");
            continue;
        }
        if last == Some("always") {
            if let Ok(m) = fsx::symlink_metadata(f) {
                let kind = if m.is_dir() { "directory" } else if m.file_type().is_symlink() { "symbolic link" } else if m.len() == 0 { "regular empty file" } else { "regular file" };
                if !super::cp::confirm(ctx, &format!("remove {} {}? ", kind, q(f)))? {
                    continue;
                }
            }
        }
        remove(ctx, f, &o)?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

fn remove(ctx: &mut Ctx, f: &str, o: &Opts) -> io::Result<()> {
    let meta = match fsx::symlink_metadata(f) {
        Ok(m) => m,
        Err(e) => {
            if !(o.force && e.kind() == io::ErrorKind::NotFound) {
                ctx.diag.error(format!("cannot remove {}: {}", q(f), reason(&e)));
            }
            return Ok(());
        }
    };
    if meta.is_dir() {
        if o.recursive {
            let names = match fsx::read_dir_names(f) {
                Ok(n) => n,
                Err(e) => {
                    ctx.diag.error(format!("cannot remove {}: {}", q(f), reason(&e)));
                    return Ok(());
                }
            };
            for n in names {
                remove(ctx, &fsx::join(f, &n), o)?;
            }
        } else if !o.dir {
            ctx.diag.error(format!("cannot remove {}: Is a directory", q(f)));
            return Ok(());
        }
        match fs::remove_dir(fsx::host(f)) {
            Ok(()) => {
                if o.verbose {
                    writeln!(ctx.out, "removed directory {}", q(f))?;
                }
            }
            Err(e) => ctx.diag.error(format!("cannot remove {}: {}", q(f), reason(&e))),
        }
    } else {
        match fs::remove_file(fsx::host(f)) {
            Ok(()) => {
                if o.verbose {
                    writeln!(ctx.out, "removed {}", q(f))?;
                }
            }
            Err(e) => ctx.diag.error(format!("cannot remove {}: {}", q(f), reason(&e))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir, write};
    use std::path::Path;

    #[test]
    fn table() {
        let d = tmpdir();
        let f = format!("{}/f", d);
        write(&f, "x");
        check("rm", &[&f], "", "", 0);
        assert!(!Path::new(&f).exists());
        check_err("rm", &[&f], "", &format!("rm: cannot remove '{}': No such file or directory\n", f), 1);
        check("rm", &["-f", &f], "", "", 0);
        check("rm", &["-f"], "", "", 0);
        let sub = format!("{}/sub", d);
        std::fs::create_dir_all(format!("{}/deep/er", sub)).unwrap();
        write(&format!("{}/deep/er/x", sub), "1");
        check_err("rm", &[&sub], "", &format!("rm: cannot remove '{}': Is a directory\n", sub), 1);
        check("rm", &["-rv", &sub], "", &format!("removed '{s}/deep/er/x'\nremoved directory '{s}/deep/er'\nremoved directory '{s}/deep'\nremoved directory '{s}'\n", s = sub), 0);
        assert!(!Path::new(&sub).exists());
        let e = format!("{}/empty", d);
        std::fs::create_dir(&e).unwrap();
        check("rm", &["-d", &e], "", "", 0);
        check_err("rm", &["-r", "."], "", "rm: refusing to remove '.' or '..' directory: skipping '.'\n", 1);
        check_err("rm", &["-r", "/"], "", "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n", 1);
        check_err("rm", &[], "", "rm: missing operand\nTry 'rm --help' for more information.\n", 1);
    }
}
