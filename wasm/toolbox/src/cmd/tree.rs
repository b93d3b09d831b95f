//! tree [-adfFiqNQpugsDhvtcUr] [-L LEVEL] [-P|-I PATTERN] [--dirsfirst|--filesfirst] [--sort X]
//!      [--du] [--si] [--prune] [--matchdirs] [--ignore-case] [--filelimit N] [--timefmt F]
//!      [--metafirst] [--charset X] [-o FILE] [-J|-X] [--noreport] [DIR]...
//! Output as tree 2.x prints it: ASCII guides in the C locale, UTF-8 ones (a vertical guide of
//! "│" + two no-break spaces + space) when LC_ALL/LC_CTYPE/LANG name UTF-8 or --charset does.
//! The report counts a top directory once it lists something, as tree does.

use crate::args::{flag, val, Spec};
use crate::ctx::{q, Ctx, Res};
use crate::fsx;
use crate::text::glob_match;
use std::cmp::Ordering;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('a', "", "a"),
    flag('d', "", "d"),
    flag('f', "", "f"),
    flag('F', "", "F"),
    flag('i', "", "i"),
    val('L', "", "L"),
    val('I', "", "I"),
    val('P', "", "P"),
    flag('\0', "dirsfirst", "dirsfirst"),
    flag('\0', "filesfirst", "filesfirst"),
    flag('\0', "noreport", "noreport"),
    flag('\0', "ignore-case", "ignore-case"),
    flag('\0', "matchdirs", "matchdirs"),
    flag('\0', "metafirst", "metafirst"),
    flag('\0', "prune", "prune"),
    val('\0', "filelimit", "filelimit"),
    val('o', "", "o"),
    flag('q', "", "q"),
    flag('N', "", "N"),
    flag('Q', "", "Q"),
    flag('p', "", "p"),
    flag('u', "", "u"),
    flag('g', "", "g"),
    flag('s', "", "s"),
    flag('h', "", "h"),
    flag('\0', "si", "si"),
    flag('\0', "du", "du"),
    flag('D', "", "D"),
    val('\0', "timefmt", "timefmt"),
    flag('\0', "inodes", "inodes"),
    flag('\0', "device", "device"),
    flag('v', "", "v"),
    flag('t', "", "t"),
    flag('c', "", "c"),
    flag('U', "", "U"),
    flag('r', "", "r"),
    val('\0', "sort", "sort"),
    flag('J', "", "J"),
    flag('X', "", "X"),
    val('\0', "charset", "charset"),
    // One file system, no symbolic links, never a terminal: these change nothing here.
    flag('l', "", "ignored"),
    flag('x', "", "ignored"),
    flag('R', "", "ignored"),
    flag('n', "", "ignored"),
    // Options of tree that are not built (HTML, colour, VT100/CP437 lines, .gitignore, .info
    // files, path lists): refused by name below.
    flag('C', "", "C"),
    flag('A', "", "A"),
    flag('S', "", "S"),
    val('H', "", "H"),
    val('T', "", "T"),
    flag('\0', "nolinks", "nolinks"),
    val('\0', "hintro", "hintro"),
    val('\0', "houtro", "houtro"),
    flag('\0', "gitignore", "gitignore"),
    val('\0', "gitfile", "gitfile"),
    flag('\0', "info", "info"),
    val('\0', "infofile", "infofile"),
    flag('\0', "fromfile", "fromfile"),
    flag('\0', "fflinks", "fflinks"),
];
const NOT_BUILT: &[(&str, &str)] = &[
    ("C", "-C (colour)"),
    ("A", "-A (VT100 line graphics)"),
    ("S", "-S (CP437 line graphics)"),
    ("H", "-H (HTML output)"),
    ("T", "-T (HTML title)"),
    ("nolinks", "--nolinks (HTML output)"),
    ("hintro", "--hintro (HTML output)"),
    ("houtro", "--houtro (HTML output)"),
    ("gitignore", "--gitignore"),
    ("gitfile", "--gitfile"),
    ("info", "--info"),
    ("infofile", "--infofile"),
    ("fromfile", "--fromfile"),
    ("fflinks", "--fflinks"),
];
const HELP: &str = "usage: tree [-acdfghilnpqrstuvxDFJNQUX] [-L level] [-P pattern] [-I pattern] [-o filename]\n\t[--matchdirs] [--metafirst] [--ignore-case] [--inodes] [--device] [--sort[=]<name>]\n\t[--dirsfirst] [--filesfirst] [--filelimit #] [--si] [--du] [--prune] [--charset[=]X]\n\t[--timefmt[=]format] [--noreport] [--] [directory ...]\n  ------- Listing options -------\n  -a            All files are listed.\n  -d            List directories only.\n  -f            Print the full path prefix for each file.\n  -L level      Descend only level directories deep.\n  -P pattern    List only those files that match the pattern given.\n  -I pattern    Do not list files that match the given pattern.\n  --ignore-case Ignore case when pattern matching.\n  --matchdirs   Include directory names in -P pattern matching.\n  --metafirst   Print meta-data at the beginning of each line.\n  --prune       Prune empty directories from the output.\n  --noreport    Turn off file/directory count at end of tree listing.\n  --charset X   Use charset X for indentation line output.\n  --filelimit # Do not descend dirs with more than # files in them.\n  -o filename   Output to file instead of stdout.\n  ------- File options -------\n  -q            Print non-printable characters as '?'.\n  -N            Print non-printable characters as is.\n  -Q            Quote filenames with double quotes.\n  -p            Print the protections for each file.\n  -u            Displays file owner or UID number.\n  -g            Displays file group owner or GID number.\n  -s            Print the size in bytes of each file.\n  -h            Print the size in a more human readable way.\n  --si          Like -h, but use in SI units (powers of 1000).\n  --du          Compute size of directories by their contents.\n  -D            Print the date of last modification.\n  --timefmt <f> Print and format time according to the format <f>.\n  -F            Appends '/' or '*' as per ls -F.\n  --inodes      Print inode number of each file.\n  --device      Print device ID number to which each file belongs.\n  ------- Sorting options -------\n  -v            Sort files alphanumerically by version.\n  -t            Sort files by last modification time.\n  -c            Sort files by last status change time.\n  -U            Leave files unsorted.\n  -r            Reverse the order of the sort.\n  --dirsfirst   List directories before files (-U disables).\n  --filesfirst  List files before directories (-U disables).\n  --sort X      Select sort: name,version,size,mtime,ctime.\n  ------- Graphics options -------\n  -i            Don't print indentation lines.\n  -n            Turn colorization off always.\n  ------- XML/JSON options -------\n  -X            Prints out an XML representation of the tree.\n  -J            Prints out an JSON representation of the tree.\nNot available here: -C, -A, -S, -H, -T, --nolinks, --hintro, --houtro, --gitignore, --gitfile,\n--info, --infofile, --fromfile, --fflinks.\n";

#[derive(Clone, Copy, PartialEq)]
enum SortBy {
    Name,
    Version,
    Size,
    Time,
    None,
}

struct O {
    all: bool,
    dirs_only: bool,
    full: bool,
    classify: bool,
    no_indent: bool,
    max: Option<usize>,
    ignore: Vec<String>,
    only: Vec<String>,
    icase: bool,
    match_dirs: bool,
    prune: bool,
    file_limit: Option<usize>,
    sort: SortBy,
    reverse: bool,
    dirs_first: bool,
    files_first: bool,
    quote: bool,
    hide_ctrl: bool,
    meta_first: bool,
    // Metadata columns, in tree's order.
    inodes: bool,
    device: bool,
    prot: bool,
    user: bool,
    group: bool,
    size: bool,
    human: bool,
    si: bool,
    du: bool,
    date: bool,
    timefmt: Option<String>,
    utf8: bool,
}

struct Entry {
    name: String,
    path: String,
    is_dir: bool,
    size: u64,
    mode: u32,
    mtime: (i64, u32),
    /// Listed entries of a directory that was opened; None when it was not (depth, file limit).
    children: Option<Vec<Entry>>,
    /// Why a directory was not opened (`--filelimit`).
    note: Option<String>,
    /// A symbolic link's target, and whether it leads to a directory (tree counts those as directories, unopened).
    link: Option<(String, bool)>,
}

fn matches(pats: &[String], name: &str, icase: bool) -> bool {
    pats.iter().any(|p| if icase { glob_match(p.to_lowercase().as_bytes(), name.to_lowercase().as_bytes()) } else { glob_match(p.as_bytes(), name.as_bytes()) })
}

fn entry(name: String, path: String) -> Option<Entry> {
    let m = fsx::symlink_metadata(&path).ok()?;
    let is_dir = m.is_dir();
    let link = if m.file_type().is_symlink() { fsx::read_link(&path).ok().map(|t| (t, fsx::is_dir(&path))) } else { None };
    Some(Entry { mode: crate::host::mode_of(&path, is_dir), size: if is_dir { 4096 } else { m.len() }, mtime: fsx::mtime(&m), is_dir, name, path, children: None, note: None, link })
}

fn compare(a: &Entry, b: &Entry, o: &O) -> Ordering {
    let by_name = || a.name.as_bytes().cmp(b.name.as_bytes());
    let ord = match o.sort {
        SortBy::Name | SortBy::None => by_name(),
        SortBy::Version => super::sort::version_cmp(a.name.as_bytes(), b.name.as_bytes()),
        SortBy::Size => b.size.cmp(&a.size).then_with(by_name),
        SortBy::Time => a.mtime.cmp(&b.mtime).then_with(by_name),
    };
    if o.reverse {
        ord.reverse()
    } else {
        ord
    }
}

/// tree's note for a directory --filelimit keeps closed, counting the entries listed before any
/// pattern (hidden ones only with -a). Reads the directory only when a limit is set.
fn over_limit(dir: &str, o: &O) -> Option<String> {
    let limit = o.file_limit?;
    let count = fsx::read_dir_names(dir).map(|v| v.iter().filter(|n| o.all || !n.starts_with('.')).count()).unwrap_or(0);
    (count > limit).then(|| format!("[{} entries exceeds filelimit, not opening dir]", count))
}

/// The listed entries of `dir`, `depth` levels below a top directory; `shown` is set when the
/// directory itself matched -P with --matchdirs (then everything in it is listed).
fn list(dir: &str, depth: usize, o: &O, shown: bool) -> Vec<Entry> {
    let names = fsx::read_dir_names(dir).unwrap_or_default();
    let mut out = Vec::new();
    for n in names {
        if !o.all && n.starts_with('.') {
            continue;
        }
        if matches(&o.ignore, &n, o.icase) {
            continue;
        }
        let mut e = match entry(n.clone(), fsx::join(dir, &n)) {
            Some(e) => e,
            None => continue,
        };
        if e.is_dir {
            // --matchdirs: a directory matching -P shows all of its own entries (not deeper ones).
            let matched = o.match_dirs && !o.only.is_empty() && matches(&o.only, &n, o.icase);
            if o.max.map(|m| depth < m).unwrap_or(true) {
                e.note = over_limit(&e.path, o);
                if e.note.is_none() {
                    e.children = Some(list(&e.path, depth + 1, o, matched));
                }
            }
            if o.prune && e.children.as_ref().map(|c| c.is_empty()).unwrap_or(true) && e.note.is_none() {
                continue;
            }
        } else if o.dirs_only || (!shown && !o.only.is_empty() && !matches(&o.only, &n, o.icase)) {
            continue;
        }
        out.push(e);
    }
    if o.sort != SortBy::None {
        out.sort_by(|a, b| compare(a, b, o));
        if o.dirs_first {
            out.sort_by_key(|e| !e.is_dir);
        } else if o.files_first {
            out.sort_by_key(|e| e.is_dir);
        }
    }
    out
}

/// Sizes with --du: a directory holds itself and everything below it.
fn add_du(e: &mut Entry) -> u64 {
    if let Some(c) = &mut e.children {
        let inner: u64 = c.iter_mut().map(add_du).sum();
        e.size += inner;
    }
    e.size
}

fn count(entries: &[Entry], n: &mut (u64, u64)) {
    for e in entries {
        if e.is_dir || e.link.as_ref().map_or(false, |l| l.1) {
            n.0 += 1;
            if let Some(c) = &e.children {
                count(c, n);
            }
        } else {
            n.1 += 1;
        }
    }
}

fn shown_name(e: &Entry, o: &O, top: bool) -> String {
    let mut name = if o.full || top { e.path.clone() } else { e.name.clone() };
    if o.hide_ctrl {
        name = name.chars().map(|c| if c.is_control() { '?' } else { c }).collect();
    }
    if o.quote {
        name = format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""));
    }
    if o.classify {
        if e.is_dir {
            if !name.ends_with('/') {
                name.push('/');
            }
        } else if e.mode & 0o111 != 0 {
            name.push('*');
        }
    }
    if let Some((target, _)) = &e.link {
        name = format!("{} -> {}", name, target);
    }
    name
}

/// tree's -h/--si sizes: rounded to the nearest tenth below 10 units, to a whole unit above
/// (printf's %.1f / %.0f), not rounded up as ls and du do.
fn human(n: u64, base: f64, units: &[char]) -> String {
    if (n as f64) < base {
        return n.to_string();
    }
    let mut v = n as f64;
    let mut u = 0;
    while v >= base && u < units.len() - 1 {
        v /= base;
        u += 1;
    }
    if v >= 9.95 {
        format!("{:.0}{}", v, units[u])
    } else {
        format!("{:.1}{}", v, units[u])
    }
}

fn size_text(n: u64, o: &O) -> String {
    if o.si {
        human(n, 1000.0, &[' ', 'k', 'M', 'G', 'T', 'P', 'E'])
    } else if o.human {
        human(n, 1024.0, &[' ', 'K', 'M', 'G', 'T', 'P', 'E'])
    } else {
        n.to_string()
    }
}

fn time_text(e: &Entry, o: &O) -> String {
    match &o.timefmt {
        Some(f) => super::date::format_utc(f, e.mtime.0, e.mtime.1),
        None => super::ls::ls_time(e.mtime.0, fsx::now().0),
    }
}

fn type_char(e: &Entry) -> char {
    if e.is_dir {
        'd'
    } else {
        '-'
    }
}

fn has_meta(o: &O) -> bool {
    o.inodes || o.device || o.prot || o.user || o.group || o.size || o.human || o.si || o.du || o.date || o.timefmt.is_some()
}

/// `[...]  ` before a name, as tree prints its metadata columns.
fn meta(e: &Entry, o: &O) -> String {
    if !has_meta(o) {
        return String::new();
    }
    let mut cols = Vec::new();
    // The workspace has no inode or device numbers (stat prints 0 for them too).
    if o.inodes {
        cols.push(format!("{:>7}", 0));
    }
    if o.device {
        cols.push(format!("{:>3}", 0));
    }
    if o.prot {
        cols.push(format!("{}{}", type_char(e), crate::host::mode_letters(e.mode)));
    }
    if o.user {
        cols.push(format!("{:<8}", super::sysinfo::USER));
    }
    if o.group {
        cols.push(format!("{:<8}", super::sysinfo::USER));
    }
    if o.size || o.human || o.si || o.du {
        let w = if o.human || o.si { 4 } else { 11 };
        cols.push(format!("{:>w$}", size_text(e.size, o), w = w));
    }
    if o.date || o.timefmt.is_some() {
        cols.push(time_text(e, o));
    }
    format!("[{}]  ", cols.join(" "))
}

fn text(out: &mut dyn Write, entries: &[Entry], prefix: &str, o: &O) -> io::Result<()> {
    let (tee, ell, bar) = if o.utf8 { ("├── ", "└── ", "│\u{a0}\u{a0} ") } else { ("|-- ", "`-- ", "|   ") };
    for (i, e) in entries.iter().enumerate() {
        let last = i + 1 == entries.len();
        let branch = if o.no_indent { "" } else if last { ell } else { tee };
        let m = meta(e, o);
        let name = shown_name(e, o, false);
        let note = e.note.as_ref().map(|n| format!("  {}", n)).unwrap_or_default();
        if o.meta_first {
            writeln!(out, "{}{}{}{}{}", m, prefix, branch, name, note)?;
        } else {
            writeln!(out, "{}{}{}{}{}", prefix, branch, m, name, note)?;
        }
        if let Some(c) = &e.children {
            let next = if o.no_indent { String::new() } else { format!("{}{}", prefix, if last { "    " } else { bar }) };
            text(out, c, &next, o)?;
        }
    }
    Ok(())
}

fn json_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The metadata attributes of -J and -X: (name, value, is a number).
fn attrs(e: &Entry, o: &O) -> Vec<(&'static str, String, bool)> {
    let mut v = Vec::new();
    if o.inodes {
        v.push(("inode", "0".into(), true));
    }
    if o.device {
        v.push(("dev", "0".into(), true));
    }
    if o.prot {
        v.push(("mode", format!("{:04o}", e.mode & 0o7777), false));
        v.push(("prot", format!("{}{}", type_char(e), crate::host::mode_letters(e.mode)), false));
    }
    if o.user {
        v.push(("user", super::sysinfo::USER.to_string(), false));
    }
    if o.group {
        v.push(("group", super::sysinfo::USER.to_string(), false));
    }
    if o.size || o.human || o.si || o.du {
        let human = o.human || o.si;
        v.push(("size", size_text(e.size, o), !human));
    }
    if o.date || o.timefmt.is_some() {
        v.push(("time", time_text(e, o), false));
    }
    v
}

fn json(out: &mut dyn Write, entries: &[Entry], indent: usize, o: &O) -> io::Result<()> {
    let pad = " ".repeat(indent);
    for (i, e) in entries.iter().enumerate() {
        let mut obj = format!("{}{{\"type\":\"{}\",\"name\":\"{}\"", pad, if e.is_dir { "directory" } else { "file" }, json_escape(&shown_name(e, o, indent == 2)));
        for (k, v, num) in attrs(e, o) {
            obj.push_str(&if num { format!(",\"{}\":{}", k, v) } else { format!(",\"{}\":\"{}\"", k, json_escape(&v)) });
        }
        let sep = if i + 1 < entries.len() { "," } else { "" };
        match &e.children {
            Some(c) if !c.is_empty() => {
                writeln!(out, "{},\"contents\":[", obj)?;
                json(out, c, indent + 2, o)?;
                writeln!(out, "{}]}}{}", pad, sep)?;
            }
            _ => writeln!(out, "{}}}{}", obj, sep)?,
        }
    }
    Ok(())
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn xml(out: &mut dyn Write, entries: &[Entry], indent: usize, o: &O) -> io::Result<()> {
    let pad = " ".repeat(indent);
    for e in entries {
        let kind = if e.is_dir { "directory" } else { "file" };
        let mut open = format!("{}<{} name=\"{}\"", pad, kind, xml_escape(&shown_name(e, o, indent == 2)));
        for (k, v, _) in attrs(e, o) {
            open.push_str(&format!(" {}=\"{}\"", k, xml_escape(&v)));
        }
        match &e.children {
            Some(c) if !c.is_empty() => {
                writeln!(out, "{}>", open)?;
                xml(out, c, indent + 2, o)?;
                writeln!(out, "{}</{}>", pad, kind)?;
            }
            Some(_) if indent == 2 => writeln!(out, "{}>\n{}</{}>", open, pad, kind)?,
            _ => writeln!(out, "{}></{}>", open, kind)?,
        }
    }
    Ok(())
}

fn locale_is_utf8() -> bool {
    let var = ["LC_ALL", "LC_CTYPE", "LANG"].iter().find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()));
    var.map(|v| {
        let v = v.to_lowercase();
        v.contains("utf-8") || v.contains("utf8")
    })
    .unwrap_or(false)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if let Some((_, what)) = NOT_BUILT.iter().find(|(k, _)| p.has(k)) {
        ctx.diag.error(format!("{} is not supported here; plain, -J (JSON) and -X (XML) listings are", what));
        return Ok(1);
    }
    let max = match p.last("L").map(|v| v.parse::<usize>()) {
        None => None,
        Some(Ok(n)) if n > 0 => Some(n),
        _ => {
            ctx.diag.error(format!("Invalid level, must be greater than 0. ({})", q(p.last("L").unwrap())));
            return Ok(1);
        }
    };
    let file_limit = match p.last("filelimit").map(|v| v.parse::<usize>()) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => {
            ctx.diag.error(format!("invalid file limit {}", q(p.last("filelimit").unwrap())));
            return Ok(1);
        }
    };
    let sort = match p.last("sort") {
        Some("name") => SortBy::Name,
        Some("version") => SortBy::Version,
        Some("size") => SortBy::Size,
        Some("mtime") | Some("ctime") => SortBy::Time,
        Some(other) => {
            ctx.diag.error(format!("sort type '{}' not valid, should be one of: name,version,size,mtime,ctime", other));
            return Ok(1);
        }
        None if p.has("U") => SortBy::None,
        None if p.has("t") || p.has("c") => SortBy::Time,
        None if p.has("v") => SortBy::Version,
        None => SortBy::Name,
    };
    let split = |k: &str| -> Vec<String> { p.all(k).iter().flat_map(|s| s.split('|')).map(|s| s.to_string()).collect() };
    let utf8 = match p.last("charset") {
        Some(c) => {
            let c = c.to_lowercase();
            c == "utf-8" || c == "utf8"
        }
        None => locale_is_utf8(),
    };
    let o = O {
        all: p.has("a"),
        dirs_only: p.has("d"),
        full: p.has("f"),
        classify: p.has("F"),
        no_indent: p.has("i"),
        max,
        ignore: split("I"),
        only: split("P"),
        icase: p.has("ignore-case"),
        match_dirs: p.has("matchdirs"),
        prune: p.has("prune"),
        file_limit,
        sort,
        reverse: p.has("r"),
        dirs_first: p.has("dirsfirst"),
        files_first: p.has("filesfirst"),
        quote: p.has("Q"),
        hide_ctrl: p.has("q"),
        meta_first: p.has("metafirst"),
        inodes: p.has("inodes"),
        device: p.has("device"),
        prot: p.has("p"),
        user: p.has("u"),
        group: p.has("g"),
        size: p.has("s"),
        human: p.has("h"),
        si: p.has("si"),
        du: p.has("du"),
        date: p.has("D"),
        timefmt: p.last("timefmt").map(str::to_string),
        utf8,
    };
    let roots = if p.operands.is_empty() { vec![".".to_string()] } else { p.operands.clone() };
    let mut status = 0;
    let mut tops = Vec::new();
    // (directories, files) for the report; an unreadable top is "[error opening dir]".
    let mut n = (0u64, 0u64);
    for r in &roots {
        match entry(r.clone(), r.clone()) {
            Some(mut e) if e.is_dir => {
                e.note = over_limit(r, &o);
                if e.note.is_some() {
                    n.0 += 1;
                    tops.push(Ok(e));
                    continue;
                }
                let c = list(r, 1, &o, false);
                if !c.is_empty() {
                    n.0 += 1;
                }
                e.children = Some(c);
                if o.du {
                    add_du(&mut e);
                }
                tops.push(Ok(e));
            }
            Some(e) => {
                n.1 += 1;
                tops.push(Err(e.path));
            }
            None => {
                status = 2;
                tops.push(Err(r.clone()));
            }
        }
    }
    for t in tops.iter().flatten() {
        count(t.children.as_deref().unwrap_or(&[]), &mut n);
    }
    let mut buf: Vec<u8> = Vec::new();
    let report = !p.has("noreport");
    if p.has("J") {
        writeln!(buf, "[")?;
        let ok: Vec<&Entry> = tops.iter().flatten().collect();
        for (i, e) in ok.iter().enumerate() {
            json(&mut buf, std::slice::from_ref(*e), 2, &o)?;
            if i + 1 < ok.len() {
                buf.pop();
                writeln!(buf, ",")?;
            }
        }
        if report {
            let files = if o.dirs_only { String::new() } else { format!(",\"files\":{}", n.1) };
            writeln!(buf, ",\n  {{\"type\":\"report\",\"directories\":{}{}}}", n.0, files)?;
        } else {
            writeln!(buf)?;
        }
        writeln!(buf, "]")?;
    } else if p.has("X") {
        writeln!(buf, "<?xml version=\"1.0\"?>\n<tree>")?;
        for e in tops.iter().flatten() {
            xml(&mut buf, std::slice::from_ref(e), 2, &o)?;
        }
        if report {
            writeln!(buf, "  <report>\n    <directories>{}</directories>", n.0)?;
            if !o.dirs_only {
                writeln!(buf, "    <files>{}</files>", n.1)?;
            }
            writeln!(buf, "  </report>")?;
        }
        writeln!(buf, "</tree>")?;
    } else {
        for t in &tops {
            match t {
                Ok(e) => {
                    let note = e.note.as_ref().map(|n| format!("  {}", n)).unwrap_or_default();
                    writeln!(buf, "{}{}{}", meta(e, &o), shown_name(e, &o, true), note)?;
                    text(&mut buf, e.children.as_deref().unwrap_or(&[]), "", &o)?;
                }
                Err(path) => writeln!(buf, "{}  [error opening dir]", path)?,
            }
        }
        if report {
            let dirs = format!("{} director{}", n.0, if n.0 == 1 { "y" } else { "ies" });
            let used = if o.du {
                let total: u64 = tops.iter().flatten().map(|e| e.size).sum();
                format!("{} used in ", if o.human || o.si { format!("{:>5}", size_text(total, &o)) } else { format!("{} bytes", total) })
            } else {
                String::new()
            };
            if o.dirs_only {
                writeln!(buf, "\n{}{}", used, dirs)?;
            } else {
                writeln!(buf, "\n{}{}, {} file{}", used, dirs, n.1, if n.1 == 1 { "" } else { "s" })?;
            }
        }
    }
    match p.last("o") {
        Some(f) => {
            if let Err(e) = std::fs::write(fsx::host(f), &buf) {
                ctx.diag.error(format!("invalid filename '{}': {}", f, crate::ctx::reason(&e)));
                return Ok(1);
            }
        }
        None => ctx.out.write_all(&buf)?,
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        std::fs::create_dir_all(format!("{}/a/b", d)).unwrap();
        write(&format!("{}/x", d), "");
        write(&format!("{}/a/y", d), "");
        write(&format!("{}/.h", d), "");
        let utf8 = ["--charset", "utf-8"];
        check("tree", &[utf8[0], utf8[1], &d], "", &format!("{}\n├── a\n│\u{a0}\u{a0} ├── b\n│\u{a0}\u{a0} └── y\n└── x\n\n3 directories, 2 files\n", d), 0);
        check("tree", &["--charset", "ascii", &d], "", &format!("{}\n|-- a\n|   |-- b\n|   `-- y\n`-- x\n\n3 directories, 2 files\n", d), 0);
        check("tree", &[utf8[0], utf8[1], "-d", &d], "", &format!("{}\n└── a\n    └── b\n\n3 directories\n", d), 0);
        check("tree", &[utf8[0], utf8[1], "-L", "1", "-a", "--noreport", &d], "", &format!("{}\n├── .h\n├── a\n└── x\n", d), 0);
        check("tree", &[utf8[0], utf8[1], "-I", "b|x", &d], "", &format!("{}\n└── a\n    └── y\n\n2 directories, 1 file\n", d), 0);
        check("tree", &["-J", "--noreport", &format!("{}/a", d)], "", &format!("[\n  {{\"type\":\"directory\",\"name\":\"{}/a\",\"contents\":[\n    {{\"type\":\"directory\",\"name\":\"b\"}},\n    {{\"type\":\"file\",\"name\":\"y\"}}\n  ]}}\n\n]\n", d), 0);
        check("tree", &["--charset", "ascii", "-r", "--noreport", "-L", "1", &d], "", &format!("{}\n|-- x\n`-- a\n", d), 0);
    }
}
