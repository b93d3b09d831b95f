//! GNU getopt_long-style parsing shared by every command: combined short
//! flags (`-rf`), attached or separate values (`-n5`, `-n 5`), `--long`,
//! `--long=value`, unique prefixes of long names, `--` ending options, and
//! operands mixed with options (GNU permutes them). Errors use GNU's wording
//! so agents that learned coreutils read them the same way.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Arg {
    No,
    Yes,
    /// Value only when attached: `-xVAL` or `--long=VAL`.
    Opt,
}

/// One option a command accepts. `short` is '\0' when there is none, `long`
/// is "" when there is none. `key` is what the command matches on.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub short: char,
    pub long: &'static str,
    pub arg: Arg,
    pub key: &'static str,
}

/// Shorthand constructors keep the option tables one line per option.
pub const fn flag(short: char, long: &'static str, key: &'static str) -> Spec {
    Spec { short, long, arg: Arg::No, key }
}
pub const fn val(short: char, long: &'static str, key: &'static str) -> Spec {
    Spec { short, long, arg: Arg::Yes, key }
}
pub const fn optval(short: char, long: &'static str, key: &'static str) -> Spec {
    Spec { short, long, arg: Arg::Opt, key }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub key: &'static str,
    pub val: Option<String>,
}

#[derive(Debug, Default)]
pub struct Parsed {
    pub opts: Vec<Found>,
    pub operands: Vec<String>,
    /// For each operand, how many options came before it (tar's positional -C).
    pub operand_pos: Vec<usize>,
}

impl Parsed {
    pub fn has(&self, key: &str) -> bool {
        self.opts.iter().any(|o| o.key == key)
    }
    /// Last value given for `key` (GNU: later options override earlier ones).
    pub fn last(&self, key: &str) -> Option<&str> {
        self.opts.iter().rev().find(|o| o.key == key).and_then(|o| o.val.as_deref())
    }
    /// Which of `keys` was given last (options that override each other).
    pub fn last_key(&self, keys: &[&str]) -> Option<&'static str> {
        self.opts.iter().rev().find(|o| keys.contains(&o.key)).map(|o| o.key)
    }
    pub fn all(&self, key: &str) -> Vec<&str> {
        self.opts.iter().filter(|o| o.key == key).filter_map(|o| o.val.as_deref()).collect()
    }
}

pub const HELP: &str = "\u{1}help";
pub const VERSION: &str = "\u{1}version";

/// Parses `args` (without argv[0]) against `specs`. `--help` and `--version`
/// are always accepted and reported with the keys HELP and VERSION.
/// Err carries the GNU message without the program name.
pub fn parse(args: &[String], specs: &[Spec]) -> Result<Parsed, String> {
    parse_with(args, specs, true)
}

/// `permute = false` stops at the first operand (needed by commands whose
/// operands may look like options, e.g. `seq 1 -1`... handled by callers).
pub fn parse_with(args: &[String], specs: &[Spec], permute: bool) -> Result<Parsed, String> {
    let mut p = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            p.operands.extend(args[i..].iter().cloned());
            p.operand_pos.resize(p.operands.len(), p.opts.len());
            break;
        }
        if let Some(body) = a.strip_prefix("--") {
            let (name, attached) = match body.find('=') {
                Some(eq) => (&body[..eq], Some(body[eq + 1..].to_string())),
                None => (body, None),
            };
            let spec = find_long(name, specs)?;
            let spec = match spec {
                Some(s) => s,
                None => {
                    let key = if "help".starts_with(name) && !name.is_empty() {
                        HELP
                    } else if "version".starts_with(name) && !name.is_empty() {
                        VERSION
                    } else {
                        return Err(format!("unrecognized option '{}'", a));
                    };
                    if attached.is_some() {
                        let full = if key == HELP { "help" } else { "version" };
                        return Err(format!("option '--{}' doesn't allow an argument", full));
                    }
                    p.opts.push(Found { key, val: None });
                    continue;
                }
            };
            let v = match (spec.arg, attached) {
                (Arg::No, Some(_)) => {
                    return Err(format!("option '--{}' doesn't allow an argument", spec.long))
                }
                (Arg::No, None) => None,
                (Arg::Opt, v) => v,
                (Arg::Yes, Some(v)) => Some(v),
                (Arg::Yes, None) => {
                    if i < args.len() {
                        i += 1;
                        Some(args[i - 1].clone())
                    } else {
                        return Err(format!("option '--{}' requires an argument", spec.long));
                    }
                }
            };
            p.opts.push(Found { key: spec.key, val: v });
            continue;
        }
        if a.len() > 1 && a.starts_with('-') {
            let chars: Vec<char> = a[1..].chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                j += 1;
                let spec = match specs.iter().find(|s| s.short == c && c != '\0') {
                    Some(s) => s,
                    None => return Err(format!("invalid option -- '{}'", c)),
                };
                match spec.arg {
                    Arg::No => p.opts.push(Found { key: spec.key, val: None }),
                    Arg::Opt => {
                        let rest: String = chars[j..].iter().collect();
                        p.opts.push(Found { key: spec.key, val: if rest.is_empty() { None } else { Some(rest) } });
                        break;
                    }
                    Arg::Yes => {
                        let rest: String = chars[j..].iter().collect();
                        let v = if !rest.is_empty() {
                            rest
                        } else if i < args.len() {
                            i += 1;
                            args[i - 1].clone()
                        } else {
                            return Err(format!("option requires an argument -- '{}'", c));
                        };
                        p.opts.push(Found { key: spec.key, val: Some(v) });
                        break;
                    }
                }
            }
            continue;
        }
        p.operands.push(a.clone());
        if !permute {
            p.operands.extend(args[i..].iter().cloned());
            p.operand_pos.resize(p.operands.len(), p.opts.len());
            break;
        }
        p.operand_pos.push(p.opts.len());
    }
    Ok(p)
}

/// Exact long name wins; otherwise a unique prefix (GNU allows `--verb` for
/// `--verbose`). Ambiguous prefixes are an error listing the candidates.
fn find_long<'s>(name: &str, specs: &'s [Spec]) -> Result<Option<&'s Spec>, String> {
    if let Some(s) = specs.iter().find(|s| !s.long.is_empty() && s.long == name) {
        return Ok(Some(s));
    }
    if name.is_empty() {
        return Ok(None);
    }
    let mut cands: Vec<&Spec> = specs.iter().filter(|s| !s.long.is_empty() && s.long.starts_with(name)).collect();
    // Several specs may share one long name's key (aliases); count distinct names.
    cands.dedup_by(|a, b| a.long == b.long);
    let builtin: Vec<&str> = ["help", "version"].into_iter().filter(|b| b.starts_with(name)).collect();
    match (cands.len(), builtin.len()) {
        (1, 0) => Ok(Some(cands[0])),
        (0, _) => Ok(None),
        _ => {
            let mut names: Vec<String> = cands.iter().map(|s| format!("'--{}'", s.long)).collect();
            names.extend(builtin.iter().map(|b| format!("'--{}'", b)));
            Err(format!("option '--{}' is ambiguous; possibilities: {}", name, names.join(" ")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[Spec] = &[
        flag('a', "all", "all"),
        flag('l', "", "l"),
        val('n', "lines", "lines"),
        optval('\0', "color", "color"),
        flag('\0', "verbose", "verbose"),
        flag('\0', "version-sort", "vsort"),
    ];

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn parses_gnu_forms() {
        let cases: &[(&[&str], &[(&str, Option<&str>)], &[&str])] = &[
            (&["-al", "x"], &[("all", None), ("l", None)], &["x"]),
            (&["-n5", "f"], &[("lines", Some("5"))], &["f"]),
            (&["-n", "5", "f"], &[("lines", Some("5"))], &["f"]),
            (&["f", "-ln", "3"], &[("l", None), ("lines", Some("3"))], &["f"]),
            (&["--lines=7"], &[("lines", Some("7"))], &[]),
            (&["--lines", "7"], &[("lines", Some("7"))], &[]),
            (&["--li=7"], &[("lines", Some("7"))], &[]),
            (&["--color"], &[("color", None)], &[]),
            (&["--color=never"], &[("color", Some("never"))], &[]),
            (&["--verb"], &[("verbose", None)], &[]),
            (&["--", "-a", "-"], &[], &["-a", "-"]),
            (&["-"], &[], &["-"]),
            (&["--help"], &[(HELP, None)], &[]),
        ];
        for (args, opts, ops) in cases {
            let p = parse(&s(args), SPECS).unwrap();
            let got: Vec<(&str, Option<&str>)> = p.opts.iter().map(|o| (o.key, o.val.as_deref())).collect();
            assert_eq!(&got[..], *opts, "args {:?}", args);
            assert_eq!(p.operands, s(ops), "args {:?}", args);
        }
    }

    #[test]
    fn reports_gnu_errors() {
        let cases: &[(&[&str], &str)] = &[
            (&["--bogus"], "unrecognized option '--bogus'"),
            (&["-z"], "invalid option -- 'z'"),
            (&["-n"], "option requires an argument -- 'n'"),
            (&["--lines"], "option '--lines' requires an argument"),
            (&["--all=x"], "option '--all' doesn't allow an argument"),
            (&["--ver"], "option '--ver' is ambiguous; possibilities: '--verbose' '--version-sort' '--version'"),
        ];
        for (args, msg) in cases {
            assert_eq!(parse(&s(args), SPECS).unwrap_err(), *msg, "args {:?}", args);
        }
    }
}
