//! tac [-b] [-s SEP] [FILE]... — last line first. Each input is read whole
//! (a pipe cannot be read backwards), then written in reverse record order.

use crate::args::{flag, val, Spec};
use crate::ctx::{Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[flag('b', "before", "b"), val('s', "separator", "s"), flag('r', "regex", "r")];
const HELP: &str = "Usage: tac [OPTION]... [FILE]...\nWrite each FILE to standard output, last line first.\n\n  -b, --before             attach the separator before instead of after\n  -r, --regex              interpret the separator as a regular expression\n  -s, --separator=STRING   use STRING as the separator instead of newline\n";

/// Splits `data` into records that end with (or, with `before`, start
/// with) `sep`, keeping the separators.
pub fn records<'a>(data: &'a [u8], sep: &[u8], before: bool) -> Vec<&'a [u8]> {
    let mut cuts = Vec::new();
    let mut i = 0;
    while let Some(pos) = find(&data[i..], sep) {
        cuts.push((i + pos, sep.len()));
        i += pos + sep.len();
    }
    split_at_cuts(data, &cuts, before)
}

/// -r: records separated by the matches of a POSIX basic regular expression.
fn regex_records<'a>(data: &'a [u8], re: &regex::bytes::Regex, before: bool) -> Vec<&'a [u8]> {
    let cuts: Vec<(usize, usize)> = re.find_iter(data).filter(|m| m.end() > m.start()).map(|m| (m.start(), m.end() - m.start())).collect();
    split_at_cuts(data, &cuts, before)
}

fn split_at_cuts<'a>(data: &'a [u8], cuts: &[(usize, usize)], before: bool) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    for &(c, len) in cuts {
        let end = if before { c } else { c + len };
        if end > start || !before {
            out.push(&data[start..end]);
        }
        start = end;
    }
    if start < data.len() {
        out.push(&data[start..]);
    }
    out
}

fn find(h: &[u8], n: &[u8]) -> Option<usize> {
    if n.len() == 1 {
        return memchr::memchr(n[0], h);
    }
    memchr::memmem::find(h, n)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let sep = p.last("s").unwrap_or("\n").as_bytes().to_vec();
    let re = match p.has("r") {
        false => None,
        true => match crate::regex_posix::translate(p.last("s").unwrap_or("\n"), false).and_then(|t| regex::bytes::Regex::new(&t).map_err(|e| e.to_string())) {
            Ok(r) => Some(r),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(1);
            }
        },
    };
    if sep.is_empty() {
        ctx.diag.error("separator cannot be empty");
        return Ok(1);
    }
    let before = p.has("b");
    for name in input::or_stdin(&p.operands) {
        let mut data = Vec::new();
        let res = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data));
        if let Err(e) = res {
            ctx.diag.error(format!("failed to open {} for reading: {}", crate::ctx::q(&name), crate::ctx::reason(&e)));
            continue;
        }
        // An unterminated last record gets no separator, like GNU: it runs
        // into the next one.
        let recs = match &re {
            Some(re) => regex_records(&data, re, before),
            None => records(&data, &sep, before),
        };
        for r in recs.iter().rev() {
            ctx.out.write_all(r)?;
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
            (&[], "a\nb\nc\n", "c\nb\na\n"),
            (&[], "a\nb", "ba\n"),
            (&["-s", ","], "a,b,c,", "c,b,a,"),
            (&["-b", "-s", ","], ",a,b", ",b,a"),
            (&[], "", ""),
        ];
        for (args, input, out) in cases {
            check("tac", args, input, out, 0);
        }
    }
}
