//! rmdir [-p] [-v] [--ignore-fail-on-non-empty] DIR...

use crate::args::{flag, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use std::fs;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('p', "parents", "p"),
    flag('v', "verbose", "v"),
    flag('\0', "ignore-fail-on-non-empty", "ignore"),
];
const HELP: &str = "Usage: rmdir [OPTION]... DIRECTORY...\nRemove the DIRECTORY(ies), if they are empty.\n\n      --ignore-fail-on-non-empty\n                    ignore each failure to remove a non-empty directory\n  -p, --parents     remove DIRECTORY and its ancestors\n  -v, --verbose     output a diagnostic for every directory processed\n";

fn not_empty(e: &io::Error) -> bool {
    let r = reason(e);
    r.contains("not empty") || r.contains("Directory not empty")
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.is_empty() {
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    for d in &p.operands {
        let mut cur = d.trim_end_matches('/').to_string();
        if cur.is_empty() {
            cur = d.clone();
        }
        loop {
            if p.has("v") {
                writeln!(ctx.out, "rmdir: removing directory, {}", q(&cur))?;
            }
            if let Err(e) = remove(&cur) {
                if !(p.has("ignore") && not_empty(&e)) {
                    ctx.diag.error(format!("failed to remove {}: {}", q(&cur), reason(&e)));
                }
                break;
            }
            if !p.has("p") {
                break;
            }
            match cur.rfind('/') {
                Some(i) if i > 0 => cur = cur[..i].trim_end_matches('/').to_string(),
                _ => break,
            }
            if cur.is_empty() {
                break;
            }
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

/// remove_dir on a regular file must say "Not a directory" as GNU does.
fn remove(d: &str) -> io::Result<()> {
    if let Ok(m) = fsx::symlink_metadata(d) {
        if !m.is_dir() {
            return Err(io::Error::new(io::ErrorKind::Other, "Not a directory"));
        }
    }
    fs::remove_dir(fsx::host(d))
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir, write};
    use std::path::Path;

    #[test]
    fn table() {
        let d = tmpdir();
        std::fs::create_dir_all(format!("{}/a/b/c", d)).unwrap();
        let a = format!("{}/a", d);
        check_err("rmdir", &[&a], "", &format!("rmdir: failed to remove '{}': Directory not empty\n", a), 1);
        check("rmdir", &["--ignore-fail-on-non-empty", &a], "", "", 0);
        check("rmdir", &["-p", &format!("{}/a/b/c", d)], "", "", 1);
        assert!(!Path::new(&a).exists());
        let d = tmpdir();
        let f = format!("{}/f", d);
        write(&f, "");
        check_err("rmdir", &[&f], "", &format!("rmdir: failed to remove '{}': Not a directory\n", f), 1);
        let m = format!("{}/missing", d);
        check_err("rmdir", &[&m], "", &format!("rmdir: failed to remove '{}': No such file or directory\n", m), 1);
    }
}
