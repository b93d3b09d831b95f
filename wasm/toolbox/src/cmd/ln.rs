//! ln -s [-fnrvTb] [-S SUFFIX] [-t DIR] TARGET... [LINK_NAME|DIR]
//! Symbolic links only: a hard link needs two names for one content, which the
//! workspace cannot store, so `ln` without -s says so and suggests -s.

use super::mv::backup_of;
use crate::args::{flag, optval, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('s', "symbolic", "s"),
    flag('f', "force", "f"),
    flag('n', "no-dereference", "n"),
    flag('v', "verbose", "v"),
    flag('r', "relative", "r"),
    flag('T', "no-target-directory", "T"),
    val('t', "target-directory", "t"),
    flag('L', "logical", "ignored"),
    flag('P', "physical", "ignored"),
    flag('i', "interactive", "i"),
    flag('b', "", "b"),
    optval('\0', "backup", "b"),
    val('S', "suffix", "S"),
];
const HELP: &str = "Usage: ln [OPTION]... [-T] TARGET LINK_NAME\n  or:  ln [OPTION]... TARGET\n  or:  ln [OPTION]... TARGET... DIRECTORY\n  or:  ln [OPTION]... -t DIRECTORY TARGET...\nCreate symbolic links (-s). Hard links are not supported in this sandbox.\n\n      --backup[=CONTROL]      make a backup of each existing destination file\n  -b                          like --backup but does not accept an argument\n  -f, --force                 remove existing destination files\n  -n, --no-dereference        treat LINK_NAME as a normal file if\n                                it is a symbolic link to a directory\n  -r, --relative              make symbolic links relative to link location\n  -s, --symbolic              make symbolic links instead of hard links\n  -S, --suffix=SUFFIX         override the usual backup suffix\n  -t, --target-directory=DIRECTORY  specify the DIRECTORY in which to create\n                                the links\n  -T, --no-target-directory   treat LINK_NAME as a normal file always\n  -v, --verbose               print name of each linked file\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let backup = match backup_of(ctx, &p) {
        Ok(b) => b,
        Err(()) => return Ok(1),
    };
    if p.operands.is_empty() {
        ctx.diag.usage("missing file operand");
        return Ok(1);
    }
    if !p.has("s") {
        ctx.diag.error("hard links are not supported in this sandbox; use ln -s to make a symbolic link instead");
        return Ok(1);
    }
    let ops = &p.operands;
    // Each (target text, link name) to make.
    let mut pairs: Vec<(String, String)> = Vec::new();
    let into = |dir: &str, t: &str| fsx::join(dir, fsx::base_name(t));
    if let Some(dir) = p.last("t") {
        match fsx::metadata(dir) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                ctx.diag.error(format!("target {} is not a directory", q(dir)));
                return Ok(1);
            }
            Err(e) => {
                ctx.diag.error(format!("failed to access {}: {}", q(dir), reason(&e)));
                return Ok(1);
            }
        }
        pairs.extend(ops.iter().map(|t| (t.clone(), into(dir, t))));
    } else if ops.len() == 1 {
        pairs.push((ops[0].clone(), fsx::base_name(&ops[0]).to_string()));
    } else if p.has("T") {
        if ops.len() > 2 {
            super::extra_operand(ctx, &ops[2]);
            return Ok(1);
        }
        pairs.push((ops[0].clone(), ops[1].clone()));
    } else {
        let dest = &ops[ops.len() - 1];
        // -n: a link to a directory given as LINK_NAME is replaced, not entered.
        let is_dir = fsx::is_dir(dest) && !(p.has("n") && fsx::is_symlink(dest));
        if is_dir {
            pairs.extend(ops[..ops.len() - 1].iter().map(|t| (t.clone(), into(dest, t))));
        } else if ops.len() > 2 {
            match fsx::metadata(dest) {
                Ok(_) => ctx.diag.error(format!("target {} is not a directory", q(dest))),
                Err(e) => ctx.diag.error(format!("target {}: {}", q(dest), reason(&e))),
            }
            return Ok(1);
        } else {
            pairs.push((ops[0].clone(), dest.clone()));
        }
    }
    for (target, name) in pairs {
        let target = if p.has("r") { relative_target(&target, &name) } else { target };
        if let Err(msg) = make(ctx, &target, &name, p.has("f"), backup.as_ref(), p.has("v")) {
            ctx.diag.error(msg);
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

/// `ln -r`: the target as seen from the link's directory, both canonicalised.
fn relative_target(target: &str, name: &str) -> String {
    let dir = fsx::normal(&format!("{}/..", fsx::normal(name)));
    let dir = fsx::canonical(&dir, fsx::Exist::None).unwrap_or(dir);
    let t = fsx::canonical(target, fsx::Exist::None).unwrap_or_else(|_| fsx::normal(target));
    fsx::relative_to(&t, &dir)
}

/// Makes one link, moving or removing what is in the way when -b/-f ask; Err is the message.
fn make(ctx: &mut Ctx, target: &str, name: &str, force: bool, backup: Option<&super::mv::Backup>, verbose: bool) -> Result<(), String> {
    let failed = |e: &io::Error| format!("failed to create symbolic link {}: {}", q(name), reason(e));
    let mut saved = None;
    if let Ok(m) = fsx::symlink_metadata(name) {
        if m.is_dir() && (force || backup.is_some()) {
            return Err(format!("{}: cannot overwrite directory", name));
        }
        if let Some(bak) = backup.and_then(|b| b.name(name)) {
            std::fs::rename(fsx::host(name), fsx::host(&bak)).map_err(|e| format!("cannot backup {}: {}", q(name), reason(&e)))?;
            saved = Some(bak);
        } else if force {
            std::fs::remove_file(fsx::host(name)).map_err(|e| failed(&e))?;
        }
    }
    fsx::symlink(target, name).map_err(|e| failed(&e))?;
    if verbose {
        let shown = match &saved {
            Some(b) => format!("{} ~ {} -> {}\n", q(b), q(name), q(target)),
            None => format!("{} -> {}\n", q(name), q(target)),
        };
        let _ = ctx.out.write_all(shown.as_bytes());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir};

    #[test]
    fn table() {
        let d = tmpdir();
        let at = |n: &str| format!("{}/{}", d, n);
        check("ln", &["-sv", "a", &at("b")], "", &format!("'{}' -> 'a'\n", at("b")), 0);
        check_err("ln", &["-s", "a", &at("b")], "", &format!("ln: failed to create symbolic link '{}': File exists\n", at("b")), 1);
        check("ln", &["-sf", "c", &at("b")], "", "", 0);
        check("readlink", &[&at("b")], "", "c\n", 0);
        check_err("ln", &["a", &at("h")], "", "ln: hard links are not supported in this sandbox; use ln -s to make a symbolic link instead\n", 1);
    }
}
