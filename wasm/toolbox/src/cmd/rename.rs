//! rename [-v] [-n] [-f] [-d] [-0] [-e EXPR]... EXPR [FILE]... — Debian's
//! Perl `rename`. There is no Perl here, so the expressions agents use are
//! read natively: s/RE/REPL/[gix], y/// and tr///, lc and uc (several may be
//! given with -e or joined by ';'). Names come from stdin when no FILE is given.

use crate::args::{flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::{fsx, input};
use regex::{Regex, RegexBuilder};
use std::io::Write;

const SPECS: &[Spec] = &[
    flag('v', "verbose", "v"),
    flag('n', "nono", "n"),
    flag('f', "force", "f"),
    flag('d', "filename", "d"),
    flag('\0', "nopath", "d"),
    flag('\0', "nofullpath", "d"),
    flag('\0', "path", "path"),
    flag('\0', "fullpath", "path"),
    flag('0', "null", "0"),
    val('e', "", "e"),
    val('E', "", "E"),
    flag('u', "unicode", "u"),
    flag('V', "version", "V"),
    flag('h', "", crate::args::HELP),
];
const USAGE: &str = "Usage:\n    file-rename [ -h|-m|-V ] [ -v ] [ -0 ] [ -n ] [ -f ] [ -d ] [ -u [enc]]\n    [ -e|-E perlexpr]*|perlexpr [ files ]\n\n";
const HELP: &str = "Usage:\n    rename [ -h|-m|-V ] [ -v ] [ -0 ] [ -n ] [ -f ] [ -d ] [ -u [enc]]\n    [ -e|-E perlexpr]*|perlexpr [ files ]\n\nRenames the files by applying the expression to each name.\nSupported expressions (Perl itself is not available): s/RE/REPL/[gi],\ny/FROM/TO/ or tr/FROM/TO/, lc, uc, several separated by ';'.\n\n  -v, --verbose    print names of files successfully renamed\n  -n, --nono       no action: print names of files to be renamed, but don't rename\n  -f, --force      over write: allow existing files to be over-written\n  -d, --filename   only rename the filename part of the path\n  -0, --null       when reading names from stdin, split on NUL\n";

enum Op {
    Subst(Regex, String, bool),
    Tr(Vec<char>, Vec<char>),
    Lower,
    Upper,
    Keep,
}

fn expand_ranges(s: &str) -> Vec<char> {
    let cs: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = if cs[i] == '\\' && i + 1 < cs.len() {
            i += 1;
            match cs[i] {
                'n' => '\n',
                't' => '\t',
                o => o,
            }
        } else {
            cs[i]
        };
        if i + 2 < cs.len() && cs[i + 1] == '-' {
            let end = cs[i + 2];
            out.extend((c..=end).into_iter());
            i += 3;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Perl replacement text to the regex crate's: $1 / \1 -> ${1}, $& -> ${0}.
fn replacement(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        i += 1;
        match c {
            '$' if i < cs.len() && cs[i].is_ascii_digit() => {
                let start = i;
                while i < cs.len() && cs[i].is_ascii_digit() {
                    i += 1;
                }
                out.push_str(&format!("${{{}}}", cs[start..i].iter().collect::<String>()));
            }
            '$' if i < cs.len() && cs[i] == '{' => {
                let end = cs[i..].iter().position(|&x| x == '}').map(|p| i + p).unwrap_or(cs.len() - 1);
                out.push_str(&format!("${{{}}}", cs[i + 1..end].iter().collect::<String>()));
                i = end + 1;
            }
            '$' if i < cs.len() && cs[i] == '&' => {
                out.push_str("${0}");
                i += 1;
            }
            '$' => out.push_str("$$"),
            '\\' if i < cs.len() => {
                let n = cs[i];
                i += 1;
                match n {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    d if d.is_ascii_digit() => out.push_str(&format!("${{{}}}", d)),
                    o => out.push(o),
                }
            }
            o => out.push(o),
        }
    }
    out
}

/// Splits `body` (after the command letter) into `parts` fields on its
/// first character; returns the fields and what follows.
fn fields(body: &str, parts: usize) -> Option<(Vec<String>, String)> {
    let mut it = body.chars();
    let d = it.next().filter(|c| !c.is_alphanumeric() && !c.is_whitespace())?;
    let close = match d {
        '{' => '}',
        '(' => ')',
        '[' => ']',
        '<' => '>',
        o => o,
    };
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut esc = false;
    let rest: Vec<char> = it.collect();
    let mut i = 0;
    while i < rest.len() {
        let c = rest[i];
        i += 1;
        if esc {
            if c != close {
                cur.push('\\');
            }
            cur.push(c);
            esc = false;
        } else if c == '\\' {
            esc = true;
        } else if c == close {
            out.push(std::mem::take(&mut cur));
            if out.len() == parts {
                return Some((out, rest[i..].iter().collect()));
            }
            // Bracketed forms open the next field: s{a}{b}.
            if close != d {
                while i < rest.len() && rest[i].is_whitespace() {
                    i += 1;
                }
                if rest.get(i) != Some(&d) {
                    return None;
                }
                i += 1;
            }
        } else {
            cur.push(c);
        }
    }
    None
}

fn compile(expr: &str) -> Result<Vec<Op>, String> {
    let mut ops = Vec::new();
    let mut rest = expr.trim().to_string();
    let unsupported = || format!("unsupported expression {:?}: Perl is not available here; use s/RE/REPL/[gi], y/FROM/TO/, tr/FROM/TO/, lc or uc", expr);
    while !rest.is_empty() {
        let t = rest.trim_start();
        // `lc`/`uc` return the new name; only `$_ = lc` keeps it (bare `lc` changes nothing).
        let assigned = t.strip_prefix("$_").map_or(false, |a| a.trim_start().starts_with('='));
        let r = if assigned { t[2..].trim_start()[1..].trim_start().to_string() } else { t.to_string() };
        let (op, after) = if let Some(b) = r.strip_prefix('s') {
            let (f, after) = fields(b, 2).ok_or_else(unsupported)?;
            let flag_end = after.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(after.len());
            let flags = &after[..flag_end];
            if flags.chars().any(|c| !"gixr".contains(c)) {
                return Err(format!("unsupported flag in {:?}: only g, i and x work here", expr));
            }
            let re = RegexBuilder::new(&f[0]).case_insensitive(flags.contains('i')).ignore_whitespace(flags.contains('x')).build().map_err(|e| format!("bad regular expression in {:?}: {}", expr, e))?;
            (Op::Subst(re, replacement(&f[1]), flags.contains('g')), after[flag_end..].to_string())
        } else if let Some(b) = r.strip_prefix("tr").or_else(|| r.strip_prefix('y')) {
            let (f, after) = fields(b, 2).ok_or_else(unsupported)?;
            (Op::Tr(expand_ranges(&f[0]), expand_ranges(&f[1])), after)
        } else if let Some(a) = r.strip_prefix("lc").or_else(|| r.strip_prefix("uc")) {
            let a = a.trim_start();
            let a = a.strip_prefix("($_)").or_else(|| a.strip_prefix("$_")).unwrap_or(a);
            (if !assigned { Op::Keep } else if r.starts_with("lc") { Op::Lower } else { Op::Upper }, a.to_string())
        } else {
            return Err(unsupported());
        };
        ops.push(op);
        let after = after.trim_start();
        rest = match after.strip_prefix(';') {
            Some(x) => x.to_string(),
            None if after.is_empty() => String::new(),
            None => return Err(unsupported()),
        };
    }
    Ok(ops)
}

fn apply(ops: &[Op], name: &str) -> String {
    let mut s = name.to_string();
    for op in ops {
        s = match op {
            Op::Subst(re, rep, true) => re.replace_all(&s, rep.as_str()).into_owned(),
            Op::Subst(re, rep, false) => re.replace(&s, rep.as_str()).into_owned(),
            Op::Tr(from, to) => s
                .chars()
                .map(|c| match from.iter().position(|&f| f == c) {
                    Some(i) => *to.get(i).or_else(|| to.last()).unwrap_or(&c),
                    None => c,
                })
                .collect(),
            Op::Lower => s.to_lowercase(),
            Op::Upper => s.to_uppercase(),
            Op::Keep => s,
        };
    }
    s
}

/// Encodings -u accepts (Perl's Encode knows more; filenames here are UTF-8 anyway).
const ENCODINGS: &[&str] = &["utf8", "utf-8", "latin1", "iso-8859-1", "ascii", "us-ascii"];

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    // -u/--unicode takes an optional encoding: the next argument unless it is an option.
    let mut args = args.to_vec();
    if let Some(i) = args.iter().position(|a| a == "-u" || a == "--unicode") {
        if let Some(enc) = args.get(i + 1).filter(|a| !a.starts_with('-')).cloned() {
            if !ENCODINGS.contains(&enc.to_ascii_lowercase().as_str()) {
                write!(ctx.out, "-u|--unicode argument does not look like an encoding:\n    either give an encoding or put -e as next option\n\n{}", USAGE)?;
                return Ok(255);
            }
            args.remove(i + 1);
        }
    }
    let p = getopt!(ctx, &args, SPECS, HELP, 2);
    if p.has("V") {
        // Debian's rename is File::Rename; -V names it (with pod2usage's blank line).
        ctx.out.write_all(b"/usr/bin/rename using File::Rename version 2.01\n\n")?;
        return Ok(0);
    }
    // Perl joins -e code with newlines (statements still need their ';'); -E adds the ';'.
    let code: String = p.opts.iter().filter(|o| o.key == "e" || o.key == "E").map(|o| format!("{}{}\n", o.val.as_deref().unwrap_or(""), if o.key == "E" { ";" } else { "" })).collect();
    let mut files = p.operands.clone();
    let code = if code.is_empty() {
        if files.is_empty() {
            ctx.diag.usage("no expression given (e.g. rename 's/\\.txt$/.md/' *.txt)");
            return Ok(2);
        }
        files.remove(0)
    } else {
        code
    };
    let ops = match compile(&code) {
        Ok(o) => o,
        Err(m) => {
            ctx.diag.error(m);
            return Ok(2);
        }
    };
    if files.is_empty() {
        let delim = if p.has("0") { b'\0' } else { b'\n' };
        input::each_record(ctx.stdin, delim, |rec| {
            let (body, _) = input::chomp(rec, delim);
            if !body.is_empty() {
                files.push(String::from_utf8_lossy(body).into_owned());
            }
            Ok(true)
        })?;
    }
    for old in &files {
        let new = if p.has("d") {
            let base = fsx::base_name(old);
            let t = old.trim_end_matches('/');
            let dir = &t[..t.len() - base.len()];
            format!("{}{}", dir, apply(&ops, base))
        } else {
            apply(&ops, old)
        };
        if new == *old {
            continue;
        }
        if !p.has("f") && fsx::symlink_metadata(&new).is_ok() {
            // Debian's rename says this without its name and still exits 0.
            let _ = writeln!(ctx.diag.raw(), "{} not renamed: {} already exists", old, new);
            continue;
        }
        if p.has("n") {
            writeln!(ctx.out, "rename({}, {})", old, new)?;
            continue;
        }
        match std::fs::rename(fsx::host(old), fsx::host(&new)) {
            Ok(()) => {
                if p.has("v") {
                    writeln!(ctx.out, "{} renamed as {}", old, new)?;
                }
            }
            // File::Rename 2.01 reports this without its name and still exits 0.
            Err(e) => writeln!(ctx.diag.raw(), "Can't rename {} {}: {}", old, new, reason(&e))?,
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::{apply, compile};
    use crate::testutil::{run, tmpdir, write};

    #[test]
    fn expressions() {
        let cases: &[(&str, &str, &str)] = &[
            ("s/\\.txt$/.md/", "a.txt", "a.md"),
            ("s/a/b/", "aaa", "baa"),
            ("s/a/b/g", "aaa", "bbb"),
            ("s/(\\d+)/<$1>/", "img12.png", "img<12>.png"),
            ("s/(\\w+)-(\\w+)/$2_$1/", "foo-bar", "bar_foo"),
            ("s/FOO/x/i", "afoo", "ax"),
            ("s{ }{_}g", "a b c", "a_b_c"),
            ("s/ /_/g; s/^/new-/", "a b", "new-a_b"),
            ("y/A-Z/a-z/", "ABC.TXT", "abc.txt"),
            ("tr/a-c/A-C/", "abcd", "ABCd"),
            ("$_ = lc", "MiXeD", "mixed"),
            ("uc", "abc", "abc"),
            ("$_ = uc($_)", "abc", "ABC"),
            ("s/\\$/dollar/", "a$b", "adollarb"),
        ];
        for (expr, name, want) in cases {
            let ops = compile(expr).unwrap_or_else(|e| panic!("{}: {}", expr, e));
            assert_eq!(apply(&ops, name), *want, "{}", expr);
        }
        assert!(compile("s/a/b/e").err().unwrap().contains("only g, i and x"));
        assert!(compile("print").err().unwrap().contains("Perl is not available"));
    }

    #[test]
    fn renames_files() {
        let d = tmpdir();
        for f in ["a.txt", "b.txt", "b.md"] {
            write(&format!("{}/{}", d, f), f);
        }
        let (a, b) = (format!("{}/a.txt", d), format!("{}/b.txt", d));
        let (c, o, e) = run("rename", &["-n", "s/txt$/md/", &a], "");
        assert_eq!((c, o.as_str(), e.as_str()), (0, format!("rename({}, {}/a.md)\n", a, d).as_str(), ""));
        assert!(std::path::Path::new(&a).exists());
        let (c, o, _) = run("rename", &["-v", "s/txt$/md/", &a], "");
        assert_eq!((c, o), (0, format!("{} renamed as {}/a.md\n", a, d)));
        assert!(std::path::Path::new(&format!("{}/a.md", d)).exists());
        let (c, _, e) = run("rename", &["s/txt$/md/", &b], "");
        assert_eq!((c, e), (0, format!("{} not renamed: {}/b.md already exists\n", b, d)));
        assert_eq!(run("rename", &["-f", "s/txt$/md/", &b], "").0, 0);
        assert_eq!(std::fs::read_to_string(format!("{}/b.md", d)).unwrap(), "b.txt");
        let (c, _, _) = run("rename", &["-e", "s/md$/txt/"], &format!("{}/a.md\n", d));
        assert_eq!(c, 0);
        assert!(std::path::Path::new(&a).exists());
    }
}
