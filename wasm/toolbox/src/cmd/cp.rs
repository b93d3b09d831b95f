//! cp [-rRapnfuvT] [-t DIR] SOURCE... DEST

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use std::fs::{self, File};
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('r', "recursive", "r"),
    flag('R', "", "r"),
    flag('a', "archive", "a"),
    flag('p', "", "p"),
    optval('\0', "preserve", "p"),
    val('\0', "no-preserve", "no-preserve"),
    flag('b', "", "b"),
    optval('\0', "backup", "b"),
    val('S', "suffix", "S"),
    flag('\0', "parents", "parents"),
    flag('\0', "attributes-only", "attributes-only"),
    flag('\0', "remove-destination", "f"),
    // One filesystem, no sparse files, reflinks or SELinux here: these change nothing.
    flag('x', "one-file-system", "same"),
    val('\0', "sparse", "same"),
    optval('\0', "reflink", "same"),
    flag('\0', "copy-contents", "same"),
    flag('Z', "", "same"),
    optval('\0', "context", "same"),
    flag('n', "no-clobber", "n"),
    flag('f', "force", "f"),
    flag('i', "interactive", "i"),
    flag('u', "update", "u"),
    flag('v', "verbose", "v"),
    flag('T', "no-target-directory", "T"),
    val('t', "target-directory", "t"),
    flag('d', "", "P"),
    flag('P', "no-dereference", "P"),
    flag('L', "dereference", "L"),
    flag('H', "", "H"),
    flag('s', "symbolic-link", "s"),
    flag('l', "link", "l"),
];
const HELP: &str = "Usage: cp [OPTION]... [-T] SOURCE DEST\n  or:  cp [OPTION]... SOURCE... DIRECTORY\n  or:  cp [OPTION]... -t DIRECTORY SOURCE...\nCopy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY.\n\n  -a, --archive                same as -dR --preserve=all\n  -d                           same as --no-dereference\n  -H                           follow command-line symbolic links in SOURCE\n  -L, --dereference            always follow symbolic links in SOURCE\n  -P, --no-dereference         never follow symbolic links in SOURCE\n  -s, --symbolic-link          make symbolic links instead of copying\n      --backup[=CONTROL]       make a backup of each existing destination file\n  -b                           like --backup but does not accept an argument\n  -i, --interactive            prompt before overwrite (read from stdin)\n      --no-preserve=ATTR_LIST  don't preserve the specified attributes\n      --attributes-only        don't copy the file data, just the attributes\n      --parents                use full source file name under DIRECTORY\n  -S, --suffix=SUFFIX          override the usual backup suffix\n  -x, -Z, --sparse, --reflink, --copy-contents  accepted (they change nothing here)\n  -f, --force                  overwrite existing files (the default here)\n  -n, --no-clobber             do not overwrite an existing file\n  -p, --preserve               preserve timestamps\n  -R, -r, --recursive          copy directories recursively\n  -t, --target-directory=DIRECTORY  copy all SOURCE arguments into DIRECTORY\n  -T, --no-target-directory    treat DEST as a normal file\n  -u, --update                 copy only when the SOURCE file is newer\n                                 than the destination file or when the\n                                 destination file is missing\n  -v, --verbose                explain what is being done\n";

pub struct Opts {
    pub recursive: bool,
    pub interactive: bool,
    /// New files take their source's bits (under the umask) unless --no-preserve=mode.
    pub mode: bool,
    pub backup: Option<super::mv::Backup>,
    pub preserve: bool,
    pub no_clobber: bool,
    pub update: bool,
    pub verbose: bool,
    /// --attributes-only: a new file is made empty, an existing one keeps its data.
    pub attributes_only: bool,
    /// Which source links are followed (-L, -H, -P); the others are copied as links.
    pub links: Links,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Links {
    Always,
    CmdLine,
    Never,
}

/// Works out (source, final destination) pairs the way cp and mv share:
/// `-t DIR`, `-T`, a directory as last operand, or exactly SOURCE DEST.
/// Reports usage problems itself and returns None.
pub fn plan(ctx: &mut Ctx, ops: &[String], target: Option<&str>, no_target: bool) -> Option<Vec<(String, String)>> {
    if let Some(t) = target {
        if !fsx::is_dir(t) {
            ctx.diag.error(format!("target directory {}: {}", q(t), if fsx::metadata(t).is_ok() { "Not a directory" } else { "No such file or directory" }));
            return None;
        }
        if ops.is_empty() {
            ctx.diag.usage("missing file operand");
            return None;
        }
        return Some(ops.iter().map(|s| (s.clone(), fsx::join(t, fsx::base_name(s)))).collect());
    }
    match ops.len() {
        0 => {
            ctx.diag.usage("missing file operand");
            None
        }
        1 => {
            ctx.diag.usage(format!("missing destination file operand after {}", q(&ops[0])));
            None
        }
        n => {
            let dest = &ops[n - 1];
            if no_target {
                if n > 2 {
                    super::extra_operand(ctx, &ops[2]);
                    return None;
                }
                return Some(vec![(ops[0].clone(), dest.clone())]);
            }
            if fsx::is_dir(dest) {
                Some(ops[..n - 1].iter().map(|s| (s.clone(), fsx::join(dest, fsx::base_name(s)))).collect())
            } else if n > 2 {
                ctx.diag.error(format!("target {}: Not a directory", q(dest)));
                None
            } else {
                Some(vec![(ops[0].clone(), dest.clone())])
            }
        }
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let backup = match super::mv::backup_of(ctx, &p) {
        Ok(b) => b,
        Err(()) => return Ok(1),
    };
    let last_fin = p.opts.iter().rev().find(|o| matches!(o.key, "f" | "i" | "n")).map(|o| o.key);
    if p.has("l") {
        ctx.diag.error("-l (hard links) is not supported in this sandbox; use cp -s (or ln -s) to make symbolic links instead");
        return Ok(1);
    }
    // GNU: the last of -L/-H/-P wins; without one, -r and -a copy links as links, a plain cp follows them.
    let links = match p.opts.iter().rev().find(|o| matches!(o.key, "L" | "H" | "P")).map(|o| o.key) {
        Some("L") => Links::Always,
        Some("H") => Links::CmdLine,
        Some(_) => Links::Never,
        None if p.has("r") || p.has("a") => Links::Never,
        None => Links::Always,
    };
    let o = Opts {
        recursive: p.has("r") || p.has("a"),
        interactive: last_fin == Some("i"),
        mode: !p.all("no-preserve").iter().any(|a| a.split(',').any(|x| x == "all" || x == "mode")),
        backup,
        preserve: (p.has("p") || p.has("a")) && !p.all("no-preserve").iter().any(|a| a.split(',').any(|x| x == "all" || x == "timestamps")),
        no_clobber: last_fin == Some("n"),
        update: p.has("u"),
        verbose: p.has("v"),
        attributes_only: p.has("attributes-only"),
        links,
    };
    let mut pairs = match plan(ctx, &p.operands, p.last("t"), p.has("T")) {
        Some(v) => v,
        None => return Ok(1),
    };
    if p.has("parents") {
        // --parents: each SOURCE keeps its whole name under the target directory.
        let dir = p.last("t").map(str::to_string).or_else(|| p.operands.last().cloned()).unwrap_or_default();
        if !fsx::is_dir(&dir) {
            ctx.diag.usage("with --parents, the destination must be a directory");
            return Ok(1);
        }
        for (src, dst) in pairs.iter_mut() {
            *dst = fsx::join(&dir, src.trim_start_matches('/'));
            if let Some(parent) = std::path::Path::new(dst.as_str()).parent() {
                if let Err(e) = fs::create_dir_all(fsx::host(&parent.to_string_lossy())) {
                    ctx.diag.error(format!("cannot make directory {}: {}", q(&parent.to_string_lossy()), reason(&e)));
                }
            }
        }
    }
    for (src, dst) in pairs {
        if p.has("s") {
            // GNU: a relative target would point elsewhere from another directory.
            if !src.starts_with('/') && dst.contains('/') {
                ctx.diag.error(format!("{}: can make relative symbolic links only in current directory", dst));
                continue;
            }
            if let Err(e) = fsx::symlink(&src, &dst) {
                ctx.diag.error(format!("cannot create symbolic link {} to {}: {}", q(&dst), q(&src), reason(&e)));
            } else if o.verbose {
                writeln!(ctx.out, "{} -> {}", q(&src), q(&dst))?;
            }
            continue;
        }
        copy(ctx, &src, &dst, &o, true)?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

/// Copies `src` to exactly `dst`, recursing into directories with -r.
pub fn copy(ctx: &mut Ctx, src: &str, dst: &str, o: &Opts, top: bool) -> io::Result<()> {
    let follow = o.links == Links::Always || (o.links == Links::CmdLine && top);
    if !follow && fsx::is_symlink(src) {
        return copy_link(ctx, src, dst, o);
    }
    let sm = match fsx::metadata(src) {
        Ok(m) => m,
        Err(e) => {
            ctx.diag.error(format!("cannot stat {}: {}", q(src), reason(&e)));
            return Ok(());
        }
    };
    let dm = fsx::metadata(dst).ok();
    if sm.is_dir() {
        if !o.recursive {
            ctx.diag.error(format!("-r not specified; omitting directory {}", q(src)));
            return Ok(());
        }
        if top && fsx::is_within(dst, src) {
            ctx.diag.error(format!("cannot copy a directory, {}, into itself, {}", q(src), q(dst)));
            return Ok(());
        }
        match dm {
            Some(m) if !m.is_dir() => {
                ctx.diag.error(format!("cannot overwrite non-directory {} with directory {}", q(dst), q(src)));
                return Ok(());
            }
            Some(_) => {}
            None => {
                if let Err(e) = fs::create_dir(fsx::host(dst)) {
                    ctx.diag.error(format!("cannot create directory {}: {}", q(dst), reason(&e)));
                    return Ok(());
                }
                if o.mode {
                    keep_mode(src, dst, true);
                }
                if o.verbose {
                    writeln!(ctx.out, "{} -> {}", q(src), q(dst))?;
                }
            }
        }
        let names = match fsx::read_dir_names(src) {
            Ok(n) => n,
            Err(e) => {
                ctx.diag.error(format!("cannot access {}: {}", q(src), reason(&e)));
                return Ok(());
            }
        };
        for n in names {
            copy(ctx, &fsx::join(src, &n), &fsx::join(dst, &n), o, false)?;
        }
        if o.preserve {
            preserve(ctx, src, &sm, dst);
        }
        return Ok(());
    }
    if let Some(m) = &dm {
        if m.is_dir() {
            ctx.diag.error(format!("cannot overwrite directory {} with non-directory", q(dst)));
            return Ok(());
        }
        if fsx::normal(src) == fsx::normal(dst) {
            ctx.diag.error(format!("{} and {} are the same file", q(src), q(dst)));
            return Ok(());
        }
        if o.no_clobber {
            return Ok(());
        }
        if o.update && fsx::mtime(m) >= fsx::mtime(&sm) {
            return Ok(());
        }
        if o.interactive && !confirm(ctx, &format!("overwrite {}? ", q(dst)))? {
            return Ok(());
        }
        if let Some(name) = o.backup.as_ref().and_then(|b| b.name(dst)) {
            if let Err(e) = fs::rename(fsx::host(dst), fsx::host(&name)) {
                ctx.diag.error(format!("cannot backup {}: {}", q(dst), reason(&e)));
                return Ok(());
            }
        }
    }
    let fresh = fsx::metadata(dst).is_err();
    let mut r = match File::open(fsx::host(src)) {
        Ok(f) => f,
        Err(e) => {
            ctx.diag.error(format!("cannot open {} for reading: {}", q(src), reason(&e)));
            return Ok(());
        }
    };
    let made = if o.attributes_only { fs::OpenOptions::new().write(true).create(true).open(fsx::host(dst)) } else { File::create(fsx::host(dst)) };
    let mut w = match made {
        Ok(f) => f,
        Err(e) => {
            ctx.diag.error(format!("cannot create regular file {}: {}", q(dst), reason(&e)));
            return Ok(());
        }
    };
    if o.attributes_only {
        // Only the attributes below are copied.
    } else if let Err(e) = io::copy(&mut r, &mut w) {
        ctx.diag.error(format!("error copying {} to {}: {}", q(src), q(dst), reason(&e)));
        return Ok(());
    }
    drop(w);
    if fresh && o.mode {
        keep_mode(src, dst, false);
    }
    if o.verbose {
        writeln!(ctx.out, "{} -> {}", q(src), q(dst))?;
    }
    if o.preserve {
        preserve(ctx, src, &sm, dst);
    }
    Ok(())
}

/// Copies a link as a link: the same target text, whatever it points at.
fn copy_link(ctx: &mut Ctx, src: &str, dst: &str, o: &Opts) -> io::Result<()> {
    let target = match fsx::read_link(src) {
        Ok(t) => t,
        Err(e) => {
            ctx.diag.error(format!("cannot read symbolic link {}: {}", q(src), reason(&e)));
            return Ok(());
        }
    };
    if let Ok(m) = fsx::symlink_metadata(dst) {
        if m.is_dir() {
            ctx.diag.error(format!("cannot overwrite directory {} with non-directory", q(dst)));
            return Ok(());
        }
        if o.no_clobber {
            return Ok(());
        }
        let _ = fs::remove_file(fsx::host(dst));
    }
    if let Err(e) = fsx::symlink(&target, dst) {
        ctx.diag.error(format!("cannot create symbolic link {}: {}", q(dst), reason(&e)));
        return Ok(());
    }
    if o.verbose {
        writeln!(ctx.out, "{} -> {}", q(src), q(dst))?;
    }
    Ok(())
}

/// GNU cp gives a new file or directory its source's bits under the umask: the mode it was
/// created with shows the umask (0666 or 0777 less it), so the x bits follow the r bits.
fn keep_mode(src: &str, dst: &str, dir: bool) {
    let made = crate::host::mode_of(dst, dir);
    let allowed = made | (made & 0o444) >> 2;
    let _ = crate::host::set_mode(dst, crate::host::mode_of(src, dir) & allowed & 0o777);
}

/// Asks on stderr and reads the answer from stdin (-i): only a line starting with y or Y agrees;
/// end of input (no terminal) is a no, as for GNU.
pub fn confirm(ctx: &mut Ctx, prompt: &str) -> io::Result<bool> {
    let name = ctx.name;
    let _ = write!(ctx.diag.raw(), "{}: {}", name, prompt);
    let mut line = String::new();
    ctx.stdin.read_line(&mut line)?;
    Ok(line.starts_with('y') || line.starts_with('Y'))
}

fn preserve(ctx: &mut Ctx, src: &str, sm: &fs::Metadata, dst: &str) {
    if let Err(e) = crate::host::set_mode(dst, crate::host::mode_of(src, sm.is_dir())) {
        ctx.diag.error(format!("preserving permissions for {}: {}", q(dst), reason(&e)));
    }
    let t = fsx::mtime(sm);
    let a = sm.accessed().ok().and_then(|x| x.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| (d.as_secs() as i64, d.subsec_nanos())).unwrap_or(t);
    if let Err(e) = fsx::set_times(&fsx::host(dst), Some(a), Some(t)) {
        ctx.diag.error(format!("preserving times for {}: {}", q(dst), reason(&e)));
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, read, tmpdir, write};
    use std::path::Path;

    #[test]
    fn files() {
        let d = tmpdir();
        let (a, b) = (format!("{}/a", d), format!("{}/b", d));
        write(&a, "A");
        check("cp", &[&a, &b], "", "", 0);
        assert_eq!(read(&b), "A");
        write(&b, "old");
        check("cp", &["-n", &a, &b], "", "", 0);
        assert_eq!(read(&b), "old");
        check("cp", &["-v", &a, &b], "", &format!("'{}' -> '{}'\n", a, b), 0);
        assert_eq!(read(&b), "A");
        check_err("cp", &[&a, &a], "", &format!("cp: '{}' and '{}' are the same file\n", a, a), 1);
        let m = format!("{}/m", d);
        check_err("cp", &[&m, &b], "", &format!("cp: cannot stat '{}': No such file or directory\n", m), 1);
        check_err("cp", &[&a], "", &format!("cp: missing destination file operand after '{}'\nTry 'cp --help' for more information.\n", a), 1);
        check_err("cp", &[&a, &b, &a], "", &format!("cp: target '{}': Not a directory\n", a), 1);
        std::fs::create_dir(format!("{}/dir", d)).unwrap();
        check("cp", &[&a, &b, &format!("{}/dir", d)], "", "", 0);
        assert_eq!(read(&format!("{}/dir/b", d)), "A");
        check("cp", &["-t", &format!("{}/dir", d), &a], "", "", 0);
    }

    #[test]
    fn trees_and_times() {
        let d = tmpdir();
        let src = format!("{}/src", d);
        std::fs::create_dir_all(format!("{}/x/y", src)).unwrap();
        write(&format!("{}/x/y/f", src), "F");
        check_err("cp", &[&src, &format!("{}/dst", d)], "", &format!("cp: -r not specified; omitting directory '{}'\n", src), 1);
        check("cp", &["-r", &src, &format!("{}/dst", d)], "", "", 0);
        assert_eq!(read(&format!("{}/dst/x/y/f", d)), "F");
        // Existing directory destination: copied inside it.
        check("cp", &["-r", &src, &format!("{}/dst", d)], "", "", 0);
        assert!(Path::new(&format!("{}/dst/src/x/y/f", d)).exists());
        check_err("cp", &["-r", &src, &format!("{}/x/inner", src)], "", &format!("cp: cannot copy a directory, '{s}', into itself, '{s}/x/inner'\n", s = src), 1);
        let f = format!("{}/x/y/f", src);
        crate::fsx::set_times(Path::new(&f), Some((1_000_000, 0)), Some((1_000_000, 0))).unwrap();
        let g = format!("{}/g", d);
        check("cp", &["-p", &f, &g], "", "", 0);
        assert_eq!(crate::fsx::mtime(&std::fs::metadata(&g).unwrap()).0, 1_000_000);
    }
}
