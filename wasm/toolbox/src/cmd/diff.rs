//! diff [-u|-U N|-c?] [-q] [-s] [-i] [-b] [-w] [-B] [-N] [-r] [--label L] FROM TO
//!
//! Normal and unified output as GNU diff prints them, from a Myers
//! shortest edit script over lines (common prefix/suffix trimmed first).
//! When the edit distance is huge the search is cut off and the rest is
//! reported as one change: still a correct diff, just not a minimal one.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use std::collections::HashMap;
use std::io::{self, Read, Write};

#[path = "diff_fmt.rs"]
mod fmt;

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
    // The edit script is already minimal and whole; there are no links; names are case-exact.
    flag('d', "minimal", "ignored"),
    flag('H', "speed-large-files", "ignored"),
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

/// Upper bound on Myers' trace memory (entries) before falling back.
const TRACE_LIMIT: usize = 20_000_000;

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
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Op {
    Eq,
    Del,
    Ins,
}

fn norm(l: &[u8], o: &O) -> Vec<u8> {
    let mut v: Vec<u8> = l.to_vec();
    if o.strip_cr && v.last() == Some(&b'\r') {
        v.pop();
    }
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
        while v.last().map(|c| c.is_ascii_whitespace()).unwrap_or(false) {
            v.pop();
        }
    }
    if o.all_space {
        v.retain(|c| !c.is_ascii_whitespace());
    } else if o.space {
        let mut out = Vec::with_capacity(v.len());
        let mut ws = false;
        for &c in &v {
            if c == b' ' || c == b'\t' {
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

/// Edit script turning `a` into `b` (ids of normalised lines).
fn script(a: &[usize], b: &[usize]) -> Vec<Op> {
    let mut pre = 0;
    while pre < a.len() && pre < b.len() && a[pre] == b[pre] {
        pre += 1;
    }
    let mut suf = 0;
    while suf < a.len() - pre && suf < b.len() - pre && a[a.len() - 1 - suf] == b[b.len() - 1 - suf] {
        suf += 1;
    }
    let (x, y) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let mut ops = vec![Op::Eq; pre];
    ops.extend(myers(x, y));
    ops.extend(std::iter::repeat(Op::Eq).take(suf));
    ops
}

fn myers(a: &[usize], b: &[usize]) -> Vec<Op> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    if n == 0 || m == 0 {
        let mut v = vec![Op::Del; a.len()];
        v.extend(std::iter::repeat(Op::Ins).take(b.len()));
        return v;
    }
    let max = (n + m) as usize;
    let off = max as isize;
    let mut v = vec![0isize; 2 * max + 2];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    let mut used = 0usize;
    let mut found = None;
    'outer: for d in 0..=max as isize {
        used += v.len();
        if used > TRACE_LIMIT {
            break;
        }
        trace.push(v.clone());
        let mut k = -d;
        while k <= d {
            let mut x = if k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize]) { v[(off + k + 1) as usize] } else { v[(off + k - 1) as usize] + 1 };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[(off + k) as usize] = x;
            if x >= n && y >= m {
                found = Some(d);
                break 'outer;
            }
            k += 2;
        }
    }
    let d_end = match found {
        Some(d) => d,
        None => {
            // Too far apart: one big change is a valid (non-minimal) answer.
            let mut v = vec![Op::Del; a.len()];
            v.extend(std::iter::repeat(Op::Ins).take(b.len()));
            return v;
        }
    };
    // Walk the trace back from (n, m).
    let mut ops = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (1..=d_end).rev() {
        let vd = &trace[d as usize];
        let k = x - y;
        let prev_k = if k == -d || (k != d && vd[(off + k - 1) as usize] < vd[(off + k + 1) as usize]) { k + 1 } else { k - 1 };
        let prev_x = vd[(off + prev_k) as usize];
        let prev_y = prev_x - prev_k;
        while x > prev_x && y > prev_y {
            ops.push(Op::Eq);
            x -= 1;
            y -= 1;
        }
        if x == prev_x {
            ops.push(Op::Ins);
        } else {
            ops.push(Op::Del);
        }
        x = prev_x;
        y = prev_y;
    }
    while x > 0 && y > 0 {
        ops.push(Op::Eq);
        x -= 1;
        y -= 1;
    }
    ops.reverse();
    ops
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
    let lines = data.split_inclusive(|c| *c == b'\n').map(|l| l.strip_suffix(b"\n").unwrap_or(l).to_vec()).collect();
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
    let mut ids: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut id = |l: &[u8]| -> usize {
        let k = norm(l, o);
        let n = ids.len();
        *ids.entry(k).or_insert(n)
    };
    let a: Vec<usize> = fa.lines.iter().map(|l| id(l)).collect();
    let b: Vec<usize> = fb.lines.iter().map(|l| id(l)).collect();
    let mut ops = script(&a, &b);
    // A changed "no newline at end" is a difference on the last line.
    let same_text = ops.iter().all(|o| *o == Op::Eq) && (fa.no_nl == fb.no_nl || o.all_space);
    if same_text && (o.side.is_some() || o.formats.is_some()) {
        // These styles list the whole file, changed or not.
        let out = match (&o.side, &o.formats) {
            (Some(sd), _) => fmt::side_by_side(&fa, &fb, &[], sd),
            (_, Some(f)) => fmt::formatted(&fa, &fb, &[], f),
            _ => Vec::new(),
        };
        ctx.out.write_all(&out)?;
        return Ok(0);
    }
    if same_text {
        if o.same {
            writeln!(ctx.out, "Files {} and {} are identical", p1, p2)?;
        }
        return Ok(0);
    }
    if ops.iter().all(|o| *o == Op::Eq) {
        // Only the final newline differs: make the last line a change.
        let last = ops.len() - 1;
        ops[last] = Op::Del;
        ops.push(Op::Ins);
    }
    if o.brief || fa.binary || fb.binary {
        if fa.binary || fb.binary {
            writeln!(ctx.out, "Binary files {} and {} differ", p1, p2)?;
        } else {
            writeln!(ctx.out, "Files {} and {} differ", p1, p2)?;
        }
        return Ok(1);
    }
    // Hunks: (a_start, a_end, b_start, b_end) of each run of changes.
    let mut hunks: Vec<Hunk> = Vec::new();
    let (mut i, mut j, mut k) = (0usize, 0usize, 0usize);
    while k < ops.len() {
        if ops[k] == Op::Eq {
            i += 1;
            j += 1;
            k += 1;
            continue;
        }
        let (si, sj) = (i, j);
        while k < ops.len() && ops[k] != Op::Eq {
            if ops[k] == Op::Del {
                i += 1;
            } else {
                j += 1;
            }
            k += 1;
        }
        hunks.push((si, i, sj, j));
    }
    if o.blank {
        hunks.retain(|&(a0, a1, b0, b1)| !(fa.lines[a0..a1].iter().chain(fb.lines[b0..b1].iter()).all(|l| l.iter().all(|c| c.is_ascii_whitespace()))));
        if hunks.is_empty() {
            return Ok(0);
        }
    }
    if !o.ignore.is_empty() {
        let matched = |l: &Vec<u8>| o.ignore.iter().any(|r| r.is_match(l));
        hunks.retain(|&(a0, a1, b0, b1)| !fa.lines[a0..a1].iter().chain(fb.lines[b0..b1].iter()).all(matched));
        if hunks.is_empty() {
            return Ok(0);
        }
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
        for g in groups_of(hunks, ctxn) {
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
            for g in groups_of(hunks, ctxn) {
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

pub(crate) type Hunk = (usize, usize, usize, usize);

/// Hunks merged where their context (`ctxn` lines each side) would touch or overlap.
/// The lines a group of hunks shows with `ctxn` lines of context: (a_start, a_end, b_start, b_end).
fn group_span(g: &[Hunk], ctxn: usize, a_len: usize) -> (usize, usize, usize, usize) {
    let (first, last) = (g[0], g[g.len() - 1]);
    let a_start = first.0.saturating_sub(ctxn);
    let a_end = (last.1 + ctxn).min(a_len);
    (a_start, a_end, first.2 - (first.0 - a_start), last.3 + (a_end - last.1))
}

fn groups_of(hunks: Vec<Hunk>, ctxn: usize) -> Vec<Vec<Hunk>> {
    let mut groups: Vec<Vec<Hunk>> = Vec::new();
    for h in hunks {
        match groups.last_mut() {
            Some(g) if h.0 - g.last().unwrap().1 <= 2 * ctxn => g.push(h),
            _ => groups.push(vec![h]),
        }
    }
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
        context: if unified.is_some() { None } else { context },
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
    for x in [&a, &b] {
        if x != "-" && fsx::metadata(x).is_err() && !o.new_file {
            ctx.diag.error(format!("{}: No such file or directory", x));
            return Ok(2);
        }
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
