//! uniq [-cdDuiz] [-f N] [-s N] [-w N] [INPUT [OUTPUT]]

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::{fsx, input};
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('c', "count", "c"),
    flag('d', "repeated", "d"),
    flag('D', "", "D"),
    optval('\0', "all-repeated", "D"),
    val('f', "skip-fields", "f"),
    flag('i', "ignore-case", "i"),
    val('s', "skip-chars", "s"),
    flag('u', "unique", "u"),
    val('w', "check-chars", "w"),
    flag('z', "zero-terminated", "z"),
];
const HELP: &str = "Usage: uniq [OPTION]... [INPUT [OUTPUT]]\nFilter adjacent matching lines from INPUT (or standard input),\nwriting to OUTPUT (or standard output).\n\n  -c, --count           prefix lines by the number of occurrences\n  -d, --repeated        only print duplicate lines, one for each group\n  -D                    print all duplicate lines\n  -f, --skip-fields=N   avoid comparing the first N fields\n  -i, --ignore-case     ignore differences in case when comparing\n  -s, --skip-chars=N    avoid comparing the first N characters\n  -u, --unique          only print unique lines\n  -z, --zero-terminated     line delimiter is NUL, not newline\n  -w, --check-chars=N   compare no more than N characters in lines\n";

struct Cmp {
    fields: usize,
    chars: usize,
    width: Option<usize>,
    icase: bool,
}

impl Cmp {
    fn key<'a>(&self, l: &'a [u8]) -> &'a [u8] {
        let mut p = 0;
        for _ in 0..self.fields {
            while p < l.len() && (l[p] == b' ' || l[p] == b'\t') {
                p += 1;
            }
            while p < l.len() && !(l[p] == b' ' || l[p] == b'\t') {
                p += 1;
            }
        }
        p = (p + self.chars).min(l.len());
        let end = match self.width {
            Some(w) => (p + w).min(l.len()),
            None => l.len(),
        };
        &l[p..end]
    }
    fn same(&self, a: &[u8], b: &[u8]) -> bool {
        let (ka, kb) = (self.key(a), self.key(b));
        if self.icase {
            ka.eq_ignore_ascii_case(kb)
        } else {
            ka == kb
        }
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut nums = [0usize; 3];
    for (i, k) in ["f", "s", "w"].iter().enumerate() {
        if let Some(v) = p.last(k) {
            match v.parse::<usize>() {
                Ok(n) => nums[i] = n,
                Err(_) => {
                    let what = ["number of fields to skip", "number of bytes to skip", "number of bytes to compare"][i];
                    ctx.diag.error(format!("{}: invalid {}", crate::ctx::q(v), what));
                    return Ok(1);
                }
            }
        }
    }
    let cmp = Cmp { fields: nums[0], chars: nums[1], width: p.last("w").map(|_| nums[2]), icase: p.has("i") };
    if p.operands.len() > 2 {
        super::extra_operand(ctx, &p.operands[2]);
        return Ok(1);
    }
    let (count, dups, all_dups, uniq) = (p.has("c"), p.has("d"), p.has("D"), p.has("u"));
    if all_dups && count {
        ctx.diag.usage("printing all duplicated lines and repeat counts is meaningless");
        return Ok(1);
    }
    let delim = if p.has("z") { 0 } else { b'\n' };
    let inp = p.operands.first().cloned().unwrap_or_else(|| "-".into());
    let mut r = match input::open(ctx.stdin, &inp) {
        Ok(r) => r,
        Err(e) => {
            ctx.diag.error(format!("{}: {}", inp, reason(&e)));
            return Ok(1);
        }
    };
    let mut file_out;
    let out: &mut dyn Write = match p.operands.get(1) {
        Some(o) if o != "-" => match std::fs::File::create(fsx::host(o)) {
            Ok(f) => {
                file_out = io::BufWriter::new(f);
                &mut file_out
            }
            Err(e) => {
                ctx.diag.error(format!("{}: {}", o, reason(&e)));
                return Ok(1);
            }
        },
        _ => &mut ctx.out,
    };
    let mut prev: Option<Vec<u8>> = None;
    let mut n = 0u64;
    // Emits the finished group `line` seen `n` times.
    let flush = |out: &mut dyn Write, line: &[u8], n: u64| -> io::Result<()> {
        if (dups && n < 2) || (uniq && n > 1) || all_dups {
            return Ok(());
        }
        if count {
            write!(out, "{:>7} ", n)?;
        }
        out.write_all(line)?;
        out.write_all(&[delim])
    };
    let mut rec = Vec::new();
    loop {
        rec.clear();
        if io::BufRead::read_until(&mut r, delim, &mut rec)? == 0 {
            break;
        }
        let (body, _) = input::chomp(&rec, delim);
        match &prev {
            Some(pl) if cmp.same(pl, body) => {
                n += 1;
                if all_dups {
                    if n == 2 {
                        out.write_all(pl)?;
                        out.write_all(&[delim])?;
                    }
                    out.write_all(body)?;
                    out.write_all(&[delim])?;
                }
            }
            _ => {
                if let Some(pl) = &prev {
                    flush(out, pl, n)?;
                }
                prev = Some(body.to_vec());
                n = 1;
            }
        }
    }
    if let Some(pl) = &prev {
        flush(out, pl, n)?;
    }
    out.flush()?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], "a\na\nb\na\n", "a\nb\na\n"),
            (&["-c"], "a\na\nb\n", "      2 a\n      1 b\n"),
            (&["-d"], "a\na\nb\nc\nc\n", "a\nc\n"),
            (&["-u"], "a\na\nb\nc\nc\n", "b\n"),
            (&["-D"], "a\na\nb\nc\nc\n", "a\na\nc\nc\n"),
            (&["-i"], "a\nA\nb\n", "a\nb\n"),
            (&["-f", "1"], "x a\ny a\nz b\n", "x a\nz b\n"),
            (&["-s", "1"], "xa\nya\nzb\n", "xa\nzb\n"),
            (&["-w", "1"], "ab\nac\nbd\n", "ab\nbd\n"),
            (&[], "a\na", "a\n"),
            (&["-z"], "a\0a\0b\0", "a\0b\0"),
        ];
        for (args, input, out) in cases {
            check("uniq", args, input, out, 0);
        }
    }
}
