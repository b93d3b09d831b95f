//! rev [FILE]... — reverses characters of each line (UTF-8 aware; invalid
//! sequences are reversed byte by byte).

use crate::args::{flag, Spec};
use crate::ctx::{Ctx, Res};
use crate::input;
use std::io::{BufRead, Write};

const HELP: &str = "Usage: rev [options] [file ...]\nReverse lines characterwise.\n";

pub fn reverse_line(line: &[u8], out: &mut Vec<u8>) {
    match std::str::from_utf8(line) {
        Ok(s) => {
            for c in s.chars().rev() {
                let mut b = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
        Err(_) => out.extend(line.iter().rev()),
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    const SPECS: &[Spec] = &[flag('h', "", "h"), flag('V', "", "V")];
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.has("h") {
        ctx.out.write_all(HELP.as_bytes())?;
        return Ok(0);
    }
    if p.has("V") {
        writeln!(ctx.out, "rev (toolshed toolbox) {}", env!("CARGO_PKG_VERSION"))?;
        return Ok(0);
    }
    for name in input::or_stdin(&p.operands) {
        let mut r = match input::open(ctx.stdin, &name) {
            Ok(r) => r,
            Err(e) => {
                ctx.diag.error(format!("cannot open {}: {}", name, crate::ctx::reason(&e)));
                continue;
            }
        };
        let out = &mut ctx.out;
        let mut buf = Vec::new();
        let res = input::each_record(&mut r as &mut dyn BufRead, b'\n', |rec| {
            let (line, nl) = input::chomp(rec, b'\n');
            buf.clear();
            reverse_line(line, &mut buf);
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
        let cases: &[(&str, &str)] = &[("abc\nde\n", "cba\ned\n"), ("h\u{e9}llo", "oll\u{e9}h"), ("\n", "\n")];
        for (input, out) in cases {
            check("rev", &[], input, out, 0);
        }
    }
}
