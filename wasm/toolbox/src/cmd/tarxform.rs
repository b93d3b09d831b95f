//! tar's --transform (--xform): sed-style `s/REGEX/REPL/[gix]` expressions,
//! several separated by ';' or given as several options, applied in order
//! to member names as they are stored or extracted.

use regex::{Regex, RegexBuilder};

pub struct Transform {
    re: Regex,
    repl: String,
    global: bool,
}

/// sed replacement syntax (`&`, `\1`) in the regex crate's (`${0}`, `${1}`).
fn replacement(raw: &str) -> String {
    let mut out = String::new();
    let mut it = raw.chars();
    while let Some(c) = it.next() {
        match c {
            '&' => out.push_str("${0}"),
            '$' => out.push_str("$$"),
            '\\' => match it.next() {
                Some(d) if d.is_ascii_digit() => out.push_str(&format!("${{{}}}", d)),
                Some('n') => out.push('\n'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            },
            o => out.push(o),
        }
    }
    out
}

/// Parses one --transform argument (which may hold several expressions).
pub fn parse(arg: &str) -> Result<Vec<Transform>, String> {
    let mut out = Vec::new();
    let mut rest = arg;
    while !rest.is_empty() {
        let body = rest.strip_prefix('s').ok_or_else(|| format!("Invalid transform expression {:?}: only s/REGEX/REPLACEMENT/[gix] is supported", arg))?;
        let d = body.chars().next().ok_or_else(|| format!("Invalid transform expression {:?}", arg))?;
        let mut fields = Vec::new();
        let mut cur = String::new();
        let mut chars = body[d.len_utf8()..].char_indices();
        let mut end = None;
        while let Some((i, c)) = chars.next() {
            if c == '\\' {
                if let Some((_, n)) = chars.next() {
                    if n != d {
                        cur.push('\\');
                    }
                    cur.push(n);
                }
            } else if c == d {
                fields.push(std::mem::take(&mut cur));
                if fields.len() == 2 {
                    end = Some(d.len_utf8() + i + 1);
                    break;
                }
            } else {
                cur.push(c);
            }
        }
        let end = end.ok_or_else(|| format!("Invalid transform expression {:?}: unterminated s command", arg))?;
        let tail = &body[end..];
        let flag_len = tail.find(';').unwrap_or(tail.len());
        let flags = &tail[..flag_len];
        if let Some(bad) = flags.chars().find(|c| !"gixrsShH".contains(*c) && !c.is_ascii_digit()) {
            return Err(format!("Unknown flag in transform expression: {}", bad));
        }
        let pattern = crate::regex_posix::translate(&fields[0], flags.contains('x')).map_err(|e| format!("Invalid transform expression {:?}: {}", arg, e))?;
        let re = RegexBuilder::new(&pattern).case_insensitive(flags.contains('i')).build().map_err(|e| format!("Invalid transform expression {:?}: {}", arg, e))?;
        out.push(Transform { re, repl: replacement(&fields[1]), global: flags.contains('g') });
        rest = tail[flag_len..].trim_start_matches(';');
    }
    Ok(out)
}

pub fn apply(ts: &[Transform], name: &str) -> String {
    let mut s = name.to_string();
    for t in ts {
        s = if t.global { t.re.replace_all(&s, t.repl.as_str()).into_owned() } else { t.re.replace(&s, t.repl.as_str()).into_owned() };
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{apply, parse};

    #[test]
    fn table() {
        let cases: &[(&str, &str, &str)] = &[
            ("s/^src/pkg/", "src/a.c", "pkg/a.c"),
            ("s,^,prefix/,", "a/b", "prefix/a/b"),
            ("s/a/A/g", "banana", "bAnAnA"),
            ("s/\\(.*\\)\\.txt/\\1.md/", "x/y.txt", "x/y.md"),
            ("s/x/[&]/", "axb", "a[x]b"),
            ("s/A/z/i;s/b/B/", "ab", "zB"),
            ("s|\\([a-z]*\\)-\\([0-9]*\\)|\\2-\\1|x", "v-12", "v-12"),
            ("s|([a-z]*)-([0-9]*)|\\2-\\1|x", "v-12", "12-v"),
        ];
        for (expr, name, want) in cases {
            let t = parse(expr).unwrap_or_else(|e| panic!("{}: {}", expr, e));
            assert_eq!(apply(&t, name), *want, "{}", expr);
        }
        assert!(parse("y/a/b/").is_err());
        assert!(parse("s/a/b").is_err());
    }
}
