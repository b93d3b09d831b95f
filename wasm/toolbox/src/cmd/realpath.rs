//! realpath [-e|-m] [-s] [-q] [-z] [--relative-to=DIR] FILE...
//! readlink [-f|-e|-m] [-n] [-q] [-z] FILE...
//! Links are followed one component at a time (fsx::canonical); `realpath -s`
//! normalises lexically; plain `readlink` prints a link's target.

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
    flag('v', "verbose", "v"),
    flag('z', "zero", "z"),
    val('\0', "relative-to", "relative-to"),
    val('\0', "relative-base", "relative-base"),
];
const HELP: &str = "Usage: realpath [OPTION]... FILE...\n  or:  readlink [OPTION]... FILE...\nPrint the resolved absolute file name.\n\n  -e, --canonicalize-existing  all components of the path must exist\n  -m, --canonicalize-missing   no path components need exist or be a directory\n  -f, --canonicalize           (readlink) all but the last component must exist\n  -q, --quiet                  suppress most error messages\n  -z, --zero                   end each output line with NUL, not newline\n      --relative-to=DIR        (realpath) print the resolved path relative to DIR\n      --relative-base=DIR      (realpath) print absolute paths unless paths below DIR\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let readlink = ctx.name == "readlink";
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.is_empty() {
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    let end: &[u8] = if p.has("z") { b"\0" } else if readlink && p.has("n") { b"" } else { b"\n" };
    let canon = !readlink || p.has("f") || p.has("e") || p.has("m");
    // The last of -e/-f/-m wins, as in GNU; realpath's default is readlink -f's.
    let exist = p.opts.iter().rev().find_map(|o| match o.key {
        "e" => Some(fsx::Exist::All),
        "m" => Some(fsx::Exist::None),
        "f" => Some(fsx::Exist::AllButLast),
        _ => None,
    });
    let exist = exist.unwrap_or(fsx::Exist::AllButLast);
    let strip = !readlink && p.has("s");
    let resolve = |f: &str| -> std::io::Result<String> {
        if strip {
            let n = fsx::normal(f);
            match exist {
                fsx::Exist::All => drop(fsx::metadata(&n)?),
                fsx::Exist::AllButLast => drop(fsx::metadata(&fsx::normal(&format!("{}/..", n)))?),
                fsx::Exist::None => {}
            }
            return Ok(n);
        }
        fsx::canonical(f, exist)
    };
    let under = |path: &str, dir: &str| dir == "/" || path == dir || path.starts_with(&format!("{}/", dir));
    let dir_of = |d: &str| if strip { fsx::normal(d) } else { fsx::canonical(d, fsx::Exist::None).unwrap_or_else(|_| fsx::normal(d)) };
    let limit = p.last("relative-base").map(dir_of);
    // GNU: --relative-base alone is also the directory paths are shown relative to; a
    // --relative-to outside it makes every path absolute.
    let base = match (p.last("relative-to").map(dir_of), &limit) {
        (Some(to), Some(l)) if !under(&to, l) => None,
        (to, l) => to.or_else(|| l.clone()),
    };
    for f in &p.operands {
        if !canon {
            // Plain readlink prints a link's target; anything else fails silently (GNU, without -v).
            match fsx::read_link(f) {
                Ok(t) => {
                    ctx.out.write_all(t.as_bytes())?;
                    ctx.out.write_all(end)?;
                }
                Err(e) if p.has("v") => ctx.diag.error(format!("{}: {}", f, crate::ctx::reason(&e))),
                Err(_) => ctx.diag.failed = true,
            }
            continue;
        }
        let n = match resolve(f) {
            Ok(n) => n,
            Err(e) => {
                // readlink is quiet unless -v (GNU); realpath speaks unless -q.
                if !p.has("q") && (!readlink || p.has("v")) {
                    ctx.diag.error(format!("{}: {}", f, crate::ctx::reason(&e)));
                } else {
                    ctx.diag.failed = true;
                }
                continue;
            }
        };
        let shown = match &base {
            Some(b) if limit.as_ref().map_or(true, |l| under(&n, l)) => fsx::relative_to(&n, b),
            _ => n,
        };
        ctx.out.write_all(shown.as_bytes())?;
        ctx.out.write_all(end)?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::fsx::relative_to as relative;
    use crate::testutil::{check, check_err, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        write(&format!("{}/f", d), "");
        // GNU resolves x before `..`: a missing x fails unless -m (coreutils 9.1).
        check_err("realpath", &[&format!("{}/./x/../f", d)], "", &format!("realpath: {}/./x/../f: No such file or directory\n", d), 1);
        check("realpath", &["-m", &format!("{}/./x/../f", d)], "", &format!("{}/f\n", d), 0);
        std::fs::create_dir(format!("{}/x", d)).unwrap();
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
