//! mv [-fnuvT] [-t DIR] SOURCE... DEST

use super::cp;
use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
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
    flag('b', "", "b"),
    optval('\0', "backup", "b"),
    val('S', "suffix", "S"),
    flag('\0', "strip-trailing-slashes", "same"),
    flag('Z', "context", "same"),
];
const HELP: &str = "Usage: mv [OPTION]... [-T] SOURCE DEST\n  or:  mv [OPTION]... SOURCE... DIRECTORY\n  or:  mv [OPTION]... -t DIRECTORY SOURCE...\nRename SOURCE to DEST, or move SOURCE(s) to DIRECTORY.\n\n      --backup[=CONTROL]       make a backup of each existing destination file\n  -b                           like --backup but does not accept an argument\n  -f, --force                  do not prompt before overwriting (the default here)\n  -n, --no-clobber             do not overwrite an existing file\n  -S, --suffix=SUFFIX          override the usual backup suffix (~)\n  -t, --target-directory=DIRECTORY  move all SOURCE arguments into DIRECTORY\n  -T, --no-target-directory    treat DEST as a normal file\n  -u, --update                 move only when the SOURCE file is newer\n                                 than the destination file or when the\n                                 destination file is missing\n  -v, --verbose                explain what is being done\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let last_fin = p.opts.iter().rev().find(|o| matches!(o.key, "f" | "i" | "n")).map(|o| o.key);
    let no_clobber = last_fin == Some("n");
    let backup = match backup_of(ctx, &p) {
        Ok(b) => b,
        Err(()) => return Ok(1),
    };
    let pairs = match cp::plan(ctx, &p.operands, p.last("t"), p.has("T")) {
        Some(v) => v,
        None => return Ok(1),
    };
    for (src, dst) in pairs {
        let asked = last_fin == Some("i") && fsx::symlink_metadata(&dst).is_ok();
        if asked && !cp::confirm(ctx, &format!("overwrite {}? ", q(&dst)))? {
            continue;
        }
        move_one(ctx, &src, &dst, no_clobber, p.has("u"), p.has("v"), backup.as_ref())?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

/// The backup -b/--backup[=CONTROL]/-S ask for (cp and mv), or Err after a usage message.
pub fn backup_of(ctx: &mut Ctx, p: &crate::args::Parsed) -> Result<Option<Backup>, ()> {
    if !(p.has("b") || p.has("S")) {
        return Ok(None);
    }
    let control = p.last("b").map(str::to_string).or_else(|| std::env::var("VERSION_CONTROL").ok()).unwrap_or_else(|| "existing".into());
    match Backup::parse(&control, p.last("S").unwrap_or("~")) {
        Some(b) => Ok(Some(b)),
        None => {
            ctx.diag.error(format!("invalid argument {} for 'backup type'\nValid arguments are:\n  - 'none', 'off'\n  - 'simple', 'never'\n  - 'existing', 'nil'\n  - 'numbered', 't'", lq(&control)));
            ctx.diag.try_help();
            Err(())
        }
    }
}

/// How an existing destination is kept (GNU's --backup CONTROL).
pub enum Backup {
    Off,
    Simple(String),
    Numbered,
    Existing(String),
}

impl Backup {
    pub fn parse(control: &str, suffix: &str) -> Option<Backup> {
        let hit = |words: &[&str]| words.iter().any(|w| w.starts_with(control)) && !control.is_empty();
        Some(if hit(&["none", "off"]) {
            Backup::Off
        } else if hit(&["simple", "never"]) {
            Backup::Simple(suffix.into())
        } else if hit(&["numbered", "t"]) {
            Backup::Numbered
        } else if hit(&["existing", "nil"]) {
            Backup::Existing(suffix.into())
        } else {
            return None;
        })
    }

    /// The backup name for `dst`, or None when no backup is made.
    pub fn name(&self, dst: &str) -> Option<String> {
        let next_numbered = || {
            let base = fsx::base_name(dst).to_string();
            let dir = &dst[..dst.len() - base.len()];
            let dir_path = if dir.is_empty() { "." } else { dir };
            let highest = fsx::read_dir_names(dir_path).unwrap_or_default().iter().filter_map(|n| n.strip_prefix(&format!("{}.~", base)).and_then(|r| r.strip_suffix('~')).and_then(|k| k.parse::<u64>().ok())).max();
            (highest, format!("{}.~{}~", dst, highest.unwrap_or(0) + 1))
        };
        match self {
            Backup::Off => None,
            Backup::Simple(s) => Some(format!("{}{}", dst, s)),
            Backup::Numbered => Some(next_numbered().1),
            Backup::Existing(s) => match next_numbered() {
                (Some(_), n) => Some(n),
                (None, _) => Some(format!("{}{}", dst, s)),
            },
        }
    }
}

fn move_one(ctx: &mut Ctx, src: &str, dst: &str, no_clobber: bool, update: bool, verbose: bool, backup: Option<&Backup>) -> io::Result<()> {
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
    let mut backed_up = None;
    if fsx::symlink_metadata(dst).is_ok() {
        if let Some(name) = backup.and_then(|b| b.name(dst)) {
            if let Err(e) = fs::rename(fsx::host(dst), fsx::host(&name)) {
                ctx.diag.error(format!("cannot backup {}: {}", q(dst), reason(&e)));
                return Ok(());
            }
            backed_up = Some(name);
        }
    }
    match fs::rename(fsx::host(src), fsx::host(dst)) {
        Ok(()) => {}
        Err(e) if reason(&e).contains("cross-device") => {
            // Another mount: copy with times kept, then remove the source.
            let o = cp::Opts { recursive: true, interactive: false, mode: true, backup: None, preserve: true, no_clobber: false, update: false, verbose: false, attributes_only: false, links: cp::Links::Never };
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
        match backed_up {
            Some(b) => writeln!(ctx.out, "renamed {} -> {} (backup: {})", q(src), q(dst), q(&b))?,
            None => writeln!(ctx.out, "renamed {} -> {}", q(src), q(dst))?,
        }
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

    #[test]
    fn backups() {
        let d = tmpdir();
        let (a, b) = (format!("{}/a", d), format!("{}/b", d));
        let steps: &[(&[&str], &[(&str, &str)])] = &[
            (&["-b"], &[("b", "1"), ("b~", "0")]),
            (&["--backup=numbered"], &[("b", "2"), ("b.~1~", "1"), ("b~", "0")]),
            (&["--backup"], &[("b", "3"), ("b.~2~", "2")]),
            (&["-S", ".bak"], &[("b", "4"), ("b.~3~", "3")]),
            (&["--backup=simple", "--suffix=.old"], &[("b", "5"), ("b.old", "4")]),
        ];
        write(&b, "0");
        for (i, (opts, files)) in steps.iter().enumerate() {
            write(&a, &(i + 1).to_string());
            let mut args = opts.to_vec();
            args.extend([a.as_str(), b.as_str()]);
            check("mv", &args, "", "", 0);
            for (name, content) in *files {
                assert_eq!(read(&format!("{}/{}", d, name)), *content, "{:?}: {}", opts, name);
            }
        }
        write(&a, "x");
        check_err("mv", &["--backup=bogus", &a, &b], "", "mv: invalid argument ‘bogus’ for ‘backup type’\nValid arguments are:\n  - ‘none’, ‘off’\n  - ‘simple’, ‘never’\n  - ‘existing’, ‘nil’\n  - ‘numbered’, ‘t’\nTry 'mv --help' for more information.\n", 1);
    }
}
