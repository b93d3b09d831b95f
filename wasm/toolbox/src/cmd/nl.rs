//! nl [-b STYLE] [-h STYLE] [-f STYLE] [-n ln|rn|rz] [-w N] [-s SEP]
//!    [-v N] [-i N] [-l N] [-p] [-d CC] [FILE]...
//! STYLE: a (all), t (non-empty), n (none), pBRE (lines matching BRE).

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, Ctx, Res};
use crate::input;
use crate::regex_posix::translate;
use regex::bytes::Regex;
use std::io::{BufRead, Write};

const SPECS: &[Spec] = &[
    val('b', "body-numbering", "b"),
    val('h', "header-numbering", "h"),
    val('f', "footer-numbering", "f"),
    val('n', "number-format", "n"),
    val('w', "number-width", "w"),
    val('s', "number-separator", "s"),
    val('v', "starting-line-number", "v"),
    val('i', "line-increment", "i"),
    val('l', "join-blank-lines", "l"),
    flag('p', "no-renumber", "p"),
    val('d', "section-delimiter", "d"),
];
const HELP: &str = "Usage: nl [OPTION]... [FILE]...\nWrite each FILE to standard output, with line numbers added.\n\n  -b, --body-numbering=STYLE      use STYLE for numbering body lines\n  -d, --section-delimiter=CC      use CC for logical page delimiters\n  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines\n  -h, --header-numbering=STYLE    use STYLE for numbering header lines\n  -i, --line-increment=NUMBER     line number increment at each line\n  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one\n  -n, --number-format=FORMAT      insert line numbers according to FORMAT\n  -p, --no-renumber               do not reset line numbers for each section\n  -s, --number-separator=STRING   add STRING after (possible) line number\n  -v, --starting-line-number=NUMBER  first line number for each section\n  -w, --number-width=NUMBER       use NUMBER columns for line numbers\n\nSTYLE is one of: a (all lines), t (nonempty lines), n (no lines),\npBRE (lines matching the basic regular expression BRE).\nFORMAT is one of: ln (left justified), rn (right justified), rz (zero padded).\n";

enum Style {
    All,
    NonEmpty,
    None,
    Re(Regex),
}

fn style(s: &str) -> Result<Style, String> {
    match s {
        "a" => Ok(Style::All),
        "t" => Ok(Style::NonEmpty),
        "n" => Ok(Style::None),
        _ if s.starts_with('p') => {
            let t = translate(&s[1..], false)?;
            Regex::new(&t).map(Style::Re).map_err(|e| e.to_string())
        }
        _ => Err(format!("invalid numbering style: {}", lq(s))),
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut styles = Vec::new();
    for (k, d) in [("h", "n"), ("b", "t"), ("f", "n")] {
        match style(p.last(k).unwrap_or(d)) {
            Ok(s) => styles.push(s),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(1);
            }
        }
    }
    let fmt = p.last("n").unwrap_or("rn").to_string();
    if !matches!(fmt.as_str(), "ln" | "rn" | "rz") {
        ctx.diag.error(format!("invalid line numbering format: {}", lq(&fmt)));
        return Ok(1);
    }
    let mut nums = [6i64, 1, 1, 1];
    for (i, k) in ["w", "v", "i", "l"].iter().enumerate() {
        if let Some(v) = p.last(k) {
            match v.parse::<i64>() {
                Ok(n) if !(i == 0 && n < 1) => nums[i] = n,
                _ => {
                    let what = ["line number field width", "starting line number", "line number increment", "blank line count"][i];
                    ctx.diag.error(format!("invalid {}: {}", what, lq(v)));
                    return Ok(1);
                }
            }
        }
    }
    let (width, start, incr, join) = (nums[0] as usize, nums[1], nums[2], nums[3].max(1));
    let sep = p.last("s").unwrap_or("\t").to_string();
    let delim = {
        let d = p.last("d").unwrap_or("\\:");
        if d.len() == 1 { format!("{}:", d) } else { d.to_string() }
    };
    let (hdr, body, ftr) = (delim.repeat(3), delim.repeat(2), delim.clone());
    let renumber = !p.has("p");
    // coreutils >= 9.2 (Debian 13) keeps the separator on unnumbered lines (a tab stays a tab);
    // 9.1 (Debian 12, where the option sweep runs) pads with spaces instead.
    let blank_fmt = format!("{}{}", " ".repeat(width), sep);
    let mut n = start;
    let mut section = 1usize;
    let mut blanks = 0i64;
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
            let which = if line == hdr.as_bytes() {
                Some(0)
            } else if line == body.as_bytes() {
                Some(1)
            } else if line == ftr.as_bytes() {
                Some(2)
            } else {
                None
            };
            if let Some(s) = which {
                section = s;
                // A header starts the numbering again (unless -p), as coreutils >= 9.2 does; 9.1
                // restarted at every section delimiter.
                if s == 0 && renumber {
                    n = start;
                }
                out.write_all(b"\n")?;
                return Ok(true);
            }
            let number = match &styles[section] {
                Style::All => {
                    if line.is_empty() {
                        blanks += 1;
                        if blanks >= join {
                            blanks = 0;
                            true
                        } else {
                            false
                        }
                    } else {
                        blanks = 0;
                        true
                    }
                }
                Style::NonEmpty => !line.is_empty(),
                Style::None => false,
                Style::Re(re) => re.is_match(line),
            };
            if number {
                let s = match fmt.as_str() {
                    "ln" => format!("{:<w$}", n, w = width),
                    "rz" => {
                        if n < 0 {
                            format!("-{:0>w$}", -n, w = width.saturating_sub(1))
                        } else {
                            format!("{:0>w$}", n, w = width)
                        }
                    }
                    _ => format!("{:>w$}", n, w = width),
                };
                out.write_all(s.as_bytes())?;
                out.write_all(sep.as_bytes())?;
                n += incr;
            } else {
                out.write_all(blank_fmt.as_bytes())?;
            }
            out.write_all(line)?;
            if nl {
                out.write_all(b"\n")?;
            }
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
            (&[], "a\n\nb\n", "     1\ta\n      \t\n     2\tb\n"),
            (&["-ba"], "a\n\nb\n", "     1\ta\n     2\t\n     3\tb\n"),
            (&["-n", "ln", "-w", "3", "-s", "|"], "a\n", "1  |a\n"),
            (&["-n", "rz", "-w", "3"], "a\n", "001\ta\n"),
            (&["-v", "10", "-i", "5"], "a\nb\n", "    10\ta\n    15\tb\n"),
            (&["-bp^x"], "xa\nb\nxc\n", "     1\txa\n      \tb\n     2\txc\n"),
            (&["-bn"], "a\n", "      \ta\n"),
        ];
        for (args, input, out) in cases {
            check("nl", args, input, out, 0);
        }
    }
}
