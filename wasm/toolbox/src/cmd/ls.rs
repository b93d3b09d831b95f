//! ls [-1aAdFhlprRStU] [FILE]...
//!
//! Output is always one name per line (what GNU ls prints into a pipe).
//! The workspace has no owners or permission bits: -l shows `-rw-r--r--`
//! for files and `drwxr-xr-x` for directories, owner and group `user`,
//! and times in UTC.

use crate::args::{flag, optval, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use crate::host;
use crate::num::human;
use std::fs::Metadata;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('1', "", "1"),
    flag('a', "all", "a"),
    flag('A', "almost-all", "A"),
    flag('d', "directory", "d"),
    flag('F', "classify", "F"),
    flag('p', "", "p"),
    flag('h', "human-readable", "h"),
    flag('l', "", "l"),
    flag('g', "", "l"),
    flag('o', "", "l"),
    flag('r', "reverse", "r"),
    flag('R', "recursive", "R"),
    flag('S', "", "S"),
    flag('t', "", "t"),
    flag('U', "", "U"),
    flag('C', "", "1"),
    flag('x', "", "1"),
    optval('\0', "color", "color"),
    flag('\0', "group-directories-first", "dirs-first"),
    flag('\0', "full-time", "full-time"),
    flag('s', "size", "s"),
];
const HELP: &str = "Usage: ls [OPTION]... [FILE]...\nList information about the FILEs (the current directory by default).\nEntries are sorted by name unless -t, -S or -U is given.\n\n  -a, --all                  do not ignore entries starting with .\n  -A, --almost-all           do not list implied . and ..\n  -d, --directory            list directories themselves, not their contents\n  -F, --classify             append / to directories\n  -p                         append / to directories\n  -h, --human-readable       with -l, print sizes like 1K 234M 2G\n  -l                         use a long listing format\n  -r, --reverse              reverse order while sorting\n  -R, --recursive            list subdirectories recursively\n  -s, --size                 print the allocated size of each file, in blocks\n  -S                         sort by file size, largest first\n  -t                         sort by time, newest first\n  -U                         do not sort; list entries in directory order\n  -1                         list one file per line (always the case here)\n      --group-directories-first  group directories before files\n";

#[derive(Default)]
struct Opts {
    all: bool,
    almost: bool,
    dir_self: bool,
    slash: bool,
    human: bool,
    long: bool,
    reverse: bool,
    recursive: bool,
    by_size: bool,
    by_time: bool,
    unsorted: bool,
    dirs_first: bool,
    full_time: bool,
    blocks: bool,
}

struct Entry {
    /// Name as printed (entry name, or the operand as given).
    name: String,
    /// Path used to reach it.
    path: String,
    meta: Option<Metadata>,
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 2);
    let mut o = Opts::default();
    for f in &p.opts {
        match f.key {
            "a" => o.all = true,
            "A" => o.almost = true,
            "d" => o.dir_self = true,
            "F" | "p" => o.slash = true,
            "h" => o.human = true,
            "l" => o.long = true,
            "r" => o.reverse = true,
            "R" => o.recursive = true,
            "S" => o.by_size = true,
            "t" => o.by_time = true,
            "U" => o.unsorted = true,
            "dirs-first" => o.dirs_first = true,
            "full-time" => (o.long, o.full_time) = (true, true),
            "s" => o.blocks = true,
            _ => {}
        }
    }
    let ops = if p.operands.is_empty() { vec![".".to_string()] } else { p.operands.clone() };
    let mut files = Vec::new();
    let mut dirs = Vec::new();
    let mut serious = false;
    for op in &ops {
        match fsx::metadata(op) {
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
        print_entries(ctx, &files, &o, now, false)?;
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

fn sort(v: &mut Vec<Entry>, o: &Opts) {
    if o.unsorted {
        return;
    }
    v.sort_by(|a, b| {
        let (ma, mb) = (a.meta.as_ref(), b.meta.as_ref());
        let mut ord = std::cmp::Ordering::Equal;
        if o.by_size {
            ord = mb.map(|m| m.len()).cmp(&ma.map(|m| m.len()));
        } else if o.by_time {
            ord = mb.map(fsx::mtime).cmp(&ma.map(fsx::mtime));
        }
        ord.then_with(|| a.name.cmp(&b.name))
    });
    if o.reverse {
        v.reverse();
    }
    if o.dirs_first {
        // Stable: keeps the chosen order inside each group.
        v.sort_by_key(|e| !e.meta.as_ref().map(|m| m.is_dir()).unwrap_or(false));
    }
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
        if n.starts_with('.') && !(o.all || o.almost) {
            continue;
        }
        let p = fsx::join(path, &n);
        let meta = fsx::symlink_metadata(&p).ok();
        entries.push(Entry { name: n, path: p, meta });
    }
    sort(&mut entries, o);
    if o.long || o.blocks {
        let blocks: u64 = entries.iter().filter_map(|e| e.meta.as_ref()).map(|m| blocks_1k(m.len())).sum();
        if o.human {
            writeln!(ctx.out, "total {}", human(blocks * 1024))?;
        } else {
            writeln!(ctx.out, "total {}", blocks)?;
        }
    }
    print_entries(ctx, &entries, o, now, true)?;
    if o.recursive {
        for e in &entries {
            if e.name == "." || e.name == ".." {
                continue;
            }
            if e.meta.as_ref().map(|m| m.is_dir()).unwrap_or(false) {
                list_dir(ctx, &e.path, o, now, true, first)?;
            }
        }
    }
    Ok(())
}

/// Space a file occupies in 1K blocks, assuming 4K allocation units.
fn blocks_1k(len: u64) -> u64 {
    (len + 4095) / 4096 * 4
}

/// The -s column: allocated size, right-aligned to the widest.
fn block_column(es: &[Entry], o: &Opts) -> Vec<String> {
    if !o.blocks {
        return vec![String::new(); es.len()];
    }
    let cells: Vec<String> = es
        .iter()
        .map(|e| {
            let b = e.meta.as_ref().map(|m| blocks_1k(m.len())).unwrap_or(0);
            if o.human {
                human(b * 1024)
            } else {
                b.to_string()
            }
        })
        .collect();
    let w = cells.iter().map(|c| c.len()).max().unwrap_or(0);
    cells.into_iter().map(|c| format!("{:>w$} ", c, w = w)).collect()
}

fn print_entries(ctx: &mut Ctx, es: &[Entry], o: &Opts, now: i64, _in_dir: bool) -> io::Result<()> {
    let sizes = block_column(es, o);
    if !o.long {
        for (e, b) in es.iter().zip(&sizes) {
            let slash = if o.slash && e.meta.as_ref().map(|m| m.is_dir()).unwrap_or(false) { "/" } else { "" };
            writeln!(ctx.out, "{}{}{}", b, e.name, slash)?;
        }
        return Ok(());
    }
    let rows: Vec<(String, String, String, &Entry)> = es
        .iter()
        .map(|e| {
            let m = e.meta.as_ref();
            let is_dir = m.map(|m| m.is_dir()).unwrap_or(false);
            let mode = if m.map(|m| m.file_type().is_symlink()).unwrap_or(false) {
                "lrwxrwxrwx".to_string()
            } else {
                format!("{}{}", if is_dir { 'd' } else { '-' }, host::mode_letters(host::mode_of(&e.path, is_dir)))
            };
            let len = m.map(|m| m.len()).unwrap_or(0);
            let size = if o.human { human(len) } else { len.to_string() };
            let t = m.map(fsx::mtime).unwrap_or((0, 0));
            let when = if o.full_time { full_time(t) } else { ls_time(t.0, now) };
            (mode, size, when, e)
        })
        .collect();
    let w = rows.iter().map(|r| r.1.len()).max().unwrap_or(1);
    for ((mode, size, when, e), b) in rows.into_iter().zip(&sizes) {
        let is_dir = mode.starts_with('d');
        let links = if is_dir { 2 } else { 1 };
        let slash = if o.slash && is_dir { "/" } else { "" };
        writeln!(ctx.out, "{}{} {} user user {:>w$} {} {}{}", b, mode, links, size, when, e.name, slash, w = w)?;
    }
    Ok(())
}

/// (year, month, day) of a day count since 1970-01-01 (one implementation, in date.rs).
pub use super::date::days_to_civil as civil_from_days;

const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// `Mon DD HH:MM` for the last six months, `Mon DD  YYYY` otherwise (GNU).
pub fn ls_time(t: i64, now: i64) -> String {
    let (y, m, d) = civil_from_days(t.div_euclid(86400));
    let s = t.rem_euclid(86400);
    let six_months = 31_556_952 / 2;
    if t > now - six_months && t <= now + 60 {
        format!("{} {:>2} {:02}:{:02}", MONTHS[m as usize - 1], d, s / 3600, s % 3600 / 60)
    } else {
        format!("{} {:>2}  {}", MONTHS[m as usize - 1], d, y)
    }
}

fn full_time(t: (i64, u32)) -> String {
    let (y, m, d) = civil_from_days(t.0.div_euclid(86400));
    let s = t.0.rem_euclid(86400);
    format!("{}-{:02}-{:02} {:02}:{:02}:{:02}.{:09} +0000", y, m, d, s / 3600, s % 3600 / 60, s % 60, t.1)
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
        check("ls", &["-l", &fb, &fa], "", &format!("-rw-r--r-- 1 user user 1 Jan  1  2000 {}\n-rw-r--r-- 1 user user 5 Jan  1  2000 {}\n", fa, fb), 0);
        let (_, long, _) = crate::testutil::run("ls", &["-l", &d], "");
        assert!(long.starts_with("total ") && long.contains(" Dec 31  1999 sub\n"), "{}", long);
        check("ls", &["-d", &d], "", &format!("{}\n", d), 0);
        let a = format!("{}/a.txt", d);
        check("ls", &[&a], "", &format!("{}\n", a), 0);
        let m = format!("{}/missing", d);
        check_err("ls", &[&m], "", &format!("ls: cannot access '{}': No such file or directory\n", m), 2);
        check_err("ls", &["-Q"], "", "ls: invalid option -- 'Q'\nTry 'ls --help' for more information.\n", 2);
    }
}
