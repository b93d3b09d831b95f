//! comm [-123] [--check-order|--nocheck-order] [--output-delimiter=S] [-z] FILE1 FILE2

use crate::args::{flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    flag('1', "", "1"),
    flag('2', "", "2"),
    flag('3', "", "3"),
    flag('\0', "check-order", "check"),
    flag('\0', "nocheck-order", "nocheck"),
    val('\0', "output-delimiter", "od"),
    flag('\0', "total", "total"),
    flag('z', "zero-terminated", "z"),
];
const HELP: &str = "Usage: comm [OPTION]... FILE1 FILE2\nCompare sorted files FILE1 and FILE2 line by line.\n\n  -1              suppress column 1 (lines unique to FILE1)\n  -2              suppress column 2 (lines unique to FILE2)\n  -3              suppress column 3 (lines that appear in both files)\n  --check-order     check that the input is correctly sorted\n  --nocheck-order   do not check that the input is correctly sorted\n  --output-delimiter=STR  separate columns with STR\n  --total           output a summary\n  -z, --zero-terminated    line delimiter is NUL, not newline\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.len() < 2 {
        match p.operands.first() {
            None => ctx.diag.usage("missing operand"),
            Some(a) => ctx.diag.usage(format!("missing operand after '{}'", a)),
        }
        return Ok(1);
    }
    if p.operands.len() > 2 {
        super::extra_operand(ctx, &p.operands[2]);
        return Ok(1);
    }
    let eol = if p.has("z") { 0 } else { b'\n' };
    let sep = p.last("od").unwrap_or("\t").as_bytes().to_vec();
    let show = [!p.has("1"), !p.has("2"), !p.has("3")];
    let check = !p.has("nocheck");
    let strict = p.has("check");
    let mut bufs: Vec<Vec<Vec<u8>>> = Vec::new();
    // Both inputs are read whole: one may be stdin, and comm needs both at once.
    for name in &p.operands {
        let mut data = Vec::new();
        let res = input::open(ctx.stdin, name).and_then(|mut r| r.read_to_end(&mut data));
        if let Err(e) = res {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            return Ok(1);
        }
        let lines: Vec<Vec<u8>> = data.split_inclusive(|c| *c == eol).map(|l| input::chomp(l, eol).0.to_vec()).collect();
        bufs.push(lines);
    }
    let (a, b) = (&bufs[0], &bufs[1]);
    let (mut i, mut j) = (0, 0);
    let mut counts = [0u64; 3];
    let mut unsorted = [false, false];
    let mut emit = |ctx: &mut Ctx, col: usize, l: &[u8]| -> std::io::Result<()> {
        counts[col] += 1;
        if !show[col] {
            return Ok(());
        }
        let mut line = Vec::new();
        for k in 0..col {
            if show[k] {
                line.extend_from_slice(&sep);
            }
        }
        line.extend_from_slice(l);
        line.push(eol);
        ctx.out.write_all(&line)
    };
    while i < a.len() || j < b.len() {
        let col = if j >= b.len() || (i < a.len() && a[i] < b[j]) {
            0
        } else if i >= a.len() || b[j] < a[i] {
            1
        } else {
            2
        };
        // GNU checks order only once a line turns out unpairable, unless
        // --check-order asks for it always.
        if check && (strict || col != 2) {
            for (k, (v, idx)) in [(a, i), (b, j)].iter().enumerate() {
                if *idx > 0 && *idx < v.len() && v[*idx - 1] > v[*idx] && !unsorted[k] {
                    unsorted[k] = true;
                    ctx.diag.error(format!("file {} is not in sorted order", k + 1));
                    if strict {
                        return Ok(1);
                    }
                }
            }
        }
        match col {
            0 => {
                emit(ctx, 0, &a[i])?;
                i += 1;
            }
            1 => {
                emit(ctx, 1, &b[j])?;
                j += 1;
            }
            _ => {
                emit(ctx, 2, &a[i])?;
                i += 1;
                j += 1;
            }
        }
    }
    if p.has("total") {
        let s = String::from_utf8_lossy(&sep).into_owned();
        writeln!(ctx.out, "{}{}{}{}{}{}total", counts[0], s, counts[1], s, counts[2], s)?;
    }
    if unsorted[0] || unsorted[1] {
        ctx.diag.error("input is not in sorted order");
        return Ok(1);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        let (x, y) = (format!("{}/x", d), format!("{}/y", d));
        write(&x, "a\nb\nd\n");
        write(&y, "b\nc\nd\ne\n");
        check("comm", &[&x, &y], "", "a\n\t\tb\n\tc\n\t\td\n\te\n", 0);
        check("comm", &["-12", &x, &y], "", "b\nd\n", 0);
        check("comm", &["-3", &x, &y], "", "a\n\tc\n\te\n", 0);
        check("comm", &["--output-delimiter=|", &x, &y], "", "a\n||b\n|c\n||d\n|e\n", 0);
        write(&y, "c\nb\n");
        let (code, _, err) = crate::testutil::run("comm", &[&x, &y], "");
        assert_eq!((code, err.as_str()), (1, "comm: file 2 is not in sorted order\ncomm: input is not in sorted order\n"));
    }
}
