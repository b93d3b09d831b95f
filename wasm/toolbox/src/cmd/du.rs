//! du [-abchks] [-d N] [--apparent-size] [FILE]...
//!
//! Disk usage is estimated as the apparent size rounded up to 4 KiB
//! allocation units (the workspace does not store blocks); -b and
//! --apparent-size report exact byte totals.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use crate::num::human;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('a', "all", "a"),
    flag('b', "bytes", "b"),
    flag('\0', "apparent-size", "apparent"),
    flag('c', "total", "c"),
    flag('h', "human-readable", "h"),
    flag('k', "", "k"),
    flag('m', "", "m"),
    flag('s', "summarize", "s"),
    val('d', "max-depth", "d"),
    flag('L', "dereference", "ignored"),
    flag('x', "one-file-system", "ignored"),
    val('\0', "exclude", "exclude"),
    flag('S', "separate-dirs", "S"),
    val('B', "block-size", "B"),
    flag('0', "null", "0"),
    // No symlinks or hard links exist here, so these change nothing.
    flag('P', "no-dereference", "ignored"),
    flag('D', "dereference-args", "ignored"),
    flag('H', "", "ignored"),
    flag('l', "count-links", "ignored"),
    val('t', "threshold", "t"),
    flag('\0', "si", "si"),
    val('X', "exclude-from", "X"),
    // --time=WORD names which time; every one reads the modification time here.
    optval('\0', "time", "time"),
    val('\0', "time-style", "time-style"),
    flag('\0', "inodes", "inodes"),
];
const HELP: &str = "Usage: du [OPTION]... [FILE]...\nSummarize disk usage of the set of FILEs, recursively for directories.\n\n  -a, --all             write counts for all files, not just directories\n      --apparent-size   print apparent sizes rather than disk usage\n  -b, --bytes           equivalent to '--apparent-size --block-size=1'\n  -c, --total           produce a grand total\n  -d, --max-depth=N     print the total for a directory only if it is N or\n                          fewer levels below the command line argument\n  -h, --human-readable  print sizes in human readable format (e.g., 1K 234M 2G)\n  -k                    like --block-size=1K\n  -m                    like --block-size=1M\n  -s, --summarize       display only a total for each argument\n  -S, --separate-dirs   for directories do not include size of subdirectories\n  -B, --block-size=SIZE scale sizes by SIZE (1M; or M to print the unit)\n  -0, --null            end each output line with NUL, not newline\n      --exclude=PATTERN exclude files that match PATTERN\n  -X, --exclude-from=FILE  exclude files that match any pattern in FILE\n  -t, --threshold=SIZE  exclude entries smaller than SIZE if positive,\n                          or entries greater than SIZE if negative\n      --si              like -h, but use powers of 1000 not 1024\n      --time            show the time of the last modification\n      --time-style=STYLE  full-iso, long-iso, iso or +FORMAT\n      --inodes          list inode usage information instead of block usage\n  -P, -D, -H, -L, -l    accepted (no links here)\n";

struct O {
    all: bool,
    bytes: bool,
    apparent: bool,
    human: bool,
    mb: bool,
    max_depth: Option<usize>,
    exclude: Vec<String>,
    separate: bool,
    block: Option<(u64, String)>,
    end: char,
    si: bool,
    /// -t: (size, true when only entries at least that big are shown).
    threshold: Option<(u64, bool)>,
    /// --time: the strftime format of the time column (from --time-style).
    time: Option<String>,
    /// --inodes: count entries (each file and directory is one), not bytes.
    inodes: bool,
}

/// The --time column's format: GNU du's styles (long-iso by default), checking --time's WORD.
fn time_format(shown: bool, word: Option<&str>, style: Option<&str>) -> Result<Option<String>, String> {
    const WORDS: &[&str] = &["atime", "access", "use", "ctime", "status", "mtime", "modification", "birth", "creation"];
    if let Some(w) = word {
        if !WORDS.contains(&w) {
            return Err(format!("invalid argument {} for '--time'", lq(w)));
        }
    }
    let f = match style.unwrap_or("long-iso").trim_start_matches("posix-") {
        "full-iso" => "%Y-%m-%d %H:%M:%S.%N %z",
        "long-iso" => "%Y-%m-%d %H:%M",
        "iso" => "%Y-%m-%d",
        f if f.starts_with('+') => &f[1..],
        f => return Err(format!("invalid argument {} for 'time style'", lq(f))),
    };
    Ok(if shown { Some(f.to_string()) } else { None })
}

fn usage_of(len: u64, o: &O) -> u64 {
    if o.inodes {
        1
    } else if o.bytes || o.apparent {
        len
    } else {
        (len + 4095) / 4096 * 4096
    }
}

fn show(n: u64, o: &O) -> String {
    if o.inodes {
        n.to_string()
    } else if o.si {
        super::ls::human_si(n)
    } else if o.human {
        human(n)
    } else if let Some((unit, suffix)) = &o.block {
        format!("{}{}", crate::num::in_blocks(n, *unit), suffix)
    } else if o.bytes {
        n.to_string()
    } else if o.mb {
        ((n + (1 << 20) - 1) >> 20).to_string()
    } else {
        ((n + 1023) / 1024).to_string()
    }
}

fn walk(ctx: &mut Ctx, path: &str, depth: usize, o: &O) -> io::Result<u64> {
    let m = match fsx::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) => {
            ctx.diag.error(format!("cannot access {}: {}", q(path), reason(&e)));
            return Ok(0);
        }
    };
    // A link's target text lives in its inode: no blocks, only its apparent size.
    let link = m.file_type().is_symlink();
    let mut total = if link && !(o.bytes || o.apparent || o.inodes) { 0 } else { usage_of(if m.is_dir() { 4096 } else { m.len() }, o) };
    // What -S shows for a directory: itself and its files, not its subdirectories.
    let mut own = 0;
    if m.is_dir() {
        own = total;
        match fsx::read_dir_names(path) {
            Ok(names) => {
                for n in names {
                    if o.exclude.iter().any(|g| crate::text::glob_match(g.as_bytes(), n.as_bytes())) {
                        continue;
                    }
                    let child = fsx::join(path, &n);
                    let t = walk(ctx, &child, depth + 1, o)?;
                    total += t;
                    if !fsx::symlink_metadata(&child).map(|c| c.is_dir()).unwrap_or(false) {
                        own += t;
                    }
                }
            }
            Err(e) => ctx.diag.error(format!("cannot read directory {}: {}", q(path), reason(&e))),
        }
    }
    let within = o.max_depth.map(|d| depth <= d).unwrap_or(true);
    if within && (m.is_dir() || o.all || depth == 0) {
        let shown = if o.separate && m.is_dir() { own } else { total };
        let big_enough = match o.threshold {
            Some((t, true)) => shown >= t,
            Some((t, false)) => shown <= t,
            None => true,
        };
        if big_enough {
            let when = match &o.time {
                Some(f) => {
                    let (secs, nanos) = fsx::mtime(&m);
                    format!("{}\t", super::date::format_utc(f, secs, nanos))
                }
                None => String::new(),
            };
            write!(ctx.out, "{}\t{}{}{}", show(shown, o), when, path, o.end)?;
        }
    }
    Ok(if o.separate && m.is_dir() { own } else { total })
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let max_depth = if p.has("s") {
        Some(0)
    } else {
        match p.last("d").map(|v| v.parse::<usize>()) {
            None => None,
            Some(Ok(n)) => Some(n),
            Some(Err(_)) => {
                ctx.diag.usage(format!("invalid maximum depth {}", lq(p.last("d").unwrap())));
                return Ok(1);
            }
        }
    };
    if p.has("s") && p.has("a") {
        ctx.diag.usage("cannot both summarize and show all entries");
        return Ok(1);
    }
    let o = O {
        all: p.has("a"),
        bytes: p.has("b"),
        apparent: p.has("apparent"),
        human: p.has("h"),
        mb: p.has("m"),
        max_depth,
        exclude: {
            let mut v: Vec<String> = p.all("exclude").iter().map(|s| s.to_string()).collect();
            for f in p.all("X") {
                match std::fs::read_to_string(fsx::host(f)) {
                    Ok(t) => v.extend(t.lines().filter(|l| !l.is_empty()).map(str::to_string)),
                    Err(e) => {
                        ctx.diag.error(format!("cannot open {}: {}", q(f), reason(&e)));
                        return Ok(1);
                    }
                }
            }
            v
        },
        si: p.has("si"),
        time: match time_format(p.has("time"), p.last("time"), p.last("time-style")) {
            Ok(t) => t,
            Err(e) => {
                ctx.diag.usage(e);
                return Ok(1);
            }
        },
        inodes: p.has("inodes"),
        threshold: match p.last("t") {
            None => None,
            Some(t) => match crate::num::parse_size(t.trim_start_matches('-')) {
                Some(n) => Some((n, !t.starts_with('-'))),
                None => {
                    ctx.diag.error(format!("invalid --threshold argument {}", lq(t)));
                    return Ok(1);
                }
            },
        },
        separate: p.has("S"),
        block: match p.last("B").map(crate::num::block_size) {
            None => None,
            Some(Some((n, suffix, _))) => Some((n, suffix)),
            Some(None) => {
                ctx.diag.error(format!("invalid -B argument {}", lq(p.last("B").unwrap_or(""))));
                return Ok(1);
            }
        },
        end: if p.has("0") { '\0' } else { '\n' },
    };
    let ops = if p.operands.is_empty() { vec![".".to_string()] } else { p.operands.clone() };
    let mut grand = 0;
    for op in &ops {
        if o.exclude.iter().any(|g| crate::text::glob_match(g.as_bytes(), fsx::base_name(op).as_bytes())) {
            continue;
        }
        grand += walk(ctx, op, 0, &o)?;
    }
    if p.has("c") {
        write!(ctx.out, "{}\ttotal{}", show(grand, &o), o.end)?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        std::fs::create_dir_all(format!("{}/s", d)).unwrap();
        write(&format!("{}/s/a", d), &"x".repeat(5000));
        write(&format!("{}/b", d), "hi");
        // Apparent sizes count each directory's own 4096 bytes, as GNU du does on ext4.
        check("du", &["-b", "-s", &d], "", &format!("13194\t{}\n", d), 0);
        check("du", &["-b", "-a", &d], "", &format!("2\t{d}/b\n5000\t{d}/s/a\n9096\t{d}/s\n13194\t{d}\n", d = d), 0);
        check("du", &["-s", &d], "", &format!("20\t{}\n", d), 0);
        check("du", &["-bc", &format!("{}/b", d), &format!("{}/s/a", d)], "", &format!("2\t{d}/b\n5000\t{d}/s/a\n5002\ttotal\n", d = d), 0);
        check("du", &["-b", "-d", "0", &d], "", &format!("13194\t{}\n", d), 0);
    }
}
