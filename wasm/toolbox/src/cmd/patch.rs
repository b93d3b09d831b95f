//! patch (GNU): applies unified, context, normal and ed-style diffs (as diff -u/-c/plain/-e and
//! git diff write them), creating and deleting files through /dev/null headers. A hunk may
//! apply at an offset (searched outward from its line) and with fuzz (up to -F outer context
//! lines ignored, 2 by default); -l matches blanks loosely. Reversed patches are detected on the
//! first hunk (-R assumed under -t, skipped under -N). Failed hunks go to FILE.rej (or -r) in
//! unified or context form; backups follow -b/-B/-Y/-z/-V and --backup-if-mismatch; -D writes
//! #ifdef'd output. Status 1 when hunks fail, 2 for unusable input. --merge is not built.

use crate::args::{flag, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    val('p', "strip", "p"),
    val('i', "input", "i"),
    flag('R', "reverse", "R"),
    flag('N', "forward", "N"),
    flag('\0', "dry-run", "dry"),
    val('o', "output", "o"),
    val('d', "directory", "d"),
    flag('s', "quiet", "s"),
    flag('s', "silent", "s"),
    flag('f', "force", "f"),
    flag('t', "batch", "t"),
    flag('u', "unified", "u"),
    flag('c', "context", "c"),
    flag('n', "normal", "n"),
    flag('e', "ed", "e"),
    flag('b', "backup", "b"),
    flag('E', "remove-empty-files", "E"),
    val('z', "suffix", "z"),
    val('B', "prefix", "B"),
    val('Y', "basename-prefix", "Y"),
    val('V', "version-control", "V"),
    flag('\0', "backup-if-mismatch", "mismatch"),
    flag('\0', "no-backup-if-mismatch", "no-mismatch"),
    val('F', "fuzz", "F"),
    flag('l', "ignore-whitespace", "l"),
    val('r', "reject-file", "r"),
    val('\0', "reject-format", "reject-format"),
    val('D', "ifdef", "D"),
    flag('\0', "posix", "posix"),
    flag('\0', "verbose", "verbose"),
    flag('T', "set-time", "ignored"),
    flag('Z', "set-utc", "ignored"),
    val('g', "get", "ignored"),
    flag('\0', "binary", "ignored"),
    val('\0', "read-only", "ignored"),
    val('\0', "quoting-style", "ignored"),
    flag('\0', "follow-symlinks", "ignored"),
    flag('\0', "merge", "merge"),
    flag('v', "", crate::args::VERSION),
];
const HELP: &str = "Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]\n\nInput options:\n  -p NUM  --strip=NUM  Strip NUM leading components from file names.\n  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.\n  -l  --ignore-whitespace  Ignore white space changes between patch and input.\n  -c  --context  -e  --ed  -n  --normal  -u  --unified  Interpret the patch as that kind of diff.\n  -N  --forward  Ignore patches that seem to be reversed or already applied.\n  -R  --reverse  Assume patches were created with old and new files swapped.\n  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.\n\nOutput options:\n  -o FILE  --output=FILE  Output patched files to FILE.\n  -r FILE  --reject-file=FILE  Output rejects to FILE.\n  -D NAME  --ifdef=NAME  Make merged if-then-else output using NAME.\n  -E  --remove-empty-files  Remove output files that are empty after patching.\n  --reject-format=FORMAT  Create 'context' or 'unified' rejects.\n\nBackup and version control options:\n  -b  --backup  Back up the original contents of each file.\n  --backup-if-mismatch  Back up if the patch does not match exactly.\n  --no-backup-if-mismatch  Back up mismatches only if otherwise requested.\n  -V STYLE  --version-control=STYLE  Use STYLE version control (simple, numbered, existing).\n  -B PREFIX  --prefix=PREFIX  Prepend PREFIX to backup file names.\n  -Y PREFIX  --basename-prefix=PREFIX  Prepend PREFIX to backup file basenames.\n  -z SUFFIX  --suffix=SUFFIX  Append SUFFIX to backup file names.\n\nMiscellaneous options:\n  -t  --batch  Ask no questions; skip bad-Prereq patches; assume reversed.\n  -f  --force  Like -t, but ignore bad-Prereq patches, and assume unreversed.\n  -s  --quiet  --silent  Work silently unless an error occurs.\n  --verbose  Output extra information about the work being done.\n  --dry-run  Do not actually change any files; just print what would happen.\n  --posix  Conform to the POSIX standard.\n  -d DIR  --directory=DIR  Change the working directory to DIR first.\n  -T -Z -g --binary --read-only --quoting-style  accepted (no effect here).\n";

#[derive(Clone, Copy, PartialEq)]
enum Format {
    Unified,
    Context,
    Normal,
    Ed,
}

struct Hunk {
    old_start: usize,
    new_start: usize,
    old: Vec<String>,
    new: Vec<String>,
    old_nonl: bool,
    new_nonl: bool,
}

struct FilePatch {
    old_name: String,
    new_name: String,
    format: Format,
    /// The text before the first hunk (what --verbose shows) and that hunk's line number.
    leading: Vec<String>,
    line: usize,
    hunks: Vec<Hunk>,
}

fn header_name(line: &str) -> String {
    let rest = line[4..].trim_end();
    // A tab separates the name from a timestamp.
    let name = rest.split('\t').next().unwrap_or(rest);
    let name = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')).unwrap_or(name);
    name.to_string()
}

fn bad(l: &str) -> String {
    format!("malformed patch at line: {}", l)
}

/// "A,B" or "A" as (start, count) for a context-diff range: B is the last line.
fn ctx_range(s: &str) -> Option<(usize, usize)> {
    let (a, b) = s.split_once(',').unwrap_or((s, s));
    let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
    Some((a, if b >= a && a > 0 { b - a + 1 } else { 0 }))
}

/// A normal-diff command line: (old from, old to, letter, new from, new to).
fn normal_cmd(l: &str) -> Option<(usize, usize, char, usize, usize)> {
    let at = l.find(['a', 'c', 'd'])?;
    let num = |s: &str| -> Option<(usize, usize)> {
        let (a, b) = s.split_once(',').unwrap_or((s, s));
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    let (o1, o2) = num(&l[..at])?;
    let (n1, n2) = num(&l[at + 1..])?;
    Some((o1, o2, l[at..].chars().next()?, n1, n2))
}

fn parse(text: &str, ed: bool) -> Result<Vec<FilePatch>, String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<FilePatch> = Vec::new();
    let mut leading: Vec<String> = Vec::new();
    let mut i = 0;
    let file = |out: &mut Vec<FilePatch>, format, leading: &mut Vec<String>| -> usize {
        let open = out.last().map_or(true, |f| f.format != format || !f.hunks.is_empty() && format != Format::Normal && format != Format::Ed);
        if open || out.is_empty() {
            out.push(FilePatch { old_name: String::new(), new_name: String::new(), format, leading: std::mem::take(leading), line: 0, hunks: Vec::new() });
        }
        out.len() - 1
    };
    if ed {
        // ed scripts: `Na`, `N,Mc`, `N,Md` with text ended by a lone `.`, last lines first.
        let mut fp = FilePatch { old_name: String::new(), new_name: String::new(), format: Format::Ed, leading: Vec::new(), line: 1, hunks: Vec::new() };
        while i < lines.len() {
            let l = lines[i];
            i += 1;
            if l.is_empty() {
                continue;
            }
            let at = l.find(['a', 'c', 'd']).ok_or_else(|| bad(l))?;
            let (a, b) = l[..at].split_once(',').unwrap_or((&l[..at], &l[..at]));
            let (a, b): (usize, usize) = (a.parse().map_err(|_| bad(l))?, b.parse().map_err(|_| bad(l))?);
            let cmd = l[at..].chars().next().unwrap_or('d');
            let mut new = Vec::new();
            if cmd != 'd' {
                while i < lines.len() && lines[i] != "." {
                    new.push(lines[i].to_string());
                    i += 1;
                }
                i += 1;
            }
            let (start, count) = if cmd == 'a' { (a, 0) } else { (a, b - a + 1) };
            fp.hunks.push(Hunk { old_start: start, new_start: start, old: vec![String::new(); count], new, old_nonl: false, new_nonl: false });
        }
        return Ok(vec![fp]);
    }
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("--- ") && lines.get(i + 1).map_or(false, |n| n.starts_with("+++ ")) {
            leading.extend([l.to_string(), lines[i + 1].to_string()]);
            out.push(FilePatch { old_name: header_name(l), new_name: header_name(lines[i + 1]), format: Format::Unified, leading: std::mem::take(&mut leading), line: i + 3, hunks: Vec::new() });
            i += 2;
            continue;
        }
        if l.starts_with("*** ") && !l.ends_with(" ****") && lines.get(i + 1).map_or(false, |n| n.starts_with("--- ")) {
            leading.extend([l.to_string(), lines[i + 1].to_string()]);
            out.push(FilePatch { old_name: header_name(l), new_name: header_name(lines[i + 1]), format: Format::Context, leading: std::mem::take(&mut leading), line: i + 3, hunks: Vec::new() });
            i += 2;
            continue;
        }
        if l.starts_with("@@ ") {
            let fp = out.last_mut().ok_or("hunk without file header")?;
            let inner = l[3..].split(" @@").next().unwrap_or("");
            let mut parts = inner.split_whitespace();
            let range = |s: Option<&str>, sign: char| -> Result<(usize, usize), String> {
                let s = s.and_then(|s| s.strip_prefix(sign)).ok_or_else(|| bad(l))?;
                let (a, b) = s.split_once(',').unwrap_or((s, "1"));
                Ok((a.parse().map_err(|_| bad(l))?, b.parse().map_err(|_| bad(l))?))
            };
            let (os, oc) = range(parts.next(), '-')?;
            let (ns, nc) = range(parts.next(), '+')?;
            let mut h = Hunk { old_start: os, new_start: ns, old: Vec::new(), new: Vec::new(), old_nonl: false, new_nonl: false };
            i += 1;
            let (mut seen_old, mut seen_new) = (0, 0);
            let mut last = ' ';
            while i < lines.len() && (seen_old < oc || seen_new < nc || lines[i].starts_with('\\')) {
                let t = lines[i];
                if t.starts_with('\\') {
                    match last {
                        '-' => h.old_nonl = true,
                        '+' => h.new_nonl = true,
                        _ => {
                            h.old_nonl = true;
                            h.new_nonl = true;
                        }
                    }
                    i += 1;
                    continue;
                }
                let (c, body) = match t.chars().next() {
                    Some(c @ (' ' | '-' | '+')) => (c, &t[1..]),
                    // Some tools drop the space of empty context lines.
                    None => (' ', ""),
                    Some(_) => return Err(bad(t)),
                };
                if c != '+' {
                    h.old.push(body.to_string());
                    seen_old += 1;
                }
                if c != '-' {
                    h.new.push(body.to_string());
                    seen_new += 1;
                }
                last = c;
                i += 1;
            }
            if seen_old != oc || seen_new != nc {
                return Err(format!("unexpected end of file in patch at line {}", i));
            }
            fp.hunks.push(h);
            continue;
        }
        if l == "***************" && out.last().map_or(false, |f| f.format == Format::Context) {
            // *** a,b ****  old lines  --- c,d ----  new lines; a side may be left out.
            let os = lines.get(i + 1).and_then(|h| h.strip_prefix("*** ")).and_then(|h| h.strip_suffix(" ****")).and_then(ctx_range).ok_or_else(|| bad(l))?;
            i += 2;
            let take = |i: &mut usize, stop: &dyn Fn(&str) -> bool| {
                let mut v: Vec<(char, String)> = Vec::new();
                while *i < lines.len() && !stop(lines[*i]) {
                    let t = lines[*i];
                    if !t.starts_with('\\') {
                        v.push((t.chars().next().unwrap_or(' '), t.get(2..).unwrap_or("").to_string()));
                    }
                    *i += 1;
                }
                v
            };
            let old = take(&mut i, &|t: &str| t.starts_with("--- ") && t.ends_with(" ----"));
            let ns = lines.get(i).and_then(|h| h.strip_prefix("--- ")).and_then(|h| h.strip_suffix(" ----")).and_then(ctx_range).ok_or_else(|| bad(l))?;
            i += 1;
            let st = i;
            let mut new = take(&mut i, &|t: &str| t == "***************" || t.starts_with("*** ") || t.starts_with("--- ") || t.starts_with("diff "));
            // The new side holds at most its stated count; what follows is not the hunk's.
            new.truncate(ns.1);
            i = st + new.len();
            let ctx_only = |v: &[(char, String)]| v.iter().filter(|(c, _)| *c == ' ').map(|(_, s)| s.clone()).collect::<Vec<_>>();
            let mut old_l: Vec<String> = old.iter().map(|(_, s)| s.clone()).collect();
            let mut new_l: Vec<String> = new.iter().map(|(_, s)| s.clone()).collect();
            if old.is_empty() && os.1 > 0 {
                old_l = ctx_only(&new);
            }
            if new.is_empty() && ns.1 > 0 {
                new_l = ctx_only(&old);
            }
            let fp = out.last_mut().ok_or("hunk without file header")?;
            fp.hunks.push(Hunk { old_start: os.0, new_start: ns.0, old: old_l, new: new_l, old_nonl: false, new_nonl: false });
            continue;
        }
        if let Some((o1, o2, c, n1, n2)) = normal_cmd(l) {
            let idx = file(&mut out, Format::Normal, &mut leading);
            if out[idx].line == 0 {
                out[idx].line = i + 1;
            }
            i += 1;
            let mut old = Vec::new();
            let mut new = Vec::new();
            while i < lines.len() {
                let t = lines[i];
                if let Some(b) = t.strip_prefix("< ") {
                    old.push(b.to_string());
                } else if let Some(b) = t.strip_prefix("> ") {
                    new.push(b.to_string());
                } else if t != "---" && !t.starts_with('\\') {
                    break;
                }
                i += 1;
            }
            let (oc, nc) = (if c == 'a' { 0 } else { o2 - o1 + 1 }, if c == 'd' { 0 } else { n2 - n1 + 1 });
            if old.len() != oc || new.len() != nc {
                return Err(bad(l));
            }
            out[idx].hunks.push(Hunk { old_start: o1, new_start: n1, old, new, old_nonl: false, new_nonl: false });
            continue;
        }
        leading.push(l.to_string());
        i += 1;
    }
    out.retain(|f| !f.hunks.is_empty() || f.old_name == "/dev/null" || f.new_name == "/dev/null");
    Ok(out)
}

fn strip(name: &str, n: usize) -> String {
    if n == 0 {
        return name.to_string();
    }
    let parts: Vec<&str> = name.split('/').collect();
    if parts.len() <= n {
        return parts.last().unwrap_or(&"").to_string();
    }
    parts[n..].join("/")
}

/// -l compares lines with every run of blanks as one and trailing blanks dropped.
fn loose(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn find(lines: &[String], pat: &[String], want: usize, ws: bool) -> Option<usize> {
    if pat.is_empty() {
        return Some(want.min(lines.len()));
    }
    if pat.len() > lines.len() {
        return None;
    }
    let max = lines.len() - pat.len();
    let same = |a: &String, b: &String| if ws { loose(a) == loose(b) } else { a == b };
    let matches = |at: usize| at <= max && lines[at..at + pat.len()].iter().zip(pat).all(|(a, b)| same(a, b));
    for d in 0..=lines.len() {
        if want >= d && matches(want - d) {
            return Some(want - d);
        }
        if matches(want + d) {
            return Some(want + d);
        }
        if want < d && want + d > max {
            break;
        }
    }
    None
}

/// The hunk's lines in order as (' ' | '-' | '+', text), aligned by a longest common subsequence.
fn ops(old: &[String], new: &[String]) -> Vec<(char, String)> {
    let (n, m) = (old.len(), new.len());
    let mut t = vec![vec![0u32; m + 1]; n + 1];
    for a in (0..n).rev() {
        for b in (0..m).rev() {
            t[a][b] = if old[a] == new[b] { t[a + 1][b + 1] + 1 } else { t[a + 1][b].max(t[a][b + 1]) };
        }
    }
    let (mut a, mut b) = (0, 0);
    let mut out = Vec::new();
    while a < n || b < m {
        if a < n && b < m && old[a] == new[b] {
            out.push((' ', old[a].clone()));
            a += 1;
            b += 1;
        } else if a < n && (b >= m || t[a + 1][b] >= t[a][b + 1]) {
            out.push(('-', old[a].clone()));
            a += 1;
        } else {
            out.push(('+', new[b].clone()));
            b += 1;
        }
    }
    out
}

fn range_u(start: usize, len: usize) -> String {
    if len == 1 { start.to_string() } else { format!("{},{}", start, len) }
}

fn range_c(start: usize, len: usize) -> String {
    if len <= 1 { start.to_string() } else { format!("{},{}", start, start + len - 1) }
}

/// The rejected hunks as a unified or context diff.
fn reject_text(name: &str, hunks: &[&Hunk], context: bool) -> String {
    let mut out = if context { format!("*** {}\n--- {}\n", name, name) } else { format!("--- {}\n+++ {}\n", name, name) };
    for h in hunks {
        let o = ops(&h.old, &h.new);
        if !context {
            out.push_str(&format!("@@ -{} +{} @@\n", range_u(h.old_start, h.old.len()), range_u(h.new_start, h.new.len())));
            for (c, l) in &o {
                out.push_str(&format!("{}{}\n", c, l));
            }
            continue;
        }
        // Context form: a change with both sides is `!` on both.
        let mut marks: Vec<char> = o.iter().map(|(c, _)| *c).collect();
        let mut k = 0;
        while k < marks.len() {
            if marks[k] == ' ' {
                k += 1;
                continue;
            }
            let st = k;
            while k < marks.len() && marks[k] != ' ' {
                k += 1;
            }
            if marks[st..k].contains(&'-') && marks[st..k].contains(&'+') {
                marks[st..k].iter_mut().for_each(|m| *m = '!');
            }
        }
        out.push_str(&format!("***************\n*** {} ****\n", range_c(h.old_start, h.old.len())));
        if marks.iter().any(|&m| m == '-' || m == '!') {
            for ((c, l), m) in o.iter().zip(&marks) {
                if *c != '+' {
                    out.push_str(&format!("{} {}\n", if *m == '!' { '!' } else { *c }, l));
                }
            }
        }
        out.push_str(&format!("--- {} ----\n", range_c(h.new_start, h.new.len())));
        if marks.iter().any(|&m| m == '+' || m == '!') {
            for ((c, l), m) in o.iter().zip(&marks) {
                if *c != '-' {
                    out.push_str(&format!("{} {}\n", if *m == '!' { '!' } else { *c }, l));
                }
            }
        }
    }
    out
}

/// -D NAME: the hunk's new text with each change wrapped in #ifdef/#ifndef NAME.
fn ifdef_text(old: &[String], new: &[String], name: &str) -> Vec<String> {
    let o = ops(old, new);
    let mut out = Vec::new();
    let mut k = 0;
    while k < o.len() {
        if o[k].0 == ' ' {
            out.push(o[k].1.clone());
            k += 1;
            continue;
        }
        let st = k;
        while k < o.len() && o[k].0 != ' ' {
            k += 1;
        }
        let gone: Vec<String> = o[st..k].iter().filter(|x| x.0 == '-').map(|x| x.1.clone()).collect();
        let added: Vec<String> = o[st..k].iter().filter(|x| x.0 == '+').map(|x| x.1.clone()).collect();
        if added.is_empty() {
            out.push(format!("#ifndef {}", name));
            out.extend(gone);
        } else if gone.is_empty() {
            out.push(format!("#ifdef {}", name));
            out.extend(added);
        } else {
            out.push(format!("#ifndef {}", name));
            out.extend(gone);
            out.push("#else".into());
            out.extend(added);
        }
        out.push("#endif".into());
    }
    out
}

/// Where a hunk applies: (position, offset from its line, fuzz used), trying more fuzz
/// (outer context lines ignored) only when the exact text is not found.
fn place(lines: &[String], old: &[String], new: &[String], want: usize, fuzz: usize, ws: bool) -> Option<(usize, usize, usize, usize)> {
    let lead = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let trail = old.iter().rev().zip(new.iter().rev()).take_while(|(a, b)| a == b).count();
    for f in 0..=fuzz {
        let (top, bottom) = (f.min(lead), f.min(trail));
        if f > 0 && top == 0 && bottom == 0 {
            break;
        }
        if top + bottom > old.len() {
            break;
        }
        if let Some(pos) = find(lines, &old[top..old.len() - bottom], want + top, ws) {
            return Some((pos, top, bottom, f));
        }
    }
    None
}

struct Opts {
    backup: bool,
    mismatch: bool,
    suffix: String,
    prefix: Option<String>,
    base_prefix: Option<String>,
    numbered: Option<bool>,
}

/// The backup's name under -B/-Y/-z/-V (`existing` numbers only where numbered backups exist).
fn backup_name(o: &Opts, path: &str) -> String {
    if let Some(pre) = &o.prefix {
        return format!("{}{}", pre, path);
    }
    if let Some(pre) = &o.base_prefix {
        let (dir, base) = match path.rsplit_once('/') {
            Some((d, b)) => (format!("{}/", d), b),
            None => (String::new(), path),
        };
        return format!("{}{}{}", dir, pre, base);
    }
    let highest = || {
        let (dir, base) = path.rsplit_once('/').map(|(d, b)| (d.to_string(), b.to_string())).unwrap_or((".".into(), path.to_string()));
        fsx::read_dir_names(&dir).unwrap_or_default().iter().filter_map(|n| n.strip_prefix(&format!("{}.~", base)).and_then(|r| r.strip_suffix('~')).and_then(|d| d.parse::<u32>().ok())).max()
    };
    let numbered = match o.numbered {
        Some(n) => n,
        None => highest().is_some(),
    };
    if numbered {
        return format!("{}.~{}~", path, highest().unwrap_or(0) + 1);
    }
    format!("{}{}", path, o.suffix)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 2);
    let strip_n = match p.last("p").map(|s| s.parse::<usize>()) {
        None => None,
        Some(Ok(n)) => Some(n),
        Some(Err(_)) => {
            ctx.diag.error(format!("strip count {} is not a number", p.last("p").unwrap()));
            return Ok(2);
        }
    };
    let fuzz = match p.last("F").map(|s| s.parse::<usize>()) {
        None => 2,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            ctx.diag.error(format!("fuzz factor {} is not a number", p.last("F").unwrap()));
            return Ok(2);
        }
    };
    if p.has("merge") {
        ctx.diag.error("--merge is not supported here; apply without it and resolve the .rej file");
        return Ok(2);
    }
    let dir = p.last("d").map(|s| s.to_string());
    // -d comes first: every other name is read inside DIR.
    let at = |n: &str| match &dir {
        Some(d) if !n.starts_with('/') => fsx::join(d, n),
        _ => n.to_string(),
    };
    let patchfile = p.last("i").map(|s| s.to_string()).or_else(|| p.operands.get(1).cloned());
    let mut text = Vec::new();
    let r = match &patchfile {
        Some(f) if f != "-" => std::fs::File::open(fsx::host(&at(f))).and_then(|mut h| h.read_to_end(&mut text)),
        _ => ctx.stdin.read_to_end(&mut text),
    };
    if let Err(e) = r {
        ctx.diag.error(format!("{}: {}", patchfile.unwrap_or_else(|| "-".into()), reason(&e)));
        return Ok(2);
    }
    let text = String::from_utf8_lossy(&text).into_owned();
    let patches = match parse(&text, p.has("e")) {
        Ok(v) => v,
        Err(m) => {
            ctx.diag.error(format!("**** {}", m));
            return Ok(2);
        }
    };
    if patches.is_empty() {
        ctx.diag.error("**** Only garbage was found in the patch input.");
        return Ok(2);
    }
    let dry = p.has("dry");
    let quiet = p.has("s");
    let verbose = p.has("verbose");
    let ws = p.has("l");
    let to_stdout = p.last("o") == Some("-");
    let opts = Opts {
        backup: p.has("b"),
        mismatch: p.has("mismatch") || !(p.has("posix") || p.has("no-mismatch") || std::env::var_os("POSIXLY_CORRECT").is_some()),
        suffix: p.last("z").map(str::to_string).or_else(|| std::env::var("SIMPLE_BACKUP_SUFFIX").ok()).unwrap_or_else(|| ".orig".into()),
        prefix: p.last("B").map(str::to_string),
        base_prefix: p.last("Y").map(str::to_string),
        numbered: match p.last("V").map(str::to_string).or_else(|| std::env::var("PATCH_VERSION_CONTROL").ok()).or_else(|| std::env::var("VERSION_CONTROL").ok()).as_deref() {
            Some("numbered" | "t") => Some(true),
            Some("existing" | "nil") => None,
            _ => Some(false),
        },
    };
    let backup_any = opts.backup || p.has("B") || p.has("Y") || p.has("z") || p.has("V");
    let mut msgs: Vec<u8> = Vec::new();
    let mut status = 0;
    for fp in &patches {
        let (old_name, new_name) = if p.has("R") { (&fp.new_name, &fp.old_name) } else { (&fp.old_name, &fp.new_name) };
        let creating = old_name == "/dev/null";
        let deleting = new_name == "/dev/null";
        let raw_name = if deleting { old_name } else { new_name };
        let raw_name = if raw_name.is_empty() || (fp.format == Format::Unified && !deleting && !creating && raw_name != old_name && p.operands.is_empty() && strip_n.is_none()) { old_name } else { raw_name };
        // Without -p, GNU uses the base name; git's a/ b/ prefixes need -p1.
        let target = match (p.operands.first(), strip_n) {
            (Some(f), _) => f.clone(),
            (None, Some(n)) => strip(raw_name, n),
            (None, None) => fsx::base_name(raw_name).to_string(),
        };
        if target.is_empty() {
            ctx.diag.error("**** can't tell which file to patch; name it: patch FILE < PATCH");
            status = 2;
            continue;
        }
        let path = at(&target);
        let exists = fsx::metadata(&path).is_ok();
        if verbose {
            let kind = match fp.format {
                Format::Unified => "a unified diff",
                Format::Context => "a new-style context diff",
                Format::Normal => "a normal diff",
                Format::Ed => "an ed script",
            };
            writeln!(msgs, "Hmm...  Looks like {} to me...", kind)?;
            if !fp.leading.is_empty() {
                writeln!(msgs, "The text leading up to this was:\n--------------------------")?;
                for l in &fp.leading {
                    writeln!(msgs, "|{}", l)?;
                }
                writeln!(msgs, "--------------------------")?;
            }
        }
        if p.has("R") && creating && !exists && !p.has("t") && !p.has("f") {
            writeln!(msgs, "The next patch, when reversed, would delete the file {},\nwhich does not exist!  Ignore -R? [n] \nApply anyway? [n] \nSkipping patch.", target)?;
            writeln!(msgs, "{} out of {} hunk{} ignored", fp.hunks.len(), fp.hunks.len(), if fp.hunks.len() == 1 { "" } else { "s" })?;
            status = 1;
            continue;
        }
        if !exists && !creating && p.operands.is_empty() && !p.has("f") && !p.has("t") {
            // GNU asks which file to patch; with no one to answer, it skips the patch.
            writeln!(msgs, "can't find file to patch at input line {}\nPerhaps you used the wrong -p or --strip option?", fp.line)?;
            if !verbose {
                writeln!(msgs, "The text leading up to this was:\n--------------------------")?;
                for l in &fp.leading {
                    writeln!(msgs, "|{}", l)?;
                }
                writeln!(msgs, "--------------------------")?;
            }
            writeln!(msgs, "File to patch: \nSkip this patch? [y] \nSkipping patch.")?;
            writeln!(msgs, "{} out of {} hunk{} ignored", fp.hunks.len(), fp.hunks.len(), if fp.hunks.len() == 1 { "" } else { "s" })?;
            ctx.out.write_all(&msgs)?;
            msgs.clear();
            status = 1;
            continue;
        }
        let orig = if creating && !exists { String::new() } else {
            match std::fs::read_to_string(fsx::host(&path)) {
                Ok(s) => s,
                Err(e) => {
                    ctx.out.write_all(&msgs)?;
                    msgs.clear();
                    ctx.diag.error(format!("can't open {} to patch: {}; skipping it", q(&target), reason(&e)));
                    let _ = writeln!(ctx.diag.raw(), "{} hunk{} ignored", fp.hunks.len(), if fp.hunks.len() == 1 { "" } else { "s" });
                    status = 1;
                    continue;
                }
            }
        };
        if !quiet && fp.format != Format::Ed {
            match (dry, p.last("o")) {
                (true, _) => writeln!(msgs, "checking file {}", target)?,
                (false, Some(o)) if o != "-" => writeln!(msgs, "patching file {} (read from {})", o, target)?,
                _ => writeln!(msgs, "patching file {}", target)?,
            }
        }
        if verbose {
            writeln!(msgs, "Using Plan A...")?;
        }
        let had_nl = orig.ends_with('\n') || orig.is_empty();
        let mut lines: Vec<String> = orig.split('\n').map(|s| s.to_string()).collect();
        if orig.ends_with('\n') || orig.is_empty() {
            lines.pop();
        }
        let mut end_nl = had_nl;
        let mut delta: isize = 0;
        let mut rejects: Vec<&Hunk> = Vec::new();
        let mut reverse = p.has("R");
        let mut mismatch = false;
        let mut skipped = false;
        let ed = fp.format == Format::Ed;
        for (hi, h) in fp.hunks.iter().enumerate() {
            let (old, new) = if reverse { (&h.new, &h.old) } else { (&h.old, &h.new) };
            let o_start = if reverse { h.new_start } else { h.old_start };
            let want = if old.is_empty() { (o_start as isize + delta).max(0) as usize } else { ((o_start as isize - 1).max(0) + delta).max(0) as usize };
            let found = if ed {
                // An ed command names its lines; it does not search.
                let pos = if old.is_empty() { o_start } else { o_start - 1 };
                (pos + old.len() <= lines.len()).then_some((pos, 0, 0, 0))
            } else {
                place(&lines, old, new, want, fuzz, ws)
            };
            let found = match found {
                Some(f) => Some(f),
                None if hi == 0 && !p.has("f") && !ed && !old.is_empty() && place(&lines, new, old, want, 0, ws).is_some() => {
                    // The first hunk applies the other way round: the patch is reversed or applied.
                    if p.has("t") {
                        writeln!(msgs, "Reversed (or previously applied) patch detected!  {} -R.", if reverse { "Ignoring" } else { "Assuming" })?;
                        reverse = !reverse;
                        let (old, new) = (new, old);
                        place(&lines, old, new, want, fuzz, ws)
                    } else {
                        if p.has("N") {
                            writeln!(msgs, "Reversed (or previously applied) patch detected!  Skipping patch.")?;
                        } else {
                            writeln!(msgs, "Reversed (or previously applied) patch detected!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.")?;
                        }
                        skipped = true;
                        break;
                    }
                }
                None => None,
            };
            let (old, new, new_nonl) = if reverse { (&h.new, &h.old, h.old_nonl) } else { (&h.old, &h.new, h.new_nonl) };
            match found {
                Some((pos, top, bottom, f)) => {
                    let body_old = &old[top..old.len() - bottom];
                    let body_new = &new[top..new.len() - bottom];
                    let touches_end = pos + body_old.len() == lines.len();
                    let repl = match p.last("D") {
                        Some(name) => ifdef_text(body_old, body_new, name),
                        None => body_new.to_vec(),
                    };
                    let repl_len = repl.len();
                    lines.splice(pos..pos + body_old.len(), repl);
                    if touches_end && bottom == 0 {
                        end_nl = !new_nonl;
                    }
                    delta += repl_len as isize - body_old.len() as isize;
                    let off = pos as isize - (want + top) as isize;
                    if off != 0 || f > 0 {
                        mismatch = true;
                    }
                    let line = pos + 1 - top;
                    if !quiet && !ed {
                        match (off, f) {
                            (0, 0) if verbose => writeln!(msgs, "Hunk #{} succeeded at {}.", hi + 1, line)?,
                            (0, 0) => {}
                            (0, f) => writeln!(msgs, "Hunk #{} succeeded at {} with fuzz {}.", hi + 1, line, f)?,
                            (o, 0) => writeln!(msgs, "Hunk #{} succeeded at {} (offset {} line{}).", hi + 1, line, o, if o.abs() == 1 { "" } else { "s" })?,
                            (o, f) => writeln!(msgs, "Hunk #{} succeeded at {} with fuzz {} (offset {} line{}).", hi + 1, line, f, o, if o.abs() == 1 { "" } else { "s" })?,
                        }
                    }
                }
                None => {
                    // A failure is reported even under -s.
                    writeln!(msgs, "Hunk #{} FAILED at {}.", hi + 1, o_start.max(1))?;
                    rejects.push(h);
                }
            }
        }
        if skipped {
            rejects = fp.hunks.iter().collect();
        }
        let mut result = lines.join("\n");
        if !lines.is_empty() && end_nl {
            result.push('\n');
        }
        let rej_name = p.last("r").map(str::to_string).unwrap_or_else(|| format!("{}.rej", target));
        if !rejects.is_empty() {
            status = 1;
            let n = fp.hunks.len();
            let what = if skipped { "ignored" } else { "FAILED" };
            if dry || rej_name == "-" {
                writeln!(msgs, "{} out of {} hunk{} {}", rejects.len(), n, if n == 1 { "" } else { "s" }, what)?;
            } else {
                writeln!(msgs, "{} out of {} hunk{} {} -- saving rejects to file {}", rejects.len(), n, if n == 1 { "" } else { "s" }, what, rej_name)?;
                let context = match p.last("reject-format") {
                    Some("context") => true,
                    Some(_) => false,
                    None => fp.format == Format::Context,
                };
                let _ = std::fs::write(fsx::host(&at(&rej_name)), reject_text(&target, &rejects, context));
            }
        }
        if verbose {
            writeln!(msgs, "done")?;
        }
        if to_stdout {
            ctx.diag.raw().write_all(&msgs)?;
        } else {
            ctx.out.write_all(&msgs)?;
        }
        msgs.clear();
        if dry || skipped {
            continue;
        }
        if to_stdout {
            ctx.out.write_all(result.as_bytes())?;
            continue;
        }
        let out_path = match p.last("o") {
            Some(o) => at(o),
            None => path.clone(),
        };
        if (backup_any || (opts.mismatch && (mismatch || !rejects.is_empty()))) && exists && p.last("o").is_none() {
            let b = at(&backup_name(&opts, &target));
            if let Some(parent) = fsx::host(&b).parent() {
                let _ = std::fs::create_dir_all(parent);
            }
            let _ = std::fs::write(fsx::host(&b), &orig);
        }
        if deleting && result.is_empty() && p.last("o").is_none() && !p.has("posix") {
            if let Err(e) = std::fs::remove_file(fsx::host(&path)) {
                ctx.diag.error(format!("{}: {}", target, reason(&e)));
                status = 1;
            }
            continue;
        }
        if p.has("E") && result.is_empty() && p.last("o").is_none() {
            let _ = std::fs::remove_file(fsx::host(&path));
            continue;
        }
        if let Some(parent) = fsx::host(&out_path).parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if let Err(e) = std::fs::write(fsx::host(&out_path), result) {
            ctx.diag.error(format!("{}: {}", out_path, reason(&e)));
            status = 1;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, read, run, tmpdir, write};

    #[test]
    fn applies_unified_diffs() {
        let d = tmpdir();
        let f = format!("{}/f.txt", d);
        write(&f, "a\nb\nc\nd\ne\nf\ng\n");
        let diff = format!("--- {f}\n+++ {f}\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n@@ -6,2 +6,3 @@\n f\n g\n+h\n", f = f);
        check("patch", &["-p0"], &diff, &format!("patching file {}\n", f), 0);
        assert_eq!(read(&f), "a\nb\nC\nd\ne\nf\ng\nh\n");
        // Reverse it.
        check("patch", &["-p0", "-R"], &diff, &format!("patching file {}\n", f), 0);
        assert_eq!(read(&f), "a\nb\nc\nd\ne\nf\ng\n");
        // Offset: two lines inserted at the top.
        write(&f, "x\ny\na\nb\nc\nd\ne\nf\ng\n");
        let one = format!("--- {f}\n+++ {f}\n@@ -2,3 +2,3 @@\n b\n-c\n+C\n d\n", f = f);
        check("patch", &["-p0"], &one, &format!("patching file {}\nHunk #1 succeeded at 4 (offset 2 lines).\n", f), 0);
        // Failure (-f: no reversed-patch check) writes a .rej and exits 1.
        let (c, o, _) = run("patch", &["-p0", "-f"], &one);
        assert_eq!(c, 1);
        assert!(o.contains("Hunk #1 FAILED at 2.") && o.contains("1 out of 1 hunk FAILED"), "{}", o);
        assert!(read(&format!("{}.rej", f)).contains("-c\n+C\n"));
        // git-style creation with -p1 and -d.
        let git = "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n";
        check("patch", &["-p1", "-d", &d], git, "patching file new.txt\n", 0);
        assert_eq!(read(&format!("{}/new.txt", d)), "hello\nworld\n");
        let del = "--- a/new.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-hello\n-world\n";
        check("patch", &["-p1", "-d", &d], del, "patching file new.txt\n", 0);
        assert!(std::fs::metadata(format!("{}/new.txt", d)).is_err());
        // No trailing newline handling.
        let g = format!("{}/g.txt", d);
        write(&g, "one\ntwo");
        let nonl = format!("--- {g}\n+++ {g}\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+two\n", g = g);
        check("patch", &["-p0", "-s"], &nonl, "", 0);
        assert_eq!(read(&g), "one\ntwo\n");
        check("patch", &[], "garbage\n", "", 2);
    }
}
