//! file [-b] [-i] FILE... — names a file's type from its first bytes, with
//! `file`'s wording for the common cases: empty, directory, text (ASCII or
//! UTF-8, CRLF, scripts by #!), JSON, HTML, XML, ELF, WebAssembly, PNG,
//! JPEG, GIF, PDF, gzip, bzip2, xz, zstd, zip, tar; anything else is "data".

use crate::args::{flag, Spec};
use crate::ctx::{reason, Ctx, Res};
use std::io::{Read, Write};

const SPECS: &[Spec] = &[flag('b', "brief", "b"), flag('i', "mime", "i"), flag('L', "dereference", "L"), flag('z', "uncompress", "z")];
const HELP: &str = "Usage: file [-bi] FILE...\nDetermine type of FILEs from their contents.\n\n  -b, --brief    do not prepend filenames to output lines\n  -i, --mime     output MIME type strings\n";

fn describe_text(d: &[u8]) -> Option<(String, &'static str)> {
    let s = std::str::from_utf8(d).ok()?;
    if d.iter().any(|&b| b < 32 && !matches!(b, b'\n' | b'\r' | b'\t' | 12 | 27 | 8)) || d.contains(&127) {
        return None;
    }
    let kind = if s.is_ascii() { "ASCII text" } else { "Unicode text, UTF-8 text" };
    let mut desc = kind.to_string();
    let mut mime = "text/plain";
    let trimmed = s.trim_start();
    if let Some(first) = s.lines().next().filter(|l| l.starts_with("#!")) {
        let interp = first[2..].split_whitespace().collect::<Vec<_>>();
        let prog = match interp.as_slice() {
            [e, p, ..] if e.ends_with("/env") => p.to_string(),
            [p, ..] => crate::fsx::base_name(p).to_string(),
            _ => String::new(),
        };
        let label = match prog.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.') {
            "sh" => "POSIX shell script".to_string(),
            "bash" => "Bourne-Again shell script".to_string(),
            "python" => "Python script".to_string(),
            "node" => "Node.js script".to_string(),
            "perl" => "Perl script".to_string(),
            "ruby" => "Ruby script".to_string(),
            p => format!("{} script", if p.is_empty() { "a" } else { p }),
        };
        desc = format!("{}, {} executable", label, kind);
        mime = "text/x-shellscript";
    } else if (trimmed.starts_with('{') || trimmed.starts_with('[')) && crate::cmd::jq::is_json(s) {
        return Some(("JSON text data".into(), "application/json"));
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

fn describe(d: &[u8]) -> (String, &'static str) {
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
    match describe_text(d) {
        Some(t) => t,
        None => ("data".into(), "application/octet-stream"),
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.is_empty() {
        ctx.diag.usage("missing operand");
        return Ok(1);
    }
    let width = p.operands.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 1;
    for name in &p.operands {
        let (desc, mime) = if name == "-" {
            let mut d = Vec::new();
            let _ = ctx.stdin.read_to_end(&mut d);
            describe(&d)
        } else {
            match crate::fsx::metadata(name) {
                Err(e) => (format!("cannot open `{}' ({})", name, reason(&e)), "cannot open"),
                Ok(m) if m.is_dir() => ("directory".into(), "inode/directory"),
                Ok(_) => {
                    let mut d = Vec::new();
                    match std::fs::File::open(crate::fsx::host(name)).and_then(|f| f.take(1 << 20).read_to_end(&mut d)) {
                        Ok(_) => describe(&d),
                        Err(e) => (format!("cannot open `{}' ({})", name, reason(&e)), "cannot open"),
                    }
                }
            }
        };
        let text = if p.has("i") {
            let charset = if mime.starts_with("text/") || mime == "application/json" { if desc.contains("UTF-8") { "; charset=utf-8" } else { "; charset=us-ascii" } } else if mime == "inode/x-empty" { "; charset=binary" } else { "; charset=binary" };
            format!("{}{}", mime, charset)
        } else {
            desc
        };
        if p.has("b") {
            writeln!(ctx.out, "{}", text)?;
        } else {
            writeln!(ctx.out, "{:<w$} {}", format!("{}:", name), text, w = width)?;
        }
    }
    Ok(0)
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
        ];
        for (name, text, desc) in files {
            let p = format!("{}/{}", d, name);
            write(&p, text);
            check("file", &["-b", &p], "", &format!("{}\n", desc), 0);
        }
        check("file", &["-b", &d], "", "directory\n", 0);
        check("file", &["a", "-"], "x\n", "a: cannot open `a' (No such file or directory)\n-: ASCII text\n", 0);
        check("file", &["-b", "-i", "-"], "{\"a\":1}", "application/json; charset=us-ascii\n", 0);
    }
}
