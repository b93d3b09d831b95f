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

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let cmd = ctx.name;
    let h = help(cmd);
    let p = getopt!(ctx, args, SPECS, &h, 1);
    let files = input::or_stdin(&p.operands);
    let hexlen = by_name(cmd).map(|d| d.finish().len() * 2).unwrap_or(0);
    if !p.has("c") {
        let end = if p.has("z") { b'\0' } else { b'\n' };
        for f in &files {
            match digest_of(ctx.stdin, f, cmd) {
                Ok(x) => {
                    if p.has("tag") {
                        write!(ctx.out, "{} ({}) = {}", tag_name(cmd), f, x)?;
                    } else {
                        write!(ctx.out, "{} {}{}", x, if p.has("b") { '*' } else { ' ' }, f)?;
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
    for list in &files {
        let mut text = Vec::new();
        let res = input::open(ctx.stdin, list).and_then(|mut r| io::Read::read_to_end(&mut r, &mut text));
        if let Err(e) = res {
            ctx.diag.error(format!("{}: {}", list, reason(&e)));
            continue;
        }
        let text = String::from_utf8_lossy(&text).into_owned();
        let mut listed = 0;
        for (ln, line) in text.lines().enumerate() {
            // "HASH  NAME", "HASH *NAME" or "ALG (NAME) = HASH"
            let parsed = if let Some(rest) = line.strip_prefix(&format!("{} (", tag_name(cmd))) {
                rest.rsplit_once(") = ").map(|(n, x)| (x.to_string(), n.to_string()))
            } else if line.len() > hexlen + 1 && line.is_char_boundary(hexlen) && matches!(&line[hexlen..hexlen + 2], "  " | " *") {
                Some((line[..hexlen].to_string(), line[hexlen + 2..].to_string()))
            } else {
                None
            };
            let (want, name) = match parsed {
                Some(x) if x.0.len() == hexlen && x.0.chars().all(|c| c.is_ascii_hexdigit()) => x,
                _ => {
                    bad_lines += 1;
                    if warn {
                        ctx.diag.warn(format!("{}: {}: improperly formatted {} checksum line", list, ln + 1, tag_name(cmd)));
                    }
                    continue;
                }
            };
            listed += 1;
            match digest_of(ctx.stdin, &name, cmd) {
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
