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
    flag('A', "catenate", "A"),
    flag('A', "concatenate", "A"),
    flag('\0', "test-label", "test-label"),
    val('f', "file", "f"),
    val('C', "directory", "C"),
    flag('v', "verbose", "v"),
    flag('z', "gzip", "z"),
    flag('z', "gunzip", "z"),
    flag('z', "ungzip", "z"),
    flag('j', "bzip2", "j"),
    flag('J', "xz", "J"),
    flag('O', "to-stdout", "O"),
    flag('k', "keep-old-files", "k"),
    flag('p', "preserve-permissions", "p"),
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
    val('b', "blocking-factor", "b"),
    val('\0', "record-size", "record-size"),
    val('H', "format", "format"),
    flag('o', "old-archive", "v7"),
    flag('\0', "portability", "v7"),
    flag('\0', "posix", "posix"),
    // No extended headers are written (ustar's fields hold every name and time here).
    val('\0', "pax-option", "ignored"),
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
    flag('\0', "show-transformed-names", "show-transformed-names"),
    flag('\0', "show-stored-names", "show-stored-names"),
    optval('\0', "checkpoint", "checkpoint"),
    val('\0', "checkpoint-action", "checkpoint-action"),
    optval('\0', "totals", "totals"),
    flag('\0', "anchored", "anchored"),
    flag('\0', "no-anchored", "no-anchored"),
    flag('\0', "ignore-case", "ignore-case"),
    optval('\0', "occurrence", "occurrence"),
    val('V', "label", "V"),
    flag('R', "block-number", "R"),
    flag('\0', "exclude-backups", "exclude-backups"),
    flag('\0', "exclude-caches", "exclude-caches"),
    flag('\0', "exclude-caches-all", "exclude-caches-all"),
    flag('\0', "exclude-caches-under", "exclude-caches-under"),
    val('\0', "exclude-tag", "exclude-tag"),
    val('\0', "exclude-tag-all", "exclude-tag-all"),
    val('\0', "exclude-tag-under", "exclude-tag-under"),
    val('\0', "exclude-ignore", "exclude-ignore"),
    val('\0', "exclude-ignore-recursive", "exclude-ignore-recursive"),
    flag('\0', "exclude-vcs-ignores", "exclude-vcs-ignores"),
    val('\0', "add-file", "add-file"),
    val('N', "newer", "newer"),
    val('N', "after-date", "newer"),
    val('\0', "newer-mtime", "newer-mtime"),
    flag('\0', "clamp-mtime", "clamp-mtime"),
    optval('\0', "backup", "backup"),
    val('\0', "suffix", "suffix"),
    flag('w', "interactive", "w"),
    flag('w', "confirmation", "w"),
    flag('\0', "full-time", "full-time"),
    val('\0', "owner-map", "owner-map"),
    val('\0', "group-map", "group-map"),
    flag('i', "ignore-zeros", "i"),
    val('\0', "quoting-style", "quoting-style"),
    val('\0', "quote-chars", "quote-chars"),
    val('\0', "no-quote-chars", "no-quote-chars"),
    flag('\0', "unquote", "unquote"),
    flag('\0', "no-unquote", "no-unquote"),
    flag('\0', "wildcards-match-slash", "match-slash"),
    flag('\0', "no-wildcards-match-slash", "no-match-slash"),
    flag('\0', "remove-files", "remove-files"),
    flag('\0', "show-omitted-dirs", "show-omitted-dirs"),
    val('K', "starting-file", "K"),
    flag('W', "verify", "W"),
    val('\0', "warning", "warning"),
    val('\0', "index-file", "index-file"),
    optval('\0', "hole-detection", "hole-detection"),
    // Files here have no holes, so -S stores them as they are, as GNU tar does with a file
    // without holes; directories' times are always restored after their contents.
    flag('S', "sparse", "ignored"),
    val('\0', "sparse-version", "ignored"),
    flag('\0', "delay-directory-restore", "ignored"),
    flag('\0', "no-delay-directory-restore", "ignored"),
    // Device numbers, hard links, ACLs, SELinux and xattrs do not exist in the workspace;
    // archives are read whole (no seeking, records need no reblocking); --to-command is refused.
    flag('\0', "check-device", "ignored"),
    flag('\0', "no-check-device", "ignored"),
    flag('\0', "hard-dereference", "ignored"),
    flag('\0', "no-acls", "ignored"),
    flag('\0', "no-selinux", "ignored"),
    flag('\0', "no-xattrs", "ignored"),
    flag('n', "seek", "ignored"),
    flag('\0', "no-seek", "ignored"),
    flag('B', "read-full-records", "ignored"),
    flag('s', "preserve-order", "ignored"),
    flag('s', "same-order", "ignored"),
    flag('\0', "restrict", "ignored"),
    flag('\0', "ignore-command-error", "ignored"),
    flag('\0', "no-ignore-command-error", "ignored"),
    flag('\0', "keep-directory-symlink", "ignored"),
    flag('\0', "same-owner", "ignored"),
    flag('p', "same-permissions", "p"),
    flag('\0', "no-same-permissions", "no-p"),
    flag('\0', "atime-preserve", "ignored"),
    flag('\0', "force-local", "ignored"),
    flag('l', "check-links", "ignored"),
    flag('\0', "one-file-system", "ignored"),
    flag('\0', "no-overwrite-dir", "ignored"),
    flag('\0', "overwrite-dir", "ignored"),
    flag('\0', "show-defaults", "show-defaults"),
    flag('\0', "utc", "utc"),
    flag('\0', "no-null", "ignored"),
    flag('\0', "verbatim-files-from", "ignored"),
    flag('\0', "no-verbatim-files-from", "ignored"),
    flag('\0', "no-auto-compress", "ignored"),
    flag('\0', "no-ignore-case", "no-ignore-case"),
    flag('\0', "recursion", "ignored"),
    // Extraction always replaces a file whole, which is what these ask for.
    flag('U', "unlink-first", "ignored"),
    flag('\0', "recursive-unlink", "ignored"),
    flag('\0', "no-wildcards", "no-wildcards"),
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

fn parse_archive(b: &[u8], ignore_zeros: bool) -> Result<Vec<Entry>, String> {
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
            // -i: zero blocks (the end of one archive of several joined by cat) are skipped.
            if ignore_zeros {
                pos += 512;
                begin = pos;
                continue;
            }
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

/// The header layouts -H/--format writes: GNU's (the default; long names in 'L' records),
/// POSIX ustar (long names split into prefix and name; also what posix/pax writes here) and v7.
#[derive(Clone, Copy, PartialEq)]
pub enum Format {
    Gnu,
    Ustar,
    V7,
}

fn format_of(word: &str) -> Option<Format> {
    match word {
        "gnu" | "oldgnu" => Some(Format::Gnu),
        "ustar" | "posix" | "pax" => Some(Format::Ustar),
        "v7" => Some(Format::V7),
        _ => None,
    }
}

/// Whether `name` fits a header without an 'L' long-name record.
fn fits(name: &str, fmt: Format) -> bool {
    match fmt {
        Format::Gnu | Format::V7 => name.len() < 100,
        Format::Ustar => name.len() <= 100 || name.char_indices().any(|(i, c)| c == '/' && i <= 155 && name.len() - i - 1 <= 100),
    }
}

#[allow(clippy::too_many_arguments)]
fn header(name: &str, kind: u8, size: u64, mode: u32, mtime: i64, owner: &Owner, fmt: Format, link: &str) -> Vec<u8> {
    let mut h = vec![0u8; 512];
    let put = |h: &mut Vec<u8>, off: usize, s: &[u8]| h[off..off + s.len()].copy_from_slice(s);
    let (prefix, base) = if name.len() <= 100 || fmt != Format::Ustar {
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
    // v7 marks a regular file with NUL, and has no magic, owner names or prefix.
    h[156] = if fmt == Format::V7 && kind == b'0' { 0 } else { kind };
    put(&mut h, 157, &link.as_bytes()[..link.len().min(100)]);
    if fmt == Format::Gnu {
        put(&mut h, 257, b"ustar  \0");
    } else if fmt == Format::Ustar {
        put(&mut h, 257, b"ustar\0");
        put(&mut h, 263, b"00");
        put(&mut h, 345, prefix.as_bytes());
    }
    if fmt != Format::V7 {
        put(&mut h, 265, owner.uname.as_bytes());
        put(&mut h, 297, owner.gname.as_bytes());
    }
    if fmt != Format::Gnu {
        put(&mut h, 329, b"0000000\0");
        put(&mut h, 337, b"0000000\0");
    }
    put(&mut h, 148, b"        ");
    let sum: u32 = h.iter().map(|c| *c as u32).sum();
    put(&mut h, 148, format!("{:06o}\0 ", sum).as_bytes());
    h
}

fn add_entry(out: &mut Vec<u8>, name: &str, kind: u8, data: &[u8], mode: u32, mtime: i64, owner: &Owner, fmt: Format) {
    add_member(out, name, kind, data, mode, mtime, owner, fmt, "");
}

/// A symbolic link member: type '2', no data, the target in the header's linkname field.
fn add_link(out: &mut Vec<u8>, name: &str, target: &str, mtime: i64, owner: &Owner, fmt: Format) {
    add_member(out, name, b'2', &[], 0o777, mtime, owner, fmt, target);
}

#[allow(clippy::too_many_arguments)]
fn add_member(out: &mut Vec<u8>, name: &str, kind: u8, data: &[u8], mode: u32, mtime: i64, owner: &Owner, fmt: Format, link: &str) {
    if !fits(name, fmt) {
        let mut long = name.as_bytes().to_vec();
        long.push(0);
        out.extend(header("././@LongLink", b'L', long.len() as u64, 0o644, 0, &Owner { uid: 0, gid: 0, uname: "root".into(), gname: "root".into() }, fmt, ""));
        out.extend(&long);
        out.resize((out.len() + 511) / 512 * 512, 0);
    }
    out.extend(header(name, kind, data.len() as u64, mode, mtime, owner, fmt, link));
    out.extend_from_slice(data);
    out.resize((out.len() + 511) / 512 * 512, 0);
}

/// --exclude: a pattern matches the whole name or, unless --anchored, any part of it that
/// starts after a '/'; either way a leading directory of that part matches too (GNU's
/// FNM_LEADING_DIR), so `sub` leaves out `d/sub/c.md`.
fn excluded(name: &str, pats: &[&str], anchored: bool) -> bool {
    let name = name.trim_end_matches('/');
    let starts = std::iter::once(0).chain(name.match_indices('/').map(|(i, _)| i + 1).filter(|_| !anchored));
    let parts: Vec<&str> = starts.map(|i| &name[i..]).collect();
    pats.iter().map(|p| p.trim_end_matches('/')).any(|p| {
        parts.iter().any(|part| {
            let ends = part.match_indices('/').map(|(i, _)| i).chain(std::iter::once(part.len()));
            ends.into_iter().any(|e| crate::text::glob_match(p.as_bytes(), part[..e].as_bytes()))
        })
    })
}

fn mode_string(kind: u8, mode: u32) -> String {
    format!("{}{}", match kind { b'5' => 'd', b'V' => 'V', b'2' => 'l', _ => '-' }, crate::host::mode_letters(mode))
}

/// tar -tv's line; `full` (--full-time) adds seconds; `shown` is the name as quoted.
fn verbose_line(e: &Entry, numeric: bool, full: bool, shown: &str) -> String {
    let days = e.mtime.div_euclid(86400);
    let (y, m, d) = crate::cmd::date::days_to_civil(days);
    let rem = e.mtime.rem_euclid(86400);
    let o = &e.owner;
    let user = if numeric || o.uname.is_empty() { o.uid.to_string() } else { o.uname.clone() };
    let group = if numeric || o.gname.is_empty() { o.gid.to_string() } else { o.gname.clone() };
    let ug = format!("{}/{}", user, group);
    let secs = if full { format!(":{:02}", rem % 60) } else { String::new() };
    let label = if e.kind == b'V' { "--Volume Header--" } else { "" };
    let target = if e.kind == b'2' { format!(" -> {}", e.link) } else { String::new() };
    format!("{} {} {:>w$} {}-{:02}-{:02} {:02}:{:02}{} {}{}{}", mode_string(e.kind, e.mode), ug, e.size, y, m, d, rem / 3600, rem % 3600 / 60, secs, shown, label, target, w = 19usize.saturating_sub(ug.len() + 1).max(1))
}

/// What -c, -r and -u need to store files: where names are read, what is left out, and how
/// members are named, owned, moded and dated.
struct Store<'a> {
    dir: Option<String>,
    excl: Vec<&'a str>,
    /// --anchored: exclusion patterns match from the start of a name only.
    anchored: bool,
    xforms: Vec<super::tarxform::Transform>,
    absolute: bool,
    recursion: bool,
    ignore_failed: bool,
    verbose: bool,
    to_stdout: bool,
    owner: Owner,
    mode: Option<&'a str>,
    mtime: Option<i64>,
    /// --clamp-mtime: --mtime only lowers times later than it.
    clamp: bool,
    /// -h: store what links point at instead of the links.
    dereference: bool,
    /// -u: members already in the archive and their times; a file no newer is not stored again.
    stored: std::collections::HashMap<String, i64>,
    format: Format,
    pick: super::tarpick::Pick,
    remove_files: bool,
    /// -w: ask before each member.
    interactive: bool,
    /// -v lines as -tv prints them: with --utc GNU tar 1.34 lists created members that way.
    long_verbose: bool,
    full_time: bool,
    /// --show-stored-names: -v prints names as transformed, not as given.
    show_stored: bool,
    quoting: super::tarname::Quoting,
    /// --index-file: where -v's lines go instead of stdout.
    index: std::cell::RefCell<Option<Vec<u8>>>,
}

/// One name waiting to be stored: the directory it is relative to (-C), whether the user gave it,
/// and the patterns ignore files above it add.
struct Item {
    name: String,
    dir: Option<String>,
    top: bool,
    ignore: std::rc::Rc<Vec<String>>,
}

impl Store<'_> {
    fn at(&self, name: &str) -> String {
        at_dir(self.dir.as_deref(), name)
    }

    fn say(&self, ctx: &mut Ctx, s: &str) -> std::io::Result<()> {
        if !self.verbose {
            return Ok(());
        }
        if let Some(buf) = self.index.borrow_mut().as_mut() {
            return writeln!(buf, "{}", s);
        }
        if self.to_stdout {
            let _ = writeln!(ctx.diag.raw(), "{}", s);
            Ok(())
        } else {
            writeln!(ctx.out, "{}", s)
        }
    }

    /// -v's line for a member just stored.
    fn said(&self, ctx: &mut Ctx, given: &str, e: &Entry) -> std::io::Result<()> {
        let shown = self.quoting.quote(if self.show_stored { &e.name } else { given });
        let line = if self.long_verbose { verbose_line(e, false, self.full_time, &shown) } else { shown };
        self.say(ctx, &line)
    }

    /// -w: GNU tar's question on stderr, answered by a line of stdin starting with y.
    fn confirm(&self, ctx: &mut Ctx, action: &str, name: &str) -> std::io::Result<bool> {
        if !self.interactive {
            return Ok(true);
        }
        confirm(ctx, action, name)
    }

    /// The members for `names` (each with the -C directory it is relative to), as archive bytes
    /// without the end-of-archive blocks, and the exit status.
    fn members(&self, ctx: &mut Ctx, names: &[(String, Option<String>)]) -> std::io::Result<(Vec<u8>, i32)> {
        let mut out = Vec::new();
        let mut warned = false;
        let mut status = 0;
        let mut done: Vec<(String, bool)> = Vec::new();
        let none = std::rc::Rc::new(Vec::new());
        let mut stack: Vec<Item> = names.iter().rev().map(|(n, d)| Item { name: n.clone(), dir: d.clone(), top: true, ignore: none.clone() }).collect();
        while let Some(Item { name, dir, top, ignore }) = stack.pop() {
            let mut member = if self.absolute { name.clone() } else { name.trim_start_matches('/').to_string() };
            if member.len() != name.len() && !warned {
                let _ = writeln!(ctx.diag.raw(), "tar: Removing leading `{}' from member names", &name[..name.len() - member.len()]);
                warned = true;
            }
            if member.is_empty() {
                member = ".".into();
            }
            if excluded(&member, &self.excl, self.anchored) || super::tarpick::ignored(&member, &ignore) {
                continue;
            }
            member = super::tarxform::apply(&self.xforms, &member);
            let path = at_dir(dir.as_deref(), &name);
            if !self.dereference && fsx::is_symlink(&path) {
                if let Ok(target) = fsx::read_link(&path) {
                    let mtime = self.mtime.unwrap_or_else(|| fsx::symlink_metadata(&path).map(|m| fsx::mtime(&m).0).unwrap_or(0));
                    if self.stored.get(&member).map_or(true, |t| mtime > *t) && self.confirm(ctx, "add", &name)? {
                        add_link(&mut out, &member, &target, mtime, &self.owner, self.format);
                        let e = Entry { name: member.clone(), kind: b'2', size: 0, mode: 0o777, mtime, data: Vec::new(), link: target, owner: self.owner.clone(), span: (0, 0) };
                        self.said(ctx, &name, &e)?;
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
            let own = fsx::mtime(&meta).0;
            let mtime = match self.mtime {
                Some(t) if !self.clamp || own > t => t,
                _ => own,
            };
            let is_dir = meta.is_dir();
            let mut mode = crate::host::mode_of(&path, is_dir);
            if let Some(m) = self.mode {
                mode = crate::host::parse_mode(m, mode).unwrap_or(mode);
            }
            let key = if is_dir && !member.ends_with('/') { format!("{}/", member) } else { member.clone() };
            let fresh = self.stored.get(&key).map_or(true, |t| mtime > *t);
            let keep = if is_dir { self.pick.keep(&path) } else { super::tarpick::Keep::All };
            if matches!(keep, super::tarpick::Keep::Nothing) || !self.confirm(ctx, "add", &name)? {
                continue;
            }
            let entry = |kind: u8, data: Vec<u8>| Entry { name: key.clone(), kind, size: data.len() as u64, mode, mtime, data, link: String::new(), owner: self.owner.clone(), span: (0, 0) };
            if is_dir {
                if fresh {
                    add_entry(&mut out, &key, b'5', &[], mode, mtime, &self.owner, self.format);
                    let given = if name.ends_with('/') { name.clone() } else { format!("{}/", name) };
                    self.said(ctx, &given, &entry(b'5', Vec::new()))?;
                }
                done.push((path.clone(), true));
                if !self.recursion && top {
                    continue;
                }
                let children = match keep {
                    super::tarpick::Keep::Only(tag) => Ok(tag.into_iter().collect()),
                    _ => fsx::read_dir_names(&path),
                };
                match children {
                    Ok(children) => {
                        let below = self.pick.ignored_below(&path);
                        let ignore = if below.is_empty() { ignore } else { std::rc::Rc::new(ignore.iter().cloned().chain(below).collect()) };
                        for n in children.iter().rev() {
                            stack.push(Item { name: fsx::join(name.trim_end_matches('/'), n), dir: dir.clone(), top: false, ignore: ignore.clone() });
                        }
                    }
                    Err(e) => {
                        ctx.diag.error(format!("{}: Cannot open: {}", name, reason(&e)));
                        status = 2;
                    }
                }
            } else if fresh && self.pick.newer.map_or(true, |t| own > t) {
                match std::fs::read(fsx::host(&path)) {
                    Ok(data) => {
                        add_entry(&mut out, &member, b'0', &data, mode, mtime, &self.owner, self.format);
                        self.said(ctx, &name, &entry(b'0', data))?;
                        done.push((path.clone(), false));
                    }
                    Err(e) => {
                        ctx.diag.error(format!("{}: Cannot open: {}", name, reason(&e)));
                        status = 2;
                    }
                }
            }
        }
        // --remove-files: files first, then the directories, deepest first.
        if self.remove_files {
            for (path, _) in done.iter().filter(|(_, d)| !d) {
                let _ = std::fs::remove_file(fsx::host(path));
            }
            for (path, _) in done.iter().rev().filter(|(_, d)| *d) {
                let _ = std::fs::remove_dir(fsx::host(path));
            }
        }
        Ok((out, status))
    }
}

pub fn at_dir(dir: Option<&str>, name: &str) -> String {
    match dir {
        Some(d) if !name.starts_with('/') => fsx::join(d, name),
        _ => name.to_string(),
    }
}

/// -w: "add 'NAME'?" on stderr; a line of stdin starting with y says yes, end of input says no.
fn confirm(ctx: &mut Ctx, action: &str, name: &str) -> std::io::Result<bool> {
    let _ = write!(ctx.diag.raw(), "{} '{}'?", action, name);
    let mut line = String::new();
    if ctx.stdin.read_line(&mut line)? == 0 {
        let _ = writeln!(ctx.diag.raw());
    }
    Ok(line.starts_with('y') || line.starts_with('Y'))
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

/// Closes an archive: two zero blocks, padded to a whole record (-b/--record-size; 10 KiB by
/// default) as GNU tar writes.
fn finish(mut out: Vec<u8>, record: usize) -> Vec<u8> {
    out.extend(vec![0u8; 1024]);
    out.resize((out.len() + record - 1) / record * record, 0);
    out
}

/// -W: reads the archive just written back and checks each member against its file;
/// -v prints `Verify NAME` for each.
fn verify(ctx: &mut Ctx, store: &Store, archive: &[u8]) -> std::io::Result<i32> {
    let entries = parse_archive(archive, false).unwrap_or_default();
    let mut status = 0;
    for e in entries.iter().filter(|e| e.kind != b'V') {
        store.say(ctx, &format!("Verify {}", store.quoting.quote(&e.name)))?;
        if store.xforms.is_empty() && store.mtime.is_none() && store.mode.is_none() {
            status = status.max(compare(ctx, e, &store.at(&e.name))?);
        }
    }
    Ok(status)
}

/// A date option's value: a date, or (starting with '/' or '.') a file whose time is taken.
fn date_value(ctx: &mut Ctx, m: &str) -> Result<i64, ()> {
    if m.starts_with('/') || m.starts_with('.') {
        return match fsx::metadata(m) {
            Ok(meta) => Ok(fsx::mtime(&meta).0),
            Err(e) => {
                ctx.diag.error(format!("{}: Cannot stat: {}", m, reason(&e)));
                Err(())
            }
        };
    }
    match crate::cmd::date::parse_date(m, fsx::now()) {
        Some(t) => Ok(t.0),
        None => {
            ctx.diag.error(format!("Substituting -9223372036854775807 for unknown date format {}", q(m)));
            Err(())
        }
    }
}

/// Every option GNU tar 1.34 knows (`tar --help` on Debian 12). One that the toolbox leaves out is
/// refused as not supported here (exit 2); one GNU does not know either gets argp's usage error (64).
const GNU_LONG: &str = concat!(
    "absolute-names acls add-file after-date anchored append atime-preserve auto-compress backup ",
    "block-number blocking-factor bzip2 catenate check-device check-links checkpoint checkpoint-action ",
    "clamp-mtime compare compress concatenate confirmation create delay-directory-restore delete ",
    "dereference diff directory exclude exclude-backups exclude-caches exclude-caches-all ",
    "exclude-caches-under exclude-from exclude-ignore exclude-ignore-recursive exclude-tag ",
    "exclude-tag-all exclude-tag-under exclude-vcs exclude-vcs-ignores extract file files-from ",
    "force-local format full-time get group group-map gunzip gzip hard-dereference help hole-detection ",
    "ignore-case ignore-command-error ignore-failed-read ignore-zeros incremental index-file info-script ",
    "interactive keep-directory-symlink keep-newer-files keep-old-files label level list ",
    "listed-incremental lzip lzma lzop mode mtime multi-volume new-volume-script newer newer-mtime ",
    "no-acls no-anchored no-auto-compress no-check-device no-delay-directory-restore no-ignore-case ",
    "no-ignore-command-error no-null no-overwrite-dir no-quote-chars no-recursion no-same-owner ",
    "no-same-permissions no-seek no-selinux no-unquote no-verbatim-files-from no-wildcards ",
    "no-wildcards-match-slash no-xattrs null numeric-owner occurrence old-archive one-file-system ",
    "one-top-level overwrite overwrite-dir owner owner-map pax-option portability posix preserve-order ",
    "preserve-permissions quote-chars quoting-style read-full-records record-size recursion ",
    "recursive-unlink remove-files restrict rmt-command rsh-command same-order same-owner ",
    "same-permissions seek selinux show-defaults show-omitted-dirs show-snapshot-field-ranges ",
    "show-stored-names show-transformed-names skip-old-files sort sparse sparse-version starting-file ",
    "strip-components suffix tape-length test-label to-command to-stdout totals touch transform ",
    "uncompress ungzip unlink-first unquote update usage use-compress-program utc verbatim-files-from ",
    "verbose verify version volno-file warning wildcards wildcards-match-slash xattrs xattrs-exclude ",
    "xattrs-include xform xz zstd ",
);
const GNU_SHORT: &str = "AcdrtuxgGnSCTXkUWOmpsfFLMbBiHVaIjJzZhKNPlRvwo";

/// The option a parse error names (`unrecognized option '--x=1'`, `invalid option -- 'G'`), when GNU tar has it.
fn gnu_option_in(msg: &str) -> Option<String> {
    let quoted = msg.split('\'').nth(1)?;
    if let Some(long) = quoted.strip_prefix("--") {
        let name = long.split('=').next().unwrap_or(long);
        return GNU_LONG.split(' ').any(|w| w == name).then(|| format!("--{}", name));
    }
    let short = msg.contains("invalid option") && quoted.chars().count() == 1 && GNU_SHORT.contains(quoted);
    short.then(|| format!("-{}", quoted))
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let args = expand_old_style(args);
    // GNU tar parses with argp: a usage error names --usage too and exits 64 (EX_USAGE).
    if let Err(m) = crate::args::parse(&args, SPECS) {
        if let Some(opt) = gnu_option_in(&m) {
            ctx.diag.error(format!("option '{}' is not supported here (GNU tar has it; this toolbox's tar leaves it out). See 'tar --help' for what is supported.", opt));
            return Ok(2);
        }
        ctx.diag.error(m);
        let _ = writeln!(ctx.diag.raw(), "Try 'tar --help' or 'tar --usage' for more information.");
        return Ok(64);
    }
    let p = getopt!(ctx, &args, SPECS, HELP, 2);
    // GNU also names its remote-tape defaults (--rmt-command, --rsh-command): refused here.
    if p.has("show-defaults") {
        writeln!(ctx.out, "--format=gnu -f- -b20 --quoting-style=escape")?;
        return Ok(0);
    }
    let modes = ["c", "x", "t", "r", "u", "d", "delete", "A", "test-label"].iter().filter(|k| p.has(k)).count();
    if modes != 1 {
        ctx.diag.usage(if modes == 0 { "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options" } else { "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option" });
        return Ok(2);
    }
    if p.has("j") || p.has("J") {
        ctx.diag.error("-j/--bzip2 and -J/--xz compression are not available here (only -z/--gzip)");
        return Ok(2);
    }
    if p.has("W") && !p.has("c") {
        ctx.diag.error("--verify (-W) works only when creating an archive (-c) here");
        return Ok(2);
    }
    let archive = p.last("f").unwrap_or("-").to_string();
    // Each -C is relative to the one before; for extraction and listing the last one holds.
    let dir = p.all("C").into_iter().fold(None, |d: Option<String>, c| Some(at_dir(d.as_deref(), c)));
    let sep = if p.has("null") { 0 } else { b'\n' };
    let unquote = !p.has("no-unquote") && !p.has("verbatim-files-from") && !p.has("null");
    let names = match super::tarname::positional_names(ctx, &p, sep, unquote) {
        Ok(n) => n,
        Err(m) => {
            ctx.diag.error(m);
            return Ok(2);
        }
    };
    let excl_lists = match super::tarname::read_lists(ctx, &p.all("X"), b'\n') {
        Ok(v) => v,
        Err(m) => {
            ctx.diag.error(m);
            return Ok(2);
        }
    };
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
    for (key, slot) in [("owner-map", &mut uid), ("group-map", &mut gid)] {
        if let Some(f) = p.last(key) {
            match std::fs::read_to_string(fsx::host(f)) {
                Ok(text) => {
                    if let Some(m) = super::tarpick::map_owner(&text, slot.0, &slot.1) {
                        *slot = m;
                    }
                }
                Err(e) => {
                    ctx.diag.error(format!("{}: Cannot open: {}", f, reason(&e)));
                    return Ok(2);
                }
            }
        }
    }
    let numeric = p.has("numeric-owner");
    let owner = Owner { uid: uid.0, gid: gid.0, uname: if numeric { String::new() } else { uid.1 }, gname: if numeric { String::new() } else { gid.1 } };
    let mut dates = [None, None];
    for (slot, key) in dates.iter_mut().zip(["mtime", "newer"]) {
        if let Some(m) = p.last(key).or_else(|| if key == "newer" { p.last("newer-mtime") } else { None }) {
            match date_value(ctx, m) {
                Ok(t) => *slot = Some(t),
                Err(()) => return Ok(2),
            }
        }
    }
    let [mtime, newer] = dates;
    let format = if p.has("v7") {
        Format::V7
    } else if p.has("posix") {
        Format::Ustar
    } else {
        match p.last("format").map(|f| (f, format_of(f))) {
            None => Format::Gnu,
            Some((_, Some(f))) => f,
            Some((f, None)) => {
                ctx.diag.error(format!("{}: Invalid archive format", q(f)));
                return Ok(2);
            }
        }
    };
    let record = match (p.last("record-size"), p.last("b")) {
        (Some(r), _) => r.parse::<usize>().ok().filter(|r| *r > 0 && r % 512 == 0).ok_or_else(|| format!("{}: Invalid record size", q(r))),
        (None, Some(b)) => b.parse::<usize>().ok().filter(|b| *b > 0).map(|b| b * 512).ok_or_else(|| format!("{}: Invalid blocking factor", q(b))),
        (None, None) => Ok(10240),
    };
    let record = match record {
        Ok(r) => r,
        Err(m) => {
            ctx.diag.error(m);
            return Ok(2);
        }
    };
    if let Some(h) = p.last("hole-detection") {
        if h != "raw" && h != "seek" {
            ctx.diag.usage(format!("invalid argument {} for '--hole-detection'", q(h)));
            return Ok(2);
        }
    }
    let quoting = super::tarname::Quoting {
        style: match p.last("quoting-style").map(|w| (w, super::tarname::style(w))) {
            None => super::tarname::Style::Escape,
            Some((_, Some(st))) => st,
            Some((w, None)) => {
                ctx.diag.usage(format!("invalid argument {} for '--quoting-style'", q(w)));
                return Ok(2);
            }
        },
        extra: p.all("quote-chars").concat().chars().filter(|c| !p.all("no-quote-chars").concat().contains(*c)).collect(),
    };
    let checkpoints = match super::tarcheckpoint::plan(&p) {
        Ok(c) => c,
        Err(m) => {
            ctx.diag.error(m);
            return Ok(2);
        }
    };
    if let Some(m) = p.last("mode") {
        if crate::host::parse_mode(m, 0).is_none() {
            ctx.diag.error(format!("Invalid mode given on option: {}", m));
            return Ok(2);
        }
    }
    // -vv: members listed as -tv lists them.
    let verbosity = p.opts.iter().filter(|o| o.key == "v").count();
    let mut store = Store {
        dir: dir.clone(),
        excl: excl.clone(),
        anchored: p.opts.iter().rev().find(|o| o.key == "anchored" || o.key == "no-anchored").map_or(false, |o| o.key == "anchored"),
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
        clamp: p.has("clamp-mtime"),
        stored: Default::default(),
        format,
        pick: super::tarpick::Pick::new(&p, newer),
        remove_files: p.has("remove-files"),
        interactive: p.has("w"),
        long_verbose: p.has("utc") || verbosity >= 2,
        full_time: p.has("full-time"),
        show_stored: p.has("show-stored-names"),
        quoting,
        index: std::cell::RefCell::new(p.last("index-file").map(|_| Vec::new())),
    };
    if p.has("c") {
        if names.is_empty() {
            ctx.diag.error("Cowardly refusing to create an empty archive");
            let _ = writeln!(ctx.diag.raw(), "Try 'tar --help' for more information.");
            return Ok(2);
        }
        let mut out = Vec::new();
        if let Some(label) = p.last("V") {
            let nobody = Owner { uid: 0, gid: 0, uname: String::new(), gname: String::new() };
            add_entry(&mut out, label, b'V', &[], 0, mtime.unwrap_or(fsx::now().0), &nobody, format);
        }
        let (body, mut status) = store.members(ctx, &names)?;
        out.extend(body);
        let mut out = finish(out, record);
        let written = out.len();
        checkpoints.report(ctx, "write", written / record)?;
        if p.has("W") {
            status = status.max(verify(ctx, &store, &out)?);
        }
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
        if let (Some(f), Some(buf)) = (p.last("index-file"), store.index.borrow().as_ref()) {
            if let Err(e) = std::fs::write(fsx::host(f), buf) {
                ctx.diag.error(format!("{}: Cannot open: {}", f, reason(&e)));
                status = 2;
            }
        }
        if status != 0 {
            ctx.diag.error("Exiting with failure status due to previous errors");
        }
        return Ok(status);
    }
    // Every other mode reads the archive first.
    let mut raw = Vec::new();
    let r = if archive == "-" { ctx.stdin.read_to_end(&mut raw).map(|_| ()) } else { std::fs::File::open(fsx::host(&archive)).and_then(|mut f| f.read_to_end(&mut raw)).map(|_| ()) };
    let appending = p.has("r") || p.has("u") || p.has("A");
    match r {
        // -r/-u create the archive when it does not exist yet.
        Err(e) if appending && e.kind() == std::io::ErrorKind::NotFound => {}
        // With -z GNU tar opens the archive in its gzip child, which reports the failure.
        Err(e) if gz => {
            let _ = write!(ctx.diag.raw(), "tar (child): {}: Cannot open: {}\ntar (child): Error is not recoverable: exiting now\n", archive, reason(&e));
            ctx.diag.error("Child returned status 2");
            ctx.diag.error("Error is not recoverable: exiting now");
            return Ok(2);
        }
        Err(e) => {
            ctx.diag.error(format!("{}: Cannot open: {}", archive, reason(&e)));
            ctx.diag.error("Error is not recoverable: exiting now");
            return Ok(2);
        }
        Ok(()) => {}
    }
    // GNU tar changes into -C's directory before extracting anything: when it cannot, nothing is
    // extracted and the run ends there.
    if let (true, Some(d)) = (p.has("x"), dir.as_deref()) {
        if !fsx::is_dir(d) {
            let why = match fsx::metadata(d) {
                Ok(_) => "Not a directory".to_string(),
                Err(e) => reason(&e),
            };
            ctx.diag.error(format!("{}: Cannot open: {}", d, why));
            ctx.diag.error("Error is not recoverable: exiting now");
            return Ok(2);
        }
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
            // -z on data that is not gzip: the gzip child's words (after its blank line), then tar's
            Err(m) if gz && !compressed => {
                let _ = write!(ctx.diag.raw(), "\ngzip: stdin: {}\n", m);
                ctx.diag.error("Child returned status 1");
                ctx.diag.error("Error is not recoverable: exiting now");
                return Ok(2);
            }
            Err(m) => {
                ctx.diag.error(format!("{}: {}", archive, m));
                ctx.diag.error("Error is not recoverable: exiting now");
                return Ok(2);
            }
        };
    }
    checkpoints.report(ctx, "read", (raw.len() + record - 1) / record)?;
    let entries = match parse_archive(&raw, p.has("i")) {
        Ok(e) => e,
        Err(m) => {
            ctx.diag.error(m);
            ctx.diag.error("Exiting with failure status due to previous errors");
            return Ok(2);
        }
    };
    // Matching options are positional for member names, as in GNU tar: each name is matched
    // with the --wildcards/--ignore-case/--anchored/--wildcards-match-slash given before it.
    let flags: Vec<MatchFlags> = p.operand_pos.iter().map(|&at| MatchFlags::before(&p.opts[..at.min(p.opts.len())])).collect();
    let last_flags = MatchFlags::before(&p.opts);
    let matches_with = |name: &str, o: &str, f: &MatchFlags| f.matches(name, o);
    let matches = |name: &str, i: usize| matches_with(name, &p.operands[i], flags.get(i).unwrap_or(&last_flags));
    if p.has("test-label") {
        let label = entries.first().filter(|e| e.kind == b'V').map(|e| e.name.clone());
        if p.operands.is_empty() {
            if let Some(l) = label {
                writeln!(ctx.out, "{}", l)?;
            }
            return Ok(0);
        }
        return Ok(if label.map_or(false, |l| p.operands.iter().any(|o| *o == l)) { 0 } else { 1 });
    }
    if appending {
        let mut out = raw[..end_of_members(&entries)].to_vec();
        let mut status = 0;
        if p.has("A") {
            // -A: the members of each archive named, appended as they are.
            for other in &p.operands {
                let read = std::fs::read(fsx::host(other)).map_err(|e| format!("{}: Cannot open: {}", other, reason(&e)));
                let read = read.and_then(|b| if b.starts_with(&[0x1f, 0x8b]) { crate::cmd::gz::decompress(&b).map_err(|m| format!("{}: {}", other, m)) } else { Ok(b) });
                match read.and_then(|b| parse_archive(&b, p.has("i")).map(|e| b[..end_of_members(&e)].to_vec())) {
                    Ok(body) => out.extend(body),
                    Err(m) => {
                        ctx.diag.error(m);
                        status = 2;
                    }
                }
            }
        } else {
            if names.is_empty() {
                return Ok(0);
            }
            if p.has("u") {
                store.stored = entries.iter().map(|e| (e.name.clone(), e.mtime)).collect();
            }
            let (body, st) = store.members(ctx, &names)?;
            out.extend(body);
            status = st;
        }
        if let Err(e) = std::fs::write(fsx::host(&archive), finish(out, record)) {
            ctx.diag.error(format!("{}: Cannot open: {}", archive, reason(&e)));
            return Ok(2);
        }
        return Ok(status);
    }
    if p.has("delete") {
        let mut out = Vec::new();
        let mut seen = vec![false; names.len()];
        for e in &entries {
            let hit: Vec<usize> = names.iter().enumerate().filter(|(_, o)| matches_with(&e.name, &o.0, &last_flags)).map(|(i, _)| i).collect();
            if hit.is_empty() {
                out.extend_from_slice(&raw[e.span.0..e.span.1]);
            }
            for i in hit {
                seen[i] = true;
            }
        }
        if let Err(e) = std::fs::write(fsx::host(&archive), finish(out, record)) {
            ctx.diag.error(format!("{}: Cannot open: {}", archive, reason(&e)));
            return Ok(2);
        }
        let mut status = 0;
        for (i, (o, _)) in names.iter().enumerate() {
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
    let wanted = |name: &str| p.operands.is_empty() || (0..p.operands.len()).any(|i| matches(name, i));
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
    let backup = if p.has("backup") || p.has("suffix") {
        let control = p.last("backup").map(str::to_string).or_else(|| std::env::var("VERSION_CONTROL").ok()).unwrap_or_else(|| "existing".into());
        match super::mv::Backup::parse(&control, p.last("suffix").unwrap_or("~")) {
            Some(b) => Some(b),
            None => {
                ctx.diag.usage(format!("invalid argument {} for 'backup type'", q(&control)));
                return Ok(2);
            }
        }
    } else {
        None
    };
    // -K: members before the first that matches NAME are passed over.
    let mut started = p.last("K").is_none();
    let occurrence = match (p.has("occurrence"), p.last("occurrence")) {
        (false, _) => None,
        (true, None) => Some(1),
        (true, Some(n)) => match n.parse::<usize>() {
            Ok(n) if n > 0 => Some(n),
            _ => {
                ctx.diag.error(format!("{}: Invalid number", q(n)));
                return Ok(2);
            }
        },
    };
    let mut hits = vec![0usize; p.operands.len()];
    // Directories get their times after everything in them is written (GNU's default too).
    let mut dir_times: Vec<(String, i64)> = Vec::new();
    for e in &entries {
        if !started {
            started = p.last("K").map_or(true, |k| matches_with(&e.name, k, &last_flags));
            if !started {
                continue;
            }
        }
        if !wanted(&e.name) || excluded(&e.name, &excl, store.anchored) {
            if e.kind == b'5' && p.has("show-omitted-dirs") && !excluded(&e.name, &excl, store.anchored) {
                ctx.out.flush()?;
                let _ = writeln!(ctx.diag.raw(), "tar: {}: Omitting", quoting_name(&store, e.name.trim_end_matches('/')));
            }
            continue;
        }
        let mut wanted_here = p.operands.is_empty();
        for i in 0..p.operands.len() {
            if matches(&e.name, i) {
                seen[i] = true;
                hits[i] += 1;
                wanted_here |= occurrence.map_or(true, |n| hits[i] == n);
            }
        }
        // --occurrence=N: only the Nth member of each name given.
        if !wanted_here {
            continue;
        }
        // -t prints names as stored unless --show-transformed-names asks for them transformed.
        let listed = if p.has("show-transformed-names") { super::tarxform::apply(&store.xforms, &e.name) } else { e.name.clone() };
        if p.has("t") {
            if p.has("R") {
                write!(ctx.out, "block {}: ", e.span.0 / 512)?;
            }
            if p.has("v") {
                writeln!(ctx.out, "{}", verbose_line(e, numeric, p.has("full-time"), &store.quoting.quote(&listed)))?;
            } else {
                writeln!(ctx.out, "{}", store.quoting.quote(&listed))?;
            }
            continue;
        }
        if e.kind == b'V' {
            if p.has("v") && p.has("x") {
                writeln!(ctx.out, "{}", store.quoting.quote(&e.name))?;
            }
            continue;
        }
        if p.has("w") && !confirm(ctx, "extract", &e.name)? {
            continue;
        }
        if p.has("d") {
            status = status.max(compare(ctx, e, &store.at(&e.name))?);
            continue;
        }
        if p.has("v") {
            let shown = if p.has("utc") || verbosity >= 2 { verbose_line(e, numeric, p.has("full-time"), &store.quoting.quote(&e.name)) } else { store.quoting.quote(&e.name) };
            if p.has("O") {
                let _ = writeln!(ctx.diag.raw(), "{}", shown);
            } else {
                writeln!(ctx.out, "{}", shown)?;
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
                if let Some(b) = backup.as_ref().and_then(|b| b.name(&target)) {
                    if let Err(err) = std::fs::rename(fsx::host(&target), fsx::host(&b)) {
                        ctx.diag.error(format!("{}: Cannot rename to {}: {}", rel, b, reason(&err)));
                        status = 2;
                        continue;
                    }
                }
            }
            // -vv names each directory made for a member whose own directory the archive lacks.
            if verbosity >= 2 && !p.has("O") {
                let comps: Vec<&str> = rel.split('/').collect();
                for k in 1..comps.len() {
                    let d = comps[..k].join("/");
                    if fsx::metadata(&at(&d)).is_err() {
                        writeln!(ctx.out, "{} Creating directory: {}", mode_string(b'5', 0o755), store.quoting.quote(&d))?;
                    }
                }
            }
            let parent = fsx::host(&target).parent().map(|p| p.to_path_buf());
            if let Some(par) = parent {
                let _ = std::fs::create_dir_all(par);
            }
            // A new file, so that the mode it is created with shows the umask.
            let _ = std::fs::remove_file(fsx::host(&target));
            std::fs::write(fsx::host(&target), &e.data)
        };
        match res {
            // A link's own times and bits are not set (both calls would reach its target).
            Ok(()) if e.kind == b'2' => {}
            Ok(()) => {
                if p.has("m") {
                } else if e.kind == b'5' {
                    dir_times.push((target.clone(), e.mtime));
                } else {
                    let _ = fsx::set_times(&fsx::host(&target), None, Some((e.mtime, 0)));
                }
                // Without -p the umask takes its bits away, as for GNU tar run by a user: the
                // mode the file was made with shows which (x follows r).
                let keep_all = p.opts.iter().rev().find(|o| o.key == "p" || o.key == "no-p").map_or(false, |o| o.key == "p");
                let made = crate::host::mode_of(&target, e.kind == b'5');
                let mode = if keep_all { e.mode } else { e.mode & (made | (made & 0o444) >> 2) & 0o777 };
                if e.mode != 0 {
                    let _ = crate::host::set_mode(&target, mode);
                }
            }
            Err(err) => {
                ctx.diag.error(format!("{}: Cannot open: {}", rel, reason(&err)));
                status = 2;
            }
        }
    }
    for (d, t) in dir_times.iter().rev() {
        let _ = fsx::set_times(&fsx::host(d), None, Some((*t, 0)));
    }
    if p.has("t") && p.has("R") {
        let end = end_of_members(&entries);
        let nuls = raw.get(end..end + 512).map_or(false, |b| b.iter().all(|c| *c == 0));
        writeln!(ctx.out, "block {}: ** {} **", end / 512, if nuls { "Block of NULs" } else { "End of File" })?;
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

/// How a member name given on the command line matches members (GNU's defaults: literal,
/// anchored, case-sensitive; with --wildcards a `*` also matches `/`).
struct MatchFlags {
    wildcards: bool,
    icase: bool,
    anchored: bool,
    slash: bool,
}

impl MatchFlags {
    fn before(opts: &[crate::args::Found]) -> MatchFlags {
        let mut f = MatchFlags { wildcards: false, icase: false, anchored: true, slash: true };
        for o in opts {
            match o.key {
                "wildcards" => f.wildcards = true,
                "no-wildcards" => f.wildcards = false,
                "ignore-case" => f.icase = true,
                "no-ignore-case" => f.icase = false,
                "anchored" => f.anchored = true,
                "no-anchored" => f.anchored = false,
                "match-slash" => f.slash = true,
                "no-match-slash" => f.slash = false,
                _ => {}
            }
        }
        f
    }

    fn matches(&self, name: &str, o: &str) -> bool {
        let fold = |s: &str| if self.icase { s.to_lowercase() } else { s.to_string() };
        let (name, o) = (fold(name), fold(o));
        let o = o.trim_end_matches('/');
        let name = name.trim_end_matches('/');
        // --no-wildcards-match-slash: a wildcard stays within one name component.
        let glob = |pat: &str, name: &str| if self.slash { crate::text::glob_match(pat.as_bytes(), name.as_bytes()) } else { super::tarname::glob_components(pat, name) };
        let at = |name: &str| name == o || name.starts_with(&format!("{}/", o)) || (self.wildcards && (glob(o, name) || name.char_indices().any(|(i, c)| c == '/' && glob(o, &name[..i]))));
        // --no-anchored: the name may match from the start of any component.
        at(name) || (!self.anchored && name.char_indices().any(|(i, c)| c == '/' && at(&name[i + 1..])))
    }
}

fn quoting_name(store: &Store, name: &str) -> String {
    store.quoting.quote(name)
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
        check("tar", &["-tf", &arc, "-R"], "", "block 0: a\nblock 2: b\nblock 4: ** Block of NULs **\n", 0);
        check("tar", &["--delete", "-f", &arc, "a"], "", "", 0);
        check("tar", &["-tf", &arc], "", "b\n", 0);
        check("tar", &["--owner=root", "--group=0", "--mode=600", "--mtime=@0", "-cf", &arc, "-C", &d, "a"], "", "", 0);
        check("tar", &["-tvf", &arc], "", "-rw------- root/root         2 1970-01-01 00:00 a\n", 0);
        check("tar", &["-tvf", &arc, "--numeric-owner"], "", "-rw------- 0/0               2 1970-01-01 00:00 a\n", 0);
        // -d: the file on disk has another mode and time.
        check("tar", &["-df", &arc, "-C", &d], "", "a: Mode differs\na: Mod time differs\n", 1);
    }

    #[test]
    fn positional_directories_filters_and_records() {
        let d = tmpdir();
        std::fs::create_dir_all(format!("{}/s/tagged/in", d)).unwrap();
        write(&format!("{}/a", d), "A\n");
        write(&format!("{}/s/b", d), "B\n");
        write(&format!("{}/s/tagged/TAG", d), "");
        write(&format!("{}/s/tagged/in/c", d), "C\n");
        write(&format!("{}/list", d), "a\n");
        let arc = format!("{}/t.tar", d);
        // -C applies to the names after it: `a` of the list is read from the directory before.
        let s = format!("{}/s", d);
        check("tar", &["-cf", &arc, "-C", &d, "-T", &format!("{}/list", d), "-C", "s", "b"], "", "", 0);
        check("tar", &["-tf", &arc], "", "a\nb\n", 0);
        check("tar", &["-cf", &arc, "-C", &s, "--exclude-tag=TAG", "tagged"], "", "", 0);
        check("tar", &["-tf", &arc], "", "tagged/\ntagged/TAG\n", 0);
        check("tar", &["-cf", &arc, "-C", &s, "--exclude-tag-all=TAG", "b", "tagged"], "", "", 0);
        check("tar", &["-tf", &arc], "", "b\n", 0);
        // -b 1: one-block records, so a one-member archive is 4 blocks.
        check("tar", &["-b", "1", "-cf", &arc, "-C", &d, "a"], "", "", 0);
        assert_eq!(std::fs::metadata(&arc).unwrap().len(), 2048);
        // -A appends another archive's members; -K starts the listing at a member.
        let other = format!("{}/u.tar", d);
        check("tar", &["-cf", &other, "-C", &s, "b"], "", "", 0);
        check("tar", &["-Af", &arc, &other], "", "", 0);
        check("tar", &["-tf", &arc], "", "a\nb\n", 0);
        check("tar", &["-tf", &arc, "-K", "b"], "", "b\n", 0);
        check("tar", &["-cf", &arc, "-V", "LBL", "-C", &d, "a"], "", "", 0);
        check("tar", &["--test-label", "-f", &arc], "", "LBL\n", 0);
        check("tar", &["--test-label", "-f", &arc, "other"], "", "", 1);
        // The default quoting style escapes a backslash.
        write(&format!("{}/x\\y", d), "");
        check("tar", &["-cf", &arc, "-C", &d, "x\\y"], "", "", 0);
        check("tar", &["-tf", &arc], "", "x\\\\y\n", 0);
        check("tar", &["-tf", &arc, "--quoting-style=shell"], "", "'x\\y'\n", 0);
    }
}
