//! strings [-a] [-n MIN] [-t o|d|x] [FILE]... — runs of at least MIN
//! printable ASCII characters (tab counts as printable, as in GNU).

use crate::args::{flag, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[flag('a', "all", "a"), val('n', "bytes", "n"), val('t', "radix", "t"), flag('f', "print-file-name", "f"), flag('o', "", "o")];
const HELP: &str = "Usage: strings [option(s)] [file(s)]\n Display printable strings in [file(s)] (stdin by default)\n  -a, --all                 Scan the entire file\n  -f, --print-file-name     Print the name of the file before each string\n  -n, --bytes=<number>      Locate & print any sequence of at least <number>\n                            displayable characters.  (The default is 4).\n  -t, --radix={o,d,x}       Print the location of the string in base 8, 10 or 16\n  -o                        An alias for --radix=o\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let min = match p.last("n") {
        Some(n) => match n.parse::<usize>() {
            Ok(v) if v > 0 => v,
            _ => {
                ctx.diag.error(format!("invalid minimum string length {}", q(n)));
                return Ok(1);
            }
        },
        None => 4,
    };
    let radix = if p.has("o") { Some("o") } else { p.last("t") };
    if let Some(r) = radix {
        if !["o", "d", "x"].contains(&r) {
            ctx.diag.error(format!("invalid radix: {}", r));
            return Ok(1);
        }
    }
    for name in input::or_stdin(&p.operands) {
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            continue;
        }
        let mut start = 0;
        let mut i = 0;
        while i <= data.len() {
            let printable = i < data.len() && (data[i] == b'\t' || (32..127).contains(&data[i]));
            if !printable {
                if i - start >= min {
                    if p.has("f") {
                        write!(ctx.out, "{}: ", name)?;
                    }
                    match radix {
                        Some("o") => write!(ctx.out, "{:7o} ", start)?,
                        Some("d") => write!(ctx.out, "{:7} ", start)?,
                        Some(_) => write!(ctx.out, "{:7x} ", start)?,
                        None => {}
                    }
                    ctx.out.write_all(&data[start..i])?;
                    ctx.out.write_all(b"\n")?;
                }
                start = i + 1;
            }
            i += 1;
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
            (&[], "ab\u{0}hello\u{1}world!\u{0}xyz", "hello\nworld!\n"),
            (&["-n", "2"], "ab\u{0}c\u{0}de", "ab\nde\n"),
            (&["-t", "x"], "\u{0}\u{0}hello", "      2 hello\n"),
            (&[], "tab\there\n", "tab\there\n"),
        ];
        for (args, input, out) in cases {
            check("strings", args, input, out, 0);
        }
    }
}
