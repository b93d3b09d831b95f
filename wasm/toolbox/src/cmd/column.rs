//! column [-t] [-s SEP] [-o OUTSEP] [-c WIDTH] [-x] [-R COLS] [FILE]... —
//! util-linux column: -t aligns a table (fields split on runs of blanks, or
//! on each of the -s characters, keeping empty fields); otherwise entries
//! fill columns (down first, across with -x) padded with tabs.

use crate::args::{flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::input;
use std::io::{Read, Write};

const SPECS: &[Spec] = &[
    flag('t', "table", "t"),
    val('s', "separator", "s"),
    val('o', "output-separator", "o"),
    val('c', "output-width", "c"),
    flag('x', "fillrows", "x"),
    val('R', "table-right", "R"),
    flag('n', "", "n"),
    flag('e', "", "e"),
];
const HELP: &str = "Usage:\n column [options] [<file>...]\n\nColumnate lists.\n\nOptions:\n -t, --table                      create a table\n -s, --separator <string>         possible table delimiters\n -o, --output-separator <string>  columns separator for table output (default is two spaces)\n -R, --table-right <columns>      right align text in these columns (1-based, comma separated)\n -c, --output-width <width>       width of output in number of characters\n -x, --fillrows                   fill rows before columns\n";

fn width(s: &str) -> usize {
    s.chars().count()
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let mut text = Vec::new();
    for name in input::or_stdin(&p.operands) {
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut text)) {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            return Ok(1);
        }
    }
    let text = String::from_utf8_lossy(&text).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    if p.has("t") {
        let seps: Option<Vec<char>> = p.last("s").map(|s| s.chars().collect());
        let outsep = p.last("o").unwrap_or("  ");
        let rows: Vec<Vec<String>> = lines
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| match &seps {
                Some(cs) => l.split(|c| cs.contains(&c)).map(|s| s.to_string()).collect(),
                None => l.split_whitespace().map(|s| s.to_string()).collect(),
            })
            .collect();
        let ncol = rows.iter().map(|r| r.len()).max().unwrap_or(0);
        let mut widths = vec![0; ncol];
        for r in &rows {
            for (i, c) in r.iter().enumerate() {
                widths[i] = widths[i].max(width(c));
            }
        }
        let right: Vec<usize> = p.last("R").map(|r| r.split(',').filter_map(|x| x.trim().parse().ok()).collect()).unwrap_or_default();
        for r in &rows {
            let mut line = String::new();
            for (i, c) in r.iter().enumerate() {
                let last = i + 1 == r.len();
                if i > 0 {
                    line.push_str(outsep);
                }
                let pad = widths[i] - width(c);
                if right.contains(&(i + 1)) {
                    line.push_str(&" ".repeat(pad));
                    line.push_str(c);
                } else {
                    line.push_str(c);
                    if !last {
                        line.push_str(&" ".repeat(pad));
                    }
                }
            }
            writeln!(ctx.out, "{}", line)?;
        }
        return Ok(0);
    }
    let total = match p.last("c").map(|c| c.parse::<usize>()) {
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            ctx.diag.error(format!("invalid columns argument: '{}'", p.last("c").unwrap()));
            return Ok(1);
        }
        None => 80,
    };
    let entries: Vec<&str> = lines.into_iter().filter(|l| !l.is_empty()).collect();
    if entries.is_empty() {
        return Ok(0);
    }
    let maxw = entries.iter().map(|e| width(e)).max().unwrap_or(0);
    let colw = (maxw / 8 + 1) * 8;
    let ncols = (total / colw).max(1);
    let nrows = (entries.len() + ncols - 1) / ncols;
    for r in 0..nrows {
        let mut line = String::new();
        let idxs: Vec<usize> = (0..ncols).map(|c| if p.has("x") { r * ncols + c } else { c * nrows + r }).filter(|i| *i < entries.len()).collect();
        for (k, i) in idxs.iter().enumerate() {
            let e = entries[*i];
            line.push_str(e);
            if k + 1 < idxs.len() {
                let w = width(e);
                let tabs = (colw - w + 7) / 8;
                line.push_str(&"\t".repeat(tabs));
            }
        }
        writeln!(ctx.out, "{}", line)?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&["-t", "-s,"], "a,,b\nccc,d,e\n", "a       b\nccc  d  e\n"),
            (&["-t"], "name age\nbob 30\nalice 25\n", "name   age\nbob    30\nalice  25\n"),
            (&["-c", "30"], "a\nbb\nccc\ndddd\ne\nf\n", "a\tccc\te\nbb\tdddd\tf\n"),
            (&["-t", "-o", "|"], "x y\n", "x|y\n"),
            (&["-t", "-R", "2"], "a 1\nb 100\n", "a    1\nb  100\n"),
        ];
        for (args, input, out) in cases {
            check("column", args, input, out, 0);
        }
    }
}
