//! paste [-s] [-d LIST] [-z] [FILE]...

use crate::args::{flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::input;
use std::io::{BufRead, Write};

const SPECS: &[Spec] = &[val('d', "delimiters", "d"), flag('s', "serial", "s"), flag('z', "zero-terminated", "z")];
const HELP: &str = "Usage: paste [OPTION]... [FILE]...\nWrite lines consisting of the sequentially corresponding lines from\neach FILE, separated by TABs, to standard output.\n\n  -d, --delimiters=LIST   reuse characters from LIST instead of TABs\n  -s, --serial            paste one file at a time instead of in parallel\n  -z, --zero-terminated   line delimiter is NUL, not newline\n";

/// The delimiter list with \n \t \\ \0 (empty) decoded; each entry may be empty.
fn delims(s: &str) -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    let mut it = s.bytes();
    while let Some(c) = it.next() {
        if c == b'\\' {
            match it.next() {
                Some(b'n') => v.push(vec![b'\n']),
                Some(b't') => v.push(vec![b'\t']),
                Some(b'\\') => v.push(vec![b'\\']),
                Some(b'0') => v.push(vec![]),
                Some(o) => v.push(vec![o]),
                None => v.push(vec![b'\\']),
            }
        } else {
            v.push(vec![c]);
        }
    }
    v
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let d = delims(p.last("d").unwrap_or("\t"));
    let d = if d.is_empty() { vec![vec![]] } else { d };
    let eol = if p.has("z") { 0 } else { b'\n' };
    let files = input::or_stdin(&p.operands);
    if p.has("s") {
        for name in &files {
            let mut r = match input::open(ctx.stdin, name) {
                Ok(r) => r,
                Err(e) => {
                    ctx.diag.error(format!("{}: {}", name, reason(&e)));
                    return Ok(1);
                }
            };
            let mut line = Vec::new();
            let mut k = 0;
            let mut any = false;
            let mut buf = Vec::new();
            loop {
                buf.clear();
                if r.read_until(eol, &mut buf)? == 0 {
                    break;
                }
                let (body, _) = input::chomp(&buf, eol);
                if any {
                    line.extend_from_slice(&d[k % d.len()]);
                    k += 1;
                }
                line.extend_from_slice(body);
                any = true;
            }
            line.push(eol);
            ctx.out.write_all(&line)?;
        }
        return Ok(0);
    }
    // Parallel: each operand keeps its own reader; `-` may repeat (shares stdin).
    let mut stdin_buf: Vec<Vec<u8>> = Vec::new();
    let stdin_count = files.iter().filter(|f| *f == "-").count();
    if stdin_count > 0 {
        let mut b = Vec::new();
        ctx.stdin.read_to_end(&mut b)?;
        stdin_buf = b.split_inclusive(|c| *c == eol).map(|s| s.to_vec()).collect();
    }
    let mut readers: Vec<Option<Box<dyn BufRead>>> = Vec::new();
    for name in &files {
        if name == "-" {
            readers.push(None);
            continue;
        }
        let f = match std::fs::File::open(crate::fsx::host(name)) {
            Ok(f) => f,
            Err(e) => {
                ctx.diag.error(format!("{}: {}", name, reason(&e)));
                return Ok(1);
            }
        };
        readers.push(Some(Box::new(std::io::BufReader::new(f))));
    }
    let mut stdin_pos = 0;
    let mut done = vec![false; files.len()];
    loop {
        let mut line = Vec::new();
        let mut got_any = false;
        for i in 0..files.len() {
            let mut rec = Vec::new();
            if !done[i] {
                match &mut readers[i] {
                    Some(r) => {
                        if r.read_until(eol, &mut rec)? == 0 {
                            done[i] = true;
                        }
                    }
                    None => {
                        if stdin_pos < stdin_buf.len() {
                            rec = stdin_buf[stdin_pos].clone();
                            stdin_pos += 1;
                        } else {
                            done[i] = true;
                        }
                    }
                }
            }
            if !rec.is_empty() {
                got_any = true;
            }
            let (body, _) = input::chomp(&rec, eol);
            line.extend_from_slice(body);
            if i + 1 < files.len() {
                line.extend_from_slice(&d[i % d.len()]);
            }
        }
        if !got_any {
            break;
        }
        line.push(eol);
        ctx.out.write_all(&line)?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        check("paste", &["-s"], "a\nb\nc\n", "a\tb\tc\n", 0);
        check("paste", &["-s", "-d", ",;"], "a\nb\nc\n", "a,b;c\n", 0);
        check("paste", &["-", "-"], "a\nb\nc\n", "a\tb\nc\t\n", 0);
        let d = tmpdir();
        let (x, y) = (format!("{}/x", d), format!("{}/y", d));
        write(&x, "1\n2\n3\n");
        write(&y, "a\nb\n");
        check("paste", &[&x, &y], "", "1\ta\n2\tb\n3\t\n", 0);
        check("paste", &["-d", ":", &x, &y], "", "1:a\n2:b\n3:\n", 0);
    }
}
