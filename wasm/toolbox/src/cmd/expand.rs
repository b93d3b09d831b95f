//! expand [-i] [-t N|LIST] [FILE]...  and  unexpand [-a] [--first-only] [-t N|LIST] [FILE]...

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, Ctx, Res};
use crate::input;
use std::io::{BufRead, Write};

const SPECS: &[Spec] = &[flag('i', "initial", "i"), val('t', "tabs", "t"), flag('a', "all", "a"), flag('\0', "first-only", "first-only")];
const HELP: &str = "Usage: expand [OPTION]... [FILE]...\n  or:  unexpand [OPTION]... [FILE]...\nConvert tabs to spaces (expand) or leading spaces to tabs (unexpand).\n\n  -i, --initial    (expand) do not convert tabs after non blanks\n  -a, --all        (unexpand) convert all blanks, instead of just initial blanks\n      --first-only (unexpand) convert only leading sequences of blanks\n  -t, --tabs=N     have tabs N characters apart, not 8\n  -t, --tabs=LIST  use comma separated list of tab positions\n";

/// Tab stops: a single width, or explicit positions (then width past the last is 1,
/// or GNU's `/N`: every multiple of N, or `+N`: every N columns after the last stop).
struct Stops {
    every: usize,
    list: Vec<usize>,
    tail: Option<(bool, usize)>,
}

impl Stops {
    /// The next stop for unexpand; None past an explicit list without `/N` or `+N`.
    fn next_tab(&self, col: usize) -> Option<usize> {
        match (self.list.last(), self.tail) {
            (Some(&last), None) if col >= last => None,
            _ => Some(self.next(col)),
        }
    }

    fn next(&self, col: usize) -> usize {
        if self.list.is_empty() {
            return (col / self.every + 1) * self.every;
        }
        if let Some(s) = self.list.iter().copied().find(|&s| s > col) {
            return s;
        }
        match self.tail {
            Some((true, n)) => (col / n + 1) * n,
            Some((false, n)) => {
                let last = *self.list.last().unwrap();
                last + ((col - last) / n + 1) * n
            }
            None => col + 1,
        }
    }
}

fn parse_stops(s: &str) -> Result<Stops, String> {
    let mut items: Vec<&str> = s.split(|c| c == ',' || c == ' ').filter(|x| !x.is_empty()).collect();
    let mut tail = None;
    if let Some(last) = items.last() {
        let (multiple, rest) = match (last.strip_prefix('/'), last.strip_prefix('+')) {
            (Some(r), _) => (true, Some(r)),
            (_, Some(r)) => (false, Some(r)),
            _ => (false, None),
        };
        if let Some(r) = rest {
            match r.parse::<usize>() {
                Ok(n) if n > 0 => tail = Some((multiple, n)),
                _ => return Err(format!("tab size contains invalid character(s): {}", lq(s))),
            }
            items.pop();
        }
    }
    if let (Some((_, n)), true) = (tail, items.is_empty()) {
        return Ok(Stops { every: n, list: vec![], tail: None });
    }
    if tail.is_some() {
        let nums: Vec<usize> = items.iter().map(|x| x.parse::<usize>()).collect::<Result<_, _>>().map_err(|_| format!("tab size contains invalid character(s): {}", lq(s)))?;
        return Ok(Stops { every: 8, list: nums, tail });
    }
    let nums: Result<Vec<usize>, _> = items.iter().map(|x| x.parse::<usize>()).collect();
    let nums = nums.map_err(|_| format!("tab size contains invalid character(s): {}", lq(s)))?;
    match nums.len() {
        0 => Err(format!("tab size contains invalid character(s): {}", lq(s))),
        1 if nums[0] == 0 => Err("tab size cannot be 0".into()),
        1 => Ok(Stops { every: nums[0], list: vec![], tail: None }),
        _ => {
            if nums.windows(2).any(|w| w[1] <= w[0]) {
                return Err("tab sizes must be ascending".into());
            }
            Ok(Stops { every: 8, list: nums, tail: None })
        }
    }
}

/// GNU unexpand's rule: a blank that reaches a tab stop after another blank turns the
/// blanks before it into a tab; a single blank just before a stop becomes a tab of its own
/// when more blanks follow it to the next stop. Without -a only leading blanks convert.
fn unexpand_line(rec: &[u8], stops: &Stops, all: bool, buf: &mut Vec<u8>) {
    let mut convert = true;
    let mut column = 0usize;
    let mut one_blank_before_stop = false;
    let mut prev_blank = true;
    let mut pending: Vec<u8> = Vec::new();
    for &b in rec {
        let mut c = b;
        if convert {
            let blank = c == b' ' || c == b'\t';
            if blank {
                match stops.next_tab(column) {
                    None => convert = false,
                    Some(next) => {
                        if c == b'\t' {
                            column = next;
                            if let Some(first) = pending.first_mut() {
                                *first = b'\t';
                            }
                        } else {
                            column += 1;
                            if !(prev_blank && column == next) {
                                if column == next {
                                    one_blank_before_stop = true;
                                }
                                pending.push(c);
                                prev_blank = true;
                                continue;
                            }
                            if let Some(first) = pending.first_mut() {
                                *first = b'\t';
                            }
                            c = b'\t';
                        }
                        pending.truncate(usize::from(one_blank_before_stop));
                    }
                }
            } else if c == 8 {
                column = column.saturating_sub(1);
            } else {
                column += 1;
            }
            if !pending.is_empty() {
                if pending.len() > 1 && one_blank_before_stop {
                    pending[0] = b'\t';
                }
                buf.append(&mut pending);
                one_blank_before_stop = false;
            }
            prev_blank = blank;
            convert &= all || blank;
        }
        buf.push(c);
    }
    buf.append(&mut pending);
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let unexpand = ctx.name == "unexpand";
    // GNU also takes the tab stops as `-4` or `-2,6`.
    let args: Vec<String> = args.iter().map(|a| if a.len() > 1 && a.starts_with('-') && a.as_bytes()[1].is_ascii_digit() { format!("-t{}", &a[1..]) } else { a.clone() }).collect();
    let p = getopt!(ctx, &args, SPECS, HELP, 1);
    let stops = match parse_stops(p.last("t").unwrap_or("8")) {
        Ok(s) => s,
        Err(m) => {
            ctx.diag.error(m);
            return Ok(1);
        }
    };
    let initial = if unexpand { !p.has("a") || p.has("first-only") } else { p.has("i") };
    let unexpand_all = unexpand && (p.has("a") || p.has("t")) && !p.has("first-only");
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
            let mut buf = Vec::with_capacity(rec.len() + 16);
            let mut col = 0;
            let mut leading = true;
            if !unexpand {
                for &c in rec {
                    if c == b'\t' && (leading || !initial) {
                        let n = stops.next(col);
                        buf.extend(std::iter::repeat(b' ').take(n - col));
                        col = n;
                        continue;
                    }
                    if c != b' ' && c != b'\t' {
                        leading = false;
                    }
                    buf.push(c);
                    col = if c == 8 { col.saturating_sub(1) } else if c == b'\n' { 0 } else { col + 1 };
                }
            } else {
                unexpand_line(rec, &stops, unexpand_all, &mut buf);
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
        let cases: &[(&str, &[&str], &str, &str)] = &[
            ("expand", &[], "a\tb\n", "a       b\n"),
            ("expand", &["-t", "4"], "\tx\tyy\n", "    x   yy\n"),
            ("expand", &["-t", "2,5"], "\ta\tb\tc\n", "  a  b c\n"),
            ("expand", &["-i"], "\ta\tb\n", "        a\tb\n"),
            ("unexpand", &[], "        a       b\n", "\ta       b\n"),
            ("unexpand", &["-a"], "        a       b\n", "\ta\tb\n"),
            ("unexpand", &["-t", "4"], "    x  y\n", "\tx  y\n"),
        ];
        for (cmd, args, input, out) in cases {
            check(cmd, args, input, out, 0);
        }
    }
}
