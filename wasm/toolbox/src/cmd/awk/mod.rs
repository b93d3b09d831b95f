//! awk [-F FS] [-v VAR=VAL]... [-f PROGFILE | 'PROGRAM'] [FILE | VAR=VAL]...
//!
//! POSIX awk: patterns (BEGIN, END, expressions, regexes, ranges), fields,
//! associative arrays, user functions, printf/sprintf, getline (from the
//! main input or `< file`), output redirection to files, and the builtins
//! length substr index split sub gsub match sprintf tolower toupper int sqrt
//! exp log sin cos atan2 rand srand close fflush. Regexes are EREs (no
//! back-references). Not available here: pipes (`cmd | getline`,
//! `print | "cmd"`) and system(), since WASI cannot start processes.
//! `for (k in a)` visits numeric keys in numeric order, then the rest in
//! string order (awk leaves the order unspecified).

mod format;
mod interp;
mod lex;
mod parse;
mod value;

use crate::ctx::{reason, Ctx, Res};
use crate::input;
use interp::{Cell, Flow, Inputs, Interp};
use std::collections::HashMap;
use std::io::{self, Read, Write};
use value::Val;

const HELP: &str = "Usage: awk [-F fs] [-v var=value] [-f progfile | 'prog'] [file ...]\n\nPOSIX awk. Not available in this sandbox: pipes to or from commands and system().\n";

/// Backslash escapes in -v values and command-line assignments.
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('/') => out.push('/'),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn fatal(ctx: &mut Ctx, msg: &str) -> i32 {
    ctx.diag.error(msg);
    2
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let mut i = 0;
    let mut fs: Option<String> = None;
    let mut assigns: Vec<(String, String)> = Vec::new();
    let mut progfiles: Vec<String> = Vec::new();
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            i += 1;
            break;
        }
        if a == "--help" {
            ctx.out.write_all(HELP.as_bytes())?;
            return Ok(0);
        }
        if a == "--version" {
            writeln!(ctx.out, "awk (toolshed toolbox) {}", env!("CARGO_PKG_VERSION"))?;
            return Ok(0);
        }
        if !a.starts_with('-') || a == "-" {
            break;
        }
        let (flag, rest) = (&a[1..2], &a[2..]);
        let mut val = || -> Option<String> {
            if !rest.is_empty() {
                Some(rest.to_string())
            } else {
                i += 1;
                args.get(i).cloned()
            }
        };
        match flag {
            "F" => match val() {
                Some(v) => fs = Some(v),
                None => {
                    ctx.diag.usage("option requires an argument -- 'F'");
                    return Ok(2);
                }
            },
            "v" => match val() {
                Some(v) => match v.split_once('=') {
                    Some((k, x)) => assigns.push((k.to_string(), x.to_string())),
                    None => {
                        ctx.diag.error(format!("invalid -v argument: {}", v));
                        return Ok(2);
                    }
                },
                None => {
                    ctx.diag.usage("option requires an argument -- 'v'");
                    return Ok(2);
                }
            },
            "f" => match val() {
                Some(v) => progfiles.push(v),
                None => {
                    ctx.diag.usage("option requires an argument -- 'f'");
                    return Ok(2);
                }
            },
            _ => {
                ctx.diag.usage(format!("invalid option -- '{}'", flag));
                return Ok(2);
            }
        }
        i += 1;
    }
    let mut src = String::new();
    if progfiles.is_empty() {
        match args.get(i) {
            Some(p) => {
                src = p.clone();
                i += 1;
            }
            None => {
                ctx.diag.usage("no program text");
                return Ok(2);
            }
        }
    } else {
        for f in &progfiles {
            let mut t = String::new();
            if let Err(e) = input::open(ctx.stdin, f).and_then(|mut r| r.read_to_string(&mut t)) {
                return Ok(fatal(ctx, &format!("can't open source file `{}' for reading: {}", f, reason(&e))));
            }
            src.push_str(&t);
            src.push('\n');
        }
    }
    let operands: Vec<String> = args[i..].to_vec();
    let prog = match lex::lex(&src).and_then(parse::parse) {
        Ok(p) => p,
        Err(m) => return Ok(fatal(ctx, &m)),
    };
    let Ctx { stdin, out, diag, .. } = ctx;
    let inputs = Inputs { operands: operands.clone(), pos: 0, cur: None, stdin: Some(&mut **stdin), used_any_file: false };
    let mut it = Interp::new(&prog, out, inputs);
    if let Some(f) = fs {
        let f = if f == "t" { "\t".to_string() } else { unescape(&f) };
        let _ = it.set_var("FS", Val::Str(f));
    }
    for (k, v) in assigns {
        let _ = it.set_var(&k, Val::StrNum(unescape(&v)));
    }
    let mut argv = HashMap::new();
    argv.insert("0".to_string(), Val::Str("awk".into()));
    for (n, a) in operands.iter().enumerate() {
        argv.insert((n + 1).to_string(), Val::StrNum(a.clone()));
    }
    let id = it.new_array(argv);
    it.globals.insert("ARGV".into(), Cell::Array(id));
    it.globals.insert("ARGC".into(), Cell::Scalar(Val::Num((operands.len() + 1) as f64)));
    let env: HashMap<String, Val> = std::env::vars().map(|(k, v)| (k, Val::StrNum(v))).collect();
    let id = it.new_array(env);
    it.globals.insert("ENVIRON".into(), Cell::Array(id));

    let result = execute(&mut it, &prog);
    it.close_all();
    let errors = std::mem::take(&mut it.errors);
    drop(it);
    for e in errors {
        if let Some(raw) = e.strip_prefix("\u{0}raw") {
            let _ = diag.raw().write_all(raw.as_bytes());
        } else {
            diag.warn(e);
        }
    }
    match result {
        Ok(code) => Ok(code),
        Err(m) if m.starts_with("\u{0}io ") => Err(io::Error::new(io::ErrorKind::BrokenPipe, m[4..].to_string())),
        Err(m) => {
            diag.error(format!("fatal: {}", m));
            Ok(2)
        }
    }
}

/// Maps the control-flow escapes that cross function calls back to flows.
fn flow_of(e: &str) -> Option<Flow> {
    if let Some(c) = e.strip_prefix("\u{0}exit ") {
        return Some(Flow::Exit(c.parse().unwrap_or(0)));
    }
    if e == "\u{0}next" {
        return Some(Flow::Next);
    }
    None
}

fn execute(it: &mut Interp, prog: &parse::Program) -> Result<i32, String> {
    let mut exit: Option<i32> = None;
    for (pat, action) in &prog.items {
        if let (parse::Pattern::Begin, Some(a)) = (pat, action) {
            let f = match it.block(a) {
                Ok(f) => f,
                Err(e) => flow_of(&e).ok_or(e)?,
            };
            if let Flow::Exit(c) = f {
                exit = Some(c);
                break;
            }
        }
    }
    let needs_input = prog.items.iter().any(|(p, _)| !matches!(p, parse::Pattern::Begin));
    if exit.is_none() && needs_input {
        while let Some(rec) = it.next_record()? {
            it.bump_nr();
            it.set_record(rec);
            let f = match it.record_items() {
                Ok(f) => f,
                Err(e) => flow_of(&e).ok_or(e)?,
            };
            match f {
                Flow::Exit(c) => {
                    exit = Some(c);
                    break;
                }
                Flow::NextFile => it.skip_file(),
                _ => {}
            }
        }
    }
    for (pat, action) in &prog.items {
        if let (parse::Pattern::End, Some(a)) = (pat, action) {
            let f = match it.block(a) {
                Ok(f) => f,
                Err(e) => flow_of(&e).ok_or(e)?,
            };
            if let Flow::Exit(c) = f {
                return Ok(c);
            }
        }
    }
    Ok(exit.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let t = "alice 30 paris\nbob 25 rome\ncarol 35 oslo\n";
        let cases: &[(&[&str], &str, &str)] = &[
            (&["{print $1}"], t, "alice\nbob\ncarol\n"),
            (&["$2 > 28 {print $1, $2}"], t, "alice 30\ncarol 35\n"),
            (&["{s += $2} END {print s, s/NR}"], t, "90 30\n"),
            (&["-F", ",", "{print $2}"], "a,b,c\n", "b\n"),
            (&["-F:", "-v", "OFS=-", "{$1=$1; print}"], "a:b:c\n", "a-b-c\n"),
            (&["/bob/"], t, "bob 25 rome\n"),
            (&["NR==2, NR==3 {print NR}"], t, "2\n3\n"),
            (&["{print NF, $NF}"], "a b c\n\n", "3 c\n0 \n"),
            (&["BEGIN {printf \"%5.2f|%-3s|%d\\n\", 3.14159, \"x\", 42}"], "", " 3.14|x  |42\n"),
            (&["{n[$1]++} END {for (k in n) print k, n[k]}"], "b\na\nb\n", "a 1\nb 2\n"),
            (&["{print length($0), toupper(substr($1, 2, 3))}"], "hello world\n", "11 ELL\n"),
            (&["{gsub(/o/, \"0\"); print}"], "foo boo\n", "f00 b00\n"),
            (&["{sub(/o+/, \"[&]\"); print}"], "foo\n", "f[oo]\n"),
            (&["{n = split($0, a, \"-\"); print n, a[1], a[n]}"], "x-y-z\n", "3 x z\n"),
            (&["BEGIN {print index(\"hello\", \"ll\"), match(\"xxabc\", /ab/), RSTART, RLENGTH}"], "", "3 3 3 2\n"),
            (&["function f(x) { return x * 2 } {print f($1)}"], "21\n", "42\n"),
            (&["function fill(arr) { arr[\"k\"] = 1 } BEGIN {fill(a); print a[\"k\"]}"], "", "1\n"),
            (&["BEGIN {x = 1; while (x < 100) x *= 3; print x}"], "", "243\n"),
            (&["BEGIN {for (i = 0; i < 3; i++) printf \"%d \", i; print \"\"}"], "", "0 1 2 \n"),
            (&["{if ($1 ~ /^[0-9]+$/) print \"num\"; else print \"str\"}"], "12\nab\n", "num\nstr\n"),
            (&["NR == 1 {next} {print}"], "a\nb\n", "b\n"),
            (&["{print; exit} END {print \"end\"}"], "a\nb\n", "a\nend\n"),
            (&["BEGIN {print 1/3, 100000 * 100000, 0.1 + 0.2}"], "", "0.333333 10000000000 0.3\n"),
            (&["BEGIN {print (\"10\" < \"9\"), (10 < 9), (\"abc\" < \"abd\")}"], "", "1 0 1\n"),
            (&["{print ($1 < $2)}"], "10 9\n", "0\n"),
            (&["BEGIN {a[1,2] = 3; for (k in a) {split(k, p, SUBSEP); print p[1], p[2]}; if ((1,2) in a) print \"yes\"}"], "", "1 2\nyes\n"),
            (&["{$3 = \"X\"; print; print NF}"], "a b\n", "a b X\n3\n"),
            (&["{NF = 2; print}"], "a b c d\n", "a b\n"),
            (&["BEGIN {RS = \"\"} {print NR \": \" $1}"], "a b\nc\n\n\nd e\n", "1: a\n2: d\n"),
            (&["BEGIN {x[\"a\"]; delete x[\"a\"]; print length(x)}"], "", "0\n"),
            (&["{getline line; print $0 \"+\" line}"], "1\n2\n3\n4\n", "1+2\n3+4\n"),
            (&["BEGIN {printf \"%s %c %c %x %o %e\\n\", \"s\", 65, \"hi\", 255, 8, 12345.678}"], "", "s A h ff 10 1.234568e+04\n"),
            (&["BEGIN { print -2^2, 2^3^2, 7%3, -7%3 }"], "", "-4 512 1 -1\n"),
            (&["{ print $1 > \"/dev/stderr\" }"], "x\n", ""),
            (&["END { print NR }"], "a\nb\n", "2\n"),
            (&["BEGIN { x = \"3x\"; print x + 1, +\"\", -\"-5\" }"], "", "4 0 5\n"),
            (&["{ print $(NF-1) }"], "a b c\n", "b\n"),
            (&["BEGIN { s = sprintf(\"%05d\", 42); print s }"], "", "00042\n"),
            (&["length > 3"], "ab\nabcd\n", "abcd\n"),
            (&["!seen[$0]++"], "a\nb\na\n", "a\nb\n"),
            (&["{ $0 = \"x y\"; print $2 }"], "a\n", "y\n"),
            (&["BEGIN { while ((getline l < \"/definitely/missing\") > 0) n++; print n+0 }"], "", "0\n"),
        ];
        for (args, input, out) in cases {
            check("awk", args, input, out, 0);
        }
        check("awk", &["BEGIN { exit 3 }"], "", "", 3);
        check_err("awk", &["{print $1"], "", "awk: syntax error at source line 1: unexpected end of program, missing '}' (near Eof)\n", 2);
        check_err("awk", &["BEGIN { system(\"ls\") }"], "", "awk: fatal: system() is not available in this sandbox\n", 2);
    }
}
