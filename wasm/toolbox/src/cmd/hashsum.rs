//! md5sum, sha1sum, sha224sum, sha256sum, sha384sum, sha512sum:
//! [-bt] [-c [--quiet] [--status] [--strict] [-w]] [--tag] [-z] [FILE]...

use crate::args::{flag, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::digest::{by_name, hex};
use crate::input;
use std::io::{self, BufRead, Write};

const SPECS: &[Spec] = &[
    flag('b', "binary", "b"),
    flag('t', "text", "t"),
    flag('c', "check", "c"),
    flag('\0', "quiet", "quiet"),
    flag('\0', "status", "status"),
    flag('\0', "strict", "strict"),
    flag('w', "warn", "w"),
    flag('\0', "ignore-missing", "ignore-missing"),
    flag('\0', "tag", "tag"),
    flag('z', "zero", "z"),
];

fn help(name: &str) -> String {
    format!("Usage: {n} [OPTION]... [FILE]...\nPrint or check checksums.\n\nWith no FILE, or when FILE is -, read standard input.\n  -b, --binary          read in binary mode (no difference here)\n  -c, --check           read checksums from the FILEs and check them\n      --tag             create a BSD-style checksum\n  -t, --text            read in text mode (default)\n  -z, --zero            end each output line with NUL, not newline\n\nThe following options are useful only when verifying checksums:\n      --ignore-missing  don't fail or report status for missing files\n      --quiet           don't print OK for each successfully verified file\n      --status          don't output anything, status code shows success\n      --strict          exit non-zero for improperly formatted checksum lines\n  -w, --warn            warn about improperly formatted checksum lines\n", n = name)
}

fn digest_of(ctx_stdin: &mut dyn BufRead, name: &str, cmd: &str) -> io::Result<String> {
    let mut r = input::open(ctx_stdin, name)?;
    let mut d = by_name(cmd).expect("known digest");
    loop {
        let n = {
            let b = r.fill_buf()?;
            if b.is_empty() {
                break;
            }
            d.update(b);
            b.len()
        };
        r.consume(n);
    }
    Ok(hex(&d.finish()))
}

fn tag_name(cmd: &str) -> &'static str {
    match cmd {
        "md5sum" => "MD5",
        "sha1sum" => "SHA1",
        "sha224sum" => "SHA224",
        "sha256sum" => "SHA256",
        "sha384sum" => "SHA384",
        _ => "SHA512",
    }
}

/// The option combinations GNU refuses as a usage error.
fn misuse(p: &crate::args::Parsed) -> Option<&'static str> {
    if p.has("c") {
        if p.has("z") {
            return Some("the --zero option is not supported when verifying checksums");
        }
        if p.has("tag") {
            return Some("the --tag option is meaningless when verifying checksums");
        }
        if p.has("b") || p.has("t") {
            return Some("the --binary and --text options are meaningless when verifying checksums");
        }
        return None;
    }
    if p.has("tag") && p.has("t") {
        return Some("--tag does not support --text mode");
    }
    for (k, msg) in [
        ("ignore-missing", "the --ignore-missing option is meaningful only when verifying checksums"),
        ("status", "the --status option is meaningful only when verifying checksums"),
        ("w", "the --warn option is meaningful only when verifying checksums"),
        ("quiet", "the --quiet option is meaningful only when verifying checksums"),
        ("strict", "the --strict option is meaningful only when verifying checksums"),
    ] {
        if p.has(k) {
            return Some(msg);
        }
    }
    None
}

/// (`\\` or "", name with `\\` and newline escaped), as GNU prints a listed name.
pub fn escape_name(name: &str) -> (&'static str, String) {
    if !name.contains(['\\', '\n']) {
        return ("", name.to_string());
    }
    ("\\", name.replace('\\', "\\\\").replace('\n', "\\n"))
}

fn unescape_name(name: &str) -> String {
    let mut out = String::new();
    let mut it = name.chars();
    while let Some(c) = it.next() {
        match (c, c == '\\') {
            (_, true) => match it.next() {
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let cmd = ctx.name;
    run_digest(ctx, args, Some(cmd))
}

const TAGGED: &[&str] = &["md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum"];

/// One checksum line: (digest program, hash, name). "HASH  NAME" and "HASH *NAME" need a fixed
/// digest; "ALG (NAME) = HASH" names its own (under `fixed`, only that one).
fn parse_line(line: &str, fixed: Option<&'static str>) -> Option<(&'static str, String, String)> {
    // A leading `\\` marks an escaped name.
    let (escaped, line) = match line.strip_prefix('\\') {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    let hexlen = |c: &str| by_name(c).map(|d| d.finish().len() * 2).unwrap_or(0);
    let tagged = TAGGED.iter().filter(|c| fixed.map_or(true, |f| f == **c)).find_map(|c| {
        let rest = line.strip_prefix(tag_name(c))?.strip_prefix(" (")?;
        rest.rsplit_once(") = ").map(|(n, x)| (*c, x.to_string(), n.to_string()))
    });
    let parsed = tagged.or_else(|| {
        let c = fixed?;
        let n = hexlen(c);
        (line.len() > n + 1 && line.is_char_boundary(n) && matches!(&line[n..n + 2], "  " | " *")).then(|| (c, line[..n].to_string(), line[n + 2..].to_string()))
    })?;
    let (c, x, n) = parsed;
    (x.len() == hexlen(c) && x.chars().all(|ch| ch.is_ascii_hexdigit())).then(|| (c, x, if escaped { unescape_name(&n) } else { n }))
}

/// md5sum and sha*sum, and cksum's digests: `fixed` is the digest program (None: cksum -c
/// without -a, each line names its own).
pub fn run_digest(ctx: &mut Ctx, args: &[String], fixed: Option<&'static str>) -> Res {
    let cmd = fixed.unwrap_or("sha256sum");
    let h = help(ctx.name);
    let p = getopt!(ctx, args, SPECS, &h, 1);
    let files = input::or_stdin(&p.operands);
    if let Some(msg) = misuse(&p) {
        ctx.diag.usage(msg);
        return Ok(1);
    }
    if !p.has("c") {
        let end = if p.has("z") { b'\0' } else { b'\n' };
        for f in &files {
            match digest_of(ctx.stdin, f, cmd) {
                Ok(x) => {
                    // GNU marks a name holding `\\` or a newline with a leading `\\` and escapes it
                    // (not under -z, where any byte can follow).
                    let (mark, name) = if p.has("z") { ("", f.to_string()) } else { escape_name(f) };
                    if p.has("tag") {
                        write!(ctx.out, "{}{} ({}) = {}", mark, tag_name(cmd), name, x)?;
                    } else {
                        write!(ctx.out, "{}{} {}{}", mark, x, if p.has("b") { '*' } else { ' ' }, name)?;
                    }
                    ctx.out.write_all(&[end])?;
                }
                Err(e) => ctx.diag.error(format!("{}: {}", f, reason(&e))),
            }
        }
        return Ok(if ctx.diag.failed { 1 } else { 0 });
    }
    let (quiet, status, strict, warn) = (p.has("quiet"), p.has("status"), p.has("strict"), p.has("w"));
    let mut bad_lines = 0;
    let mut failed = 0;
    let mut unreadable = 0;
    let mut any_ok = false;
    let mut last_alg = cmd;
    for list in &files {
        let mut text = Vec::new();
        let res = input::open(ctx.stdin, list).and_then(|mut r| io::Read::read_to_end(&mut r, &mut text));
        if let Err(e) = res {
            ctx.diag.error(format!("{}: {}", list, reason(&e)));
            continue;
        }
        let text = String::from_utf8_lossy(&text).into_owned();
        let mut listed = 0;
        let mut missing = 0;
        for (ln, line) in text.lines().enumerate() {
            let (alg, want, name) = match parse_line(line, fixed) {
                Some(x) => x,
                None => {
                    bad_lines += 1;
                    if warn {
                        ctx.diag.warn(format!("{}: {}: improperly formatted {} checksum line", list, ln + 1, tag_name(last_alg)));
                    }
                    continue;
                }
            };
            last_alg = alg;
            listed += 1;
            match digest_of(ctx.stdin, &name, alg) {
                Ok(got) => {
                    if got.eq_ignore_ascii_case(&want) {
                        any_ok = true;
                        if !quiet && !status {
                            writeln!(ctx.out, "{}: OK", name)?;
                        }
                    } else {
                        failed += 1;
                        if !status {
                            writeln!(ctx.out, "{}: FAILED", name)?;
                        }
                    }
                }
                Err(e) => {
                    if p.has("ignore-missing") && e.kind() == io::ErrorKind::NotFound {
                        missing += 1;
                        continue;
                    }
                    unreadable += 1;
                    if !status {
                        ctx.diag.warn(format!("{}: {}", name, reason(&e)));
                        writeln!(ctx.out, "{}: FAILED open or read", name)?;
                    }
                }
            }
        }
        if listed == 0 {
            ctx.diag.error(format!("{}: no properly formatted checksum lines found", list));
        } else if missing == listed {
            ctx.diag.error(format!("{}: no file was verified", list));
        }
    }
    if !status {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        if bad_lines > 0 {
            ctx.diag.warn(format!("WARNING: {} line{} {} improperly formatted", bad_lines, s(bad_lines), if bad_lines == 1 { "is" } else { "are" }));
        }
        if unreadable > 0 {
            ctx.diag.warn(format!("WARNING: {} listed file{} could not be read", unreadable, s(unreadable)));
        }
        if failed > 0 {
            ctx.diag.warn(format!("WARNING: {} computed checksum{} did NOT match", failed, s(failed)));
        }
    }
    let _ = any_ok;
    Ok(if failed > 0 || unreadable > 0 || ctx.diag.failed || (strict && bad_lines > 0) { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        check("md5sum", &[], "abc", "900150983cd24fb0d6963f7d28e17f72  -\n", 0);
        check("sha256sum", &["--tag"], "", "SHA256 (-) = e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\n", 0);
        let d = tmpdir();
        let f = format!("{}/f", d);
        write(&f, "abc");
        let sums = format!("{}/sums", d);
        write(&sums, &format!("a9993e364706816aba3e25717850c26c9cd0d89d  {}\n", f));
        check("sha1sum", &["-c", &sums], "", &format!("{}: OK\n", f), 0);
        write(&f, "abd");
        check("sha1sum", &["-c", &sums], "", &format!("{}: FAILED\n", f), 1);
        check("sha1sum", &["-c", "--status", &sums], "", "", 1);
    }
}
