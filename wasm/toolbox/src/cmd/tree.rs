//! tree [-adfFi] [-L LEVEL] [-I PATTERN] [-P PATTERN] [--dirsfirst] [--noreport] [DIR]...
//! Output as tree 2.x prints it in a UTF-8 locale, byte for byte (its
//! vertical guide is "│" + two no-break spaces + space; the report counts
//! the top directories too).

use crate::args::{flag, val, Spec};
use crate::ctx::{q, Ctx, Res};
use crate::fsx;
use crate::text::glob_match;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('a', "", "a"),
    flag('d', "", "d"),
    flag('f', "", "f"),
    flag('F', "", "F"),
    flag('i', "", "i"),
    val('L', "", "L"),
    val('I', "", "I"),
    val('P', "", "P"),
    flag('\0', "dirsfirst", "dirsfirst"),
    flag('\0', "noreport", "noreport"),
    flag('n', "", "ignored"),
    flag('C', "", "ignored"),
    val('\0', "charset", "ignored"),
];
const HELP: &str = "usage: tree [-adfFi] [-L level] [-I pattern] [-P pattern] [--dirsfirst] [--noreport] [directory ...]\n  -a            All files are listed.\n  -d            List directories only.\n  -f            Print the full path prefix for each file.\n  -F            Appends '/' to directories.\n  -i            Don't print indentation lines.\n  -L level      Descend only level directories deep.\n  -I pattern    Do not list files that match the given pattern.\n  -P pattern    List only those files that match the pattern given.\n  --dirsfirst   List directories before files.\n  --noreport    Turn off file/directory count at end of tree listing.\n";

struct O {
    all: bool,
    dirs_only: bool,
    full: bool,
    classify: bool,
    no_indent: bool,
    max: Option<usize>,
    ignore: Vec<String>,
    only: Vec<String>,
    dirs_first: bool,
}

fn matches_any(pats: &[String], name: &str) -> bool {
    pats.iter().any(|p| glob_match(p.as_bytes(), name.as_bytes()))
}

fn walk(out: &mut dyn Write, dir: &str, prefix: &str, depth: usize, o: &O, counts: &mut (u64, u64)) -> io::Result<()> {
    if o.max.map(|m| depth > m).unwrap_or(false) {
        return Ok(());
    }
    let mut names = match fsx::read_dir_names(dir) {
        Ok(n) => n,
        Err(_) => return Ok(()),
    };
    names.retain(|n| o.all || !n.starts_with('.'));
    names.retain(|n| !matches_any(&o.ignore, n));
    let mut entries: Vec<(String, bool)> = names.into_iter().map(|n| {
        let p = fsx::join(dir, &n);
        let is_dir = fsx::symlink_metadata(&p).map(|m| m.is_dir()).unwrap_or(false);
        (n, is_dir)
    }).collect();
    entries.retain(|(n, d)| *d || (!o.dirs_only && (o.only.is_empty() || matches_any(&o.only, n))));
    if o.dirs_first {
        entries.sort_by_key(|(_, d)| !*d);
    }
    let n = entries.len();
    for (i, (name, is_dir)) in entries.into_iter().enumerate() {
        let last = i + 1 == n;
        let path = fsx::join(dir, &name);
        let shown = if o.full { path.clone() } else { name.clone() };
        let branch = if o.no_indent { "" } else if last { "└── " } else { "├── " };
        writeln!(out, "{}{}{}{}", prefix, branch, shown, if o.classify && is_dir { "/" } else { "" })?;
        if is_dir {
            counts.0 += 1;
            let next = if o.no_indent { String::new() } else { format!("{}{}", prefix, if last { "    " } else { "│\u{a0}\u{a0} " }) };
            walk(out, &path, &next, depth + 1, o, counts)?;
        } else {
            counts.1 += 1;
        }
    }
    Ok(())
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let max = match p.last("L").map(|v| v.parse::<usize>()) {
        None => None,
        Some(Ok(n)) if n > 0 => Some(n),
        _ => {
            ctx.diag.error(format!("Invalid level, must be greater than 0. ({})", q(p.last("L").unwrap())));
            return Ok(1);
        }
    };
    let split = |k: &str| -> Vec<String> { p.all(k).iter().flat_map(|s| s.split('|')).map(|s| s.to_string()).collect() };
    let o = O {
        all: p.has("a"),
        dirs_only: p.has("d"),
        full: p.has("f"),
        classify: p.has("F"),
        no_indent: p.has("i"),
        max,
        ignore: split("I"),
        only: split("P"),
        dirs_first: p.has("dirsfirst"),
    };
    let roots = if p.operands.is_empty() { vec![".".to_string()] } else { p.operands.clone() };
    let mut counts = (0u64, 0u64);
    let mut status = 0;
    for r in &roots {
        match fsx::metadata(r) {
            Ok(m) if m.is_dir() => {
                writeln!(ctx.out, "{}{}", r, if o.classify && !r.ends_with('/') { "/" } else { "" })?;
                counts.0 += 1;
                walk(&mut ctx.out, r, "", 1, &o, &mut counts)?;
            }
            Ok(_) => {
                writeln!(ctx.out, "{} [error opening dir]", r)?;
                status = 2;
            }
            Err(_) => {
                writeln!(ctx.out, "{} [error opening dir]", r)?;
                status = 2;
            }
        }
    }
    if !p.has("noreport") {
        let dirs = format!("{} director{}", counts.0, if counts.0 == 1 { "y" } else { "ies" });
        if o.dirs_only {
            writeln!(ctx.out, "\n{}", dirs)?;
        } else {
            writeln!(ctx.out, "\n{}, {} file{}", dirs, counts.1, if counts.1 == 1 { "" } else { "s" })?;
        }
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, tmpdir, write};

    #[test]
    fn table() {
        let d = tmpdir();
        std::fs::create_dir_all(format!("{}/a/b", d)).unwrap();
        write(&format!("{}/x", d), "");
        write(&format!("{}/a/y", d), "");
        write(&format!("{}/.h", d), "");
        check("tree", &[&d], "", &format!("{}\n├── a\n│\u{a0}\u{a0} ├── b\n│\u{a0}\u{a0} └── y\n└── x\n\n3 directories, 2 files\n", d), 0);
        check("tree", &["-d", &d], "", &format!("{}\n└── a\n    └── b\n\n3 directories\n", d), 0);
        check("tree", &["-L", "1", "-a", "--noreport", &d], "", &format!("{}\n├── .h\n├── a\n└── x\n", d), 0);
        check("tree", &["-I", "b|x", &d], "", &format!("{}\n└── a\n    └── y\n\n2 directories, 1 file\n", d), 0);
    }
}
