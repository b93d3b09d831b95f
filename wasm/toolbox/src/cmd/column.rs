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
    val('N', "table-columns", "N"),
    val('l', "table-columns-limit", "l"),
    flag('d', "table-noheadings", "d"),
    val('H', "table-hide", "H"),
    val('O', "table-order", "O"),
    flag('L', "keep-empty-lines", "L"),
    flag('J', "json", "J"),
    val('n', "table-name", "n"),
    // Width hints: they only matter when a table is wider than the output,
    // and pages do not exist off a terminal, so the table prints the same.
    val('E', "table-noextreme", "-"),
    flag('e', "table-header-repeat", "-"),
    val('T', "table-truncate", "T"),
    val('W', "table-wrap", "W"),
    val('r', "tree", "tree"),
    val('i', "tree-id", "tree"),
    val('p', "tree-parent", "tree"),
    flag('h', "", "h"),
    flag('V', "", "V"),
];
const HELP: &str = "Usage:\n column [options] [<file>...]\n\nColumnate lists.\n\nOptions:\n -t, --table                      create a table\n -n, --table-name <name>          table name for JSON output\n -N, --table-columns <names>      comma separated columns names\n -l, --table-columns-limit <num>  maximal number of input columns\n -d, --table-noheadings           don't print header\n -H, --table-hide <columns>       don't print the columns\n -O, --table-order <columns>      specify order of output columns\n -R, --table-right <columns>      right align text in these columns\n -L, --keep-empty-lines           don't ignore empty lines\n -J, --json                       use JSON output format for table\n -s, --separator <string>         possible table delimiters\n -o, --output-separator <string>  columns separator for table output (default is two spaces)\n -c, --output-width <width>       width of output in number of characters\n -x, --fillrows                   fill rows before columns\n\nNot here: -r/-i/-p (trees), -T/-W (truncating or wrapping to the width).\n";

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Column references (`-H`, `-O`, `-R`): names given by -N or 1-based numbers.
fn columns(spec: Option<&str>, names: &[String]) -> Vec<usize> {
    let spec = match spec {
        Some(s) => s,
        None => return Vec::new(),
    };
    spec.split(',')
        .filter_map(|x| {
            let x = x.trim();
            x.parse::<usize>().ok().and_then(|n| n.checked_sub(1)).or_else(|| names.iter().position(|n| n == x))
        })
        .collect()
}

/// util-linux's JSON: three-space indents, every cell a string.
fn json_table(name: &str, heads: &[String], rows: &[Vec<String>]) -> String {
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = format!("{{\n   \"{}\": [\n", esc(&name.to_lowercase()));
    for (k, r) in rows.iter().enumerate() {
        out.push_str(if k == 0 { "      {\n" } else { "},{\n" });
        let cells: Vec<String> = heads.iter().enumerate().map(|(i, h)| format!("         \"{}\": \"{}\"", esc(h), esc(r.get(i).map(String::as_str).unwrap_or("")))).collect();
        out.push_str(&cells.join(",\n"));
        out.push_str("\n      ");
    }
    if !rows.is_empty() {
        out.push_str("}\n");
    }
    out.push_str("   ]\n}\n");
    out
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.has("h") {
        ctx.out.write_all(HELP.as_bytes())?;
        return Ok(0);
    }
    if p.has("V") {
        writeln!(ctx.out, "column (toolshed toolbox) {}", env!("CARGO_PKG_VERSION"))?;
        return Ok(0);
    }
    for (key, what) in [("tree", "-r/--tree, -i/--tree-id, -p/--tree-parent (tree output)"), ("T", "-T/--table-truncate"), ("W", "-W/--table-wrap")] {
        if p.has(key) {
            ctx.diag.error(format!("{} is not supported here", what));
            return Ok(1);
        }
    }
    let mut text = Vec::new();
    for name in input::or_stdin(&p.operands) {
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut text)) {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            return Ok(1);
        }
    }
    let text = String::from_utf8_lossy(&text).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    if p.has("t") || p.has("J") {
        let seps: Option<Vec<char>> = p.last("s").map(|s| s.chars().collect());
        let outsep = p.last("o").unwrap_or("  ");
        let limit = p.last("l").and_then(|l| l.parse::<usize>().ok()).filter(|n| *n > 0);
        let names: Vec<String> = p.last("N").map(|n| n.split(',').map(str::to_string).collect()).unwrap_or_default();
        let split_row = |l: &str| -> Vec<String> {
            let mut cells: Vec<String> = Vec::new();
            let mut rest = l;
            loop {
                if limit.map_or(false, |n| cells.len() + 1 == n) {
                    let r = match &seps {
                        Some(_) => rest,
                        None => rest.trim_start(),
                    };
                    if !r.is_empty() || seps.is_some() {
                        cells.push(r.to_string());
                    }
                    break;
                }
                let (cell, next) = match &seps {
                    Some(cs) => match rest.find(|c| cs.contains(&c)) {
                        Some(i) => (&rest[..i], Some(&rest[i + rest[i..].chars().next().unwrap().len_utf8()..])),
                        None => (rest, None),
                    },
                    None => {
                        let t = rest.trim_start();
                        if t.is_empty() {
                            break;
                        }
                        match t.find(char::is_whitespace) {
                            Some(i) => (&t[..i], Some(&t[i..])),
                            None => (t, None),
                        }
                    }
                };
                cells.push(cell.to_string());
                match next {
                    Some(n) => rest = n,
                    None => break,
                }
            }
            cells
        };
        let keep_empty = p.has("L");
        let mut rows: Vec<Vec<String>> = lines.iter().filter(|l| keep_empty || !l.trim().is_empty()).map(|l| split_row(l)).collect();
        let ncol = rows.iter().map(|r| r.len()).max().unwrap_or(0).max(names.len());
        if p.has("J") {
            let heads: Vec<String> = (0..ncol).map(|i| names.get(i).cloned().unwrap_or_default()).collect();
            ctx.out.write_all(json_table(p.last("n").unwrap_or("table"), &heads, &rows).as_bytes())?;
            return Ok(0);
        }
        if !names.is_empty() && !p.has("d") {
            rows.insert(0, names.clone());
        }
        // Output order (-O first, then the rest) without the hidden columns (-H).
        let hidden = columns(p.last("H"), &names);
        let mut order = columns(p.last("O"), &names);
        let rest: Vec<usize> = (0..ncol).filter(|i| !order.contains(i)).collect();
        order.extend(rest);
        order.retain(|i| *i < ncol && !hidden.contains(i));
        let right = columns(p.last("R"), &names);
        let mut widths = vec![0; ncol];
        for r in &rows {
            for (i, c) in r.iter().enumerate() {
                widths[i] = widths[i].max(width(c));
            }
        }
        let empty = String::new();
        for r in &rows {
            let mut line = String::new();
            for (k, &i) in order.iter().enumerate() {
                // util-linux 2.38: a short row's missing cells are empty cells, padded like the
                // others; only the table's last column goes unpadded ("d e" under "a b c" is "d  e  ").
                let c = r.get(i).unwrap_or(&empty);
                let last = k + 1 == order.len();
                if k > 0 {
                    line.push_str(outsep);
                }
                let pad = widths[i] - width(c);
                if right.contains(&i) {
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
            (&["-t", "-N", "x,y", "-O", "y", "-H", "3"], "a 1 z\nbb 2 z\n", "y  x\n1  a\n2  bb\n"),
            (&["-t", "-l", "2"], "a b c\nd e\n", "a  b c\nd  e\n"),
            (&["-t"], "a b c\nd e\nf\n", "a  b  c\nd  e  \nf     \n"),
            (&["-t", "-s,"], "a,b,c\nd,,\nx,y\n", "a  b  c\nd     \nx  y  \n"),
        ];
        for (args, input, out) in cases {
            check("column", args, input, out, 0);
        }
    }
}
