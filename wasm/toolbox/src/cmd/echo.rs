//! echo [-neE] [STRING]... (also what xargs runs by default)

use crate::ctx::{Ctx, Res};
use std::io::Write;

/// Interprets backslash escapes (echo -e); returns false after `\c`.
pub fn unescape(s: &str, out: &mut Vec<u8>) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = b[i];
        i += 1;
        match c {
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'c' => return false,
            b'e' => out.push(27),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'\\' => out.push(b'\\'),
            b'0' => {
                let mut v = 0u32;
                let mut n = 0;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            }
            b'x' => {
                let mut v = 0u32;
                let mut n = 0;
                while n < 2 && i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v * 16 + (b[i] as char).to_digit(16).unwrap();
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    out.extend_from_slice(b"\\x");
                } else {
                    out.push(v as u8);
                }
            }
            other => {
                out.push(b'\\');
                out.push(other);
            }
        }
    }
    true
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    // GNU echo takes options only as leading words made of n, e, E.
    let (mut newline, mut escapes) = (true, false);
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E')) {
            for c in a[1..].chars() {
                match c {
                    'n' => newline = false,
                    'e' => escapes = true,
                    _ => escapes = false,
                }
            }
            i += 1;
        } else {
            break;
        }
    }
    let mut out = Vec::new();
    for (k, a) in args[i..].iter().enumerate() {
        if k > 0 {
            out.push(b' ');
        }
        if escapes {
            if !unescape(a, &mut out) {
                ctx.out.write_all(&out)?;
                return Ok(0);
            }
        } else {
            out.extend_from_slice(a.as_bytes());
        }
    }
    if newline {
        out.push(b'\n');
    }
    ctx.out.write_all(&out)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str)] = &[
            (&["a", "b"], "a b\n"),
            (&["-n", "a"], "a"),
            (&["-e", "a\\tb\\n"], "a\tb\n\n"),
            (&["a\\tb"], "a\\tb\n"),
            (&["-e", "x\\cy"], "x"),
            (&["-x"], "-x\n"),
            (&[], "\n"),
        ];
        for (args, out) in cases {
            check("echo", args, "", out, 0);
        }
    }
}
