//! shuf [-n COUNT] [-r] [-z] [-o FILE] [FILE | -e ARG... | -i LO-HI] —
//! random permutation of lines (randomness: crate::rand).

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, reason, Ctx, Res};
use crate::input;
use crate::rand::Rng;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    flag('e', "echo", "e"),
    val('i', "input-range", "i"),
    val('n', "head-count", "n"),
    val('o', "output", "o"),
    flag('r', "repeat", "r"),
    flag('z', "zero-terminated", "z"),
    val('\0', "random-source", "rs"),
];
const HELP: &str = "Usage: shuf [OPTION]... [FILE]\n  or:  shuf -e [OPTION]... [ARG]...\n  or:  shuf -i LO-HI [OPTION]...\nWrite a random permutation of the input lines to standard output.\n\n  -e, --echo                treat each ARG as an input line\n  -i, --input-range=LO-HI   treat each number LO through HI as an input line\n  -n, --head-count=COUNT    output at most COUNT lines\n  -o, --output=FILE         write result to FILE instead of standard output\n  -r, --repeat              output lines can be repeated\n  -z, --zero-terminated     line delimiter is NUL, not newline\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let delim = if p.has("z") { b'\0' } else { b'\n' };
    let count = match p.last("n") {
        Some(n) => match n.parse::<usize>() {
            Ok(v) => Some(v),
            Err(_) => {
                ctx.diag.error(format!("invalid line count: {}", lq(n)));
                return Ok(1);
            }
        },
        None => None,
    };
    let mut lines: Vec<Vec<u8>> = if let Some(r) = p.last("i") {
        if p.has("e") || !p.operands.is_empty() {
            let extra = p.operands.first().cloned().unwrap_or_default();
            crate::cmd::extra_operand(ctx, &extra);
            return Ok(1);
        }
        let range = r.split_once('-').and_then(|(a, b)| Some((a.parse::<u64>().ok()?, b.parse::<u64>().ok()?)));
        match range {
            Some((lo, hi)) if lo <= hi + 1 && hi - lo < 100_000_000 => (lo..=hi).map(|n| n.to_string().into_bytes()).collect(),
            _ => {
                ctx.diag.error(format!("invalid input range: {}", lq(r)));
                return Ok(1);
            }
        }
    } else if p.has("e") {
        p.operands.iter().map(|s| s.as_bytes().to_vec()).collect()
    } else {
        if p.operands.len() > 1 {
            crate::cmd::extra_operand(ctx, &p.operands[1]);
            return Ok(1);
        }
        let name = p.operands.first().cloned().unwrap_or_else(|| "-".into());
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            return Ok(1);
        }
        if data.last() == Some(&delim) {
            data.pop();
        }
        if data.is_empty() {
            Vec::new()
        } else {
            data.split(|c| *c == delim).map(|s| s.to_vec()).collect()
        }
    };
    let mut rng = Rng::new();
    let mut out: Vec<u8> = Vec::new();
    if p.has("r") {
        if lines.is_empty() {
            if count.unwrap_or(1) > 0 {
                ctx.diag.error("no lines to repeat");
                return Ok(1);
            }
        } else {
            let n = count.unwrap_or(usize::MAX);
            for i in 0..n {
                let l = &lines[rng.below(lines.len())];
                out.extend_from_slice(l);
                out.push(delim);
                if p.last("o").is_none() && (out.len() > 1 << 16 || i + 1 == n) {
                    ctx.out.write_all(&out)?;
                    out.clear();
                }
            }
        }
    } else {
        // Fisher-Yates, stopping after the first COUNT picks.
        let n = count.unwrap_or(lines.len()).min(lines.len());
        for i in 0..n {
            let j = i + rng.below(lines.len() - i);
            lines.swap(i, j);
            out.extend_from_slice(&lines[i]);
            out.push(delim);
        }
    }
    match p.last("o") {
        Some(f) => {
            if let Err(e) = std::fs::write(crate::fsx::host(f), &out) {
                ctx.diag.error(format!("{}: {}", f, reason(&e)));
                return Ok(1);
            }
        }
        None => ctx.out.write_all(&out)?,
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, run};

    fn sorted(s: &str) -> Vec<String> {
        let mut v: Vec<String> = s.lines().map(|l| l.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn permutes() {
        let (c, o, _) = run("shuf", &[], "a\nb\nc\nd\n");
        assert_eq!((c, sorted(&o)), (0, vec!["a", "b", "c", "d"].into_iter().map(String::from).collect::<Vec<_>>()));
        let (c, o, _) = run("shuf", &["-i", "1-10", "-n", "3"], "");
        let v = sorted(&o);
        assert_eq!((c, v.len()), (0, 3));
        assert!(v.iter().all(|x| (1..=10).contains(&x.parse::<u32>().unwrap())));
        let (_, o, _) = run("shuf", &["-e", "x", "y"], "");
        assert_eq!(sorted(&o), vec!["x".to_string(), "y".to_string()]);
        let (_, o, _) = run("shuf", &["-r", "-n", "5", "-e", "z"], "");
        assert_eq!(o, "z\nz\nz\nz\nz\n");
        check("shuf", &["-n", "0"], "a\n", "", 0);
        check("shuf", &[], "", "", 0);
        // Not always the identity: 20 runs of 8 lines all unshuffled would be 1 in (8!)^20.
        let ident = (0..20).all(|_| run("shuf", &[], "1\n2\n3\n4\n5\n6\n7\n8\n").1 == "1\n2\n3\n4\n5\n6\n7\n8\n");
        assert!(!ident);
    }
}
