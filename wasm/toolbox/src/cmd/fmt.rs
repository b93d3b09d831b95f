//! fmt [-w WIDTH] [-s] [-u] [FILE]... — refills paragraphs (separated by
//! blank lines or indentation changes) to WIDTH columns (default 75),
//! keeping each paragraph's indentation. Lines are filled greedily, so
//! breaks can differ from GNU's (which balances line lengths).

use crate::args::{flag, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[val('w', "width", "w"), flag('s', "split-only", "s"), flag('u', "uniform-spacing", "u"), flag('c', "crown-margin", "c"), val('g', "goal", "g")];
const HELP: &str = "Usage: fmt [-WIDTH] [OPTION]... [FILE]...\nReformat each paragraph in the FILE(s), writing to standard output.\n\n  -s, --split-only          split long lines, but do not refill\n  -u, --uniform-spacing     one space between words, two after sentences\n  -w, --width=WIDTH         maximum line width (default of 75 columns)\n";

fn indent_of(l: &str) -> &str {
    &l[..l.len() - l.trim_start().len()]
}

fn fill(out: &mut String, indent: &str, words: &[&str], width: usize) {
    let mut line = String::from(indent);
    let mut has = false;
    for w in words {
        let len = line.chars().count() + if has { 1 } else { 0 } + w.chars().count();
        if has && len > width {
            out.push_str(&line);
            out.push('\n');
            line = String::from(indent);
            has = false;
        }
        if has {
            line.push(' ');
        }
        line.push_str(w);
        has = true;
    }
    if has {
        out.push_str(&line);
        out.push('\n');
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    // GNU also takes the width as `-75`.
    let args: Vec<String> = args.iter().map(|a| if a.len() > 1 && a.starts_with('-') && a[1..].bytes().all(|c| c.is_ascii_digit()) { format!("-w{}", &a[1..]) } else { a.clone() }).collect();
    let p = getopt!(ctx, &args, SPECS, HELP, 1);
    let width = match p.last("w").map(|w| w.parse::<usize>()) {
        Some(Ok(n)) if n > 0 && n < 2500 => n,
        Some(_) => {
            ctx.diag.error(format!("invalid width: {}", q(p.last("w").unwrap())));
            return Ok(1);
        }
        None => 75,
    };
    for name in input::or_stdin(&p.operands) {
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("cannot open {} for reading: {}", q(&name), reason(&e)));
            continue;
        }
        let text = String::from_utf8_lossy(&data).into_owned();
        let mut out = String::new();
        let mut para: Vec<&str> = Vec::new();
        let mut indent = String::new();
        let flush = |out: &mut String, para: &mut Vec<&str>, indent: &str| {
            if !para.is_empty() {
                fill(out, indent, para, width);
                para.clear();
            }
        };
        for line in text.lines() {
            if line.trim().is_empty() {
                flush(&mut out, &mut para, &indent);
                out.push('\n');
                continue;
            }
            if p.has("s") {
                let words: Vec<&str> = line.split_whitespace().collect();
                fill(&mut out, indent_of(line), &words, width);
                continue;
            }
            let ind = indent_of(line);
            if !para.is_empty() && ind != indent {
                flush(&mut out, &mut para, &indent);
            }
            if para.is_empty() {
                indent = ind.to_string();
            }
            para.extend(line.split_whitespace());
        }
        flush(&mut out, &mut para, &indent);
        ctx.out.write_all(out.as_bytes())?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&["-w", "20"], "The quick brown fox jumps over the lazy dog. The end.\n", "The quick brown fox\njumps over the lazy\ndog. The end.\n"),
            (&[], "a b\n\n\n  c d\n", "a b\n\n\n  c d\n"),
            (&[], "a\nb\nc\n", "a b c\n"),
            (&["-10"], "aaa bbb ccc\n", "aaa bbb\nccc\n"),
        ];
        for (args, input, out) in cases {
            check("fmt", args, input, out, 0);
        }
    }
}
