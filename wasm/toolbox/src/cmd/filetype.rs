//! file [-b] [-i] FILE... — names a file's type from its first bytes, with
//! `file`'s wording for the common cases: empty, directory, text (ASCII or
//! UTF-8, CRLF, scripts by #! named as file 5.44 names them, Python and
//! JavaScript sources by libmagic's line rules), JSON, HTML, XML, ELF, WebAssembly, PNG,
//! JPEG, GIF, PDF, gzip, bzip2, xz, zstd, zip, tar, CSV, newline-delimited
//! JSON; anything else is "data". There is no magic database here: -m, -C,
//! -l and -c fail as file does when it finds none.

use crate::args::{flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    flag('b', "brief", "b"),
    flag('i', "mime", "i"),
    flag('\0', "mime-type", "mime-type"),
    flag('\0', "mime-encoding", "mime-encoding"),
    flag('\0', "extension", "extension"),
    flag('\0', "apple", "apple"),
    flag('L', "dereference", "ignored"),
    flag('h', "no-dereference", "ignored"),
    flag('z', "uncompress", "z"),
    flag('Z', "uncompress-noreport", "Z"),
    flag('k', "keep-going", "ignored"),
    flag('r', "raw", "ignored"),
    flag('s', "special-files", "ignored"),
    flag('n', "no-buffer", "ignored"),
    flag('p', "preserve-date", "ignored"),
    flag('S', "no-sandbox", "ignored"),
    flag('d', "debug", "ignored"),
    flag('E', "", "E"),
    flag('N', "no-pad", "N"),
    flag('0', "print0", "0"),
    val('F', "separator", "F"),
    val('f', "files-from", "f"),
    val('e', "exclude", "e"),
    val('\0', "exclude-quiet", "exclude-quiet"),
    val('P', "parameter", "ignored"),
    val('m', "magic-file", "m"),
    flag('C', "compile", "C"),
    flag('l', "list", "magic"),
    flag('c', "checking-printout", "magic"),
];
const HELP: &str = "Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n            <file> ...\nDetermine type of FILEs from their contents (built-in tests; no magic database).\n\n  -b, --brief                do not prepend filenames to output lines\n  -E                         on filesystem errors, issue an error message and exit\n  -e, --exclude TEST         exclude TEST (ascii, text, encoding, csv, json, soft, elf, tar, compress)\n  -f, --files-from FILE      read the filenames to be examined from FILE\n  -F, --separator STRING     use string as separator instead of `:'\n  -i, --mime                 output MIME type strings\n      --mime-type            output the MIME type\n      --mime-encoding        output the MIME encoding\n  -N, --no-pad               do not pad output\n  -0, --print0               terminate filenames with ASCII NUL\n  -z, --uncompress           try to look inside compressed files\n  -Z, --uncompress-noreport  only print the contents of compressed files\n";

/// Test names -e knows (libmagic's).
const TESTS: &[&str] = &["apptype", "ascii", "cdf", "compress", "csv", "elf", "encoding", "json", "soft", "tar", "text", "tokens", "simh"];

/// CSV as libmagic sees it: more than two lines with the same number (at least one) of commas
/// outside double quotes, looking at ten lines at most.
fn is_csv(s: &str) -> bool {
    let (mut nf, mut tf, mut nl) = (0, 0, 0);
    let mut quoted = false;
    for c in s.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => nf += 1,
            '\n' if !quoted => {
                nl += 1;
                if tf == 0 {
                    if nf == 0 {
                        return false;
                    }
                    tf = nf;
                } else if tf != nf {
                    return false;
                }
                if nl == 10 {
                    return true;
                }
                nf = 0;
            }
            _ => {}
        }
    }
    tf > 0 && nl > 2
}

/// Several lines, each a JSON value.
fn is_ndjson(s: &str) -> bool {
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    lines.len() > 1 && lines.iter().all(|l| crate::cmd::jq::is_json(l))
}

enum Shebang {
    Node,
    Perl,
    Named(String),
}

/// How libmagic names a `#!` line: its rules know some interpreters by path and fewer through
/// `env`; any other line reads "a REST script" (REST: what follows `#!`, or `env `).
fn shebang(first: &str, has_newline: bool) -> (Shebang, &'static str) {
    let rest = first[2..].trim();
    let words: Vec<&str> = rest.split_whitespace().collect();
    let (via_env, prog) = match words.as_slice() {
        [e, p, ..] if crate::fsx::base_name(e) == "env" => (true, crate::fsx::base_name(p)),
        [p, ..] => (false, crate::fsx::base_name(p)),
        _ => (false, ""),
    };
    let shell = "text/x-shellscript";
    let named = |l: &str, m: &'static str| (Shebang::Named(l.to_string()), m);
    let base = prog.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match (base, via_env) {
        ("python", _) => named("Python script", "text/x-script.python"),
        ("node" | "nodejs", _) => (Shebang::Node, "application/javascript"),
        ("perl", _) => (Shebang::Perl, "text/x-perl"),
        ("bash", _) => named("Bourne-Again shell script", shell),
        ("zsh", _) => named("Paul Falstad's zsh script", shell),
        ("ruby", _) => named("Ruby script", "text/x-ruby"),
        ("lua", _) => named("Lua script", "text/x-lua"),
        ("sh", false) if has_newline => named("POSIX shell script", shell),
        ("ksh", false) => named("Korn shell script", shell),
        ("csh", false) => named("C shell script", shell),
        ("tcsh", false) => named("Tenex C shell script", shell),
        ("awk", false) => named("awk script", "text/x-awk"),
        ("gawk", false) => named("GNU awk script", "text/x-gawk"),
        ("php", false) => named("PHP script", "text/x-php"),
        ("tclsh" | "wish", false) => named("Tcl/Tk script", "text/x-tcl"),
        _ => {
            let shown = if via_env { rest.splitn(2, char::is_whitespace).nth(1).unwrap_or("").trim_start() } else { rest };
            (Shebang::Named(format!("a {} script", shown)), "text/plain")
        }
    }
}

/// The first `n` bytes of `s`, cut back to a character boundary.
fn prefix(s: &str, n: usize) -> &str {
    let mut end = s.len().min(n);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn is_ident(w: &str) -> bool {
    let mut c = w.chars();
    matches!(c.next(), Some(f) if f == '_' || f.is_ascii_alphabetic()) && c.all(|x| x == '_' || x.is_ascii_alphanumeric())
}

/// libmagic's Python rules (without a `#!`): `from M import ...`, `import M as X` (X one
/// letter), `class Name...:`, `def name(a, b):` (plain names only), `if __name__` with
/// `"__main__"`, `def __init__` with `self`, `try:` followed by `except ...:` or `finally:`.
fn is_python(s: &str) -> bool {
    let head = prefix(s, 8192);
    let mut tried = false;
    for line in head.lines() {
        let t = line.trim_end_matches('\r');
        if let Some(r) = t.strip_prefix("from ") {
            let w: Vec<&str> = r.split_whitespace().collect();
            if w.len() >= 2 && w[1] == "import" && w[0].chars().all(|c| c == '_' || c == '.' || c.is_ascii_alphanumeric()) {
                return true;
            }
        }
        if let Some(r) = t.strip_prefix("import ") {
            let w: Vec<&str> = r.split(' ').collect();
            if w.len() == 3 && is_ident(w[0]) && w[1] == "as" && w[2].trim_end().len() == 1 && w[2].chars().all(|c| c.is_ascii_alphabetic()) {
                return true;
            }
        }
        if let Some(r) = t.strip_prefix("class ") {
            let name: String = r.trim_start().chars().take_while(|c| *c == '_' || c.is_ascii_alphanumeric()).collect();
            if !name.is_empty() && t.trim_end().ends_with(':') {
                return true;
            }
        }
        let lead = t.trim_start_matches([' ', '\t']);
        if let Some(r) = lead.strip_prefix("def ") {
            if let (Some(open), true) = (r.find('('), r.ends_with("):")) {
                let args = &r[open + 1..r.len() - 2];
                if r[..open].trim().chars().next().map_or(false, |c| c == '_' || c.is_ascii_alphabetic())
                    && (args.trim().is_empty() || args.split(',').all(|a| is_ident(a.trim())))
                {
                    return true;
                }
            }
            if r.starts_with("__init__") && r.contains("self") {
                return true;
            }
        }
        if t.starts_with("if __name__") && (t.contains("\"__main__\"") || t.contains("'__main__'")) {
            return true;
        }
        if t == "try:" {
            tried = true;
        } else if tried && (lead.starts_with("except") || lead.starts_with("finally")) && lead.trim_end().ends_with(':') {
            return true;
        }
    }
    false
}

/// libmagic's JavaScript rules: `"use strict"`, `module.exports`, a line `const|let|var ... =
/// require(`, `import ... from`, `export ...`.
fn is_javascript(s: &str) -> bool {
    let head = prefix(s, 8192);
    if head.contains("\"use strict\"") || head.contains("'use strict'") || head.contains("module.exports") {
        return true;
    }
    head.lines().any(|l| {
        let decl = ["const ", "let ", "var "].iter().any(|k| l.starts_with(k));
        (decl && l.contains("require(") && l.contains('='))
            || (l.starts_with("import ") && l.contains(" from "))
            || ["export default ", "export function ", "export const ", "export class ", "export async ", "export {"].iter().any(|k| l.starts_with(k))
    })
}

fn describe_text(d: &[u8], skip: &[String]) -> Option<(String, &'static str)> {
    let off = |t: &str| skip.iter().any(|x| x == t);
    if off("ascii") || off("text") || off("encoding") {
        return None;
    }
    let s = std::str::from_utf8(d).ok()?;
    if d.iter().any(|&b| b < 32 && !matches!(b, b'\n' | b'\r' | b'\t' | 12 | 27 | 8)) || d.contains(&127) {
        return None;
    }
    let kind = if s.is_ascii() { "ASCII text" } else { "Unicode text, UTF-8 text" };
    let mut desc = kind.to_string();
    let mut mime = "text/plain";
    let trimmed = s.trim_start();
    if let Some(first) = s.lines().next().filter(|l| l.starts_with("#!")) {
        let (label, m) = shebang(first, s.contains('\n'));
        desc = match label {
            // libmagic's Node.js and Perl rules word their text differently from the others.
            Shebang::Node => format!("Node.js script executable, {}", kind),
            Shebang::Perl => "Perl script text executable".to_string(),
            Shebang::Named(l) => format!("{}, {} executable", l, kind),
        };
        mime = m;
    } else if !off("json") && (trimmed.starts_with('{') || trimmed.starts_with('[')) && crate::cmd::jq::is_json(s) {
        return Some(("JSON text data".into(), "application/json"));
    } else if !off("json") && trimmed.starts_with('{') && is_ndjson(s) {
        return Some(("New Line Delimited JSON text data".into(), "application/x-ndjson"));
    } else if is_python(s) {
        desc = format!("Python script, {} executable", kind);
        mime = "text/x-script.python";
    } else if is_javascript(s) {
        desc = format!("JavaScript source, {}", kind);
        mime = "application/javascript";
    } else if !off("csv") && is_csv(s) {
        desc = format!("CSV {}", kind.trim_start_matches("ASCII "));
        mime = "text/csv";
    } else if trimmed.len() >= 5 && (trimmed[..trimmed.len().min(15)].to_ascii_lowercase().starts_with("<!doctype html") || trimmed.to_ascii_lowercase().starts_with("<html")) {
        desc = format!("HTML document, {}", kind);
        mime = "text/html";
    } else if trimmed.starts_with("<?xml") {
        desc = format!("XML 1.0 document, {}", kind);
        mime = "text/xml";
    }
    if s.contains("\r\n") {
        desc.push_str(", with CRLF line terminators");
    } else if s.contains('\r') {
        desc.push_str(", with CR line terminators");
    }
    if !s.ends_with('\n') && !s.is_empty() && !desc.contains("JSON") {
        desc.push_str(", with no line terminators");
    }
    Some((desc, mime))
}

/// gzip's header as file spells it: stored name, time, compression level, system, size.
fn describe_gzip(d: &[u8], with_size: bool) -> String {
    let mut desc = String::from("gzip compressed data");
    let flags = d.get(3).copied().unwrap_or(0);
    let mtime = d.get(4..8).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).unwrap_or(0);
    if flags & 0x08 != 0 {
        let mut at = 10;
        if flags & 0x04 != 0 {
            at += 2 + d.get(10..12).map(|b| u16::from_le_bytes([b[0], b[1]]) as usize).unwrap_or(0);
        }
        let name: String = d.get(at..).unwrap_or(&[]).iter().take_while(|&&b| b != 0).map(|&b| b as char).collect();
        desc.push_str(&format!(", was \"{}\"", name));
    }
    if mtime != 0 {
        desc.push_str(&format!(", last modified: {}", crate::cmd::date::format_utc("%a %b %e %H:%M:%S %Y", mtime as i64, 0)));
    }
    match d.get(8) {
        Some(2) => desc.push_str(", max compression"),
        Some(4) => desc.push_str(", max speed"),
        _ => {}
    }
    if d.get(9) == Some(&3) {
        desc.push_str(", from Unix");
    }
    if with_size && d.len() >= 18 {
        let t = &d[d.len() - 4..];
        desc.push_str(&format!(", original size modulo 2^32 {}", u32::from_le_bytes([t[0], t[1], t[2], t[3]])));
    }
    desc
}

fn describe(d: &[u8], skip: &[String]) -> (String, &'static str) {
    if skip.iter().any(|t| t == "soft") {
        return match describe_text(d, skip) {
            Some(t) if !d.is_empty() => t,
            _ if d.is_empty() => ("empty".into(), "inode/x-empty"),
            _ => ("data".into(), "application/octet-stream"),
        };
    }
    if d.starts_with(b"\x1f\x8b") {
        return (describe_gzip(d, true), "application/gzip");
    }
    let be32 = |o: usize| d.get(o..o + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]])).unwrap_or(0);
    if d.is_empty() {
        return ("empty".into(), "inode/x-empty");
    }
    if d.starts_with(b"\x89PNG\r\n\x1a\n") {
        let (w, h) = (be32(16), be32(20));
        let depth = d.get(24).copied().unwrap_or(0);
        let color = match d.get(25) {
            Some(0) => "grayscale",
            Some(2) => "RGB",
            Some(3) => "colormap",
            Some(4) => "gray+alpha",
            Some(6) => "RGBA",
            _ => "unknown",
        };
        let il = if d.get(28) == Some(&1) { "interlaced" } else { "non-interlaced" };
        return (format!("PNG image data, {} x {}, {}-bit/color {}, {}", w, h, depth, color, il), "image/png");
    }
    let magic: &[(&[u8], &str, &str)] = &[
        (b"\xff\xd8\xff", "JPEG image data", "image/jpeg"),
        (b"GIF87a", "GIF image data, version 87a", "image/gif"),
        (b"GIF89a", "GIF image data, version 89a", "image/gif"),
        (b"\x1f\x8b", "gzip compressed data", "application/gzip"),
        (b"BZh", "bzip2 compressed data", "application/x-bzip2"),
        (b"\xfd7zXZ\x00", "XZ compressed data", "application/x-xz"),
        (b"\x28\xb5\x2f\xfd", "Zstandard compressed data", "application/zstd"),
        (b"PK\x03\x04", "Zip archive data", "application/zip"),
        (b"\x00asm", "WebAssembly (wasm) binary module", "application/wasm"),
        (b"7z\xbc\xaf\x27\x1c", "7-zip archive data", "application/x-7z-compressed"),
        (b"SQLite format 3\x00", "SQLite 3.x database", "application/vnd.sqlite3"),
    ];
    for (m, desc, mime) in magic {
        if d.starts_with(m) {
            return (desc.to_string(), mime);
        }
    }
    if d.starts_with(b"%PDF-") {
        let ver: String = d[5..].iter().take_while(|c| c.is_ascii_digit() || **c == b'.').map(|c| *c as char).collect();
        return (format!("PDF document, version {}", ver), "application/pdf");
    }
    if d.starts_with(b"\x7fELF") {
        let bits = if d.get(4) == Some(&2) { "64-bit" } else { "32-bit" };
        let endian = if d.get(5) == Some(&2) { "MSB" } else { "LSB" };
        let kind = match d.get(16) {
            Some(1) => "relocatable",
            Some(2) => "executable",
            Some(3) => "shared object",
            Some(4) => "core file",
            _ => "file",
        };
        return (format!("ELF {} {} {}", bits, endian, kind), "application/x-executable");
    }
    if d.len() >= 262 && &d[257..262] == b"ustar" {
        return ("POSIX tar archive".into(), "application/x-tar");
    }
    match describe_text(d, skip) {
        Some(t) => t,
        None => ("data".into(), "application/octet-stream"),
    }
}

/// What -z/-Z report for a gzip file: the contents' type, then (with -z) the container's.
fn describe_inside(d: &[u8], skip: &[String], noreport: bool) -> Option<(String, &'static str)> {
    if !d.starts_with(b"\x1f\x8b") || skip.iter().any(|t| t == "compress") {
        return None;
    }
    let inner = super::gz::decompress(d).ok()?;
    let (desc, mime) = describe(&inner, skip);
    Some(if noreport { (desc, mime) } else { (format!("{} ({})", desc, describe_gzip(d, false)), mime) })
}

fn encoding(desc: &str, mime: &str) -> &'static str {
    if mime.starts_with("text/") || matches!(mime, "application/json" | "application/x-ndjson" | "application/javascript") {
        if desc.contains("UTF-8") { "utf-8" } else { "us-ascii" }
    } else {
        "binary"
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.has("m") || p.has("C") || p.has("magic") {
        ctx.diag.error("could not find any valid magic files! (there is no magic database here; file's built-in tests still work without -m/-C/-l/-c)");
        return Ok(1);
    }
    let mut skip: Vec<String> = Vec::new();
    for t in p.all("e") {
        if !TESTS.contains(&t) {
            ctx.diag.usage(format!("invalid exclude test `{}'", t));
            return Ok(1);
        }
        skip.push(t.to_string());
    }
    skip.extend(p.all("exclude-quiet").iter().map(|t| t.to_string()));
    let mut names = p.operands.clone();
    if let Some(list) = p.last("f") {
        let text = if list == "-" {
            let mut d = Vec::new();
            ctx.stdin.read_to_end(&mut d)?;
            Ok(d)
        } else {
            std::fs::read(crate::fsx::host(list))
        };
        match text {
            Ok(t) => names.extend(String::from_utf8_lossy(&t).lines().filter(|l| !l.is_empty()).map(str::to_string)),
            Err(e) => {
                ctx.diag.error(format!("Cannot open `{}' ({})", list, reason(&e)));
                return Ok(1);
            }
        }
    }
    if names.is_empty() {
        ctx.diag.usage("missing operand");
        return Ok(1);
    }
    let sep = p.last("F").unwrap_or(":");
    let width = names.iter().map(|s| s.chars().count()).max().unwrap_or(0) + sep.chars().count();
    let mut status = 0;
    for name in &names {
        let read = |d: &mut Vec<u8>| std::fs::File::open(crate::fsx::host(name)).and_then(|f| f.take(1 << 20).read_to_end(d));
        let (desc, mime) = if name == "-" {
            let mut d = Vec::new();
            let _ = ctx.stdin.read_to_end(&mut d);
            describe(&d, &skip)
        } else {
            match crate::fsx::metadata(name) {
                Err(e) if p.has("E") => {
                    status = 1;
                    (format!("ERROR: cannot stat `{}' ({})", name, reason(&e)), "cannot open")
                }
                Err(e) => (format!("cannot open `{}' ({})", name, reason(&e)), "cannot open"),
                Ok(m) if m.is_dir() && (p.has("extension") || p.has("apple")) => {
                    status = 1;
                    (format!("ERROR: cannot read `{}' (Is a directory)", name), "cannot open")
                }
                Ok(m) if m.is_dir() => ("directory".into(), "inode/directory"),
                Ok(_) => {
                    let mut d = Vec::new();
                    match read(&mut d) {
                        Ok(_) if p.has("z") || p.has("Z") => describe_inside(&d, &skip, p.has("Z")).unwrap_or_else(|| describe(&d, &skip)),
                        Ok(_) => describe(&d, &skip),
                        Err(e) => (format!("cannot open `{}' ({})", name, reason(&e)), "cannot open"),
                    }
                }
            }
        };
        let text = if mime == "cannot open" {
            desc
        } else if p.has("extension") {
            (if mime == "application/gzip" { "gz/tgz/tpz/ipk/vbox-extpack/svgz/blend/dia/gnucash/rdata/xoj" } else { "???" }).to_string()
        } else if p.has("apple") {
            "UNKNUNKN".to_string()
        } else if p.has("i") {
            format!("{}; charset={}", mime, encoding(&desc, mime))
        } else if p.has("mime-type") {
            mime.to_string()
        } else if p.has("mime-encoding") {
            encoding(&desc, mime).to_string()
        } else {
            desc
        };
        if p.has("b") {
            writeln!(ctx.out, "{}", text)?;
        } else if p.has("0") {
            write!(ctx.out, "{}\0{} {}\n", name, sep, text)?;
        } else if p.has("N") {
            writeln!(ctx.out, "{}{} {}", name, sep, text)?;
        } else {
            writeln!(ctx.out, "{:<w$} {}", format!("{}{}", name, sep), text, w = width)?;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        let files: &[(&str, &str, &str)] = &[
            ("j.json", "{\"a\":1}\n", "JSON text data"),
            ("s.sh", "#!/bin/sh\necho\n", "POSIX shell script, ASCII text executable"),
            ("py", "#!/usr/bin/env python3\n", "Python script, ASCII text executable"),
            ("u.txt", "h\u{e9}llo\n", "Unicode text, UTF-8 text"),
            ("e.txt", "", "empty"),
            ("c1", "abc\ndef\n", "ASCII text"),
            ("crlf", "a\r\nb\r\n", "ASCII text, with CRLF line terminators"),
            ("x.html", "<html>\n", "HTML document, ASCII text"),
            ("x.pdf", "%PDF-1.4\n", "PDF document, version 1.4"),
            ("bin", "\u{0}\u{1}\u{2}", "data"),
            ("t.csv", "a,b\n1,2\n3,\"4,5\"\n", "CSV text"),
            ("two.csv", "a,b\n1,2\n", "ASCII text"),
            ("x.ndjson", "{\"a\":1}\n{\"b\":2}\n", "New Line Delimited JSON text data"),
            // Checked against Debian 12's file 5.44.
            ("b1", "#!/bin/bash\necho\n", "Bourne-Again shell script, ASCII text executable"),
            ("b2", "#!/usr/bin/env bash\necho\n", "Bourne-Again shell script, ASCII text executable"),
            ("b3", "#!/usr/bin/env sh\necho\n", "a sh script, ASCII text executable"),
            ("b4", "#!/bin/dash -e\necho\n", "a /bin/dash -e script, ASCII text executable"),
            ("b5", "#!/usr/bin/env node\nx\n", "Node.js script executable, ASCII text"),
            ("b6", "#!/usr/bin/perl\nx\n", "Perl script text executable"),
            ("b7", "#!/usr/bin/env jq\n.\n", "a jq script, ASCII text executable"),
            ("b8", "#!/usr/bin/gawk -f\n{print}\n", "GNU awk script, ASCII text executable"),
            ("p1", "import sys\nfrom util import parse\n", "Python script, ASCII text executable"),
            ("p2", "def main(argv):\n    pass\n", "Python script, ASCII text executable"),
            ("p3", "def f(a, b=1):\n", "ASCII text"),
            ("p4", "import numpy as np\n", "ASCII text"),
            ("p5", "class Foo(Base):\n    pass\n", "Python script, ASCII text executable"),
            ("j1", "const express = require('express');\n", "JavaScript source, ASCII text"),
            ("j2", "function f() {}\nmodule.exports = { f };\n", "JavaScript source, ASCII text"),
            ("j3", "export const upper = (s) => s;\n", "JavaScript source, ASCII text"),
            ("j4", "function f() {}\n", "ASCII text"),
        ];
        for (name, text, desc) in files {
            let p = format!("{}/{}", d, name);
            write(&p, text);
            check("file", &["-b", &p], "", &format!("{}\n", desc), 0);
        }
        check("file", &["-b", &d], "", "directory\n", 0);
        check("file", &["a", "-"], "x\n", "a: cannot open `a' (No such file or directory)\n-: ASCII text\n", 0);
        check("file", &["-b", "-i", "-"], "{\"a\":1}", "application/json; charset=us-ascii\n", 0);
        check("file", &["-b", "-i", "-"], "module.exports = 1;\n", "application/javascript; charset=us-ascii\n", 0);
    }
}
