//! patch [-p N] [-i PATCHFILE] [-R] [-N] [--dry-run] [-o OUTFILE] [-d DIR]
//! [ORIGFILE [PATCHFILE]] — applies unified diffs (as written by diff -u and
//! git diff), creating and deleting files through /dev/null headers. Hunks
//! may apply at an offset (searched outward from the stated line); context
//! must match exactly (no fuzz). A failed hunk is reported as GNU does and
//! written to FILE.rej; the status is then 1 (2 for unusable input).

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
    flag('u', "unified", "ignored"),
    flag('b', "backup", "b"),
    flag('E', "remove-empty-files", "E"),
];
const HELP: &str = "Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]\nApply a unified diff to files.\n\n  -p NUM  --strip=NUM  Strip NUM leading components from file names.\n  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.\n  -R  --reverse  Assume patches were created with old and new files swapped.\n  -N  --forward  Ignore patches that seem to be reversed or already applied.\n  --dry-run  Do not actually change any files; just print what would happen.\n  -o FILE  --output=FILE  Output patched files to FILE.\n  -d DIR  --directory=DIR  Change the working directory to DIR first.\n  -b  --backup  Back up the original contents of each file (FILE.orig).\n  -E  --remove-empty-files  Remove output files that are empty after patching.\n  -s  --quiet  Work silently unless an error occurs.\n";

struct Hunk {
    old_start: usize,
    old: Vec<String>,
    new: Vec<String>,
    old_nonl: bool,
    new_nonl: bool,
    header: String,
}

struct FilePatch {
    old_name: String,
    new_name: String,
    hunks: Vec<Hunk>,
}

fn header_name(line: &str) -> String {
    let rest = line[4..].trim_end();
    // A tab separates the name from a timestamp.
    let name = rest.split('\t').next().unwrap_or(rest);
    let name = name.strip_prefix('"').and_then(|n| n.strip_suffix('"')).unwrap_or(name);
    name.to_string()
}

fn parse(text: &str) -> Result<Vec<FilePatch>, String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<FilePatch> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("--- ") && lines.get(i + 1).map_or(false, |n| n.starts_with("+++ ")) {
            out.push(FilePatch { old_name: header_name(l), new_name: header_name(lines[i + 1]), hunks: Vec::new() });
            i += 2;
            continue;
        }
        if l.starts_with("@@ ") {
            let fp = out.last_mut().ok_or("hunk without file header")?;
            let inner = l[3..].split(" @@").next().unwrap_or("");
            let mut parts = inner.split_whitespace();
            let range = |s: Option<&str>, sign: char| -> Result<(usize, usize), String> {
                let s = s.and_then(|s| s.strip_prefix(sign)).ok_or_else(|| format!("malformed hunk header: {}", l))?;
                let (a, b) = s.split_once(',').unwrap_or((s, "1"));
                Ok((a.parse().map_err(|_| format!("malformed hunk header: {}", l))?, b.parse().map_err(|_| format!("malformed hunk header: {}", l))?))
            };
            let (os, oc) = range(parts.next(), '-')?;
            let (_ns, nc) = range(parts.next(), '+')?;
            let mut h = Hunk { old_start: os, old: Vec::new(), new: Vec::new(), old_nonl: false, new_nonl: false, header: l.to_string() };
            i += 1;
            let (mut seen_old, mut seen_new) = (0, 0);
            let mut last = ' ';
            while i < lines.len() && (seen_old < oc || seen_new < nc || lines[i].starts_with('\\')) {
                let t = lines[i];
                if let Some(body) = t.strip_prefix('\\') {
                    let _ = body;
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
                    Some(_) => return Err(format!("malformed patch at line {}: {}", i + 1, t)),
                };
                match c {
                    ' ' => {
                        h.old.push(body.to_string());
                        h.new.push(body.to_string());
                        seen_old += 1;
                        seen_new += 1;
                    }
                    '-' => {
                        h.old.push(body.to_string());
                        seen_old += 1;
                    }
                    _ => {
                        h.new.push(body.to_string());
                        seen_new += 1;
                    }
                }
                last = c;
                i += 1;
            }
            if seen_old != oc || seen_new != nc {
                return Err(format!("unexpected end of patch in hunk {}", h.header));
            }
            fp.hunks.push(h);
            continue;
        }
        i += 1;
    }
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

fn find(lines: &[String], pat: &[String], want: usize) -> Option<usize> {
    if pat.is_empty() {
        return Some(want.min(lines.len()));
    }
    if pat.len() > lines.len() {
        return None;
    }
    let max = lines.len() - pat.len();
    let matches = |at: usize| at <= max && lines[at..at + pat.len()] == *pat;
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
    let patchfile = p.last("i").map(|s| s.to_string()).or_else(|| p.operands.get(1).cloned());
    let mut text = Vec::new();
    let r = match &patchfile {
        Some(f) => std::fs::File::open(fsx::host(f)).and_then(|mut h| h.read_to_end(&mut text)),
        None => ctx.stdin.read_to_end(&mut text),
    };
    if let Err(e) = r {
        ctx.diag.error(format!("{}: {}", patchfile.unwrap_or_else(|| "-".into()), reason(&e)));
        return Ok(2);
    }
    let text = String::from_utf8_lossy(&text).into_owned();
    let patches = match parse(&text) {
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
    let dir = p.last("d").map(|s| s.to_string());
    let at = |n: &str| match &dir {
        Some(d) if !n.starts_with('/') => fsx::join(d, n),
        _ => n.to_string(),
    };
    let mut status = 0;
    for fp in &patches {
        let (old_name, new_name) = if p.has("R") { (&fp.new_name, &fp.old_name) } else { (&fp.old_name, &fp.new_name) };
        let creating = old_name == "/dev/null";
        let deleting = new_name == "/dev/null";
        let raw_name = if deleting { old_name } else { new_name };
        // Without -p, GNU uses the base name; git's a/ b/ prefixes need -p1.
        let target = match (p.operands.first(), strip_n) {
            (Some(f), _) => f.clone(),
            (None, Some(n)) => strip(raw_name, n),
            (None, None) => fsx::base_name(raw_name).to_string(),
        };
        let path = at(&target);
        let orig = if creating { String::new() } else {
            match std::fs::read_to_string(fsx::host(&path)) {
                Ok(s) => s,
                Err(e) => {
                    ctx.diag.error(format!("can't open {} to patch: {}; skipping it", q(&target), reason(&e)));
                    let _ = writeln!(ctx.diag.raw(), "{} hunk{} ignored", fp.hunks.len(), if fp.hunks.len() == 1 { "" } else { "s" });
                    status = 1;
                    continue;
                }
            }
        };
        if !quiet {
            writeln!(ctx.out, "{}patching file {}", if dry { "checking " } else { "" }, target)?;
        }
        let had_nl = orig.ends_with('\n') || orig.is_empty();
        let mut lines: Vec<String> = orig.split('\n').map(|s| s.to_string()).collect();
        if orig.ends_with('\n') || orig.is_empty() {
            lines.pop();
        }
        let mut end_nl = had_nl;
        let mut delta: isize = 0;
        let mut rejects: Vec<&Hunk> = Vec::new();
        for (hi, h) in fp.hunks.iter().enumerate() {
            let (old, new, new_nonl) = if p.has("R") { (&h.new, &h.old, h.old_nonl) } else { (&h.old, &h.new, h.new_nonl) };
            let want = ((h.old_start as isize - 1).max(0) + delta).max(0) as usize;
            let want = if old.is_empty() && h.old_start > 0 && !p.has("R") { (h.old_start as isize + delta).max(0) as usize } else { want };
            match find(&lines, old, want) {
                Some(pos) => {
                    let touches_end = pos + old.len() == lines.len();
                    lines.splice(pos..pos + old.len(), new.iter().cloned());
                    if touches_end {
                        end_nl = !new_nonl;
                    }
                    delta += new.len() as isize - old.len() as isize;
                    let off = pos as isize - want as isize;
                    if off != 0 && !quiet {
                        writeln!(ctx.out, "Hunk #{} succeeded at {} (offset {} line{}).", hi + 1, pos + 1, off, if off.abs() == 1 { "" } else { "s" })?;
                    }
                }
                None => {
                    // Already applied? (the new text is there)
                    if p.has("N") && find(&lines, new, want).is_some() {
                        writeln!(ctx.out, "Reversed (or previously applied) patch detected!  Skipping patch.")?;
                        continue;
                    }
                    writeln!(ctx.out, "Hunk #{} FAILED at {}.", hi + 1, h.old_start)?;
                    rejects.push(h);
                }
            }
        }
        let mut result = lines.join("\n");
        if !lines.is_empty() && end_nl {
            result.push('\n');
        }
        if !rejects.is_empty() {
            status = 1;
            let rej_name = format!("{}.rej", target);
            writeln!(ctx.out, "{} out of {} hunk{} FAILED -- saving rejects to file {}", rejects.len(), fp.hunks.len(), if fp.hunks.len() == 1 { "" } else { "s" }, rej_name)?;
            if !dry {
                let mut rej = format!("--- {}\n+++ {}\n", fp.old_name, fp.new_name);
                for h in &rejects {
                    rej.push_str(&h.header);
                    rej.push('\n');
                    // Reconstruct the hunk body in order: context/removals/additions.
                    let (mut a, mut b) = (0, 0);
                    while a < h.old.len() || b < h.new.len() {
                        if a < h.old.len() && b < h.new.len() && h.old[a] == h.new[b] {
                            rej.push_str(&format!(" {}\n", h.old[a]));
                            a += 1;
                            b += 1;
                        } else if a < h.old.len() && !h.new[b..].contains(&h.old[a]) {
                            rej.push_str(&format!("-{}\n", h.old[a]));
                            a += 1;
                        } else if b < h.new.len() {
                            rej.push_str(&format!("+{}\n", h.new[b]));
                            b += 1;
                        } else {
                            rej.push_str(&format!("-{}\n", h.old[a]));
                            a += 1;
                        }
                    }
                }
                let _ = std::fs::write(fsx::host(&at(&rej_name)), rej);
            }
        }
        if dry {
            continue;
        }
        let out_path = match p.last("o") {
            Some(o) => o.to_string(),
            None => path.clone(),
        };
        if p.has("b") && !creating {
            let _ = std::fs::write(fsx::host(&format!("{}.orig", path)), &orig);
        }
        if deleting && result.is_empty() && p.last("o").is_none() {
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
        // Failure writes a .rej and exits 1.
        let (c, o, _) = run("patch", &["-p0"], &one);
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
