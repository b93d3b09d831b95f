//! realpath [-e|-m] [-s] [-q] [-z] [--relative-to=DIR] FILE...
//! readlink [-f|-e|-m] [-n] [-q] [-z] FILE...
//! The workspace has no symbolic links, so canonical paths are the
//! lexically normalised absolute paths; plain `readlink` finds no link.

use crate::args::{flag, val, Spec};
use crate::ctx::{Ctx, Res};
use crate::fsx;
use std::io::Write;

const SPECS: &[Spec] = &[
    flag('e', "canonicalize-existing", "e"),
    flag('m', "canonicalize-missing", "m"),
    flag('f', "canonicalize", "f"),
    flag('s', "strip", "s"),
    flag('s', "no-symlinks", "s"),
    flag('L', "logical", "ignored"),
    flag('P', "physical", "ignored"),
    flag('q', "quiet", "q"),
    flag('q', "silent", "q"),
    flag('n', "no-newline", "n"),
    flag('v', "verbose", "ignored"),
    flag('z', "zero", "z"),
    val('\0', "relative-to", "relative-to"),
    val('\0', "relative-base", "relative-base"),
];
const HELP: &str = "Usage: realpath [OPTION]... FILE...\n  or:  readlink [OPTION]... FILE...\nPrint the resolved absolute file name.\n\n  -e, --canonicalize-existing  all components of the path must exist\n  -m, --canonicalize-missing   no path components need exist or be a directory\n  -f, --canonicalize           (readlink) all but the last component must exist\n  -q, --quiet                  suppress most error messages\n  -z, --zero                   end each output line with NUL, not newline\n      --relative-to=DIR        (realpath) print the resolved path relative to DIR\n      --relative-base=DIR      (realpath) print absolute paths unless paths below DIR\n";

/// Checks that the parents (and, when `all`, the path itself) exist as
/// directories/files; returns the failing message.
fn check(path: &str, all: bool) -> Result<(), &'static str> {
    let n = fsx::normal(path);
    let parts: Vec<&str> = n.split('/').filter(|s| !s.is_empty()).collect();
    let mut cur = String::new();
    for (i, p) in parts.iter().enumerate() {
        cur.push('/');
        cur.push_str(p);
        let last = i + 1 == parts.len();
        if last && !all {
            break;
        }
        match std::fs::metadata(&cur) {
            Ok(m) if !last && !m.is_dir() => return Err("Not a directory"),
            Ok(_) => {}
            Err(_) => return Err("No such file or directory"),
        }
    }
    Ok(())
}

fn relative(path: &str, base: &str) -> String {
    let p: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let b: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    let common = p.iter().zip(b.iter()).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<&str> = std::iter::repeat("..").take(b.len() - common).collect();
    parts.extend(&p[common..]);
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let readlink = ctx.name == "readlink";
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.is_empty() {
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    let end: &[u8] = if p.has("z") { b"\0" } else if readlink && p.has("n") { b"" } else { b"\n" };
    let canon = !readlink || p.has("f") || p.has("e") || p.has("m");
    let under = |path: &str, dir: &str| dir == "/" || path == dir || path.starts_with(&format!("{}/", dir));
    let limit = p.last("relative-base").map(|d| fsx::normal(d));
    // GNU: --relative-base alone is also the directory paths are shown relative to; a
    // --relative-to outside it makes every path absolute.
    let base = match (p.last("relative-to").map(|d| fsx::normal(d)), &limit) {
        (Some(to), Some(l)) if !under(&to, l) => None,
        (to, l) => to.or_else(|| l.clone()),
    };
    for f in &p.operands {
        if !canon {
            // No symbolic links in the workspace: nothing to print, status 1
            // (GNU is silent here too unless -v).
            let _ = f;
            ctx.diag.failed = true;
            continue;
        }
        if !p.has("m") {
            if let Err(why) = check(f, p.has("e")) {
                if !p.has("q") {
                    ctx.diag.error(format!("{}: {}", f, why));
                } else {
                    ctx.diag.failed = true;
                }
                continue;
            }
        }
        let n = fsx::normal(f);
        let shown = match &base {
            Some(b) if limit.as_ref().map_or(true, |l| under(&n, l)) => relative(&n, b),
            _ => n,
        };
        ctx.out.write_all(shown.as_bytes())?;
        ctx.out.write_all(end)?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::relative;
    use crate::testutil::{check, check_err, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        write(&format!("{}/f", d), "");
        check("realpath", &[&format!("{}/./x/../f", d)], "", &format!("{}/f\n", d), 0);
        check("realpath", &[&format!("{}/new", d)], "", &format!("{}/new\n", d), 0);
        check_err("realpath", &["-e", &format!("{}/new", d)], "", &format!("realpath: {}/new: No such file or directory\n", d), 1);
        check_err("realpath", &[&format!("{}/no/new", d)], "", &format!("realpath: {}/no/new: No such file or directory\n", d), 1);
        check("realpath", &["-m", &format!("{}/no/new", d)], "", &format!("{}/no/new\n", d), 0);
        check("readlink", &["-f", &format!("{}//f", d)], "", &format!("{}/f\n", d), 0);
        check("readlink", &[&format!("{}/f", d)], "", "", 1);
        assert_eq!(relative("/a/b/c", "/a/x"), "../b/c");
        assert_eq!(relative("/a", "/a"), ".");
    }
}
