//! stat [-L] [-c FORMAT | --printf FORMAT] [-t] FILE...
//!
//! The workspace keeps sizes and times, not owners, inodes or permission
//! bits: %a/%A show 644/755-style modes, %u/%U/%g/%G the owner the host names (root for the
//! system tree and /tmp, else `agent`, 1000), %i/%d/%h report 0/0/1 (2 for directories).

use crate::args::{flag, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::fsx;
use crate::host;
use std::fs::Metadata;
use std::io::Write;

const SPECS: &[Spec] = &[
    flag('L', "dereference", "L"),
    // Every stat here is read fresh from the session's store: no cache to choose.
    val('\0', "cached", "ignored"),
    val('c', "format", "c"),
    val('\0', "printf", "printf"),
    flag('t', "terse", "t"),
    flag('f', "file-system", "f"),
];
const HELP: &str = "Usage: stat [OPTION]... FILE...\nDisplay file status.\n\n  -L, --dereference     follow links\n  -c  --format=FORMAT   use the specified FORMAT instead of the default;\n                          output a newline after each use of FORMAT\n      --printf=FORMAT   like --format, but interpret backslash escapes,\n                          and do not output a mandatory trailing newline\n  -f, --file-system     display file system status instead of file status\n  -t, --terse           print the information in terse form\n\nFORMAT sequences: %n %N %s %b %B %f %F %a %A %u %U %g %G %i %h %d %x %X %y %Y %z %Z %w %W %o %%\n";

fn file_type(m: &Metadata) -> &'static str {
    if m.is_dir() {
        "directory"
    } else if m.file_type().is_symlink() {
        "symbolic link"
    } else if m.is_file() {
        if m.len() == 0 {
            "regular empty file"
        } else {
            "regular file"
        }
    } else {
        "unknown"
    }
}

fn stamp(t: (i64, u32)) -> String {
    super::ls::full_time(t)
}


fn format(fmt: &str, name: &str, m: &Metadata, escapes: bool) -> String {
    let mut out = String::new();
    let mut it = fmt.chars().peekable();
    let link = m.file_type().is_symlink();
    // A link's own bits are 0777 on Linux; its few bytes live in the inode (0 blocks).
    let mode = if link { 0o777 } else { host::mode_of(name, m.is_dir()) };
    let mode_s = format!("{}{}", if m.is_dir() { 'd' } else if link { 'l' } else { '-' }, host::mode_letters(mode));
    let blocks = if link { 0 } else { (m.len() + 4095) / 4096 * 8 };
    let shown = match fsx::read_link(name) {
        Ok(t) if link => format!("{} -> {}", q(name), q(&t)),
        _ => q(name),
    };
    while let Some(c) = it.next() {
        if c == '\\' && escapes {
            match it.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some(o) => {
                    out.push('\\');
                    out.push(o)
                }
                None => out.push('\\'),
            }
            continue;
        }
        if c != '%' {
            out.push(c);
            continue;
        }
        // printf-style flags, width and precision (GNU's default format pads with them)
        let (mut left, mut zero) = (false, false);
        while let Some(&f) = it.peek().filter(|f| "-0#+ '".contains(**f)) {
            left |= f == '-';
            zero |= f == '0';
            it.next();
        }
        let mut width = String::new();
        while let Some(&d) = it.peek().filter(|d| d.is_ascii_digit()) {
            width.push(d);
            it.next();
        }
        let mut prec: Option<usize> = None;
        if it.peek() == Some(&'.') {
            it.next();
            let mut p = String::new();
            while let Some(&d) = it.peek().filter(|d| d.is_ascii_digit()) {
                p.push(d);
                it.next();
            }
            prec = Some(p.parse().unwrap_or(0));
        }
        let start = out.len();
        match it.next() {
            Some('n') => out.push_str(name),
            Some('N') => out.push_str(&shown),
            Some('s') => out.push_str(&m.len().to_string()),
            Some('b') => out.push_str(&blocks.to_string()),
            Some('B') => out.push_str("512"),
            Some('o') => out.push_str("4096"),
            Some('f') => out.push_str(&format!("{:x}", if m.is_dir() { 0o40000 | mode } else if link { 0o120000 | mode } else { 0o100000 | mode })),
            Some('F') => out.push_str(file_type(m)),
            Some('a') => out.push_str(&format!("{:o}", mode)),
            Some('A') => out.push_str(&mode_s),
            Some('u') | Some('g') => out.push_str(&host::owner_of(name).1.to_string()),
            Some('U') | Some('G') => out.push_str(host::owner_of(name).0),
            Some('i') => out.push_str(&fsx::inode(name).unwrap_or(0).to_string()),
            Some('d') | Some('D') | Some('H') | Some('L') => out.push('0'),
            Some('h') => out.push_str(&super::ls::link_count(name, m.is_dir()).to_string()),
            Some('x') => out.push_str(&stamp(fsx::atime(m))),
            Some('X') => out.push_str(&fsx::atime(m).0.to_string()),
            Some('y') | Some('z') | Some('w') => out.push_str(&stamp(fsx::mtime(m))),
            Some('Y') | Some('Z') | Some('W') => out.push_str(&fsx::mtime(m).0.to_string()),
            Some('%') => out.push('%'),
            Some(o) => {
                out.push('?');
                let _ = o;
            }
            None => out.push('%'),
        }
        let mut v = out.split_off(start);
        if let Some(p) = prec {
            v = v.chars().take(p).collect();
        }
        let w: usize = width.parse().unwrap_or(0);
        let n = v.chars().count();
        if n < w {
            let pad = w - n;
            if left {
                v.push_str(&" ".repeat(pad));
            } else if zero && v.bytes().all(|b| b.is_ascii_digit()) {
                v = "0".repeat(pad) + &v;
            } else {
                v = " ".repeat(pad) + &v;
            }
        }
        out.push_str(&v);
    }
    out
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.is_empty() {
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    if p.has("f") {
        return file_system(ctx, &p);
    }
    for f in &p.operands {
        let m = match if p.has("L") { fsx::metadata(f) } else { fsx::symlink_metadata(f) } {
            Ok(m) => m,
            Err(e) => {
                ctx.diag.error(format!("cannot statx {}: {}", q(f), reason(&e)));
                continue;
            }
        };
        let text = if let Some(fm) = p.last("printf") {
            format(fm, f, &m, true)
        } else if let Some(fm) = p.last("c") {
            format(fm, f, &m, false) + "\n"
        } else if p.has("t") {
            format("%n %s %b %f %u %g %d %i %h 0 0 %X %Y %Z %W %o", f, &m, false) + "\n"
        } else {
            let file_line = match fsx::read_link(f) {
                Ok(t) if m.file_type().is_symlink() => format!("  File: {} -> {}\n", f.replace('%', "%%"), t.replace('%', "%%")),
                _ => "  File: %n\n".to_string(),
            };
            format(
                &(file_line + "  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\nDevice: %Hd,%Ld\tInode: %-10i  Links: %h\nAccess: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: -\n"),
                f,
                &m,
                true,
            )
        };
        ctx.out.write_all(text.as_bytes())?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

/// stat -f: the workspace is the one file system (the numbers df prints), in 4 KiB blocks.
fn file_system(ctx: &mut Ctx, p: &crate::args::Parsed) -> Res {
    const BLOCK: u64 = 4096;
    let (size, used, files_max, files) = super::df::space();
    let total = size / BLOCK;
    let free = total.saturating_sub((used + BLOCK - 1) / BLOCK);
    let ifree = files_max.saturating_sub(files);
    for f in &p.operands {
        if let Err(e) = fsx::metadata(f) {
            ctx.diag.error(format!("cannot read file system information for {}: {}", q(f), reason(&e)));
            continue;
        }
        let field = |c: char| -> Option<String> {
            Some(match c {
                'n' => f.clone(),
                'i' => "0".into(),
                'l' => "255".into(),
                't' => "0".into(),
                'T' => super::df::FS_TYPE.into(),
                'b' => total.to_string(),
                'f' | 'a' => free.to_string(),
                'c' => files_max.to_string(),
                'd' => ifree.to_string(),
                's' | 'S' => BLOCK.to_string(),
                '%' => "%".into(),
                _ => return None,
            })
        };
        let fmt = if let Some(fm) = p.last("printf").or(p.last("c")) {
            fm.to_string()
        } else if p.has("t") {
            "%n %i %l %t %s %S %b %f %a %c %d".into()
        } else {
            "  File: \"%n\"\n    ID: %-8i Namelen: %-7l Type: %T\nBlock size: %-10s Fundamental block size: %S\nBlocks: Total: %-10b Free: %-10f Available: %a\nInodes: Total: %-10c Free: %d".into()
        };
        let mut out = String::new();
        let mut it = fmt.chars().peekable();
        while let Some(c) = it.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            let left = it.peek() == Some(&'-');
            if left {
                it.next();
            }
            let mut width = String::new();
            while let Some(d) = it.peek().filter(|d| d.is_ascii_digit()) {
                width.push(*d);
                it.next();
            }
            let w: usize = width.parse().unwrap_or(0);
            match it.next().and_then(|k| field(k).map(|v| (k, v))) {
                Some((_, v)) if left => out.push_str(&format!("{:<w$}", v, w = w)),
                Some((_, v)) => out.push_str(&format!("{:>w$}", v, w = w)),
                None => out.push('?'),
            }
        }
        if p.last("printf").is_some() {
            let mut bytes = Vec::new();
            crate::cmd::echo::unescape(&out, &mut bytes);
            ctx.out.write_all(&bytes)?;
        } else {
            writeln!(ctx.out, "{}", out)?;
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        let f = format!("{}/f", d);
        write(&f, "hello");
        crate::fsx::set_times(std::path::Path::new(&f), Some((0, 0)), Some((86400 + 3661, 5))).unwrap();
        check("stat", &["-c", "%n %s %F %Y %a", &f], "", &format!("{} 5 regular file 90061 644\n", f), 0);
        check("stat", &["--printf", "%y\\n", &f], "", "1970-01-02 01:01:01.000000005 +0000\n", 0);
        check("stat", &["-c", "%F", &d], "", "directory\n", 0);
        let m = format!("{}/m", d);
        check_err("stat", &[&m], "", &format!("stat: cannot statx '{}': No such file or directory\n", m), 1);
    }
}
