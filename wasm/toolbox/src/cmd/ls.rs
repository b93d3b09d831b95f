//! ls [OPTION]... [FILE]...
//!
//! Output is one name per line into a pipe (as GNU ls), columns with -C/-x,
//! commas with -m. Every file belongs to the session's user (`agent`, 1000);
//! directories count 2 links plus one per subdirectory; times are UTC.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use crate::host;
use crate::num::{block_size, human, in_blocks};
use crate::text::glob_match;
use std::fs::Metadata;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('1', "", "1"),
    flag('a', "all", "a"),
    flag('A', "almost-all", "A"),
    flag('d', "directory", "d"),
    flag('F', "classify", "F"),
    flag('p', "", "p"),
    flag('\0', "file-type", "file-type"),
    val('\0', "indicator-style", "indicator-style"),
    flag('h', "human-readable", "h"),
    flag('\0', "si", "si"),
    flag('k', "kibibytes", "k"),
    val('\0', "block-size", "block-size"),
    flag('l', "", "l"),
    flag('g', "", "g"),
    flag('o', "", "o"),
    flag('G', "no-group", "G"),
    flag('n', "numeric-uid-gid", "n"),
    flag('\0', "author", "author"),
    flag('i', "inode", "i"),
    flag('r', "reverse", "r"),
    flag('R', "recursive", "R"),
    flag('S', "", "S"),
    flag('t', "", "t"),
    flag('X', "", "X"),
    flag('v', "", "v"),
    flag('U', "", "U"),
    flag('f', "", "f"),
    val('\0', "sort", "sort"),
    flag('c', "", "c"),
    flag('u', "", "u"),
    val('\0', "time", "time"),
    flag('C', "", "C"),
    flag('x', "", "x"),
    flag('m', "", "m"),
    val('\0', "format", "format"),
    val('w', "width", "w"),
    val('T', "tabsize", "T"),
    flag('Q', "quote-name", "Q"),
    flag('N', "literal", "N"),
    val('\0', "quoting-style", "quoting-style"),
    flag('b', "escape", "b"),
    flag('q', "hide-control-chars", "q"),
    flag('\0', "show-control-chars", "show-control-chars"),
    flag('B', "ignore-backups", "B"),
    val('I', "ignore", "I"),
    val('\0', "hide", "hide"),
    flag('L', "dereference", "L"),
    flag('H', "dereference-command-line", "H"),
    flag('\0', "dereference-command-line-symlink-to-dir", "ignored"),
    optval('\0', "color", "color"),
    optval('\0', "hyperlink", "color"),
    flag('\0', "group-directories-first", "dirs-first"),
    flag('\0', "full-time", "full-time"),
    val('\0', "time-style", "time-style"),
    flag('s', "size", "s"),
    flag('\0', "zero", "zero"),
    flag('Z', "context", "Z"),
    flag('D', "dired", "D"),
];
const HELP: &str = "Usage: ls [OPTION]... [FILE]...\nList information about the FILEs (the current directory by default).\nEntries are sorted by name unless -t, -S, -X, -v, -U or --sort is given.\n\n  -a, --all                  do not ignore entries starting with .\n  -A, --almost-all           do not list implied . and ..\n      --author               with -l, print the author of each file\n  -b, --escape               accepted (names here need no escapes)\n      --block-size=SIZE      with -l, scale sizes by SIZE (K, M, 1K, ...)\n  -B, --ignore-backups       do not list entries ending with ~\n  -c                         with -l: show ctime (the mtime here); alone: sort by it\n  -u                         with -l: show access time; with -t or alone: sort by it\n  -C                         list entries by columns\n  -d, --directory            list directories themselves, not their contents\n  -f                         list all entries in directory order\n  -F, --classify             append indicator (one of */) to entries\n      --file-type            likewise, except do not append '*'\n      --format=WORD          across -x, commas -m, horizontal -x, long -l,\n                             single-column -1, verbose -l, vertical -C\n      --full-time            like -l --time-style=full-iso\n  -g                         like -l, but do not list owner\n      --group-directories-first  group directories before files\n  -G, --no-group             in a long listing, don't print group names\n  -h, --human-readable       with -l and -s, print sizes like 1K 234M 2G\n      --si                   likewise, but use powers of 1000\n  -H, -L                     accepted (the workspace has no symlinks)\n      --hide=PATTERN         do not list entries matching PATTERN\n      --indicator-style=WORD  none, slash (-p), file-type, classify (-F)\n  -i, --inode                print the index number of each file\n  -I, --ignore=PATTERN       do not list entries matching PATTERN\n  -k, --kibibytes            1024-byte blocks for -s\n  -l                         use a long listing format\n  -m                         fill width with a comma separated list of entries\n  -n, --numeric-uid-gid      like -l, but list numeric user and group IDs\n  -N, --literal              print entry names without quoting\n  -o                         like -l, but do not list group information\n  -p                         append / indicator to directories\n  -q, --hide-control-chars   accepted\n  -Q, --quote-name           enclose entry names in double quotes\n      --quoting-style=WORD   literal, shell, shell-always, c, escape\n  -r, --reverse              reverse order while sorting\n  -R, --recursive            list subdirectories recursively\n  -s, --size                 print the allocated size of each file, in blocks\n  -S                         sort by file size, largest first\n      --sort=WORD            none (-U), size (-S), time (-t), version (-v), extension (-X)\n      --time=WORD            atime, access, use: as -u; ctime, status: as -c\n      --time-style=STYLE     full-iso, long-iso, iso, +FORMAT\n  -t                         sort by time, newest first\n  -T, --tabsize=COLS         assume tab stops at each COLS instead of 8\n  -U                         do not sort; list entries in directory order\n  -v                         natural sort of (version) numbers within text\n  -w, --width=COLS           set output width to COLS (default 80)\n  -x                         list entries by lines instead of by columns\n  -X                         sort alphabetically by entry extension\n      --zero                 end each output line with NUL, not newline\n  -Z, --context              print a security context column (always '?': no SELinux here)\n  -1                         list one file per line\n";

#[derive(Clone, Copy, PartialEq, Default)]
enum Key {
    #[default]
    Name,
    Size,
    Time,
    Ext,
    Version,
    None,
}

#[derive(Clone, Copy, PartialEq, Default)]
enum Layout {
    #[default]
    Lines,
    Columns,
    Across,
    Commas,
}

#[derive(Clone, Copy, PartialEq, Default)]
enum Indicator {
    #[default]
    None,
    Slash,
    FileType,
    Classify,
}

#[derive(Default)]
struct Opts {
    all: bool,
    almost: bool,
    dir_self: bool,
    /// -L: entries show what their links point at.
    deref: bool,
    indicator: Indicator,
    human: Option<u64>,
    unit: Option<(u64, String)>,
    long: bool,
    no_owner: bool,
    no_group: bool,
    numeric: bool,
    author: bool,
    inode: bool,
    context: bool,
    reverse: bool,
    recursive: bool,
    key: Key,
    layout: Layout,
    width: usize,
    tabsize: usize,
    quote: Quote,
    hide: Vec<String>,
    backups: bool,
    dirs_first: bool,
    time_style: String,
    blocks: bool,
    kib: bool,
    eol: u8,
    /// -u / --time=atime: show and sort by the access time.
    atime: bool,
}

#[derive(Clone, Copy, PartialEq, Default)]
enum Quote {
    #[default]
    Literal,
    C,
    Shell,
    ShellAlways,
}

struct Entry {
    /// Name as printed (entry name, or the operand as given).
    name: String,
    /// Path used to reach it.
    path: String,
    meta: Option<Metadata>,
}

fn usage(ctx: &mut Ctx, msg: String) -> Res {
    ctx.diag.usage(msg);
    Ok(2)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 2);
    let mut o = Opts { width: 80, tabsize: 8, eol: b'\n', time_style: "locale".into(), ..Opts::default() };
    let mut show_group_only = false;
    let mut time_word = false;
    for f in &p.opts {
        let v = f.val.as_deref().unwrap_or("");
        match f.key {
            "a" => o.all = true,
            "A" => o.almost = true,
            "d" => o.dir_self = true,
            "F" => o.indicator = Indicator::Classify,
            "p" => o.indicator = Indicator::Slash,
            "file-type" => o.indicator = Indicator::FileType,
            "indicator-style" => {
                o.indicator = match v {
                    "none" => Indicator::None,
                    "slash" => Indicator::Slash,
                    "file-type" => Indicator::FileType,
                    "classify" => Indicator::Classify,
                    _ => return usage(ctx, format!("invalid argument {} for '--indicator-style'\nValid arguments are: 'none', 'slash', 'file-type', 'classify'", lq(v))),
                }
            }
            "h" => o.human = Some(1024),
            "si" => o.human = Some(1000),
            "k" => o.kib = true,
            "block-size" => match block_size(v) {
                Some((n, suffix, _)) => o.unit = Some((n, suffix)),
                None => return usage(ctx, format!("invalid --block-size argument {}", lq(v))),
            },
            "l" => o.long = true,
            "g" => (o.long, o.no_owner) = (true, true),
            "o" => (o.long, o.no_group) = (true, true),
            "G" => show_group_only = true,
            "n" => (o.long, o.numeric) = (true, true),
            "author" => o.author = true,
            "i" => o.inode = true,
            "r" => o.reverse = true,
            "R" => o.recursive = true,
            "S" => o.key = Key::Size,
            "t" => o.key = Key::Time,
            "X" => o.key = Key::Ext,
            "v" => o.key = Key::Version,
            "U" => o.key = Key::None,
            "f" => (o.key, o.all, o.long, o.blocks) = (Key::None, true, false, false),
            "sort" => {
                o.key = match v {
                    "none" => Key::None,
                    "size" => Key::Size,
                    "time" => Key::Time,
                    "version" => Key::Version,
                    "extension" => Key::Ext,
                    "name" => Key::Name,
                    _ => return usage(ctx, format!("invalid argument {} for '--sort'\nValid arguments are: 'none', 'time', 'size', 'extension', 'version', 'name'", lq(v))),
                }
            }
            // -u/-c alone also sort by that time; with -l they only pick the time shown. The
            // change time is the modification time here (no ctime is kept).
            "c" | "u" | "time" => {
                o.atime = f.key == "u" || matches!(v, "atime" | "access" | "use");
                time_word = true;
            }
            "C" => o.layout = Layout::Columns,
            "x" => o.layout = Layout::Across,
            "m" => o.layout = Layout::Commas,
            "1" => o.layout = Layout::Lines,
            "format" => match v {
                "across" | "horizontal" => o.layout = Layout::Across,
                "commas" => o.layout = Layout::Commas,
                "vertical" => o.layout = Layout::Columns,
                "single-column" => o.layout = Layout::Lines,
                "long" | "verbose" => o.long = true,
                _ => return usage(ctx, format!("invalid argument {} for '--format'", lq(v))),
            },
            "w" => match v.parse::<usize>() {
                Ok(n) => o.width = if n == 0 { usize::MAX } else { n },
                Err(_) => return usage(ctx, format!("invalid line width: {}", lq(v))),
            },
            "T" => match v.parse::<usize>() {
                Ok(n) => o.tabsize = n,
                Err(_) => return usage(ctx, format!("invalid tab size: {}", lq(v))),
            },
            "Q" => o.quote = Quote::C,
            "N" => o.quote = Quote::Literal,
            "quoting-style" => {
                o.quote = match v {
                    "literal" => Quote::Literal,
                    "c" | "escape" | "c-maybe" => if v == "c" { Quote::C } else { Quote::Literal },
                    "shell" | "shell-escape" => Quote::Shell,
                    "shell-always" | "shell-escape-always" => Quote::ShellAlways,
                    _ => return usage(ctx, format!("invalid argument {} for '--quoting-style'", lq(v))),
                }
            }
            "B" => o.backups = true,
            "I" | "hide" => o.hide.push(v.to_string()),
            "dirs-first" => o.dirs_first = true,
            "full-time" => (o.long, o.time_style) = (true, "full-iso".into()),
            "time-style" => o.time_style = v.trim_start_matches("posix-").to_string(),
            "s" => o.blocks = true,
            "zero" => o.eol = 0,
            "Z" => o.context = true,
            "D" if p.has("l") || p.has("n") || p.has("g") || p.has("o") => return usage(ctx, "--dired (-D) with a long listing is not supported here".into()),
            _ => {}
        }
    }
    if show_group_only {
        o.no_group = true;
    }
    if !["full-iso", "long-iso", "iso", "locale"].contains(&o.time_style.as_str()) && !o.time_style.starts_with('+') {
        return usage(ctx, format!("invalid argument {} for 'time style'\nValid arguments are: 'full-iso', 'long-iso', 'iso', 'locale', '+FORMAT'", lq(&o.time_style)));
    }
    if o.long {
        o.layout = Layout::Lines;
    } else if time_word && o.key == Key::Name {
        o.key = Key::Time;
    }
    let ops = if p.operands.is_empty() { vec![".".to_string()] } else { p.operands.clone() };
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    let mut serious = false;
    // GNU: an operand that is a link is shown as the link with -l/-d/-F (unless -H/-L); else followed.
    let follow_ops = p.has("L") || p.has("H") || !(o.long || o.dir_self || matches!(o.indicator, Indicator::Classify));
    o.deref = p.has("L");
    for op in &ops {
        let looked = if follow_ops { fsx::metadata(op).or_else(|e| fsx::symlink_metadata(op).map_err(|_| e)) } else { fsx::symlink_metadata(op) };
        match looked {
            Ok(m) => {
                let e = Entry { name: op.clone(), path: op.clone(), meta: Some(m) };
                if e.meta.as_ref().unwrap().is_dir() && !o.dir_self {
                    dirs.push(e);
                } else {
                    files.push(e);
                }
            }
            Err(err) => {
                ctx.diag.error(format!("cannot access {}: {}", q(op), reason(&err)));
                serious = true;
            }
        }
    }
    sort(&mut files, &o);
    sort(&mut dirs, &o);
    let now = fsx::now().0;
    if !files.is_empty() {
        print_entries(ctx, &files, &o, now)?;
    }
    let headers = ops.len() > 1 || o.recursive;
    let mut first = files.is_empty();
    for d in dirs {
        list_dir(ctx, &d.path, &o, now, headers, &mut first)?;
    }
    Ok(if serious {
        2
    } else if ctx.diag.failed {
        1
    } else {
        0
    })
}

fn is_dir(e: &Entry) -> bool {
    e.meta.as_ref().map(|m| m.is_dir()).unwrap_or(false)
}

fn is_link(e: &Entry) -> bool {
    e.meta.as_ref().map(|m| m.file_type().is_symlink()).unwrap_or(false)
}

/// The part of a name after its last dot (`-X`), empty for none or a leading dot only.
fn extension(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[i..],
        _ => "",
    }
}

fn sort(v: &mut Vec<Entry>, o: &Opts) {
    if o.key == Key::None {
        if o.dirs_first {
            v.sort_by_key(|e| !is_dir(e));
        }
        return;
    }
    v.sort_by(|a, b| {
        let (ma, mb) = (a.meta.as_ref(), b.meta.as_ref());
        let ord = match o.key {
            Key::Size => mb.map(|m| m.len()).cmp(&ma.map(|m| m.len())),
            Key::Time => mb.map(|m| shown_time(m, o)).cmp(&ma.map(|m| shown_time(m, o))),
            Key::Ext => extension(&a.name).cmp(extension(&b.name)),
            Key::Version => super::sort::version_cmp(a.name.as_bytes(), b.name.as_bytes()),
            _ => std::cmp::Ordering::Equal,
        };
        ord.then_with(|| a.name.cmp(&b.name))
    });
    if o.reverse {
        v.reverse();
    }
    if o.dirs_first {
        // Stable: keeps the chosen order inside each group.
        v.sort_by_key(|e| !is_dir(e));
    }
}

fn hidden(name: &str, o: &Opts) -> bool {
    if name.starts_with('.') && !(o.all || o.almost) {
        return true;
    }
    if o.backups && name.ends_with('~') {
        return true;
    }
    // GNU: --hide does not apply under -a/-A; -I always does. Both are kept in one list here,
    // so both apply unless -a/-A asked for everything.
    !(o.all || o.almost) && o.hide.iter().any(|p| glob_match(p.as_bytes(), name.as_bytes()))
}

fn list_dir(ctx: &mut Ctx, path: &str, o: &Opts, now: i64, header: bool, first: &mut bool) -> io::Result<()> {
    let names = match fsx::read_dir_names(path) {
        Ok(n) => n,
        Err(e) => {
            ctx.diag.error(format!("cannot open directory {}: {}", q(path), reason(&e)));
            return Ok(());
        }
    };
    if header {
        if !*first {
            ctx.out.write_all(b"\n")?;
        }
        writeln!(ctx.out, "{}:", path)?;
    }
    *first = false;
    let mut entries = Vec::new();
    if o.all {
        let here = fsx::metadata(path).ok();
        for n in [".", ".."] {
            // `..` of the preopened root is outside the sandbox: show it
            // with the directory's own details rather than as a file.
            let meta = fsx::metadata(&fsx::join(path, n)).ok().or_else(|| here.clone());
            entries.push(Entry { name: n.into(), path: fsx::join(path, n), meta });
        }
    }
    for n in names {
        if hidden(&n, o) {
            continue;
        }
        let p = fsx::join(path, &n);
        let lmeta = fsx::symlink_metadata(&p).ok();
        let meta = if o.deref { fsx::metadata(&p).ok().or(lmeta) } else { lmeta };
        entries.push(Entry { name: n, path: p, meta });
    }
    sort(&mut entries, o);
    if o.long || o.blocks {
        let kib: u64 = entries.iter().filter_map(|e| e.meta.as_ref()).map(kib_of).sum();
        writeln!(ctx.out, "total {}", block_cell(kib, o))?;
    }
    print_entries(ctx, &entries, o, now)?;
    if o.recursive {
        for e in &entries {
            if e.name == "." || e.name == ".." {
                continue;
            }
            if is_dir(e) {
                list_dir(ctx, &e.path, o, now, true, first)?;
            }
        }
    }
    Ok(())
}

/// 1K blocks an entry occupies: none for a link (its target text lives in the inode).
fn kib_of(m: &std::fs::Metadata) -> u64 {
    if m.file_type().is_symlink() {
        0
    } else {
        blocks_1k(m.len())
    }
}

/// Space a file occupies in 1K blocks, assuming 4K allocation units.
fn blocks_1k(len: u64) -> u64 {
    (len + 4095) / 4096 * 4
}

/// A count of 1K blocks as -s and `total` print it (-h, --si, --block-size, -k).
fn block_cell(kib: u64, o: &Opts) -> String {
    match (o.human, &o.unit) {
        (Some(1000), _) => human_si(kib * 1024),
        (Some(_), _) => human(kib * 1024),
        (None, Some((n, suffix))) if !o.kib => format!("{}{}", in_blocks(kib * 1024, *n), suffix),
        _ => kib.to_string(),
    }
}

/// Sizes in powers of 1000, as --si prints them (lowercase k).
pub fn human_si(n: u64) -> String {
    const UNITS: [&str; 7] = ["", "k", "M", "G", "T", "P", "E"];
    if n < 1000 {
        return n.to_string();
    }
    let (mut v, mut u) = (n as f64, 0);
    while v >= 1000.0 && u < UNITS.len() - 1 {
        v /= 1000.0;
        u += 1;
    }
    if v < 10.0 {
        format!("{:.1}{}", (v * 10.0).ceil() / 10.0, UNITS[u])
    } else {
        format!("{}{}", v.ceil() as u64, UNITS[u])
    }
}

/// A file's size as the long listing prints it.
fn size_cell(len: u64, o: &Opts) -> String {
    match (o.human, &o.unit) {
        (Some(1000), _) => human_si(len),
        (Some(_), _) => human(len),
        (None, Some((n, suffix))) => format!("{}{}", in_blocks(len, *n), suffix),
        _ => len.to_string(),
    }
}

fn quoted(name: &str, o: &Opts) -> String {
    let plain = name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-+/,:@%=^".contains(&b));
    match o.quote {
        Quote::Literal => name.to_string(),
        Quote::C => format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\"")),
        Quote::Shell if plain => name.to_string(),
        Quote::Shell | Quote::ShellAlways => format!("'{}'", name.replace('\'', "'\\''")),
    }
}

/// Name, quoted and followed by its -F/-p indicator.
fn display(e: &Entry, o: &Opts) -> String {
    let dir = is_dir(e);
    let link = is_link(e);
    let exec = !dir && !link && e.meta.is_some() && host::mode_of(&e.path, false) & 0o111 != 0;
    let mark = match o.indicator {
        Indicator::None => "",
        _ if dir => "/",
        Indicator::Classify | Indicator::FileType if link && !o.long => "@",
        Indicator::Classify if exec => "*",
        _ => "",
    };
    format!("{}{}", quoted(&e.name, o), mark)
}

/// The inode column of -i: the listing's number for each entry.
fn inode(e: &Entry) -> u64 {
    fsx::inode(&e.path).unwrap_or(0)
}

/// Links as stat shows them: 1 for a file, 2 plus one per subdirectory for a directory.
pub fn link_count(path: &str, dir: bool) -> u64 {
    if !dir {
        return 1;
    }
    let subdirs = fsx::read_dir_typed(path).map(|v| v.iter().filter(|(_, t)| t.is_dir()).count()).unwrap_or(0);
    2 + subdirs as u64
}

fn print_entries(ctx: &mut Ctx, es: &[Entry], o: &Opts, now: i64) -> io::Result<()> {
    // Prefix columns (-i, -s), each right-aligned to its widest cell.
    let mut prefix = vec![String::new(); es.len()];
    let mut add_column = |cells: Vec<String>| {
        let w = cells.iter().map(|c| c.len()).max().unwrap_or(0);
        for (p, c) in prefix.iter_mut().zip(cells) {
            p.push_str(&format!("{:>w$} ", c, w = w));
        }
    };
    if o.inode {
        add_column(es.iter().map(|e| inode(e).to_string()).collect());
    }
    if o.blocks {
        add_column(es.iter().map(|e| block_cell(e.meta.as_ref().map(kib_of).unwrap_or(0), o)).collect());
    }
    if o.context && !o.long {
        add_column(vec!["?".to_string(); es.len()]);
    }
    if !o.long {
        let cells: Vec<String> = es.iter().zip(&prefix).map(|(e, p)| format!("{}{}", p, display(e, o))).collect();
        return layout(ctx, &cells, o);
    }
    let mut rows: Vec<Vec<String>> = Vec::new();
    for e in es {
        let (user, uid) = host::owner_of(&e.path);
        let owner = if o.numeric { uid.to_string() } else { user.to_string() };
        let m = e.meta.as_ref();
        let dir = is_dir(e);
        let mode = if is_link(e) {
            "lrwxrwxrwx".to_string()
        } else {
            format!("{}{}", if dir { 'd' } else { '-' }, host::mode_letters(host::mode_of(&e.path, dir)))
        };
        let mut row = vec![mode, link_count(&e.path, dir).to_string()];
        if !o.no_owner {
            row.push(owner.clone());
        }
        if !o.no_group {
            row.push(owner.clone());
        }
        if o.author {
            row.push(owner.clone());
        }
        if o.context {
            row.push("?".into());
        }
        row.push(size_cell(m.map(|m| m.len()).unwrap_or(0), o));
        row.push(when(m.map(|m| shown_time(m, o)).unwrap_or((0, 0)), now, &o.time_style));
        rows.push(row);
    }
    let n = rows.first().map(|r| r.len()).unwrap_or(0);
    let widths: Vec<usize> = (0..n).map(|i| rows.iter().map(|r| r[i].len()).max().unwrap_or(0)).collect();
    let owners = [!o.no_owner, !o.no_group, o.author, o.context].iter().filter(|&&b| b).count();
    for ((row, e), p) in rows.iter().zip(es).zip(&prefix) {
        let mut line = p.clone();
        for (i, cell) in row.iter().enumerate() {
            let w = widths[i];
            // Owner and group are left-aligned, numbers right-aligned, the time as is.
            let left = i >= 2 && i < 2 + owners && !o.numeric;
            if i > 0 {
                line.push(' ');
            }
            if left {
                line.push_str(&format!("{:<w$}", cell, w = w));
            } else if i == n - 1 {
                line.push_str(cell);
            } else {
                line.push_str(&format!("{:>w$}", cell, w = w));
            }
        }
        write!(ctx.out, "{} {}", line, display(e, o))?;
        if is_link(e) {
            write!(ctx.out, " -> {}", quoted(&fsx::read_link(&e.path).unwrap_or_default(), o))?;
        }
        ctx.out.write_all(&[o.eol])?;
    }
    Ok(())
}

/// The time column for a --time-style.
fn shown_time(m: &Metadata, o: &Opts) -> (i64, u32) {
    if o.atime {
        fsx::atime(m)
    } else {
        fsx::mtime(m)
    }
}

fn when(t: (i64, u32), now: i64, style: &str) -> String {
    match style {
        "full-iso" => full_time(t),
        "long-iso" => full_time(t)[..16].to_string(),
        "iso" => {
            let full = full_time(t);
            if t.0 > now - 31_556_952 / 2 && t.0 <= now + 60 { full[5..16].to_string() } else { format!("{} ", &full[..10]) }
        }
        f if f.starts_with('+') => super::date::format_local(&f[1..], t.0, t.1),
        _ => ls_time(t.0, now),
    }
}

/// Width a cell takes on screen (names here are UTF-8; each char counts one).
fn cell_width(s: &str) -> usize {
    s.chars().count()
}

/// Moves from column `from` to `to` as GNU ls does: tabs when the tab size allows, then spaces.
fn indent(out: &mut String, mut from: usize, to: usize, tab: usize) {
    while from < to {
        if tab != 0 && to / tab > (from + 1) / tab {
            out.push('\t');
            from += tab - from % tab;
        } else {
            out.push(' ');
            from += 1;
        }
    }
}

fn layout(ctx: &mut Ctx, cells: &[String], o: &Opts) -> io::Result<()> {
    let eol = o.eol as char;
    let mut out = String::new();
    match o.layout {
        Layout::Lines => {
            for c in cells {
                out.push_str(c);
                out.push(eol);
            }
        }
        Layout::Commas => {
            let mut pos = 0;
            for (i, c) in cells.iter().enumerate() {
                let len = cell_width(c);
                if i > 0 {
                    if pos + len + 2 < o.width {
                        out.push_str(", ");
                        pos += 2;
                    } else {
                        out.push(',');
                        out.push(eol);
                        pos = 0;
                    }
                }
                out.push_str(c);
                pos += len;
            }
            if !cells.is_empty() {
                out.push(eol);
            }
        }
        Layout::Columns | Layout::Across => {
            let n = cells.len();
            let lens: Vec<usize> = cells.iter().map(|c| cell_width(c)).collect();
            let across = o.layout == Layout::Across;
            // The most columns whose widths (widest cell + 2, the last without the 2) fit.
            let mut chosen = (1, vec![lens.iter().copied().max().unwrap_or(0)]);
            for cols in (1..=n.max(1)).rev() {
                let rows = (n + cols - 1) / cols;
                let cols = if across { cols } else { (n + rows - 1) / rows };
                let mut w = vec![0usize; cols];
                for (i, &l) in lens.iter().enumerate() {
                    let c = if across { i % cols } else { i / rows };
                    w[c] = w[c].max(l);
                }
                let total: usize = w.iter().sum::<usize>() + 2 * (cols - 1);
                if total < o.width || cols == 1 {
                    chosen = (cols, w);
                    break;
                }
            }
            let (cols, w) = chosen;
            let rows = if n == 0 { 0 } else { (n + cols - 1) / cols };
            for r in 0..rows {
                let mut pos = 0;
                let mut line = String::new();
                for c in 0..cols {
                    let i = if across { r * cols + c } else { c * rows + r };
                    if i >= n {
                        break;
                    }
                    let start: usize = w[..c].iter().map(|x| x + 2).sum();
                    indent(&mut line, pos, start, o.tabsize);
                    line.push_str(&cells[i]);
                    pos = start + lens[i];
                }
                out.push_str(&line);
                out.push(eol);
            }
        }
    }
    ctx.out.write_all(out.as_bytes())
}

/// (year, month, day) of a day count since 1970-01-01 (one implementation, in date.rs).
pub use super::date::days_to_civil as civil_from_days;

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// `Mon DD HH:MM` for the last six months, `Mon DD  YYYY` otherwise (GNU).
/// The time column in local time (TZ); the six-month window is measured in absolute time.
pub fn ls_time(t: i64, now: i64) -> String {
    let local = t + crate::tz::Zone::local(t).off;
    let (y, m, d) = civil_from_days(local.div_euclid(86400));
    let s = local.rem_euclid(86400);
    let six_months = 31_556_952 / 2;
    if t > now - six_months && t <= now + 60 {
        format!("{} {:>2} {:02}:{:02}", MONTHS[m as usize - 1], d, s / 3600, s % 3600 / 60)
    } else {
        format!("{} {:>2}  {}", MONTHS[m as usize - 1], d, y)
    }
}

/// `YYYY-MM-DD hh:mm:ss.nnnnnnnnn +hhmm` in local time (TZ), as --full-time and stat print.
pub fn full_time(t: (i64, u32)) -> String {
    let off = crate::tz::Zone::local(t.0).off;
    let local = t.0 + off;
    let (y, m, d) = civil_from_days(local.div_euclid(86400));
    let s = local.rem_euclid(86400);
    format!("{}-{:02}-{:02} {:02}:{:02}:{:02}.{:09} {}", y, m, d, s / 3600, s % 3600 / 60, s % 60, t.1, crate::tz::offset_text(off))
}

#[cfg(test)]
mod tests {
    use super::{civil_from_days, ls_time};
    use crate::testutil::{check, check_err, tmpdir, write};

    #[test]
    fn times() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19782), (2024, 2, 29));
        let now = 1_709_209_800; // 2024-02-29 12:30 UTC
        assert_eq!(ls_time(now - 3600, now), "Feb 29 11:30");
        assert_eq!(ls_time(946_684_800, now), "Jan  1  2000");
    }

    #[test]
    fn listing() {
        let d = tmpdir();
        write(&format!("{}/b.txt", d), "12345");
        write(&format!("{}/a.txt", d), "1");
        write(&format!("{}/.hidden", d), "");
        std::fs::create_dir(format!("{}/sub", d)).unwrap();
        write(&format!("{}/sub/x", d), "xx");
        let t = |name: &str, secs: i64| crate::fsx::set_times(std::path::Path::new(&format!("{}/{}", d, name)), Some((secs, 0)), Some((secs, 0))).unwrap();
        t("a.txt", 946_684_800);
        t("b.txt", 946_684_900);
        t("sub", 946_684_700);
        let cases: &[(&[&str], &str)] = &[
            (&[], "a.txt\nb.txt\nsub\n"),
            (&["-a"], ".\n..\n.hidden\na.txt\nb.txt\nsub\n"),
            (&["-A"], ".hidden\na.txt\nb.txt\nsub\n"),
            (&["-r"], "sub\nb.txt\na.txt\n"),
            (&["-t"], "b.txt\na.txt\nsub\n"),
            (&["-S"], "sub\nb.txt\na.txt\n"),
            (&["-p"], "a.txt\nb.txt\nsub/\n"),
            (&["--group-directories-first"], "sub\na.txt\nb.txt\n"),
        ];
        for (args, out) in cases {
            let mut a: Vec<&str> = args.to_vec();
            a.push(&d);
            check("ls", &a, "", out, 0);
        }
        check("ls", &["-R", &d], "", &format!("{d}:\na.txt\nb.txt\nsub\n\n{d}/sub:\nx\n", d = d), 0);
        let (fa, fb) = (format!("{}/a.txt", d), format!("{}/b.txt", d));
        check("ls", &["-l", &fb, &fa], "", &format!("-rw-r--r-- 1 agent agent 1 Jan  1  2000 {}\n-rw-r--r-- 1 agent agent 5 Jan  1  2000 {}\n", fa, fb), 0);
        let (_, long, _) = crate::testutil::run("ls", &["-l", &d], "");
        assert!(long.starts_with("total ") && long.contains(" Dec 31  1999 sub\n"), "{}", long);
        check("ls", &["-d", &d], "", &format!("{}\n", d), 0);
        check("ls", &["-m", &d], "", "a.txt, b.txt, sub\n", 0);
        check("ls", &["-x", "-w", "12", &d], "", "a.txt\nb.txt\nsub\n", 0);
        check("ls", &["-x", "-w", "13", &d], "", "a.txt  b.txt\nsub\n", 0);
        check("ls", &["-C", "-w", "13", &d], "", "a.txt  sub\nb.txt\n", 0);
        check("ls", &["-Q", "-F", "-B", "--hide=b*", &d], "", "\"a.txt\"\n\"sub\"/\n", 0);
        check("ls", &["-X", "-r", &d], "", "b.txt\na.txt\nsub\n", 0);
        let a = format!("{}/a.txt", d);
        check("ls", &[&a], "", &format!("{}\n", a), 0);
        let m = format!("{}/missing", d);
        check_err("ls", &[&m], "", &format!("ls: cannot access '{}': No such file or directory\n", m), 2);
        check_err("ls", &["-Y"], "", "ls: invalid option -- 'Y'\nTry 'ls --help' for more information.\n", 2);
    }
}
