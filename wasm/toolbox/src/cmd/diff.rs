//! diff [-u|-U N|-c?] [-q] [-s] [-i] [-b] [-w] [-B] [-N] [-r] [--label L] FROM TO
//!
//! Normal and unified output as GNU diff prints them, from a Myers
//! shortest edit script over lines (common prefix/suffix trimmed first).
//! When the edit distance is huge the search is cut off and the rest is
//! reported as one change: still a correct diff, just not a minimal one.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use std::io::{self, Read, Write};

#[path = "diff_analyze.rs"]
mod analyze;
#[path = "diff_fmt.rs"]
mod fmt;
pub(crate) use analyze::Hunk;

const SPECS: &[Spec] = &[
    flag('u', "", "u"),
    // --unified[=NUM] and --context[=NUM] take an optional length; -U and -C need one.
    val('U', "", "U"),
    optval('\0', "unified", "U"),
    flag('v', "", crate::args::VERSION),
    flag('q', "brief", "q"),
    flag('s', "report-identical-files", "s"),
    flag('i', "ignore-case", "i"),
    flag('b', "ignore-space-change", "b"),
    flag('w', "ignore-all-space", "w"),
    flag('B', "ignore-blank-lines", "B"),
    flag('N', "new-file", "N"),
    flag('r', "recursive", "r"),
    val('\0', "label", "label"),
    flag('a', "text", "a"),
    optval('\0', "color", "ignored"),
    flag('\0', "strip-trailing-cr", "strip-cr"),
    flag('E', "ignore-tab-expansion", "E"),
    flag('Z', "ignore-trailing-space", "Z"),
    flag('T', "initial-tab", "T"),
    flag('c', "", "c"),
    val('C', "", "C"),
    optval('\0', "context", "C"),
    flag('p', "show-c-function", "p"),
    val('F', "show-function-line", "F"),
    val('x', "exclude", "x"),
    val('X', "exclude-from", "X"),
    val('S', "starting-file", "S"),
    val('\0', "from-file", "from-file"),
    val('\0', "to-file", "to-file"),
    // There are no links here; names are case-exact.
    flag('d', "minimal", "d"),
    flag('H', "speed-large-files", "H"),
    val('\0', "horizon-lines", "ignored"),
    flag('\0', "no-dereference", "ignored"),
    flag('\0', "ignore-file-name-case", "ignored"),
    flag('\0', "no-ignore-file-name-case", "ignored"),
    flag('\0', "normal", "ignored"),
    flag('y', "side-by-side", "y"),
    val('W', "width", "W"),
    flag('\0', "left-column", "left-column"),
    flag('\0', "suppress-common-lines", "suppress-common"),
    val('D', "ifdef", "D"),
    val('\0', "old-line-format", "lf-old"),
    val('\0', "new-line-format", "lf-new"),
    val('\0', "unchanged-line-format", "lf-unchanged"),
    val('\0', "line-format", "lf-all"),
    val('\0', "old-group-format", "gf-old"),
    val('\0', "new-group-format", "gf-new"),
    val('\0', "unchanged-group-format", "gf-unchanged"),
    val('\0', "changed-group-format", "gf-changed"),
    flag('e', "ed", "e"),
    flag('n', "rcs", "n"),
    flag('t', "expand-tabs", "t"),
    val('\0', "tabsize", "tabsize"),
    val('I', "ignore-matching-lines", "I"),
    flag('l', "paginate", "ignored"),
    flag('\0', "suppress-blank-empty", "suppress-blank"),
    val('\0', "palette", "ignored"),
];
const HELP: &str = "Usage: diff [OPTION]... FILES\nCompare FILES line by line.\n\n  -q, --brief                   report only when files differ\n  -s, --report-identical-files  report when two files are the same\n  -u, -U NUM, --unified[=NUM]   output NUM (default 3) lines of unified context\n  -r, --recursive               recursively compare any subdirectories found\n  -N, --new-file                treat absent files as empty\n  -i, --ignore-case             ignore case differences in file contents\n  -b, --ignore-space-change     ignore changes in the amount of white space\n  -w, --ignore-all-space        ignore all white space\n  -B, --ignore-blank-lines      ignore changes where lines are all blank\n      --strip-trailing-cr       strip trailing carriage return on input\n      --label LABEL             use LABEL instead of file name and timestamp\n  -a, --text                    treat all files as text\n  -c, -C NUM, --context[=NUM]   output NUM (default 3) lines of copied context\n  -p, --show-c-function         show which C function each change is in\n  -F, --show-function-line=RE   show the most recent line matching RE\n  -E, --ignore-tab-expansion    ignore changes due to tab expansion\n  -Z, --ignore-trailing-space   ignore white space at line end\n  -T, --initial-tab             make tabs line up by prepending a tab\n  -x, --exclude=PAT             exclude files that match PAT\n  -X, --exclude-from=FILE       exclude files that match any pattern in FILE\n  -S, --starting-file=FILE      start with FILE when comparing directories\n      --from-file=FILE1         compare FILE1 to all operands\n      --to-file=FILE2           compare all operands to FILE2\n  -d, -H, --horizon-lines, --no-dereference  accepted (no effect here)\n\nExit status is 0 if inputs are the same, 1 if different, 2 if trouble.\n";

struct O {
    unified: Option<usize>,
    brief: bool,
    same: bool,
    icase: bool,
    space: bool,
    all_space: bool,
    blank: bool,
    new_file: bool,
    recursive: bool,
    labels: Vec<String>,
    text: bool,
    strip_cr: bool,
    argv_opts: Vec<String>,
    tab_expansion: bool,
    trailing: bool,
    initial_tab: bool,
    /// -c/-C: copied-context output with this many lines.
    context: Option<usize>,
    /// -p/-F: the pattern a hunk's function line matches.
    function: Option<regex::bytes::Regex>,
    exclude: Vec<String>,
    start: Option<String>,
    side: Option<fmt::Side>,
    formats: Option<fmt::Formats>,
    ed: bool,
    rcs: bool,
    /// -t: tabs in output lines become spaces (every `tabsize` columns).
    expand_tabs: bool,
    tabsize: usize,
    /// -I: changes whose lines all match one of these are ignored.
    ignore: Vec<regex::bytes::Regex>,
    suppress_blank: bool,
    /// -d: the shortest edit script, whatever it costs.
    minimal: bool,
    /// -H: GNU's faster search for large files with few changes.
    speed_large: bool,
}

/// C's isspace in the C locale: what GNU diff's -b, -w, -Z and -B count as white space.
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r')
}

/// The text a line is compared by under -E, -Z, -b, -w and -i.
fn norm(l: &[u8], o: &O) -> Vec<u8> {
    let mut v: Vec<u8> = l.to_vec();
    if o.tab_expansion {
        let mut out = Vec::with_capacity(v.len());
        for &c in &v {
            if c == b'\t' {
                out.extend(std::iter::repeat(b' ').take(8 - out.len() % 8));
            } else {
                out.push(c);
            }
        }
        v = out;
    }
    if o.trailing {
        while v.last().map(|c| is_space(*c)).unwrap_or(false) {
            v.pop();
        }
    }
    if o.all_space {
        v.retain(|c| !is_space(*c));
    } else if o.space {
        let mut out = Vec::with_capacity(v.len());
        let mut ws = false;
        for &c in &v {
            if is_space(c) {
                ws = true;
            } else {
                // A run of blanks counts as one; trailing blanks vanish.
                if ws {
                    out.push(b' ');
                }
                ws = false;
                out.push(c);
            }
        }
        v = out;
    }
    if o.icase {
        v.make_ascii_lowercase();
    }
    v
}

pub(crate) struct File {
    lines: Vec<Vec<u8>>,
    /// Last line lacks its newline.
    no_nl: bool,
    binary: bool,
}

fn load(path: &str, o: &O, stdin: &mut dyn io::BufRead) -> io::Result<File> {
    let mut data = Vec::new();
    if path == "-" {
        stdin.read_to_end(&mut data)?;
    } else {
        match std::fs::File::open(fsx::host(path)) {
            Ok(mut f) => {
                f.read_to_end(&mut data)?;
            }
            Err(e) if o.new_file && e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    let binary = !o.text && memchr::memchr(0, &data).is_some();
    let no_nl = !data.is_empty() && data.last() != Some(&b'\n');
    // --strip-trailing-cr drops a carriage return before each newline (not one ending the file).
    let lines = data
        .split_inclusive(|c| *c == b'\n')
        .map(|l| match l.strip_suffix(b"\n") {
            Some(t) if o.strip_cr => t.strip_suffix(b"\r").unwrap_or(t).to_vec(),
            Some(t) => t.to_vec(),
            None => l.to_vec(),
        })
        .collect();
    Ok(File { lines, no_nl, binary })
}

fn stamp(path: &str) -> String {
    // GNU shows the current time for standard input.
    let t = if path == "-" { Some(fsx::now()) } else { fsx::metadata(path).ok().map(|m| fsx::mtime(&m)) };
    match t {
        Some((s, ns)) => {
            let (y, mo, d) = super::ls::civil_from_days(s.div_euclid(86400));
            let t = s.rem_euclid(86400);
            format!("{}-{:02}-{:02} {:02}:{:02}:{:02}.{:09} +0000", y, mo, d, t / 3600, t % 3600 / 60, t % 60, ns)
        }
        None => "1970-01-01 00:00:00.000000000 +0000".into(),
    }
}

/// GNU diff prefixes its hint line with the program name too.
fn bad_usage(ctx: &mut Ctx, msg: &str) {
    ctx.diag.warn(msg);
    let _ = writeln!(ctx.diag.raw(), "diff: Try 'diff --help' for more information.");
    ctx.diag.failed = true;
}

fn range_normal(start: usize, count: usize) -> String {
    // start is the 1-based first line; for count 0 GNU shows the line before.
    if count <= 1 {
        format!("{}", if count == 0 { start - 1 } else { start })
    } else {
        format!("{},{}", start, start + count - 1)
    }
}

fn range_unified(start: usize, count: usize) -> String {
    match count {
        0 => format!("{},0", start.saturating_sub(1)),
        1 => format!("{}", start),
        _ => format!("{},{}", start, count),
    }
}

/// Compares two files; returns 0 same, 1 different, 2 trouble.
fn diff_files(ctx: &mut Ctx, p1: &str, p2: &str, o: &O) -> io::Result<i32> {
    let (fa, fb) = match (load(p1, o, ctx.stdin), load(p2, o, ctx.stdin)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) => {
            ctx.diag.error(format!("{}: {}", p1, reason(&e)));
            return Ok(2);
        }
        (_, Err(e)) => {
            ctx.diag.error(format!("{}: {}", p2, reason(&e)));
            return Ok(2);
        }
    };
    if fa.binary || fb.binary {
        if fa.lines == fb.lines && fa.no_nl == fb.no_nl {
            return Ok(0);
        }
        writeln!(ctx.out, "Binary files {} and {} differ", o.labels.get(0).map_or(p1, |s| s), o.labels.get(1).map_or(p2, |s| s))?;
        return Ok(1);
    }
    let key = |l: &[u8]| norm(l, o);
    let tuning = analyze::Tuning {
        horizon: o.unified.or(o.context).unwrap_or(0),
        minimal: o.minimal,
        speed_large: o.speed_large,
        robust: !o.ed,
        loose_end: o.trailing || o.space || o.all_space,
    };
    let all = analyze::changes(analyze::Side { lines: &fa.lines, incomplete: fa.no_nl }, analyze::Side { lines: &fb.lines, incomplete: fb.no_nl }, &key, &tuning);
    // -B and -I: a change whose lines are all blank (or all match) is ignorable.
    let loose = o.trailing || o.space || o.all_space;
    let trivial = |l: &Vec<u8>| (o.blank && (l.is_empty() || (loose && l.iter().all(|c| is_space(*c))))) || o.ignore.iter().any(|r| r.is_match(l));
    let ignorable = |h: &Hunk| (o.blank || !o.ignore.is_empty()) && fa.lines[h.0..h.1].iter().chain(fb.lines[h.2..h.3].iter()).all(trivial);
    let hunks: Vec<Hunk> = all.iter().copied().filter(|h| !ignorable(h)).collect();
    if hunks.is_empty() {
        // -e compares an incomplete last line as complete, then still complains about it.
        if o.ed && (fa.no_nl || fb.no_nl) && !(fa.lines == fb.lines && fa.no_nl == fb.no_nl) {
            for (f, p, i) in [(&fa, p1, 0), (&fb, p2, 1)] {
                if f.no_nl {
                    let _ = writeln!(ctx.diag.raw(), "diff: {}: No newline at end of file\n", o.labels.get(i).map_or(p, |s| s));
                }
            }
            return Ok(2);
        }
        if o.side.is_some() || o.formats.is_some() {
            // These styles list the whole file, changed or not.
            let out = match (&o.side, &o.formats) {
                (Some(sd), _) => fmt::side_by_side(&fa, &fb, &[], sd),
                (_, Some(f)) => fmt::formatted(&fa, &fb, &[], f),
                _ => Vec::new(),
            };
            ctx.out.write_all(&out)?;
        } else if o.same {
            writeln!(ctx.out, "Files {} and {} are identical", o.labels.get(0).map_or(p1, |s| s), o.labels.get(1).map_or(p2, |s| s))?;
        }
        return Ok(0);
    }
    if o.brief {
        writeln!(ctx.out, "Files {} and {} differ", o.labels.get(0).map_or(p1, |s| s), o.labels.get(1).map_or(p2, |s| s))?;
        return Ok(1);
    }
    let styled = match (&o.side, &o.formats, o.ed, o.rcs) {
        (Some(sd), ..) => Some(fmt::side_by_side(&fa, &fb, &hunks, sd)),
        (_, Some(f), ..) => Some(fmt::formatted(&fa, &fb, &hunks, f)),
        (_, _, true, _) => Some(fmt::ed(&fb, &hunks)),
        (_, _, _, true) => Some(fmt::rcs(&fb, &hunks)),
        _ => None,
    };
    if let Some(out) = styled {
        ctx.out.write_all(&out)?;
        // An ed script cannot say "no newline at end": GNU complains and counts it as trouble.
        if o.ed && (fa.no_nl || fb.no_nl) {
            for (f, p, i) in [(&fa, p1, 0), (&fb, p2, 1)] {
                if f.no_nl {
                    let _ = writeln!(ctx.diag.raw(), "diff: {}: No newline at end of file\n", o.labels.get(i).map_or(p, |s| s));
                }
            }
            return Ok(2);
        }
        return Ok(1);
    }
    if !o.argv_opts.is_empty() && o.recursive {
        writeln!(ctx.out, "diff {} {} {}", o.argv_opts.join(" "), p1, p2)?;
    }
    let nl_note = b"\\ No newline at end of file\n";
    let mut out: Vec<u8> = Vec::new();
    let line = |out: &mut Vec<u8>, prefix: &[u8], f: &File, idx: usize| {
        // -T: the marker, then a tab instead of the usual space (or before the text).
        let text = &f.lines[idx];
        if o.initial_tab {
            out.extend_from_slice(prefix.strip_suffix(b" ").unwrap_or(prefix));
            out.push(b'\t');
        } else if o.suppress_blank && text.is_empty() {
            out.extend_from_slice(prefix.strip_suffix(b" ").unwrap_or(prefix));
        } else {
            out.extend_from_slice(prefix);
        }
        if o.expand_tabs {
            let mut col = 0;
            for &c in text {
                if c == b'\t' {
                    let n = o.tabsize - col % o.tabsize;
                    out.extend(std::iter::repeat(b' ').take(n));
                    col += n;
                } else {
                    out.push(c);
                    col += 1;
                }
            }
        } else {
            out.extend_from_slice(text);
        }
        out.push(b'\n');
        if f.no_nl && idx + 1 == f.lines.len() {
            out.extend_from_slice(nl_note);
        }
    };
    if let Some(ctxn) = o.context {
        let l1 = o.labels.get(0).cloned().unwrap_or_else(|| format!("{}\t{}", p1, stamp(p1)));
        let l2 = o.labels.get(1).cloned().unwrap_or_else(|| format!("{}\t{}", p2, stamp(p2)));
        out.extend_from_slice(format!("*** {}\n--- {}\n", l1, l2).as_bytes());
        // One side of a hunk: its lines from `start` to `end`, each changed span (`from..to`, and
        // whether the other side changed there too) marked `! ` when both did, else `solo`.
        let side = |out: &mut Vec<u8>, f: &File, start: usize, end: usize, spans: &[(usize, usize, bool)], solo: &[u8]| {
            let mut x = start;
            for &(from, to, both) in spans {
                while x < from {
                    line(out, b"  ", f, x);
                    x += 1;
                }
                for i in from..to {
                    line(out, if both { b"! " } else { solo }, f, i);
                }
                x = to;
            }
            while x < end {
                line(out, b"  ", f, x);
                x += 1;
            }
        };
        for g in groups_of(&all, &ignorable, ctxn) {
            let (a_start, a_end, b_start, b_end) = group_span(&g, ctxn, fa.lines.len());
            out.extend_from_slice(b"***************");
            out.extend_from_slice(&function_line(&fa, a_start, o));
            out.extend_from_slice(format!("\n*** {} ****\n", range_context(a_start, a_end)).as_bytes());
            // Each side lists its lines only when the group changes something on it.
            if g.iter().any(|h| h.0 < h.1) {
                let spans: Vec<_> = g.iter().map(|&(a0, a1, b0, b1)| (a0, a1, b0 < b1)).collect();
                side(&mut out, &fa, a_start, a_end, &spans, b"- ");
            }
            out.extend_from_slice(format!("--- {} ----\n", range_context(b_start, b_end)).as_bytes());
            if g.iter().any(|h| h.2 < h.3) {
                let spans: Vec<_> = g.iter().map(|&(a0, a1, b0, b1)| (b0, b1, a0 < a1)).collect();
                side(&mut out, &fb, b_start, b_end, &spans, b"+ ");
            }
        }
        ctx.out.write_all(&out)?;
        return Ok(1);
    }
    match o.unified {
        None => {
            for &(a0, a1, b0, b1) in &hunks {
                let cmd = if a0 == a1 { 'a' } else if b0 == b1 { 'd' } else { 'c' };
                let ar = if cmd == 'a' { format!("{}", a0) } else { range_normal(a0 + 1, a1 - a0) };
                let br = if cmd == 'd' { format!("{}", b0) } else { range_normal(b0 + 1, b1 - b0) };
                out.extend_from_slice(format!("{}{}{}\n", ar, cmd, br).as_bytes());
                for x in a0..a1 {
                    line(&mut out, b"< ", &fa, x);
                }
                if cmd == 'c' {
                    out.extend_from_slice(b"---\n");
                }
                for y in b0..b1 {
                    line(&mut out, b"> ", &fb, y);
                }
            }
        }
        Some(ctxn) => {
            let l1 = o.labels.get(0).cloned().unwrap_or_else(|| format!("{}\t{}", p1, stamp(p1)));
            let l2 = o.labels.get(1).cloned().unwrap_or_else(|| format!("{}\t{}", p2, stamp(p2)));
            out.extend_from_slice(format!("--- {}\n+++ {}\n", l1, l2).as_bytes());
            for g in groups_of(&all, &ignorable, ctxn) {
                let (a_start, a_end, b_start, b_end) = group_span(&g, ctxn, fa.lines.len());
                out.extend_from_slice(format!("@@ -{} +{} @@", range_unified(a_start + 1, a_end - a_start), range_unified(b_start + 1, b_end - b_start)).as_bytes());
                out.extend_from_slice(&function_line(&fa, a_start, o));
                out.push(b'\n');
                let mut x = a_start;
                for &(a0, a1, b0, b1) in &g {
                    while x < a0 {
                        line(&mut out, b" ", &fa, x);
                        x += 1;
                    }
                    for xx in a0..a1 {
                        line(&mut out, b"-", &fa, xx);
                    }
                    for yy in b0..b1 {
                        line(&mut out, b"+", &fb, yy);
                    }
                    x = a1;
                }
                while x < a_end {
                    line(&mut out, b" ", &fa, x);
                    x += 1;
                }
            }
        }
    }
    ctx.out.write_all(&out)?;
    Ok(1)
}

/// Hunks merged where their context (`ctxn` lines each side) would touch or overlap.
/// The lines a group of hunks shows with `ctxn` lines of context: (a_start, a_end, b_start, b_end).
fn group_span(g: &[Hunk], ctxn: usize, a_len: usize) -> (usize, usize, usize, usize) {
    let (first, last) = (g[0], g[g.len() - 1]);
    let a_start = first.0.saturating_sub(ctxn);
    let a_end = (last.1 + ctxn).min(a_len);
    (a_start, a_end, first.2 - (first.0 - a_start), last.3 + (a_end - last.1))
}

/// The changes printed together: the next one joins when fewer than 2 * ctxn + 1 equal lines
/// come before it (ctxn when it is ignorable); a group of ignorable changes only is not printed.
fn groups_of(all: &[Hunk], ignorable: &dyn Fn(&Hunk) -> bool, ctxn: usize) -> Vec<Vec<Hunk>> {
    let mut groups: Vec<Vec<Hunk>> = Vec::new();
    for &h in all {
        let limit = if ignorable(&h) { ctxn } else { 2 * ctxn + 1 };
        match groups.last_mut() {
            Some(g) if h.0 - g.last().unwrap().1 < limit => g.push(h),
            _ => groups.push(vec![h]),
        }
    }
    groups.retain(|g| !g.iter().all(|h| ignorable(h)));
    groups
}

/// A copied-context range: `N` for one line, `N,M` for more, the line before for none.
fn range_context(start: usize, end: usize) -> String {
    match end - start {
        0 => start.to_string(),
        1 => end.to_string(),
        _ => format!("{},{}", start + 1, end),
    }
}

/// -p/-F: ` ` and the last line before `before` matching the pattern, cut to 40 bytes.
fn function_line(f: &File, before: usize, o: &O) -> Vec<u8> {
    let re = match &o.function {
        Some(r) => r,
        None => return Vec::new(),
    };
    match f.lines[..before].iter().rev().find(|l| re.is_match(l)) {
        Some(l) => {
            let mut v = b" ".to_vec();
            v.extend_from_slice(&l[..l.len().min(40)]);
            while v.last().map(|c| c.is_ascii_whitespace()).unwrap_or(false) {
                v.pop();
            }
            v
        }
        None => Vec::new(),
    }
}

fn diff_dirs(ctx: &mut Ctx, d1: &str, d2: &str, o: &O) -> io::Result<i32> {
    let n1 = fsx::read_dir_names(d1).unwrap_or_default();
    let n2 = fsx::read_dir_names(d2).unwrap_or_default();
    let mut all: Vec<&String> = n1.iter().chain(n2.iter()).collect();
    all.sort();
    all.dedup();
    all.retain(|n| !o.exclude.iter().any(|p| crate::text::glob_match(p.as_bytes(), n.as_bytes())));
    if let Some(s) = &o.start {
        all.retain(|n| n.as_str() >= s.as_str());
    }
    let mut worst = 0;
    for n in all {
        let (p1, p2) = (fsx::join(d1, n), fsx::join(d2, n));
        let (e1, e2) = (n1.contains(n), n2.contains(n));
        let r = if e1 && e2 {
            match (fsx::is_dir(&p1), fsx::is_dir(&p2)) {
                (true, true) => {
                    if o.recursive {
                        diff_dirs(ctx, &p1, &p2, o)?
                    } else {
                        writeln!(ctx.out, "Common subdirectories: {} and {}", p1, p2)?;
                        0
                    }
                }
                (false, false) => diff_files(ctx, &p1, &p2, o)?,
                (true, false) => {
                    writeln!(ctx.out, "File {} is a directory while file {} is a regular file", p1, p2)?;
                    1
                }
                (false, true) => {
                    writeln!(ctx.out, "File {} is a regular file while file {} is a directory", p1, p2)?;
                    1
                }
            }
        } else if o.new_file && !fsx::is_dir(if e1 { &p1 } else { &p2 }) {
            diff_files(ctx, &p1, &p2, o)?
        } else {
            writeln!(ctx.out, "Only in {}: {}", if e1 { d1 } else { d2 }, n)?;
            1
        };
        worst = worst.max(r);
    }
    Ok(worst)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    if let Err(m) = crate::args::parse(args, SPECS) {
        bad_usage(ctx, &m);
        return Ok(2);
    }
    let p = getopt!(ctx, args, SPECS, HELP, 2);
    // `-U N`/`-C N` name the context length; `-u`/`-c` (and the long
    // forms without a value) mean 3 lines. Err holds the bad value.
    let context_len = |long: &str, short: &str| -> Result<Option<usize>, String> {
        match p.last(long) {
            Some(v) => v.parse::<usize>().map(Some).map_err(|_| v.to_string()),
            None if p.has(short) || p.has(long) => Ok(Some(3)),
            None => Ok(None),
        }
    };
    let (unified, context) = match (context_len("U", "u"), context_len("C", "c")) {
        (Ok(u), Ok(c)) => (u, c),
        (Err(v), _) | (_, Err(v)) => {
            bad_usage(ctx, &format!("invalid context length {}", q(&v)));
            return Ok(2);
        }
    };
    let function = match (p.last("F"), p.has("p")) {
        (Some(re), _) => match regex::bytes::Regex::new(&crate::regex_posix::translate(re, false).unwrap_or_else(|_| re.to_string())) {
            Ok(r) => Some(r),
            Err(e) => {
                bad_usage(ctx, &format!("invalid regular expression {}: {}", q(re), e));
                return Ok(2);
            }
        },
        (None, true) => regex::bytes::Regex::new("^[[:alpha:]$_]").ok(),
        _ => None,
    };
    let mut exclude: Vec<String> = p.all("x").iter().map(|s| s.to_string()).collect();
    for f in p.all("X") {
        match std::fs::read_to_string(fsx::host(f)) {
            Ok(t) => exclude.extend(t.lines().filter(|l| !l.is_empty()).map(str::to_string)),
            Err(e) => {
                ctx.diag.error(format!("{}: {}", f, reason(&e)));
                return Ok(2);
            }
        }
    }
    let tabsize = match p.last("tabsize").map(|t| t.parse::<usize>()) {
        None => 8,
        Some(Ok(n)) if n > 0 => n,
        _ => {
            bad_usage(ctx, &format!("invalid tabsize {}", q(p.last("tabsize").unwrap_or(""))));
            return Ok(2);
        }
    };
    let side = if p.has("y") {
        let width = match p.last("W").map(|w| w.parse::<usize>()) {
            None => 130,
            Some(Ok(n)) if n > 0 => n,
            _ => {
                bad_usage(ctx, &format!("invalid width {}", q(p.last("W").unwrap_or(""))));
                return Ok(2);
            }
        };
        Some(fmt::Side { width, tabsize, expand: p.has("t"), left_column: p.has("left-column"), suppress_common: p.has("suppress-common") })
    } else {
        None
    };
    let line_fmt = |k: &str| p.last(k).or_else(|| p.last("lf-all")).map(str::to_string);
    let group_fmt = |k: &str| p.last(k).map(str::to_string);
    let formats = match p.last("D") {
        Some(name) => Some(fmt::Formats::ifdef(name)),
        None if ["lf-old", "lf-new", "lf-unchanged", "lf-all", "gf-old", "gf-new", "gf-unchanged", "gf-changed"].iter().any(|k| p.has(k)) => Some(fmt::Formats::new(
            [line_fmt("lf-old"), line_fmt("lf-new"), line_fmt("lf-unchanged")],
            [group_fmt("gf-old"), group_fmt("gf-new"), group_fmt("gf-unchanged"), group_fmt("gf-changed")],
        )),
        None => None,
    };
    let mut ignore = Vec::new();
    for re in p.all("I") {
        match regex::bytes::Regex::new(&crate::regex_posix::translate(re, false).unwrap_or_else(|_| re.to_string())) {
            Ok(r) => ignore.push(r),
            Err(e) => {
                bad_usage(ctx, &format!("invalid regular expression {}: {}", q(re), e));
                return Ok(2);
            }
        }
    }
    // The options as typed, for the "diff -r ..." headers of recursive runs.
    let argv_opts: Vec<String> = args.iter().take_while(|a| a.starts_with('-') && a.as_str() != "--").cloned().collect();
    let o = O {
        unified,
        brief: p.has("q"),
        same: p.has("s"),
        icase: p.has("i"),
        space: p.has("b"),
        all_space: p.has("w"),
        blank: p.has("B"),
        new_file: p.has("N"),
        recursive: p.has("r"),
        labels: p.all("label").iter().map(|s| s.to_string()).collect(),
        text: p.has("a"),
        strip_cr: p.has("strip-cr"),
        argv_opts,
        tab_expansion: p.has("E"),
        trailing: p.has("Z"),
        initial_tab: p.has("T"),
        // -p alone asks for copied context, 3 lines.
        context: match (unified, context) {
            (Some(_), _) => None,
            (None, Some(c)) => Some(c),
            (None, None) if function.is_some() && side.is_none() && formats.is_none() && !p.has("e") && !p.has("n") => Some(3),
            _ => None,
        },
        function,
        exclude,
        start: p.last("S").map(str::to_string),
        side,
        formats,
        ed: p.has("e"),
        rcs: p.has("n"),
        expand_tabs: p.has("t"),
        tabsize,
        ignore,
        suppress_blank: p.has("suppress-blank"),
        minimal: p.has("d"),
        speed_large: p.has("H"),
    };
    // --from-file / --to-file: one side fixed, every operand compared with it.
    if let Some((fixed, first)) = p.last("from-file").map(|f| (f, true)).or_else(|| p.last("to-file").map(|f| (f, false))) {
        let mut worst = 0;
        for op in &p.operands {
            let (a, b) = if first { (fixed, op.as_str()) } else { (op.as_str(), fixed) };
            let r = if fsx::is_dir(a) && fsx::is_dir(b) { diff_dirs(ctx, a, b, &o)? } else { diff_files(ctx, a, b, &o)? };
            worst = worst.max(r);
        }
        return Ok(worst);
    }
    let ops = &p.operands;
    if ops.len() < 2 {
        match ops.first() {
            None => bad_usage(ctx, "missing operand"),
            Some(a) => bad_usage(ctx, &format!("missing operand after {}", q(a))),
        }
        return Ok(2);
    }
    if ops.len() > 2 {
        bad_usage(ctx, &format!("extra operand {}", q(&ops[2])));
        return Ok(2);
    }
    let (a, b) = (ops[0].clone(), ops[1].clone());
    let (da, db) = (a != "-" && fsx::is_dir(&a), b != "-" && fsx::is_dir(&b));
    // GNU names every operand that is missing before giving up.
    let mut missing = false;
    for x in [&a, &b] {
        if x != "-" && fsx::metadata(x).is_err() && !o.new_file {
            ctx.diag.error(format!("{}: No such file or directory", x));
            missing = true;
        }
    }
    if missing {
        return Ok(2);
    }
    let code = match (da, db) {
        (true, true) => diff_dirs(ctx, &a, &b, &o)?,
        (true, false) => diff_files(ctx, &fsx::join(&a, fsx::base_name(&b)), &b, &o)?,
        (false, true) => diff_files(ctx, &a, &fsx::join(&b, fsx::base_name(&a)), &o)?,
        _ => diff_files(ctx, &a, &b, &o)?,
    };
    Ok(code)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        let (a, b) = (format!("{}/a", d), format!("{}/b", d));
        write(&a, "1\n2\n3\n4\n5\n6\n7\n8\n9\n");
        write(&b, "1\n2\nthree\n4\n5\n6\n7\n8\n9\nten\n");
        check("diff", &[&a, &a], "", "", 0);
        check("diff", &[&a, &b], "", "3c3\n< 3\n---\n> three\n9a10\n> ten\n", 1);
        check("diff", &["-q", &a, &b], "", &format!("Files {} and {} differ\n", a, b), 1);
        check("diff", &["-u", "--label", "x", "--label", "y", &a, &b], "", "--- x\n+++ y\n@@ -1,9 +1,10 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n 7\n 8\n 9\n+ten\n", 1);
        check("diff", &["-U", "1", "--label", "x", "--label", "y", &a, &b], "", "--- x\n+++ y\n@@ -2,3 +2,3 @@\n 2\n-3\n+three\n 4\n@@ -9 +9,2 @@\n 9\n+ten\n", 1);
        write(&b, "1\n2\n3\n4\n5\n6\n7\n8\n9");
        check("diff", &[&a, &b], "", "9c9\n< 9\n---\n> 9\n\\ No newline at end of file\n", 1);
        write(&b, "2\n3\n");
        check("diff", &[&a, &b], "", "1d0\n< 1\n4,9d2\n< 4\n< 5\n< 6\n< 7\n< 8\n< 9\n", 1);
        check("diff", &["-w"], "", "", 2);
        write(&b, "1\n2\nthree\n4\n");
        write(&a, "1\n2\n3\n4\n5\n");
        check("diff", &["-C", "1", "--label", "x", "--label", "y", &a, &b], "", "*** x\n--- y\n***************\n*** 2,5 ****\n  2\n! 3\n  4\n- 5\n--- 2,4 ----\n  2\n! three\n  4\n", 1);
        check("diff", &["-T", &a, &b], "", "3c3\n<\t3\n---\n>\tthree\n5d4\n<\t5\n", 1);
    }
}

/// Random pairs against Debian's own diff (run with `--ignored` where /usr/bin/diff is GNU
/// diffutils 3.8); the suite's table test is test/realism/diff.test.ts.
#[cfg(test)]
mod against_gnu {
    use crate::testutil::{run, tmpdir};

    fn lcg(s: &mut u64) -> u64 {
        *s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        *s >> 33
    }

    fn random_pair(seed: u64) -> (String, String) {
        let mut s = seed;
        let words = ["a", "b", "c", "", "x y", "}", "{", "  a", "a  ", "A", "end", "\tb", "a\r", " "];
        let n = if seed % 3 == 0 { (lcg(&mut s) % 400) as usize } else { (lcg(&mut s) % 30) as usize };
        let vocab = if seed % 2 == 0 { words.len() as u64 } else { 4 };
        let mut a: Vec<String> = (0..n).map(|_| words[(lcg(&mut s) % vocab) as usize].to_string()).collect();
        let mut b = a.clone();
        let edits = if n > 100 { lcg(&mut s) % 60 } else { lcg(&mut s) % 6 };
        for _ in 0..edits {
            let at = if b.is_empty() { 0 } else { (lcg(&mut s) % (b.len() as u64 + 1)) as usize };
            match lcg(&mut s) % 3 {
                0 if at < b.len() => {
                    b.remove(at);
                }
                1 if at < b.len() => b[at] = words[(lcg(&mut s) % words.len() as u64) as usize].to_string(),
                _ => b.insert(at, words[(lcg(&mut s) % words.len() as u64) as usize].to_string()),
            }
        }
        if lcg(&mut s) % 5 == 0 {
            a.reverse();
        }
        let join = |v: &Vec<String>, s: &mut u64| {
            let mut t = v.join("\n");
            if !v.is_empty() && lcg(s) % 6 != 0 {
                t.push('\n');
            }
            t
        };
        (join(&a, &mut s), join(&b, &mut s))
    }

    #[test]
    #[ignore]
    fn random_pairs() {
        let d = tmpdir();
        let (pa, pb) = (format!("{}/a", d), format!("{}/b", d));
        let mut bad = 0;
        for seed in 0..3000u64 {
            let (a, b) = random_pair(seed);
            std::fs::write(&pa, &a).unwrap();
            std::fs::write(&pb, &b).unwrap();
            let opts: &[&str] = match seed % 20 {
                0 => &[],
                1 => &["-u"],
                2 => &["-c"],
                3 => &["-U0"],
                4 => &["-w"],
                5 => &["-B"],
                6 => &["-b", "-U1"],
                7 => &["-i", "-u"],
                8 => &["-Z", "-B", "-u"],
                9 => &["-d"],
                10 => &["-H", "-u"],
                11 => &["-I", "^a", "-C2"],
                12 => &["-E", "-q"],
                13 => &["--strip-trailing-cr", "-u"],
                14 => &["-b", "-B"],
                15 => &["-w", "-u"],
                16 => &["-Z"],
                17 => &["-e"],
                18 => &["-s"],
                _ => &["-n"],
            };
            let mut args: Vec<&str> = opts.to_vec();
            args.extend(["--label", "A", "--label", "B", pa.as_str(), pb.as_str()]);
            let real = std::process::Command::new("/usr/bin/diff").args(&args).output().unwrap();
            let (code, out, _) = run("diff", &args, "");
            let want = String::from_utf8_lossy(&real.stdout);
            if out != want || Some(code) != real.status.code() {
                bad += 1;
                if bad < 6 {
                    eprintln!("seed {} {:?}\n--- a\n{:?}\n--- b\n{:?}\n--- want {:?}\n{}--- got {}\n{}", seed, opts, a, b, real.status.code(), want, code, out);
                }
            }
        }
        assert_eq!(bad, 0);
    }

    /// Large inputs far apart, where GNU's cost bound cuts the search short.
    #[test]
    #[ignore]
    fn expensive_pairs() {
        let d = tmpdir();
        let (pa, pb) = (format!("{}/a", d), format!("{}/b", d));
        for seed in 0..4u64 {
            let mut s = seed;
            let text = |n: usize, s: &mut u64| (0..n).map(|_| format!("{}\n", lcg(s) % 700)).collect::<String>();
            let (a, b) = (text(12000, &mut s), text(11000, &mut s));
            std::fs::write(&pa, &a).unwrap();
            std::fs::write(&pb, &b).unwrap();
            let real = std::process::Command::new("/usr/bin/diff").args([&pa, &pb]).output().unwrap();
            let (code, out, _) = run("diff", &[&pa, &pb], "");
            assert_eq!(Some(code), real.status.code());
            assert!(out == String::from_utf8_lossy(&real.stdout), "seed {}", seed);
        }
    }
}
