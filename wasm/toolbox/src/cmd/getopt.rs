//! getopt — util-linux's enhanced getopt: parses a script's parameters
//! against -o SHORTOPTS and -l LONGOPTS and prints them normalised and
//! shell-quoted, for `eval set -- "$(getopt ...)"`. The old form
//! `getopt OPTSTRING PARAMETERS` prints unquoted, as it always did.

use crate::ctx::{Ctx, Res};
use std::io::Write;

const HELP: &str = "Usage:\n getopt <optstring> <parameters>\n getopt [options] [--] <optstring> <parameters>\n getopt [options] -o|--options <optstring> [options] [--] <parameters>\n\nParse command options.\n\nOptions:\n -a, --alternative             allow long options starting with single -\n -l, --longoptions <longopts>  the long options to be recognized\n -n, --name <progname>         the name under which errors are reported\n -o, --options <optstring>     the short options to be recognized\n -q, --quiet                   disable error reporting by getopt(3)\n -Q, --quiet-output            no normal output\n -s, --shell <shell>           set quoting conventions to those of <shell>\n -T, --test                    test for getopt(1) version\n -u, --unquoted                do not quote the output\n\n -h, --help                    display this help\n -V, --version                 display version\n";

#[derive(Clone, Copy, PartialEq)]
enum Has {
    No,
    Yes,
    Maybe,
}

#[derive(Default)]
struct Conf {
    short: Option<String>,
    long: Vec<(String, Has)>,
    name: String,
    quiet: bool,
    quiet_output: bool,
    /// -s csh/tcsh: `!` and newlines need their own escapes.
    csh: bool,
    unquoted: bool,
    alternative: bool,
    test: bool,
}

fn quote(s: &str, csh: bool) -> String {
    let s = s.replace('\'', "'\\''");
    let s = if csh { s.replace('!', "'\\!'").replace('\n', "'\\\n'") } else { s };
    format!("'{}'", s)
}

fn add_longs(conf: &mut Conf, list: &str) {
    for item in list.split(',').filter(|s| !s.is_empty()) {
        let (n, has) = if let Some(n) = item.strip_suffix("::") {
            (n, Has::Maybe)
        } else if let Some(n) = item.strip_suffix(':') {
            (n, Has::Yes)
        } else {
            (item, Has::No)
        };
        conf.long.push((n.to_string(), has));
    }
}

/// getopt's own options; returns the parameters left to parse, or the
/// exit status of a usage error.
fn own_options(ctx: &mut Ctx, args: &[String], conf: &mut Conf) -> Result<Vec<String>, i32> {
    let mut i = 0;
    let mut rest = Vec::new();
    let takes = |o: &str| matches!(o, "o" | "options" | "l" | "longoptions" | "n" | "name" | "s" | "shell");
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            rest.extend(args[i..].iter().cloned());
            break;
        }
        let (key, mut val): (String, Option<String>) = if let Some(l) = a.strip_prefix("--") {
            let (n, v) = match l.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (l, None),
            };
            let all = ["options", "longoptions", "name", "quiet", "quiet-output", "shell", "test", "unquoted", "alternative", "help", "version"];
            let hits: Vec<&&str> = all.iter().filter(|x| x.starts_with(n)).collect();
            match (all.iter().find(|x| **x == n), hits.len()) {
                (Some(x), _) => (x.to_string(), v),
                (None, 1) => (hits[0].to_string(), v),
                _ => {
                    ctx.diag.usage(format!("unrecognized option '{}'", a));
                    return Err(2);
                }
            }
        } else if a.len() > 1 && a.starts_with('-') {
            let c = &a[1..2];
            if !"olnsqQTuahV".contains(c) {
                ctx.diag.usage(format!("invalid option -- '{}'", c));
                return Err(2);
            }
            if a.len() > 2 && !takes(c) {
                // Bundled flags: handle one and push the rest back.
                let mut v: Vec<String> = vec![a[..2].to_string(), format!("-{}", &a[2..])];
                v.extend(args[i..].iter().cloned());
                return own_options(ctx, &v, conf).map(|mut r| {
                    r.splice(0..0, rest);
                    r
                });
            }
            (c.to_string(), if a.len() > 2 { Some(a[2..].to_string()) } else { None })
        } else {
            rest.push(a.clone());
            // Without -o the first parameter is the option string, and
            // getopt's own options end there.
            if conf.short.is_none() {
                rest.extend(args[i..].iter().cloned());
                break;
            }
            continue;
        };
        if takes(&key) && val.is_none() {
            match args.get(i) {
                Some(v) => {
                    val = Some(v.clone());
                    i += 1;
                }
                None => {
                    ctx.diag.usage(format!("option requires an argument -- '{}'", &key[..1]));
                    return Err(2);
                }
            }
        }
        let v = val.unwrap_or_default();
        match key.as_str() {
            "o" | "options" => conf.short = Some(v),
            "l" | "longoptions" => add_longs(conf, &v),
            "n" | "name" => conf.name = v,
            "s" | "shell" => {
                if !["sh", "bash", "tcsh", "csh"].contains(&v.as_str()) {
                    ctx.diag.error(format!("unknown shell after -s or --shell argument: {}", v));
                    return Err(2);
                }
                conf.csh = v.ends_with("csh");
            }
            "q" | "quiet" => conf.quiet = true,
            "Q" | "quiet-output" => conf.quiet_output = true,
            "T" | "test" => conf.test = true,
            "u" | "unquoted" => conf.unquoted = true,
            "a" | "alternative" => conf.alternative = true,
            "h" | "help" => return Err(-1),
            _ => return Err(-2),
        }
    }
    Ok(rest)
}

/// Parses `params`; returns (output words, had_error).
fn parse(ctx: &mut Ctx, conf: &Conf, shorts: &str, params: &[String]) -> std::io::Result<(Vec<String>, bool)> {
    let (mode, shorts) = match shorts.chars().next() {
        Some(c @ ('+' | '-')) => (c, &shorts[1..]),
        _ => (if std::env::var_os("POSIXLY_CORRECT").is_some() { '+' } else { ' ' }, shorts),
    };
    let short_has = |c: char| -> Option<Has> {
        let i = shorts.find(c)?;
        if c == ':' {
            return None;
        }
        let rest = &shorts[i + c.len_utf8()..];
        Some(if rest.starts_with("::") { Has::Maybe } else if rest.starts_with(':') { Has::Yes } else { Has::No })
    };
    let q = |s: &str| if conf.unquoted { s.to_string() } else { quote(s, conf.csh) };
    let name = if conf.name.is_empty() { "getopt".to_string() } else { conf.name.clone() };
    let mut out = Vec::new();
    let mut operands = Vec::new();
    let mut bad = false;
    let mut err = |ctx: &mut Ctx, m: String| {
        bad = true;
        if !conf.quiet {
            let _ = writeln!(ctx.diag.raw(), "{}: {}", name, m);
        }
    };
    let mut i = 0;
    while i < params.len() {
        let a = &params[i];
        i += 1;
        if a == "--" {
            operands.extend(params[i..].iter().map(|s| q(s)));
            break;
        }
        let long_body = a.strip_prefix("--").or_else(|| if conf.alternative && a.len() > 2 && a.starts_with('-') { Some(&a[1..]) } else { None });
        if let Some(body) = long_body {
            let (n, v) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            let exact = conf.long.iter().find(|(l, _)| l == n);
            let hits: Vec<&(String, Has)> = conf.long.iter().filter(|(l, _)| l.starts_with(n)).collect();
            let found = exact.or(if hits.len() == 1 { Some(hits[0]) } else { None });
            let single_dash = !a.starts_with("--");
            match found {
                Some((l, has)) => {
                    out.push(format!("--{}", l));
                    match (has, v) {
                        (Has::No, Some(_)) => err(ctx, format!("option '--{}' doesn't allow an argument", l)),
                        (Has::No, None) => {}
                        (Has::Maybe, v) => out.push(q(v.unwrap_or(""))),
                        (Has::Yes, Some(v)) => out.push(q(v)),
                        (Has::Yes, None) => match params.get(i) {
                            Some(v) => {
                                out.push(q(v));
                                i += 1;
                            }
                            None => {
                                out.pop();
                                err(ctx, format!("option '--{}' requires an argument", l));
                            }
                        },
                    }
                    continue;
                }
                None if hits.len() > 1 => {
                    let names: Vec<String> = hits.iter().map(|(l, _)| format!("'--{}'", l)).collect();
                    err(ctx, format!("option '{}' is ambiguous; possibilities: {}", if single_dash { format!("-{}", n) } else { format!("--{}", n) }, names.join(" ")));
                    continue;
                }
                None if !single_dash => {
                    err(ctx, format!("unrecognized option '{}'", a));
                    continue;
                }
                None => {}
            }
        }
        if a.len() > 1 && a.starts_with('-') {
            let chars: Vec<char> = a[1..].chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                j += 1;
                match short_has(c) {
                    None => err(ctx, format!("invalid option -- '{}'", c)),
                    Some(Has::No) => out.push(format!("-{}", c)),
                    Some(has) => {
                        let rest: String = chars[j..].iter().collect();
                        if !rest.is_empty() {
                            out.push(format!("-{}", c));
                            out.push(q(&rest));
                        } else if has == Has::Maybe {
                            out.push(format!("-{}", c));
                            out.push(q(""));
                        } else if let Some(v) = params.get(i) {
                            out.push(format!("-{}", c));
                            out.push(q(v));
                            i += 1;
                        } else {
                            err(ctx, format!("option requires an argument -- '{}'", c));
                        }
                        break;
                    }
                }
            }
            continue;
        }
        match mode {
            '+' => {
                operands.push(q(a));
                operands.extend(params[i..].iter().map(|s| q(s)));
                break;
            }
            '-' => out.push(q(a)),
            _ => operands.push(q(a)),
        }
    }
    out.push("--".into());
    out.extend(operands);
    Ok((out, bad))
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let mut conf = Conf::default();
    // Old style: the first argument is the option string itself.
    let compat = args.first().map_or(false, |a| !a.starts_with('-'));
    let mut rest = if compat {
        conf.unquoted = true;
        args.to_vec()
    } else {
        match own_options(ctx, args, &mut conf) {
            Ok(r) => r,
            Err(-1) => {
                ctx.out.write_all(HELP.as_bytes())?;
                return Ok(0);
            }
            Err(-2) => {
                writeln!(ctx.out, "getopt (toolshed toolbox) {}", env!("CARGO_PKG_VERSION"))?;
                return Ok(0);
            }
            Err(code) => return Ok(code),
        }
    };
    if conf.test {
        return Ok(4);
    }
    let shorts = match conf.short.clone() {
        Some(s) => s,
        None => {
            if rest.is_empty() {
                ctx.diag.usage("missing optstring argument");
                return Ok(2);
            }
            rest.remove(0)
        }
    };
    let (words, bad) = parse(ctx, &conf, &shorts, &rest)?;
    if !conf.quiet_output {
        let mut line = String::new();
        for w in words {
            line.push(' ');
            line.push_str(&w);
        }
        writeln!(ctx.out, "{}", line)?;
    }
    Ok(if bad { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::run;

    #[test]
    fn table() {
        // (args, stdout, stderr, status) from util-linux 2.38's getopt.
        let cases: &[(&[&str], &str, &str, i32)] = &[
            (&["-o", "ab:c::", "--long", "alpha,beta:,gamma::", "-n", "prog", "--", "-a", "x", "-b1", "--beta", "2", "-c", "-c3", "--gamma", "--gamma=4", "it's", "--al", "--", "-z"],
             " -a -b '1' --beta '2' -c '' -c '3' --gamma '' --gamma '4' --alpha -- 'x' 'it'\\''s' '-z'\n", "", 0),
            (&["-o", "a", "--", "-x", "-a", "--foo", "y"], " -a -- 'y'\n", "getopt: invalid option -- 'x'\ngetopt: unrecognized option '--foo'\n", 1),
            (&["ab:", "-a", "-b", "v", "w"], " -a -b v -- w\n", "", 0),
            (&["-o", "+a", "--", "x", "-a"], " -- 'x' '-a'\n", "", 0),
            (&["-o", "-a", "--", "x", "-a"], " 'x' -a --\n", "", 0),
            (&["-o", "b:", "--", "-b"], " --\n", "getopt: option requires an argument -- 'b'\n", 1),
            (&["-o", "a", "-l", "beta:", "--", "--beta"], " --\n", "getopt: option '--beta' requires an argument\n", 1),
            (&["-o", "a", "-l", "beta:", "--", "--b=1"], " --beta '1' --\n", "", 0),
            (&["-o", "a", "-a", "-l", "long", "--", "-long"], " --long --\n", "", 0),
            (&["-T"], "", "", 4),
            (&["-o", "a", "-u", "--", "-a", "x y"], " -a -- x y\n", "", 0),
            (&["-o", "a", "-q", "--", "-x"], " --\n", "", 1),
            (&["-o", "a", "-Q", "--", "-a"], "", "", 0),
            (&[], "", "getopt: missing optstring argument\nTry 'getopt --help' for more information.\n", 2),
            (&["-o", "a", "-l", "bb,bc", "--", "--b"], " --\n", "getopt: option '--b' is ambiguous; possibilities: '--bb' '--bc'\n", 1),
            (&["-o", "a", "--", "--", "x"], " -- 'x'\n", "", 0),
            (&["-o", "vn:", "--long", "verbose,name:", "--", "-vn", "foo", "--name=bar", "file"], " -v -n 'foo' --name 'bar' -- 'file'\n", "", 0),
        ];
        for (args, out, err, code) in cases {
            let (c, o, e) = run("getopt", args, "");
            assert_eq!((o.as_str(), e.as_str(), c), (*out, *err, *code), "{:?}", args);
        }
    }
}
