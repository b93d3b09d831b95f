//! join [-i] [-t CHAR] [-1 F] [-2 F] [-j F] [-a N]... [-v N] [-e STR]
//!      [-o FORMAT|auto] [--header] [--nocheck-order] FILE1 FILE2

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::input;
use std::cmp::Ordering;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    val('a', "", "a"),
    val('v', "", "v"),
    val('e', "", "e"),
    flag('i', "ignore-case", "i"),
    val('j', "", "j"),
    val('o', "", "o"),
    val('t', "", "t"),
    val('1', "", "1"),
    val('2', "", "2"),
    flag('\0', "check-order", "check"),
    flag('\0', "nocheck-order", "nocheck"),
    flag('\0', "header", "header"),
    flag('z', "zero-terminated", "z"),
];
const HELP: &str = "Usage: join [OPTION]... FILE1 FILE2\nFor each pair of input lines with identical join fields, write a line to\nstandard output.  The default join field is the first, delimited by blanks.\n\n  -a FILENUM        also print unpairable lines from file FILENUM\n  -e STRING         replace missing (empty) input fields with STRING\n  -i, --ignore-case  ignore differences in case when comparing fields\n  -j FIELD          equivalent to '-1 FIELD -2 FIELD'\n  -o FORMAT         obey FORMAT while constructing output line\n  -t CHAR           use CHAR as input and output field separator\n  -v FILENUM        like -a FILENUM, but suppress joined output lines\n  -1 FIELD          join on this FIELD of file 1\n  -2 FIELD          join on this FIELD of file 2\n  --check-order     check that the input is correctly sorted\n  --nocheck-order   do not check that the input is correctly sorted\n  --header          treat the first line in each file as field headers\n  -z, --zero-terminated     line delimiter is NUL, not newline\n";

fn fields(line: &[u8], tab: Option<u8>) -> Vec<Vec<u8>> {
    match tab {
        Some(t) => line.split(|c| *c == t).map(|f| f.to_vec()).collect(),
        None => line.split(|c| *c == b' ' || *c == b'\t').filter(|f| !f.is_empty()).map(|f| f.to_vec()).collect(),
    }
}

fn cmp(a: &[u8], b: &[u8], icase: bool) -> Ordering {
    if icase {
        a.iter().map(|c| c.to_ascii_lowercase()).cmp(b.iter().map(|c| c.to_ascii_lowercase()))
    } else {
        a.cmp(b)
    }
}

enum Spec2 {
    Join,
    F(usize, usize),
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.len() != 2 {
        if p.operands.len() > 2 {
            super::extra_operand(ctx, &p.operands[2]);
        } else if let Some(a) = p.operands.first() {
            ctx.diag.usage(format!("missing operand after {}", q(a)));
        } else {
            ctx.diag.usage("missing operand");
        }
        return Ok(1);
    }
    let field = |ctx: &mut Ctx, k: &str| -> Result<Option<usize>, ()> {
        match p.last(k) {
            None => Ok(None),
            Some(v) => match v.parse::<usize>() {
                Ok(n) if n > 0 => Ok(Some(n - 1)),
                _ => {
                    ctx.diag.error(format!("invalid field number: {}", lq(v)));
                    Err(())
                }
            },
        }
    };
    let j = match field(ctx, "j") {
        Ok(v) => v,
        Err(()) => return Ok(1),
    };
    let (f1, f2) = match (field(ctx, "1"), field(ctx, "2")) {
        (Ok(a), Ok(b)) => (a.or(j).unwrap_or(0), b.or(j).unwrap_or(0)),
        _ => return Ok(1),
    };
    let tab = match p.last("t") {
        None => None,
        Some(t) if t.len() == 1 => Some(t.as_bytes()[0]),
        Some("") => Some(b'\n'),
        Some(t) => {
            ctx.diag.error(format!("multi-character tab {}", q(t)));
            return Ok(1);
        }
    };
    let mut show_unpaired = [false, false];
    for v in p.all("a").into_iter().chain(p.all("v")) {
        match v {
            "1" => show_unpaired[0] = true,
            "2" => show_unpaired[1] = true,
            _ => {
                ctx.diag.error(format!("invalid file number: {}", lq(v)));
                return Ok(1);
            }
        }
    }
    let only_unpaired = p.has("v");
    let empty = p.last("e").map(|s| s.as_bytes().to_vec());
    let icase = p.has("i");
    let eol = if p.has("z") { 0 } else { b'\n' };
    let osep = vec![tab.unwrap_or(b' ')];
    let mut files: Vec<Vec<Vec<Vec<u8>>>> = Vec::new();
    for name in &p.operands {
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            return Ok(1);
        }
        files.push(data.split_inclusive(|c| *c == eol).map(|l| fields(input::chomp(l, eol).0, tab)).collect());
    }
    let fmt: Option<Vec<Spec2>> = match p.last("o") {
        None => None,
        Some("auto") => {
            let n1 = files[0].first().map(|l| l.len()).unwrap_or(0);
            let n2 = files[1].first().map(|l| l.len()).unwrap_or(0);
            let mut v = vec![Spec2::Join];
            v.extend((0..n1).filter(|i| *i != f1).map(|i| Spec2::F(0, i)));
            v.extend((0..n2).filter(|i| *i != f2).map(|i| Spec2::F(1, i)));
            Some(v)
        }
        Some(o) => {
            let mut v = Vec::new();
            for item in o.split(|c| c == ',' || c == ' ') {
                if item == "0" {
                    v.push(Spec2::Join);
                    continue;
                }
                match item.split_once('.') {
                    Some((f, n)) if (f == "1" || f == "2") && n.parse::<usize>().map(|x| x > 0).unwrap_or(false) => {
                        v.push(Spec2::F(if f == "1" { 0 } else { 1 }, n.parse::<usize>().unwrap() - 1))
                    }
                    _ => {
                        ctx.diag.error(format!("invalid field specifier: {}", lq(item)));
                        return Ok(1);
                    }
                }
            }
            Some(v)
        }
    };
    let key = |l: &Vec<Vec<u8>>, f: usize| -> Vec<u8> { l.get(f).cloned().unwrap_or_default() };
    // Builds one output line from a line of each file (either may be absent).
    let build = |a: Option<&Vec<Vec<u8>>>, b: Option<&Vec<Vec<u8>>>| -> Vec<u8> {
        let mut parts: Vec<Vec<u8>> = Vec::new();
        let jv = a.map(|l| key(l, f1)).or_else(|| b.map(|l| key(l, f2))).unwrap_or_default();
        match &fmt {
            Some(spec) => {
                for s in spec {
                    let v = match s {
                        Spec2::Join => Some(jv.clone()),
                        Spec2::F(0, i) => a.and_then(|l| l.get(*i).cloned()),
                        Spec2::F(_, i) => b.and_then(|l| l.get(*i).cloned()),
                    };
                    parts.push(v.or_else(|| empty.clone()).unwrap_or_default());
                }
            }
            None => {
                parts.push(jv);
                if let Some(l) = a {
                    parts.extend(l.iter().enumerate().filter(|(i, _)| *i != f1).map(|(_, f)| f.clone()));
                }
                if let Some(l) = b {
                    parts.extend(l.iter().enumerate().filter(|(i, _)| *i != f2).map(|(_, f)| f.clone()));
                }
            }
        }
        let mut out = parts.join(&osep[..]);
        out.push(eol);
        out
    };
    let (a, b) = (&files[0], &files[1]);
    let (mut i, mut jx) = (0, 0);
    if p.has("header") && !a.is_empty() && !b.is_empty() {
        ctx.out.write_all(&build(Some(&a[0]), Some(&b[0])))?;
        i = 1;
        jx = 1;
    }
    let check = !p.has("nocheck");
    // GNU join checks each line it reads against the one before (check_order): by default only
    // once a line could not be paired, and it warns once per file, then ends with status 1.
    let mut seen_unpairable = p.has("check");
    let mut warned = [false, false];
    let out_of_order = |lines: &[Vec<Vec<u8>>], f: usize, x: usize| x > 0 && x < lines.len() && cmp(&key(&lines[x - 1], f), &key(&lines[x], f), icase) == Ordering::Greater;
    // --check-order: any line out of order is fatal before anything is joined.
    if p.has("check") && !p.has("nocheck") {
        let skip = usize::from(p.has("header"));
        for (n, (lines, f)) in [(a, f1), (b, f2)].into_iter().enumerate() {
            if let Some(x) = (skip + 1..lines.len()).find(|&x| cmp(&key(&lines[x - 1], f), &key(&lines[x], f), icase) == Ordering::Greater) {
                ctx.diag.error(format!("{}:{}: is not sorted: {}", p.operands[n], x + 1, String::from_utf8_lossy(&lines[x].join(&osep[..]))));
                return Ok(1);
            }
        }
    }
    while i < a.len() || jx < b.len() {
        let ord = if i >= a.len() {
            Ordering::Greater
        } else if jx >= b.len() {
            Ordering::Less
        } else {
            cmp(&key(&a[i], f1), &key(&b[jx], f2), icase)
        };
        // Which files read a new line in this step (the tails, once the other file ended, do
        // not count as unpairable for the check).
        let mut read = [false, false];
        match ord {
            Ordering::Less => {
                if jx < b.len() {
                    seen_unpairable = true;
                }
                if show_unpaired[0] {
                    ctx.out.write_all(&build(Some(&a[i]), None))?;
                }
                i += 1;
                read[0] = true;
            }
            Ordering::Greater => {
                if i < a.len() {
                    seen_unpairable = true;
                }
                if show_unpaired[1] {
                    ctx.out.write_all(&build(None, Some(&b[jx])))?;
                }
                jx += 1;
                read[1] = true;
            }
            Ordering::Equal => {
                // All lines with this key on each side pair up.
                let k = key(&a[i], f1);
                let ie = (i..a.len()).find(|&x| cmp(&key(&a[x], f1), &k, icase) != Ordering::Equal).unwrap_or(a.len());
                let je = (jx..b.len()).find(|&x| cmp(&key(&b[x], f2), &k, icase) != Ordering::Equal).unwrap_or(b.len());
                if !only_unpaired {
                    for x in i..ie {
                        for y in jx..je {
                            ctx.out.write_all(&build(Some(&a[x]), Some(&b[y])))?;
                        }
                    }
                }
                i = ie;
                jx = je;
                read = [true, true];
            }
        }
        for (n, (lines, f, x)) in [(a, f1, i), (b, f2, jx)].into_iter().enumerate() {
            if read[n] && check && seen_unpairable && !warned[n] && out_of_order(lines, f, x) {
                warned[n] = true;
                ctx.diag.error(format!("{}:{}: is not sorted: {}", p.operands[n], x + 1, String::from_utf8_lossy(&lines[x].join(&osep[..]))));
            }
        }
    }
    let disorder = warned[0] || warned[1];
    if disorder {
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
        write(&x, "1 a\n2 b\n3 c\n");
        write(&y, "1 A\n1 AA\n3 C\n4 D\n");
        check("join", &[&x, &y], "", "1 a A\n1 a AA\n3 c C\n", 0);
        check("join", &["-a", "1", &x, &y], "", "1 a A\n1 a AA\n2 b\n3 c C\n", 0);
        check("join", &["-v", "2", &x, &y], "", "4 D\n", 0);
        check("join", &["-o", "2.2,1.2", &x, &y], "", "A a\nAA a\nC c\n", 0);
        check("join", &["-a", "2", "-e", "-", "-o", "0,1.2,2.2", &x, &y], "", "1 a A\n1 a AA\n3 c C\n4 - D\n", 0);
        write(&x, "k,v1\nb,2\n");
        write(&y, "k,w1\nb,3\n");
        check("join", &["-t", ",", "--header", &x, &y], "", "k,v1,w1\nb,2,3\n", 0);
        // Disorder found on reading a line after an unpairable one: a warning, the join goes on,
        // status 1 (GNU's check_order).
        write(&x, "b 1\na 2\n");
        write(&y, "a x\nb y\n");
        let (c, out, err) = crate::testutil::run("join", &[&x, &y], "");
        assert_eq!((c, out.as_str(), err), (1, "b 1 y\n", format!("join: {}:2: is not sorted: a 2\njoin: input is not in sorted order\n", x)));
        // Sorted input, or no unpairable line before the disorder: no check.
        write(&x, "a 1\nb 2\n");
        check("join", &[&x, &y], "", "a 1 x\nb 2 y\n", 0);
    }
}
