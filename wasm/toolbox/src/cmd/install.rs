//! install [-D] [-d] [-m MODE] [-o OWNER] [-g GROUP] [-t DIR] [-T] [-v]
//! [-C] [-p] SOURCE... DEST — copy files (or make directories with -d).
//! Modes and owners are checked and accepted like chmod/chown would.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use super::sysinfo::{UID, USER};
use std::fs;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('D', "", "D"),
    flag('d', "directory", "d"),
    val('m', "mode", "m"),
    val('o', "owner", "o"),
    val('g', "group", "g"),
    val('t', "target-directory", "t"),
    flag('T', "no-target-directory", "T"),
    flag('v', "verbose", "v"),
    flag('C', "compare", "C"),
    flag('p', "preserve-timestamps", "p"),
    flag('c', "", "c"),
    flag('b', "", "b"),
    optval('\0', "backup", "b"),
    val('S', "suffix", "S"),
    flag('s', "strip", "s"),
    val('\0', "strip-program", "strip-program"),
    flag('Z', "", "Z"),
    optval('\0', "context", "Z"),
    flag('\0', "preserve-context", "preserve-context"),
];
const HELP: &str = "Usage: install [OPTION]... [-T] SOURCE DEST\n  or:  install [OPTION]... SOURCE... DIRECTORY\n  or:  install [OPTION]... -t DIRECTORY SOURCE...\n  or:  install [OPTION]... -d DIRECTORY...\n\nThis install program copies files (often just compiled) into destination\nlocations you choose.\n\n  -b                  make a backup of each existing destination file (FILE~)\n  -C, --compare       do not copy a file whose content is already the same\n  -d, --directory     treat all arguments as directory names; create all\n                        components of the specified directories\n  -D                  create all leading components of DEST except the last,\n                        or all components of --target-directory, then copy\n  -g, --group=GROUP   accepted for root or the session's user\n  -m, --mode=MODE     accepted (octal or symbolic)\n  -o, --owner=OWNER   accepted for root or the session's user\n  -p, --preserve-timestamps  keep the source's modification time\n  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n  -T, --no-target-directory  treat DEST as a normal file\n  -v, --verbose       print the name of each created file or directory\n  -s, --strip         not supported (there are no binaries to strip here)\n";

/// The mode -m asks for (GNU applies a symbolic MODE to no bits at all), or rwxr-xr-x.
fn mode_of(m: Option<&str>) -> Option<u32> {
    match m {
        None => Some(0o755),
        Some(m) => crate::host::parse_mode(m, 0),
    }
}

fn known(who: &str) -> bool {
    who == "root" || who == "0" || who == USER || who == UID.to_string()
}

/// mkdir -p, naming each directory made when verbose; `mode` is for the last one (install -d -m).
fn make_dirs(ctx: &mut Ctx, dir: &str, verbose: bool, mode: Option<u32>) -> io::Result<()> {
    let mut prefix = String::new();
    if dir.starts_with('/') {
        prefix.push('/');
    }
    let comps: Vec<&str> = dir.split('/').filter(|c| !c.is_empty()).collect();
    for (i, comp) in comps.iter().enumerate() {
        prefix.push_str(comp);
        let made = !fsx::is_dir(&prefix);
        if made {
            fs::create_dir(fsx::host(&prefix))?;
        }
        if let Some(m) = mode.filter(|_| i + 1 == comps.len()) {
            crate::host::set_mode(&prefix, m)?;
        }
        if made && verbose {
            writeln!(ctx.out, "install: creating directory {}", q(&prefix))?;
        }
        prefix.push('/');
    }
    Ok(())
}

fn parent(p: &str) -> Option<&str> {
    let t = p.trim_end_matches('/');
    t.rfind('/').map(|i| if i == 0 { "/" } else { &t[..i] })
}

fn copy_one(ctx: &mut Ctx, src: &str, dest: &str, opts: &crate::args::Parsed, mode: u32, backup: Option<&super::mv::Backup>) -> io::Result<()> {
    let sm = match fsx::metadata(src) {
        Ok(m) => m,
        Err(e) => {
            ctx.diag.error(format!("cannot stat {}: {}", q(src), reason(&e)));
            return Ok(());
        }
    };
    if sm.is_dir() {
        ctx.diag.error(format!("omitting directory {}", q(src)));
        return Ok(());
    }
    if opts.has("C") && crate::host::mode_of(dest, false) == mode {
        if let (Ok(a), Ok(b)) = (fs::read(fsx::host(src)), fs::read(fsx::host(dest))) {
            if a == b {
                return Ok(());
            }
        }
    }
    let mut backed_up = None;
    if let Some(name) = backup.filter(|_| fsx::metadata(dest).is_ok()).and_then(|b| b.name(dest)) {
        fs::rename(fsx::host(dest), fsx::host(&name))?;
        backed_up = Some(name);
    }
    if let Err(e) = fs::copy(fsx::host(src), fsx::host(dest)) {
        ctx.diag.error(format!("cannot create regular file {}: {}", q(dest), reason(&e)));
        return Ok(());
    }
    crate::host::set_mode(dest, mode)?;
    if opts.has("p") {
        let _ = fsx::set_times(&fsx::host(dest), None, Some(fsx::mtime(&sm)));
    }
    if opts.has("v") {
        match backed_up {
            Some(b) => writeln!(ctx.out, "{} -> {} (backup: {})", q(src), q(dest), q(&b))?,
            None => writeln!(ctx.out, "{} -> {}", q(src), q(dest))?,
        }
    }
    Ok(())
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.has("s") || p.has("strip-program") {
        // Name the option as it was written, so the message points at the word to drop.
        let opt = args.iter().find(|a| a.starts_with("--strip") || (a.starts_with('-') && !a.starts_with("--") && a.contains('s'))).map(|a| a.split('=').next().unwrap_or(a)).unwrap_or("-s");
        ctx.diag.error(format!("stripping ({}) is not supported: there are no compiled binaries in this sandbox; drop {}", opt, opt));
        return Ok(1);
    }
    let mode = match mode_of(p.last("m")) {
        Some(m) => m,
        None => {
            ctx.diag.error(format!("invalid mode {}", lq(p.last("m").unwrap_or(""))));
            return Ok(1);
        }
    };
    if p.has("preserve-context") {
        let _ = writeln!(ctx.diag.raw(), "install: WARNING: ignoring --preserve-context; this kernel is not SELinux-enabled");
    }
    let backup = match super::mv::backup_of(ctx, &p) {
        Ok(b) => b,
        Err(()) => return Ok(1),
    };
    for (key, kind) in [("o", "user"), ("g", "group")] {
        if let Some(who) = p.last(key) {
            if !known(who) {
                ctx.diag.error(format!("invalid {} {} (this sandbox has only root and {}; file owners are not stored)", kind, lq(who), USER));
                return Ok(1);
            }
        }
    }
    let verbose = p.has("v");
    if p.has("d") {
        if p.operands.is_empty() {
            super::missing_operand(ctx, None);
            return Ok(1);
        }
        for d in &p.operands {
            if let Err(e) = make_dirs(ctx, d, verbose, Some(mode)) {
                if ctx.out.failed {
                    return Err(e);
                }
                ctx.diag.error(format!("cannot create directory {}: {}", q(d), reason(&e)));
            }
        }
        return Ok(if ctx.diag.failed { 1 } else { 0 });
    }
    let mut ops = p.operands.clone();
    let target = match p.last("t") {
        Some(t) => Some(t.to_string()),
        None if ops.len() >= 2 && !p.has("T") && (ops.len() > 2 || fsx::is_dir(&ops[ops.len() - 1])) => ops.pop(),
        None => None,
    };
    if ops.is_empty() || (target.is_none() && ops.len() < 2) {
        match ops.first() {
            Some(a) => super::missing_operand(ctx, Some(a)),
            None => super::missing_operand(ctx, None),
        }
        return Ok(1);
    }
    if let Some(t) = &target {
        if p.has("D") {
            make_dirs(ctx, t, verbose, None)?;
        }
        if !fsx::is_dir(t) {
            ctx.diag.error(format!("target {} is not a directory", q(t)));
            return Ok(1);
        }
        for s in &ops {
            let dest = fsx::join(t, fsx::base_name(s));
            copy_one(ctx, s, &dest, &p, mode, backup.as_ref())?;
        }
    } else {
        if ops.len() > 2 {
            super::extra_operand(ctx, &ops[2]);
            return Ok(1);
        }
        let (src, dest) = (&ops[0], &ops[1]);
        if p.has("D") {
            if let Some(dir) = parent(dest) {
                if let Err(e) = make_dirs(ctx, dir, verbose, None) {
                    ctx.diag.error(format!("cannot create directory {}: {}", q(dir), reason(&e)));
                    return Ok(1);
                }
            }
        }
        copy_one(ctx, src, dest, &p, mode, backup.as_ref())?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{read, run, tmpdir, write};

    #[test]
    fn copies_and_makes_dirs() {
        let d = tmpdir();
        let src = format!("{}/s.sh", d);
        write(&src, "#!/bin/sh\necho hi\n");
        let deep = format!("{}/a/b/run.sh", d);
        let (c, o, e) = run("install", &["-D", "-v", "-m", "755", &src, &deep], "");
        assert_eq!(c, 0, "{}", e);
        assert_eq!(read(&deep), "#!/bin/sh\necho hi\n");
        assert_eq!(o, format!("install: creating directory '{d}/a'\ninstall: creating directory '{d}/a/b'\n'{src}' -> '{deep}'\n", d = d, src = src, deep = deep));
        assert_eq!(run("install", &["-d", &format!("{}/x/y", d)], "").0, 0);
        assert!(std::path::Path::new(&format!("{}/x/y", d)).is_dir());
        assert_eq!(run("install", &["-m", "u+x", "-t", &format!("{}/x/y", d), &src], "").0, 0);
        assert_eq!(read(&format!("{}/x/y/s.sh", d)), "#!/bin/sh\necho hi\n");
        assert_eq!(run("install", &["-o", "root", "-g", "agent", &src, &format!("{}/x", d)], "").0, 0);
        assert_eq!(read(&format!("{}/x/s.sh", d)), "#!/bin/sh\necho hi\n");
    }

    #[test]
    fn errors() {
        let cases: &[(&[&str], &str)] = &[
            (&["-m", "9z", "a", "b"], "install: invalid mode ‘9z’\n"),
            (&["-o", "bob", "a", "b"], "install: invalid user ‘bob’ (this sandbox has only root and agent; file owners are not stored)\n"),
            (&["-s", "a", "b"], "install: stripping (-s) is not supported: there are no compiled binaries in this sandbox; drop -s\n"),
            (&["a"], "install: missing destination file operand after 'a'\nTry 'install --help' for more information.\n"),
            (&["/nonexistent-x", "/nonexistent-y"], "install: cannot stat '/nonexistent-x': No such file or directory\n"),
        ];
        for (args, err) in cases {
            let (c, _, e) = run("install", args, "");
            assert_eq!((e.as_str(), c), (*err, 1), "{:?}", args);
        }
    }
}
