//! mv [-fnuvT] [-t DIR] SOURCE... DEST

use super::cp;
use crate::args::{flag, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use std::fs;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('f', "force", "f"),
    flag('n', "no-clobber", "n"),
    flag('i', "interactive", "i"),
    flag('u', "update", "u"),
    flag('v', "verbose", "v"),
    flag('T', "no-target-directory", "T"),
    val('t', "target-directory", "t"),
];
const HELP: &str = "Usage: mv [OPTION]... [-T] SOURCE DEST\n  or:  mv [OPTION]... SOURCE... DIRECTORY\n  or:  mv [OPTION]... -t DIRECTORY SOURCE...\nRename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.\n\n  -f, --force                  do not prompt before overwriting (the default here)\n  -n, --no-clobber             do not overwrite an existing file\n  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY\n  -T, --no-target-directory    treat DEST as a normal file\n  -u, --update                 move only when the SOURCE file is newer\n                                 than the destination file or when the\n                                 destination file is missing\n  -v, --verbose                explain what is being done\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let last_fin = p.opts.iter().rev().find(|o| matches!(o.key, "f" | "i" | "n")).map(|o| o.key);
    if last_fin == Some("i") {
        ctx.diag.error("interactive moving (-i) is not supported: there is no terminal to answer prompts; use -n");
        return Ok(1);
    }
    let no_clobber = last_fin == Some("n");
    let pairs = match cp::plan(ctx, &p.operands, p.last("t"), p.has("T")) {
        Some(v) => v,
        None => return Ok(1),
    };
    for (src, dst) in pairs {
        move_one(ctx, &src, &dst, no_clobber, p.has("u"), p.has("v"))?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

fn move_one(ctx: &mut Ctx, src: &str, dst: &str, no_clobber: bool, update: bool, verbose: bool) -> io::Result<()> {
    let sm = match fsx::symlink_metadata(src) {
        Ok(m) => m,
        Err(e) => {
            ctx.diag.error(format!("cannot stat {}: {}", q(src), reason(&e)));
            return Ok(());
        }
    };
    if let Ok(dm) = fsx::symlink_metadata(dst) {
        if fsx::normal(src) == fsx::normal(dst) {
            ctx.diag.error(format!("{} and {} are the same file", q(src), q(dst)));
            return Ok(());
        }
        if no_clobber {
            return Ok(());
        }
        if update && fsx::mtime(&dm) >= fsx::mtime(&sm) {
            return Ok(());
        }
        if dm.is_dir() && !sm.is_dir() {
            ctx.diag.error(format!("cannot overwrite directory {} with non-directory", q(dst)));
            return Ok(());
        }
        if !dm.is_dir() && sm.is_dir() {
            ctx.diag.error(format!("cannot overwrite non-directory {} with directory {}", q(dst), q(src)));
            return Ok(());
        }
    }
    if sm.is_dir() && fsx::is_within(dst, src) {
        ctx.diag.error(format!("cannot move {} to a subdirectory of itself, {}", q(src), q(dst)));
        return Ok(());
    }
    match fs::rename(fsx::host(src), fsx::host(dst)) {
        Ok(()) => {}
        Err(e) if reason(&e).contains("cross-device") => {
            // Another mount: copy with times kept, then remove the source.
            let o = cp::Opts { recursive: true, preserve: true, no_clobber: false, update: false, verbose: false };
            cp::copy(ctx, src, dst, &o, true)?;
            if ctx.diag.failed {
                return Ok(());
            }
            let r = if sm.is_dir() { fs::remove_dir_all(fsx::host(src)) } else { fs::remove_file(fsx::host(src)) };
            if let Err(e) = r {
                ctx.diag.error(format!("cannot remove {}: {}", q(src), reason(&e)));
                return Ok(());
            }
        }
        Err(e) => {
            ctx.diag.error(format!("cannot move {} to {}: {}", q(src), q(dst), reason(&e)));
            return Ok(());
        }
    }
    if verbose {
        writeln!(ctx.out, "renamed {} -> {}", q(src), q(dst))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, read, tmpdir, write};
    use std::path::Path;

    #[test]
    fn table() {
        let d = tmpdir();
        let (a, b) = (format!("{}/a", d), format!("{}/b", d));
        write(&a, "A");
        check("mv", &["-v", &a, &b], "", &format!("renamed '{}' -> '{}'\n", a, b), 0);
        assert_eq!(read(&b), "A");
        assert!(!Path::new(&a).exists());
        check_err("mv", &[&a, &b], "", &format!("mv: cannot stat '{}': No such file or directory\n", a), 1);
        write(&a, "new");
        check("mv", &["-n", &a, &b], "", "", 0);
        assert_eq!(read(&b), "A");
        let dir = format!("{}/dir", d);
        std::fs::create_dir(&dir).unwrap();
        check("mv", &[&a, &b, &dir], "", "", 0);
        assert_eq!(read(&format!("{}/b", dir)), "A");
        check_err("mv", &[&dir, &format!("{}/sub", dir)], "", &format!("mv: cannot move '{d}' to a subdirectory of itself, '{d}/sub'\n", d = dir), 1);
        let f = format!("{}/f", d);
        write(&f, "");
        check_err("mv", &[&dir, &f], "", &format!("mv: cannot overwrite non-directory '{}' with directory '{}'\n", f, dir), 1);
        check_err("mv", &["-T", &f, &dir], "", &format!("mv: cannot overwrite directory '{}' with non-directory\n", dir), 1);
    }
}
