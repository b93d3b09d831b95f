//! cat [-AbeEnstTuv] [FILE]...

use crate::args::{flag, Spec};
use crate::ctx::{Ctx, Res};
use crate::input;
use crate::text::push_visible;
use std::io::{self, BufRead, Write};

const SPECS: &[Spec] = &[
    flag('A', "show-all", "A"),
    flag('b', "number-nonblank", "b"),
    flag('e', "", "e"),
    flag('E', "show-ends", "E"),
    flag('n', "number", "n"),
    flag('s', "squeeze-blank", "s"),
    flag('t', "", "t"),
    flag('T', "show-tabs", "T"),
    flag('u', "", "u"),
    flag('v', "show-nonprinting", "v"),
];
const HELP: &str = "Usage: cat [OPTION]... [FILE]...\nConcatenate FILE(s) to standard output.\n\nWith no FILE, or when FILE is -, read standard input.\n\n  -A, --show-all           equivalent to -vET\n  -b, --number-nonblank    number nonempty output lines, overrides -n\n  -e                       equivalent to -vE\n  -E, --show-ends          display $ at end of each line\n  -n, --number             number all output lines\n  -s, --squeeze-blank      suppress repeated empty output lines\n  -t                       equivalent to -vT\n  -T, --show-tabs          display TAB characters as ^I\n  -u                       (ignored)\n  -v, --show-nonprinting   use ^ and M- notation, except for LFD and TAB\n";

#[derive(Default)]
struct Opts {
    number: bool,
    nonblank: bool,
    ends: bool,
    squeeze: bool,
    tabs: bool,
    visible: bool,
}

/// Line numbering and blank squeezing carry over from one file to the next.
#[derive(Default)]
struct State {
    line: u64,
    prev_blank: bool,
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut o = Opts::default();
    for f in &p.opts {
        match f.key {
            "A" => (o.visible, o.ends, o.tabs) = (true, true, true),
            "b" => o.nonblank = true,
            "e" => (o.visible, o.ends) = (true, true),
            "E" => o.ends = true,
            "n" => o.number = true,
            "s" => o.squeeze = true,
            "t" => (o.visible, o.tabs) = (true, true),
            "T" => o.tabs = true,
            "v" => o.visible = true,
            _ => {}
        }
    }
    let plain = !(o.number || o.nonblank || o.ends || o.squeeze || o.tabs || o.visible);
    let mut st = State::default();
    for name in input::or_stdin(&p.operands) {
        let r = match input::open(ctx.stdin, &name) {
            Ok(r) => r,
            Err(e) => {
                ctx.diag.file_err(ctx.out.failed, &name, e)?;
                continue;
            }
        };
        let res = if plain { copy(r, &mut ctx.out) } else { decorate(r, &mut ctx.out, &o, &mut st) };
        if let Err(e) = res {
            ctx.diag.file_err(ctx.out.failed, &name, e)?;
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

/// Copies a reader through to `out` a buffer at a time (also the pagers').
pub fn copy(mut r: Box<dyn BufRead + '_>, out: &mut dyn Write) -> io::Result<()> {
    loop {
        let n = {
            let buf = r.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            out.write_all(buf)?;
            buf.len()
        };
        r.consume(n);
    }
}

fn decorate(mut r: Box<dyn BufRead + '_>, out: &mut dyn Write, o: &Opts, st: &mut State) -> io::Result<()> {
    let mut line = Vec::new();
    let mut buf = Vec::new();
    loop {
        line.clear();
        if r.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let (body, nl) = input::chomp(&line, b'\n');
        let blank = body.is_empty() && nl;
        if o.squeeze && blank && st.prev_blank {
            continue;
        }
        st.prev_blank = blank;
        buf.clear();
        if (o.nonblank && !blank) || (o.number && !o.nonblank) {
            st.line += 1;
            buf.extend_from_slice(format!("{:>6}\t", st.line).as_bytes());
        }
        for &b in body {
            if b == b'\t' {
                if o.tabs {
                    buf.extend_from_slice(b"^I");
                } else {
                    buf.push(b);
                }
            } else if o.visible {
                push_visible(&mut buf, b);
            } else {
                buf.push(b);
            }
        }
        if nl {
            if o.ends {
                buf.push(b'$');
            }
            buf.push(b'\n');
        }
        out.write_all(&buf)?;
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err, tmpdir, write};

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], "a\nb", "a\nb"),
            (&["-n"], "a\n\nb\n", "     1\ta\n     2\t\n     3\tb\n"),
            (&["-b"], "a\n\nb\n", "     1\ta\n\n     2\tb\n"),
            (&["-s"], "a\n\n\n\nb\n", "a\n\nb\n"),
            (&["-E"], "a\nb", "a$\nb"),
            (&["-A"], "a\tb\x01\x7f\n", "a^Ib^A^?$\n"),
            (&["-T"], "\t\n", "^I\n"),
            (&["-v"], "\u{e9}\n", "M-CM-)\n"),
            (&["-ns"], "a\n\n\nb\n", "     1\ta\n     2\t\n     3\tb\n"),
            (&["-"], "x", "x"),
        ];
        for (args, input, out) in cases {
            check("cat", args, input, out, 0);
        }
    }

    #[test]
    fn files_and_errors() {
        let d = tmpdir();
        write(&format!("{}/a", d), "A\n");
        write(&format!("{}/b", d), "B\n");
        check("cat", &[&format!("{}/a", d), "-", &format!("{}/b", d)], "S\n", "A\nS\nB\n", 0);
        check("cat", &["-n", &format!("{}/a", d), &format!("{}/b", d)], "", "     1\tA\n     2\tB\n", 0);
        let missing = format!("{}/nope", d);
        check_err("cat", &[&missing], "", &format!("cat: {}: No such file or directory\n", missing), 1);
        check_err("cat", &[&d], "", &format!("cat: {}: Is a directory\n", d), 1);
        check_err("cat", &["-Z"], "", "cat: invalid option -- 'Z'\nTry 'cat --help' for more information.\n", 1);
        check_err("cat", &["--bogus"], "", "cat: unrecognized option '--bogus'\nTry 'cat --help' for more information.\n", 1);
    }
}
