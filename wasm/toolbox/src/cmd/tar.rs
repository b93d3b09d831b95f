//! tar -c|-x|-t [-f ARCHIVE] [-C DIR] [-v] [-z] [-O] [--exclude=PAT]
//! [--strip-components=N] [MEMBER]... — POSIX ustar archives (GNU long-name
//! records read and written for paths over 100 bytes), optionally gzipped.
//! Old-style bundled letters work too (`tar czf a.tgz dir`). Only regular
//! files and directories exist here; other member types are skipped with a
//! warning. Extraction refuses members that would land outside the target.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    flag('c', "create", "c"),
    flag('x', "extract", "x"),
    flag('x', "get", "x"),
    flag('t', "list", "t"),
    flag('r', "append", "r"),
    flag('u', "update", "u"),
    flag('d', "diff", "d"),
    flag('d', "compare", "d"),
    flag('\0', "delete", "delete"),
    val('f', "file", "f"),
    val('C', "directory", "C"),
    flag('v', "verbose", "v"),
    flag('z', "gzip", "z"),
    flag('z', "gunzip", "z"),
    flag('j', "bzip2", "j"),
    flag('J', "xz", "J"),
    flag('O', "to-stdout", "O"),
    flag('k', "keep-old-files", "k"),
    flag('p', "preserve-permissions", "ignored"),
    flag('h', "dereference", "h"),
    val('\0', "exclude", "exclude"),
    val('\0', "strip-components", "strip"),
    flag('\0', "no-same-owner", "ignored"),
    flag('\0', "overwrite", "ignored"),
    val('\0', "transform", "transform"),
    val('\0', "xform", "transform"),
    flag('P', "absolute-names", "P"),
    val('T', "files-from", "T"),
    val('X', "exclude-from", "X"),
    flag('\0', "exclude-vcs", "exclude-vcs"),
    flag('\0', "null", "null"),
    flag('a', "auto-compress", "a"),
    // Members are always stored sorted by name, in one format that GNU tar reads; owners are
    // the session's user; nothing here has links, other filesystems or extended attributes.
    // These options therefore change nothing.
    val('\0', "sort", "ignored"),
    val('b', "blocking-factor", "ignored"),
    val('H', "format", "ignored"),
    flag('\0', "numeric-owner", "numeric-owner"),
    val('\0', "owner", "owner"),
    val('\0', "group", "group"),
    val('\0', "mode", "mode"),
    val('\0', "mtime", "mtime"),
    flag('\0', "no-recursion", "no-recursion"),
    flag('\0', "wildcards", "wildcards"),
    optval('\0', "one-top-level", "one-top-level"),
    flag('m', "touch", "m"),
    flag('\0', "skip-old-files", "skip-old-files"),
    flag('\0', "keep-newer-files", "keep-newer-files"),
    flag('\0', "show-transformed-names", "ignored"),
    flag('\0', "show-stored-names", "ignored"),
    optval('\0', "checkpoint", "ignored"),
    optval('\0', "totals", "totals"),
    flag('\0', "anchored", "ignored"),
    flag('\0', "no-anchored", "ignored"),
    flag('\0', "ignore-case", "ignore-case"),
    optval('\0', "occurrence", "ignored"),
    val('V', "label", "V"),
    flag('R', "block-number", "R"),
    flag('\0', "exclude-backups", "exclude-backups"),
    flag('\0', "exclude-caches", "ignored"),
    flag('\0', "exclude-caches-all", "ignored"),
    flag('\0', "exclude-caches-under", "ignored"),
    flag('\0', "same-owner", "ignored"),
    flag('\0', "same-permissions", "ignored"),
    flag('\0', "no-same-permissions", "ignored"),
    flag('\0', "atime-preserve", "ignored"),
    flag('\0', "force-local", "ignored"),
    flag('l', "check-links", "ignored"),
    flag('\0', "one-file-system", "ignored"),
    flag('\0', "no-overwrite-dir", "ignored"),
    flag('\0', "overwrite-dir", "ignored"),
    flag('\0', "utc", "ignored"),
    flag('\0', "no-null", "ignored"),
    flag('\0', "verbatim-files-from", "ignored"),
    flag('\0', "no-verbatim-files-from", "ignored"),
    flag('\0', "no-auto-compress", "ignored"),
    flag('\0', "no-ignore-case", "ignored"),
    flag('\0', "recursion", "ignored"),
    // Extraction always replaces a file whole, which is what these ask for.
    flag('U', "unlink-first", "ignored"),
    flag('\0', "recursive-unlink", "ignored"),
    flag('\0', "no-wildcards", "ignored"),
    flag('\0', "ignore-failed-read", "ignore-failed-read"),
];
const HELP: &str = "Usage: tar [OPTION...] [FILE]...\nStore files in, list or extract them from, a tar archive.\n\n  -c, --create               create a new archive\n  -t, --list                 list the contents of an archive\n  -x, --extract, --get       extract files from an archive\n  -f, --file=ARCHIVE         use archive file ARCHIVE ('-' or none: stdin/stdout)\n  -C, --directory=DIR        change to directory DIR\n  -v, --verbose              verbosely list files processed\n  -z, --gzip                 filter the archive through gzip\n  -O, --to-stdout            extract files to standard output\n  -k, --keep-old-files       don't replace existing files when extracting\n      --exclude=PATTERN      exclude files matching PATTERN (a glob)\n      --strip-components=N   strip N leading components from file names on extraction\n      --transform=EXPR       rename members with sed's s/REGEX/REPL/[gix] (also --xform)\n  -T, --files-from=FILE      get names to create from FILE (one a line; NUL with --null)\n  -X, --exclude-from=FILE    exclude patterns listed in FILE\n      --exclude-vcs          exclude version control system directories\n  -a, --auto-compress        use the archive suffix to decide on gzip (.gz, .tgz)\n      --sort, -b, -H, --format, --numeric-owner, --same-owner, --utc, -l, ...  accepted (no effect here)\n  -P, --absolute-names       don't strip leading '/'s from file names\n";

/// Expands old-style `czf a.tgz` into `-c -z -f a.tgz`.
fn expand_old_style(args: &[String]) -> Vec<String> {
    let first = match args.first() {
        Some(f) if !f.starts_with('-') && !f.is_empty() && f.chars().all(|c| c.is_ascii_alphabetic()) => f.clone(),
        _ => return args.to_vec(),
    };
    let mut out = Vec::new();
    let mut rest = args[1..].iter();
    for c in first.chars() {
        out.push(format!("-{}", c));
        if c == 'f' || c == 'C' {
            if let Some(v) = rest.next() {
                out.push(v.clone());
            }
        }
    }
    out.extend(rest.cloned());
    out
}

pub struct Entry {
    pub name: String,
    pub kind: u8,
    pub size: u64,
    pub mode: u32,
    pub mtime: i64,
    pub data: Vec<u8>,
    /// A symbolic link member's target (type '2'); empty otherwise.
    pub link: String,
    pub owner: Owner,
    /// The member's bytes in the archive, its long-name record included (for -r, -u, --delete).
    pub span: (usize, usize),
}

/// Who a member belongs to: the session's user unless --owner/--group say otherwise; names are
/// left empty with --numeric-owner.
#[derive(Clone)]
pub struct Owner {
    pub uid: u64,
    pub gid: u64,
    pub uname: String,
    pub gname: String,
}

fn octal(field: &[u8]) -> u64 {
    let s: String = field.iter().take_while(|c| **c != 0).map(|c| *c as char).collect();
    u64::from_str_radix(s.trim(), 8).unwrap_or(0)
}

fn cstr(field: &[u8]) -> String {
    String::from_utf8_lossy(&field[..field.iter().position(|c| *c == 0).unwrap_or(field.len())]).into_owned()
}

fn parse_archive(b: &[u8]) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    let mut pos = 0;
    let mut long_name: Option<String> = None;
    let mut begin = 0;
    if !b.is_empty() && b.len() < 512 {
        return Err("This does not look like a tar archive".into());
    }
    while pos + 512 <= b.len() {
        let h = &b[pos..pos + 512];
        if h.iter().all(|c| *c == 0) {
            break;
        }
        let sum: u64 = h.iter().enumerate().map(|(i, c)| if (148..156).contains(&i) { 32 } else { *c as u64 }).sum();
        if sum != octal(&h[148..156]) {
            return Err(if out.is_empty() { "This does not look like a tar archive".into() } else { "Skipping to next header".into() });
        }
        let size = octal(&h[124..136]);
        let kind = h[156];
        let start = pos + 512;
        let end = start + size as usize;
        if end > b.len() {
            return Err("Unexpected EOF in archive".into());
        }
        let data = b[start..end].to_vec();
        pos = start + ((size as usize + 511) / 512) * 512;
        if kind == b'L' {
            long_name = Some(cstr(&data));
            continue;
        }
        let span = (begin, pos);
        begin = pos;
        let name = match long_name.take() {
            Some(n) => n,
            None => {
                let prefix = if &h[257..262] == b"ustar" { cstr(&h[345..500]) } else { String::new() };
                let n = cstr(&h[0..100]);
                if prefix.is_empty() {
                    n
                } else {
                    format!("{}/{}", prefix, n)
                }
            }
        };
        let owner = Owner { uid: octal(&h[108..116]), gid: octal(&h[116..124]), uname: cstr(&h[265..297]), gname: cstr(&h[297..329]) };
        let link = cstr(&h[157..257]);
        out.push(Entry { name, kind, size, mode: octal(&h[100..108]) as u32, mtime: octal(&h[136..148]) as i64, data, link, owner, span });
    }
    Ok(out)
}

fn header(name: &str, kind: u8, size: u64, mode: u32, mtime: i64, owner: &Owner, link: &str) -> Vec<u8> {
    let mut h = vec![0u8; 512];
    let put = |h: &mut Vec<u8>, off: usize, s: &[u8]| h[off..off + s.len()].copy_from_slice(s);
    let (prefix, base) = if name.len() <= 100 {
        ("", name)
    } else {
        match name.char_indices().filter(|(i, c)| *c == '/' && *i <= 155 && name.len() - i - 1 <= 100).map(|(i, _)| i).next() {
            Some(i) => (&name[..i], &name[i + 1..]),
            None => ("", &name[..100]),
        }
    };
    put(&mut h, 0, base.as_bytes());
    put(&mut h, 100, format!("{:07o}\0", mode & 0o7777).as_bytes());
    put(&mut h, 108, format!("{:07o}\0", owner.uid).as_bytes());
    put(&mut h, 116, format!("{:07o}\0", owner.gid).as_bytes());
    put(&mut h, 124, format!("{:011o}\0", size).as_bytes());
    put(&mut h, 136, format!("{:011o}\0", mtime.max(0)).as_bytes());
    h[156] = kind;
    put(&mut h, 157, &link.as_bytes()[..link.len().min(100)]);
    put(&mut h, 257, b"ustar\0");
    put(&mut h, 263, b"00");
    put(&mut h, 265, owner.uname.as_bytes());
    put(&mut h, 297, owner.gname.as_bytes());
    put(&mut h, 345, prefix.as_bytes());
    put(&mut h, 148, b"        ");
    let sum: u32 = h.iter().map(|c| *c as u32).sum();
    put(&mut h, 148, format!("{:06o}\0 ", sum).as_bytes());
    h
}

fn add_entry(out: &mut Vec<u8>, name: &str, kind: u8, data: &[u8], mode: u32, mtime: i64, owner: &Owner) {
    add_member(out, name, kind, data, mode, mtime, owner, "");
}

/// A symbolic link member: type '2', no data, the target in the header's linkname field.
fn add_link(out: &mut Vec<u8>, name: &str, target: &str, mtime: i64, owner: &Owner) {
    add_member(out, name, b'2', &[], 0o777, mtime, owner, target);
}

#[allow(clippy::too_many_arguments)]
fn add_member(out: &mut Vec<u8>, name: &str, kind: u8, data: &[u8], mode: u32, mtime: i64, owner: &Owner, link: &str) {
    let fits = name.len() <= 100 || name.char_indices().any(|(i, c)| c == '/' && i <= 155 && name.len() - i - 1 <= 100);
    if !fits {
        let mut long = name.as_bytes().to_vec();
        long.push(0);
        out.extend(header("././@LongLink", b'L', long.len() as u64, 0o644, 0, &Owner { uid: 0, gid: 0, uname: "root".into(), gname: "root".into() }, ""));
        out.extend(&long);
        out.resize((out.len() + 511) / 512 * 512, 0);
    }
    out.extend(header(name, kind, data.len() as u64, mode, mtime, owner, link));
    out.extend_from_slice(data);
    out.resize((out.len() + 511) / 512 * 512, 0);
}

fn excluded(name: &str, pats: &[&str]) -> bool {
    pats.iter().any(|p| name.split('/').any(|c| crate::text::glob_match(p.as_bytes(), c.as_bytes())) || crate::text::glob_match(p.as_bytes(), name.as_bytes()))
}

fn mode_string(kind: u8, mode: u32) -> String {
    format!("{}{}", match kind { b'5' => 'd', b'V' => 'V', b'2' => 'l', _ => '-' }, crate::host::mode_letters(mode))
}

fn verbose_line(e: &Entry, numeric: bool) -> String {
    let days = e.mtime.div_euclid(86400);
    let (y, m, d) = crate::cmd::date::days_to_civil(days);
    let rem = e.mtime.rem_euclid(86400);
    let o = &e.owner;
    let user = if numeric || o.uname.is_empty() { o.uid.to_string() } else { o.uname.clone() };
    let group = if numeric || o.gname.is_empty() { o.gid.to_string() } else { o.gname.clone() };
    let ug = format!("{}/{}", user, group);
    format!("{} {} {:>w$} {}-{:02}-{:02} {:02}:{:02} {}", mode_string(e.kind, e.mode), ug, e.size, y, m, d, rem / 3600, rem % 3600 / 60, e.name, w = 19usize.saturating_sub(ug.len() + 1).max(1)) + &if e.kind == b'2' { format!(" -> {}", e.link) } else { String::new() }
}

/// What -c, -r and -u need to store files: where names are read, what is left out, and how
/// members are named, owned, moded and dated.
struct Store<'a> {
    dir: Option<String>,
    excl: Vec<&'a str>,
    xforms: Vec<super::tarxform::Transform>,
    absolute: bool,
    recursion: bool,
    ignore_failed: bool,
    verbose: bool,
    to_stdout: bool,
    owner: Owner,
    mode: Option<&'a str>,
    mtime: Option<i64>,
    /// -h: store what links point at instead of the links.
    dereference: bool,
    /// -u: members already in the archive and their times; a file no newer is not stored again.
    stored: std::collections::HashMap<String, i64>,
}

impl Store<'_> {
    fn at(&self, name: &str) -> String {
        match &self.dir {
            Some(d) if !name.starts_with('/') => fsx::join(d, name),
            _ => name.to_string(),
        }
    }

    fn say(&self, ctx: &mut Ctx, s: &str) -> std::io::Result<()> {
        if !self.verbose {
            return Ok(());
        }
        if self.to_stdout {
            let _ = writeln!(ctx.diag.raw(), "{}", s);
            Ok(())
        } else {
            writeln!(ctx.out, "{}", s)
        }
    }

    /// The members for `names`, as archive bytes without the end-of-archive blocks, and the exit status.
    fn members(&self, ctx: &mut Ctx, names: &[String]) -> std::io::Result<(Vec<u8>, i32)> {
        let mut out = Vec::new();
        let mut warned = false;
        let mut status = 0;
        let mut stack: Vec<(String, bool)> = names.iter().rev().map(|n| (n.clone(), true)).collect();
        while let Some((name, top)) = stack.pop() {
            let mut member = if self.absolute { name.clone() } else { name.trim_start_matches('/').to_string() };
            if member.len() != name.len() && !warned {
                let _ = writeln!(ctx.diag.raw(), "tar: Removing leading `/' from member names");
                warned = true;
            }
            if member.is_empty() {
                member = ".".into();
            }
            if excluded(&member, &self.excl) {
                continue;
            }
            member = super::tarxform::apply(&self.xforms, &member);
            let path = self.at(&name);
            if !self.dereference && fsx::is_symlink(&path) {
                if let Ok(target) = fsx::read_link(&path) {
                    let mtime = self.mtime.unwrap_or_else(|| fsx::symlink_metadata(&path).map(|m| fsx::mtime(&m).0).unwrap_or(0));
                    if self.stored.get(&member).map_or(true, |t| mtime > *t) {
                        add_link(&mut out, &member, &target, mtime, &self.owner);
                        self.say(ctx, &member)?;
                    }
                    continue;
                }
            }
            let meta = match fsx::metadata(&path) {
                Ok(m) => m,
                Err(e) => {
                    ctx.diag.error(format!("{}: Cannot stat: {}", name, reason(&e)));
                    if !self.ignore_failed {
                        status = 2;
                    }
                    continue;
                }
            };
            let mtime = self.mtime.unwrap_or(fsx::mtime(&meta).0);
            let is_dir = meta.is_dir();
            let mut mode = crate::host::mode_of(&path, is_dir);
            if let Some(m) = self.mode {
                mode = crate::host::parse_mode(m, mode).unwrap_or(mode);
            }
            let key = if is_dir && !member.ends_with('/') { format!("{}/", member) } else { member.clone() };
            let fresh = self.stored.get(&key).map_or(true, |t| mtime > *t);
            if is_dir {
                if fresh {
                    add_entry(&mut out, &key, b'5', &[], mode, mtime, &self.owner);
                    self.say(ctx, &key)?;
                }
                if !self.recursion && top {
                    continue;
                }
                match fsx::read_dir_names(&path) {
                    Ok(names) => {
                        for n in names.iter().rev() {
                            stack.push((fsx::join(name.trim_end_matches('/'), n), false));
                        }
                    }
                    Err(e) => {
                        ctx.diag.error(format!("{}: Cannot open: {}", name, reason(&e)));
                        status = 2;
                    }
                }
            } else if fresh {
                match std::fs::read(fsx::host(&path)) {
                    Ok(data) => {
                        add_entry(&mut out, &member, b'0', &data, mode, mtime, &self.owner);
                        self.say(ctx, &member)?;
                    }
                    Err(e) => {
                        ctx.diag.error(format!("{}: Cannot open: {}", name, reason(&e)));
                        status = 2;
                    }
                }
            }
        }
        Ok((out, status))
    }
}

/// --owner/--group: NAME, NAME:ID or (+)ID; the names this sandbox knows get their ids.
fn owner_of(spec: &str) -> Option<(u64, String)> {
    let (name, id) = match spec.split_once(':') {
        Some((n, i)) => (n.to_string(), Some(i.trim_start_matches('+').parse::<u64>().ok()?)),
        None => match spec.trim_start_matches('+').parse::<u64>() {
            Ok(id) => (known_name(id).unwrap_or_default(), Some(id)),
            Err(_) => (spec.to_string(), None),
        },
    };
    let id = match id {
        Some(i) => i,
        None => match name.as_str() {
            "root" => 0,
            n if n == super::sysinfo::USER => super::sysinfo::UID as u64,
            _ => return None,
        },
    };
    Some((id, name))
}

fn known_name(id: u64) -> Option<String> {
    match id {
        0 => Some("root".into()),
        i if i == super::sysinfo::UID as u64 => Some(super::sysinfo::USER.into()),
        _ => None,
    }
}

/// The archive's end: where the next member goes (its end-of-archive blocks are dropped).
fn end_of_members(entries: &[Entry]) -> usize {
    entries.last().map_or(0, |e| e.span.1)
}

/// Closes an archive: two zero blocks, padded to a 10 KiB record as GNU tar writes.
fn finish(mut out: Vec<u8>) -> Vec<u8> {
    out.extend(vec![0u8; 1024]);
    out.resize((out.len() + 10239) / 10240 * 10240, 0);
    out
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let args = expand_old_style(args);
    let p = getopt!(ctx, &args, SPECS, HELP, 2);
    let modes = ["c", "x", "t", "r", "u", "d", "delete"].iter().filter(|k| p.has(k)).count();
    if modes != 1 {
        ctx.diag.usage(if modes == 0 { "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options" } else { "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option" });
        return Ok(2);
    }
    if p.has("j") || p.has("J") {
        ctx.diag.error("-j/--bzip2 and -J/--xz compression are not available here (only -z/--gzip)");
        return Ok(2);
    }
    let archive = p.last("f").unwrap_or("-").to_string();
    let dir = p.last("C").map(|s| s.to_string());
    // Lists (-T names, -X patterns) are read from the directory tar started in, as GNU does.
    let mut lists = |key: &str, sep: u8| -> Result<Vec<String>, String> {
        let mut v = Vec::new();
        for f in p.all(key) {
            let mut bytes = Vec::new();
            let r = if f == "-" { std::io::Read::read_to_end(&mut ctx.stdin, &mut bytes).map(|_| ()) } else { std::fs::read(fsx::host(f)).map(|b| bytes = b) };
            r.map_err(|e| format!("{}: Cannot open: {}", f, reason(&e)))?;
            v.extend(bytes.split(|&b| b == sep).filter(|l| !l.is_empty()).map(|l| String::from_utf8_lossy(l).into_owned()));
        }
        Ok(v)
    };
    let sep = if p.has("null") { 0 } else { b'\n' };
    let (from_lists, excl_lists) = match (lists("T", sep), lists("X", b'\n')) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(m), _) | (_, Err(m)) => {
            ctx.diag.error(m);
            return Ok(2);
        }
    };
    let names: Vec<String> = p.operands.iter().cloned().chain(from_lists).collect();
    let mut excl: Vec<&str> = p.all("exclude");
    excl.extend(excl_lists.iter().map(String::as_str));
    if p.has("exclude-vcs") {
        excl.extend([".git", ".gitignore", ".gitattributes", ".gitmodules", ".svn", ".hg", ".hgignore", ".hgtags", ".bzr", ".bzrignore", "CVS", ".cvsignore", "RCS", "SCCS", "_darcs", "_MTN", "{arch}", ".arch-ids"]);
    }
    if p.has("exclude-backups") {
        excl.extend(["*~", ".#*", "#*#", "*.orig", "*.rej", "*.bak", "*.BAK"]);
    }
    let gz = p.has("z") || (p.has("a") && [".gz", ".tgz", ".taz"].iter().any(|x| archive.ends_with(x)));
    let mut xforms = Vec::new();
    for t in p.all("transform") {
        match super::tarxform::parse(t) {
            Ok(v) => xforms.extend(v),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(2);
            }
        }
    }
    let user = (super::sysinfo::UID as u64, super::sysinfo::USER.to_string());
    let (mut uid, mut gid) = (user.clone(), user);
    for (key, slot, kind) in [("owner", &mut uid, "owner"), ("group", &mut gid, "group")] {
        if let Some(spec) = p.last(key) {
            match owner_of(spec) {
                Some(o) => *slot = o,
                None => {
                    ctx.diag.error(format!("{}: Invalid {} (this sandbox knows root, {} and numeric ids)", spec, kind, super::sysinfo::USER));
                    return Ok(2);
                }
            }
        }
    }
    let numeric = p.has("numeric-owner");
    let owner = Owner { uid: uid.0, gid: gid.0, uname: if numeric { String::new() } else { uid.1 }, gname: if numeric { String::new() } else { gid.1 } };
    let mtime = match p.last("mtime") {
        None => None,
        // A name that starts with '/' or '.' is a file whose time is taken.
        Some(m) if m.starts_with('/') || m.starts_with('.') => match fsx::metadata(m) {
            Ok(meta) => Some(fsx::mtime(&meta).0),
            Err(e) => {
                ctx.diag.error(format!("{}: Cannot stat: {}", m, reason(&e)));
                return Ok(2);
            }
        },
        Some(m) => match crate::cmd::date::parse_date(m, fsx::now()) {
            Some(t) => Some(t.0),
            None => {
                ctx.diag.error(format!("Substituting -9223372036854775807 for unknown date format {}", q(m)));
                return Ok(2);
            }
        },
    };
    if let Some(m) = p.last("mode") {
        if crate::host::parse_mode(m, 0).is_none() {
            ctx.diag.error(format!("Invalid mode given on option: {}", m));
            return Ok(2);
        }
    }
    let mut store = Store {
        dir: dir.clone(),
        excl: excl.clone(),
        xforms,
        absolute: p.has("P"),
        dereference: p.has("h"),
        recursion: !p.has("no-recursion"),
        ignore_failed: p.has("ignore-failed-read"),
        verbose: p.has("v"),
        to_stdout: archive == "-",
        owner,
        mode: p.last("mode"),
        mtime,
        stored: Default::default(),
    };
    if p.has("c") {
        if names.is_empty() {
            ctx.diag.error("Cowardly refusing to create an empty archive");
            let _ = writeln!(ctx.diag.raw(), "Try 'tar --help' for more information.");
            return Ok(2);
        }
        let mut out = Vec::new();
        if let Some(label) = p.last("V") {
            add_entry(&mut out, label, b'V', &[], 0, mtime.unwrap_or(fsx::now().0), &store.owner);
        }
        let (body, status) = store.members(ctx, &names)?;
        out.extend(body);
        let mut out = finish(out);
        let written = out.len();
        if gz {
            out = crate::cmd::gz::compress(&out, 6);
        }
        if archive == "-" {
            ctx.out.write_all(&out)?;
        } else if let Err(e) = std::fs::write(fsx::host(&archive), &out) {
            ctx.diag.error(format!("{}: Cannot open: {}", archive, reason(&e)));
            return Ok(2);
        }
        if p.has("totals") {
            let _ = writeln!(ctx.diag.raw(), "Total bytes written: {}", written);
        }
        if status != 0 {
            ctx.diag.error("Exiting with failure status due to previous errors");
        }
        return Ok(status);
    }
    // Every other mode reads the archive first.
    let mut raw = Vec::new();
    let r = if archive == "-" { ctx.stdin.read_to_end(&mut raw).map(|_| ()) } else { std::fs::File::open(fsx::host(&archive)).and_then(|mut f| f.read_to_end(&mut raw)).map(|_| ()) };
    let appending = p.has("r") || p.has("u");
    match r {
        // -r/-u create the archive when it does not exist yet.
        Err(e) if appending && e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => {
            ctx.diag.error(format!("{}: Cannot open: {}", archive, reason(&e)));
            ctx.diag.error("Error is not recoverable: exiting now");
            return Ok(2);
        }
        Ok(()) => {}
    }
    let compressed = raw.starts_with(&[0x1f, 0x8b]);
    if (appending || p.has("delete")) && (compressed || gz || archive == "-") {
        ctx.diag.error(if archive == "-" { "Options '-Aru' and '--delete' need an archive file here, not standard input/output".to_string() } else { "Cannot update compressed archives".to_string() });
        ctx.diag.error("Error is not recoverable: exiting now");
        return Ok(2);
    }
    if gz || compressed {
        raw = match crate::cmd::gz::decompress(&raw) {
            Ok(d) => d,
            Err(m) => {
                ctx.diag.error(format!("{}: {}", archive, m));
                ctx.diag.error("Error is not recoverable: exiting now");
                return Ok(2);
            }
        };
    }
    let entries = match parse_archive(&raw) {
        Ok(e) => e,
        Err(m) => {
            ctx.diag.error(m);
            ctx.diag.error("Exiting with failure status due to previous errors");
            return Ok(2);
        }
    };
    let fold = |s: &str| if p.has("ignore-case") { s.to_lowercase() } else { s.to_string() };
    let matches = |name: &str, o: &str| {
        let (name, o) = (fold(name), fold(o));
        let o = o.trim_end_matches('/');
        name.trim_end_matches('/') == o || name.starts_with(&format!("{}/", o)) || (p.has("wildcards") && crate::text::glob_match(o.as_bytes(), name.trim_end_matches('/').as_bytes()))
    };
    if appending {
        if names.is_empty() {
            return Ok(0);
        }
        if p.has("u") {
            store.stored = entries.iter().map(|e| (e.name.clone(), e.mtime)).collect();
        }
        let (body, status) = store.members(ctx, &names)?;
        let mut out = raw[..end_of_members(&entries)].to_vec();
        out.extend(body);
        if let Err(e) = std::fs::write(fsx::host(&archive), finish(out)) {
            ctx.diag.error(format!("{}: Cannot open: {}", archive, reason(&e)));
            return Ok(2);
        }
        return Ok(status);
    }
    if p.has("delete") {
        let mut out = Vec::new();
        let mut seen = vec![false; names.len()];
        for e in &entries {
            let hit: Vec<usize> = names.iter().enumerate().filter(|(_, o)| matches(&e.name, o)).map(|(i, _)| i).collect();
            if hit.is_empty() {
                out.extend_from_slice(&raw[e.span.0..e.span.1]);
            }
            for i in hit {
                seen[i] = true;
            }
        }
        if let Err(e) = std::fs::write(fsx::host(&archive), finish(out)) {
            ctx.diag.error(format!("{}: Cannot open: {}", archive, reason(&e)));
            return Ok(2);
        }
        let mut status = 0;
        for (i, o) in names.iter().enumerate() {
            if !seen[i] {
                ctx.diag.error(format!("{}: Not found in archive", o));
                status = 2;
            }
        }
        if status != 0 {
            ctx.diag.error("Exiting with failure status due to previous errors");
        }
        return Ok(status);
    }
    let strip = p.last("strip").and_then(|s| s.parse::<usize>().ok()).unwrap_or(0);
    let wanted = |name: &str| p.operands.is_empty() || p.operands.iter().any(|o| matches(name, o));
    let mut seen = vec![false; p.operands.len()];
    let mut status = 0;
    let top = match p.last("one-top-level") {
        Some(d) => Some(d.to_string()),
        None if p.has("one-top-level") => {
            let base = fsx::base_name(&archive);
            Some([".tar.gz", ".tgz", ".taz", ".tar"].iter().find_map(|x| base.strip_suffix(x)).unwrap_or(base).to_string())
        }
        None => None,
    };
    let at = |name: &str| -> String {
        let name = match &top {
            Some(t) if !name.starts_with('/') => fsx::join(t, name),
            _ => name.to_string(),
        };
        store.at(&name)
    };
    for e in &entries {
        if !wanted(&e.name) || excluded(&e.name, &excl) {
            continue;
        }
        for (i, o) in p.operands.iter().enumerate() {
            if matches(&e.name, o) {
                seen[i] = true;
            }
        }
        if p.has("t") {
            if p.has("R") {
                write!(ctx.out, "block {}: ", e.span.0 / 512)?;
            }
            if p.has("v") {
                writeln!(ctx.out, "{}", verbose_line(e, numeric))?;
            } else {
                writeln!(ctx.out, "{}", super::tarxform::apply(&store.xforms, &e.name))?;
            }
            continue;
        }
        if e.kind == b'V' {
            continue;
        }
        if p.has("d") {
            status = status.max(compare(ctx, e, &store.at(&e.name))?);
            continue;
        }
        if p.has("v") {
            if p.has("O") {
                let _ = writeln!(ctx.diag.raw(), "{}", e.name);
            } else {
                writeln!(ctx.out, "{}", e.name)?;
            }
        }
        let renamed = super::tarxform::apply(&store.xforms, &e.name);
        let comps: Vec<&str> = renamed.split('/').filter(|c| !c.is_empty() && *c != ".").collect();
        if comps.iter().any(|c| *c == "..") {
            ctx.diag.error(format!("{}: Member name contains '..'", e.name));
            status = 2;
            continue;
        }
        if comps.len() <= strip {
            continue;
        }
        let rel = comps[strip..].join("/");
        // -P keeps an absolute member absolute on extraction.
        let rel = if store.absolute && renamed.starts_with('/') && strip == 0 { format!("/{}", rel) } else { rel };
        if e.kind != b'0' && e.kind != 0 && e.kind != b'5' && e.kind != b'7' && e.kind != b'2' {
            let _ = writeln!(ctx.diag.raw(), "tar: {}: links and special files are not supported here; skipped", e.name);
            continue;
        }
        if p.has("O") {
            if e.kind != b'5' {
                ctx.out.write_all(&e.data)?;
            }
            continue;
        }
        let target = at(&rel);
        let res = if e.kind == b'5' {
            std::fs::create_dir_all(fsx::host(&target))
        } else if e.kind == b'2' {
            if let Some(par) = fsx::host(&target).parent() {
                let _ = std::fs::create_dir_all(par);
            }
            match fsx::symlink_metadata(&target) {
                Ok(m) if !m.is_dir() => drop(std::fs::remove_file(fsx::host(&target))),
                _ => {}
            }
            fsx::symlink(&e.link, &target)
        } else {
            if let Ok(old) = fsx::metadata(&target) {
                if p.has("skip-old-files") || (p.has("keep-newer-files") && fsx::mtime(&old).0 > e.mtime) {
                    continue;
                }
                if p.has("k") {
                    ctx.diag.error(format!("{}: Cannot open: File exists", rel));
                    status = 2;
                    continue;
                }
            }
            let parent = fsx::host(&target).parent().map(|p| p.to_path_buf());
            if let Some(par) = parent {
                let _ = std::fs::create_dir_all(par);
            }
            std::fs::write(fsx::host(&target), &e.data)
        };
        match res {
            // A link's own times and bits are not set (both calls would reach its target).
            Ok(()) if e.kind == b'2' => {}
            Ok(()) => {
                if !p.has("m") {
                    let _ = fsx::set_times(&fsx::host(&target), None, Some((e.mtime, 0)));
                }
                if e.mode != 0 {
                    let _ = crate::host::set_mode(&target, e.mode);
                }
            }
            Err(err) => {
                ctx.diag.error(format!("{}: Cannot open: {}", rel, reason(&err)));
                status = 2;
            }
        }
    }
    if p.has("t") && p.has("R") {
        writeln!(ctx.out, "block {}: ** End of File **", end_of_members(&entries) / 512)?;
    }
    for (i, o) in p.operands.iter().enumerate() {
        if !seen[i] {
            ctx.diag.error(format!("{}: Not found in archive", o));
            status = 2;
        }
    }
    if status == 2 {
        ctx.diag.error("Exiting with failure status due to previous errors");
    }
    Ok(status)
}

/// tar -d: how a member differs from the file on disk (GNU's messages, on stdout); 1 when it does.
fn compare(ctx: &mut Ctx, e: &Entry, path: &str) -> std::io::Result<i32> {
    let meta = match fsx::metadata(path) {
        Ok(m) => m,
        Err(err) => {
            writeln!(ctx.out, "{}: Warning: Cannot stat: {}", e.name, reason(&err))?;
            return Ok(1);
        }
    };
    let mut differs = Vec::new();
    if (e.kind == b'5') != meta.is_dir() {
        differs.push("File type differs");
    } else if e.kind != b'5' {
        if crate::host::mode_of(path, false) != e.mode & 0o7777 {
            differs.push("Mode differs");
        }
        if fsx::mtime(&meta).0 != e.mtime {
            differs.push("Mod time differs");
        }
        if meta.len() != e.size {
            differs.push("Size differs");
        } else if std::fs::read(fsx::host(path)).map_or(true, |d| d != e.data) {
            differs.push("Contents differ");
        }
    }
    for d in &differs {
        writeln!(ctx.out, "{}: {}", e.name, d)?;
    }
    Ok(if differs.is_empty() { 0 } else { 1 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, read, run, tmpdir, write};

    #[test]
    fn transform_and_absolute_names() {
        let d = tmpdir();
        write(&format!("{}/a.txt", d), "A\n");
        let archive = format!("{}/t.tar", d);
        check("tar", &["-cf", &archive, "-C", &d, "--transform=s/^a/renamed/", "a.txt"], "", "", 0);
        check("tar", &["-tf", &archive], "", "renamed.txt\n", 0);
        let out = format!("{}/out", d);
        std::fs::create_dir_all(&out).unwrap();
        check("tar", &["-xf", &archive, "-C", &out, "--xform", "s,^,sub/,"], "", "", 0);
        assert_eq!(read(&format!("{}/sub/renamed.txt", out)), "A\n");
        // -P keeps the leading '/' (no "Removing leading" warning) and extracts there.
        let abs = format!("{}/a.txt", d);
        let (c, _, e) = run("tar", &["-cPf", &archive, &abs], "");
        assert_eq!((c, e.as_str()), (0, ""));
        check("tar", &["-tf", &archive], "", &format!("{}\n", abs), 0);
        std::fs::remove_file(&abs).unwrap();
        check("tar", &["-xPf", &archive], "", "", 0);
        assert_eq!(read(&abs), "A\n");
    }

    #[test]
    fn round_trip() {
        let d = tmpdir();
        std::fs::create_dir_all(format!("{}/src/sub", d)).unwrap();
        write(&format!("{}/src/a.txt", d), "alpha\n");
        write(&format!("{}/src/sub/b.txt", d), "beta\n");
        let long = format!("{}/src/{}.txt", d, "n".repeat(120));
        write(&long, "long\n");
        for (flags, arc) in [("-cf", "t.tar"), ("-czf", "t.tgz")] {
            let archive = format!("{}/{}", d, arc);
            check("tar", &[flags, &archive, "-C", &d, "src"], "", "", 0);
            let (c, o, _) = run("tar", &["-tf", &archive], "");
            assert_eq!(c, 0);
            let mut names: Vec<&str> = o.lines().collect();
            names.sort();
            assert_eq!(names, vec!["src/", "src/a.txt", &format!("src/{}.txt", "n".repeat(120)) as &str, "src/sub/", "src/sub/b.txt"]);
            let out = format!("{}/out-{}", d, arc);
            std::fs::create_dir_all(&out).unwrap();
            check("tar", &["-xf", &archive, "-C", &out], "", "", 0);
            assert_eq!(read(&format!("{}/src/sub/b.txt", out)), "beta\n");
            assert_eq!(read(&format!("{}/src/{}.txt", out, "n".repeat(120))), "long\n");
            check("tar", &["-xOf", &archive, "src/a.txt"], "", "alpha\n", 0);
        }
        // Old-style letters and --strip-components.
        let archive = format!("{}/t.tar", d);
        let out = format!("{}/strip", d);
        std::fs::create_dir_all(&out).unwrap();
        check("tar", &["xf", &archive, "-C", &out, "--strip-components=1"], "", "", 0);
        assert_eq!(read(&format!("{}/a.txt", out)), "alpha\n");
        let (c, _, e) = run("tar", &["-tf", &archive, "nope"], "");
        assert_eq!((c, e.as_str()), (2, "tar: nope: Not found in archive\ntar: Exiting with failure status due to previous errors\n"));
        let (c, _, _) = run("tar", &["-tf", "-"], "not a tar archive at all, just text that is long enough to fill a header block maybe not");
        assert_eq!(c, 2);
    }

    #[test]
    fn append_update_delete_and_owner() {
        let d = tmpdir();
        write(&format!("{}/a", d), "A\n");
        write(&format!("{}/b", d), "B\n");
        let arc = format!("{}/t.tar", d);
        check("tar", &["-cf", &arc, "-C", &d, "a"], "", "", 0);
        check("tar", &["-rf", &arc, "-C", &d, "b"], "", "", 0);
        check("tar", &["-tf", &arc], "", "a\nb\n", 0);
        // -u stores nothing newer than what the archive holds.
        check("tar", &["-uf", &arc, "-C", &d, "a"], "", "", 0);
        check("tar", &["-tf", &arc, "-R"], "", "block 0: a\nblock 2: b\nblock 4: ** End of File **\n", 0);
        check("tar", &["--delete", "-f", &arc, "a"], "", "", 0);
        check("tar", &["-tf", &arc], "", "b\n", 0);
        check("tar", &["--owner=root", "--group=0", "--mode=600", "--mtime=@0", "-cf", &arc, "-C", &d, "a"], "", "", 0);
        check("tar", &["-tvf", &arc], "", "-rw------- root/root         2 1970-01-01 00:00 a\n", 0);
        check("tar", &["-tvf", &arc, "--numeric-owner"], "", "-rw------- 0/0               2 1970-01-01 00:00 a\n", 0);
        // -d: the file on disk has another mode and time.
        check("tar", &["-df", &arc, "-C", &d], "", "a: Mode differs\na: Mod time differs\n", 1);
    }
}
