//! fold [-bs] [-w WIDTH] [FILE]...

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, Ctx, Res};
use crate::input;
use std::io::{BufRead, Write};

const SPECS: &[Spec] = &[flag('b', "bytes", "b"), flag('s', "spaces", "s"), val('w', "width", "w")];
const HELP: &str = "Usage: fold [OPTION]... [FILE]...\nWrap input lines in each FILE, writing to standard output.\n\n  -b, --bytes         count bytes rather than columns\n  -s, --spaces        break at spaces\n  -w, --width=WIDTH   use WIDTH columns instead of 80\n";

fn adv(col: usize, c: u8, bytes: bool) -> usize {
    if bytes {
        return col + 1;
    }
    match c {
        b'\t' => col + 8 - col % 8,
        8 => col.saturating_sub(1),
        b'\r' => 0,
        c if (c & 0xC0) == 0x80 => col,
        _ => col + 1,
    }
}

pub fn fold_line(line: &[u8], width: usize, bytes: bool, spaces: bool, out: &mut Vec<u8>) {
    let mut cur: Vec<u8> = Vec::new();
    let mut col = 0;
    for &c in line {
        let ncol = adv(col, c, bytes);
        if ncol > width && !cur.is_empty() {
            if spaces {
                if let Some(sp) = cur.iter().rposition(|b| *b == b' ' || *b == b'\t') {
                    out.extend_from_slice(&cur[..=sp]);
                    out.push(b'\n');
                    let rest = cur[sp + 1..].to_vec();
                    cur = rest;
                    col = cur.iter().fold(0, |a, b| adv(a, *b, bytes));
                    cur.push(c);
                    col = adv(col, c, bytes);
                    continue;
                }
            }
            out.extend_from_slice(&cur);
            out.push(b'\n');
            cur.clear();
            col = 0;
            cur.push(c);
            col = adv(col, c, bytes);
            continue;
        }
        cur.push(c);
        col = ncol;
    }
    out.extend_from_slice(&cur);
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    // `fold -20` is `fold -w 20`.
    let args: Vec<String> = args.iter().map(|a| if a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()) { format!("-w{}", &a[1..]) } else { a.clone() }).collect();
    let p = getopt!(ctx, &args, SPECS, HELP, 1);
    let width = match p.last("w").map(|w| w.parse::<usize>()) {
        None => 80,
        Some(Ok(n)) if n > 0 => n,
        _ => {
            ctx.diag.error(format!("invalid number of columns: {}", lq(p.last("w").unwrap())));
            return Ok(1);
        }
    };
    let (bytes, spaces) = (p.has("b"), p.has("s"));
    for name in input::or_stdin(&p.operands) {
        let mut r = match input::open(ctx.stdin, &name) {
            Ok(r) => r,
            Err(e) => {
                ctx.diag.file_err(ctx.out.failed, &name, e)?;
                continue;
            }
        };
        let out = &mut ctx.out;
        let res = input::each_record(&mut r as &mut dyn BufRead, b'\n', |rec| {
            let (line, nl) = input::chomp(rec, b'\n');
            let mut buf = Vec::with_capacity(line.len() + 8);
            fold_line(line, width, bytes, spaces, &mut buf);
            if nl {
                buf.push(b'\n');
            }
            out.write_all(&buf)?;
            Ok(true)
        });
        if let Err(e) = res {
            ctx.diag.file_err(ctx.out.failed, &name, e)?;
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&["-w", "3"], "abcdefg\n", "abc\ndef\ng\n"),
            (&["-w3"], "abc\n", "abc\n"),
            (&["-5"], "hello world\n", "hello\n worl\nd\n"),
            (&["-s", "-w", "7"], "hello world foo\n", "hello \nworld \nfoo\n"),
            (&["-w", "4"], "\tab\n", "\t\nab\n"),
        ];
        for (args, input, out) in cases {
            check("fold", args, input, out, 0);
        }
    }
}
