//! Member names in tar: how they are printed (--quoting-style, --quote-chars, --no-quote-chars;
//! GNU's default is `escape`), read from -T lists (--unquote, the default, undoes those escapes)
//! with the -C before them, and matched component by component (--no-wildcards-match-slash).

use crate::ctx::{reason, Ctx};
use crate::fsx;

#[derive(Clone, Copy, PartialEq)]
pub enum Style {
    Literal,
    Escape,
    Shell,
    ShellAlways,
    C,
    CMaybe,
}

pub struct Quoting {
    pub style: Style,
    /// --quote-chars adds characters escaped with a backslash; --no-quote-chars takes them away.
    pub extra: Vec<char>,
}

pub fn style(word: &str) -> Option<Style> {
    Some(match word {
        "literal" => Style::Literal,
        "escape" => Style::Escape,
        "shell" | "shell-escape" => Style::Shell,
        "shell-always" | "shell-escape-always" => Style::ShellAlways,
        "c" | "locale" | "clocale" => Style::C,
        "c-maybe" => Style::CMaybe,
        _ => return None,
    })
}

/// One character in C's escape notation, or None when it prints as itself.
fn c_escape(c: char) -> Option<String> {
    Some(match c {
        '\\' => "\\\\".into(),
        '\n' => "\\n".into(),
        '\t' => "\\t".into(),
        '\r' => "\\r".into(),
        '\x07' => "\\a".into(),
        '\x08' => "\\b".into(),
        '\x0c' => "\\f".into(),
        '\x0b' => "\\v".into(),
        c if (c as u32) < 0x20 || c as u32 == 0x7f => format!("\\{:03o}", c as u32),
        _ => return None,
    })
}

impl Quoting {
    fn escaped(&self, name: &str, quote: Option<char>) -> String {
        let mut out = String::new();
        for c in name.chars() {
            match c_escape(c) {
                Some(e) => out.push_str(&e),
                None if Some(c) == quote || self.extra.contains(&c) => {
                    out.push('\\');
                    out.push(c);
                }
                None => out.push(c),
            }
        }
        out
    }

    pub fn quote(&self, name: &str) -> String {
        let plain = |c: char| c.is_ascii_alphanumeric() || "%+,-./:=@_^".contains(c);
        match self.style {
            Style::Literal => name.to_string(),
            Style::Escape => self.escaped(name, None),
            Style::C => format!("\"{}\"", self.escaped(name, Some('"'))),
            Style::CMaybe if name.chars().all(|c| c_escape(c).is_none() && c != '"') => name.to_string(),
            Style::CMaybe => format!("\"{}\"", self.escaped(name, Some('"'))),
            Style::Shell if !name.is_empty() && name.chars().all(plain) => name.to_string(),
            Style::Shell | Style::ShellAlways => format!("'{}'", name.replace('\'', "'\\''")),
        }
    }
}

/// Undoes C escapes in a -T name (`\n`, `\t`, `\\`, `\141`, ...), as GNU tar's --unquote.
pub fn unquote(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some(d @ '0'..='7') => {
                let mut v = d.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match it.peek().and_then(|n| n.to_digit(8)) {
                        Some(n) => {
                            v = v * 8 + n;
                            it.next();
                        }
                        None => break,
                    }
                }
                out.push(char::from_u32(v).unwrap_or('?'));
            }
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('a') => out.push('\x07'),
            Some('b') => out.push('\x08'),
            Some('f') => out.push('\x0c'),
            Some('v') => out.push('\x0b'),
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

/// Lines (or NUL-separated names) of the lists `files` (`-` is stdin), read from the directory
/// tar started in, as GNU does.
pub fn read_lists(ctx: &mut Ctx, files: &[&str], sep: u8) -> Result<Vec<String>, String> {
    let mut v = Vec::new();
    for f in files {
        let mut bytes = Vec::new();
        let r = if *f == "-" { std::io::Read::read_to_end(&mut ctx.stdin, &mut bytes).map(|_| ()) } else { std::fs::read(fsx::host(f)).map(|b| bytes = b) };
        r.map_err(|e| format!("{}: Cannot open: {}", f, reason(&e)))?;
        v.extend(bytes.split(|&b| b == sep).filter(|l| !l.is_empty()).map(|l| String::from_utf8_lossy(l).into_owned()));
    }
    Ok(v)
}

/// The names to store, in command-line order (operands, -T lists, --add-file), each with the
/// directory the -C options before it lead to: GNU's -C is positional, so `-T list -C d`
/// changes nothing for the names of `list`.
pub fn positional_names(ctx: &mut Ctx, p: &crate::args::Parsed, sep: u8, unquote: bool) -> Result<Vec<(String, Option<String>)>, String> {
    let mut out = Vec::new();
    let mut dir: Option<String> = None;
    let mut next = 0;
    for (k, o) in p.opts.iter().enumerate() {
        while next < p.operands.len() && p.operand_pos.get(next).map_or(true, |&at| at <= k) {
            out.push((p.operands[next].clone(), dir.clone()));
            next += 1;
        }
        let v = o.val.as_deref().unwrap_or("");
        match o.key {
            "C" => dir = Some(super::tar::at_dir(dir.as_deref(), v)),
            "add-file" => out.push((v.to_string(), dir.clone())),
            "T" => {
                for n in read_lists(ctx, &[v], sep)? {
                    out.push((if unquote { super::tarname::unquote(&n) } else { n }, dir.clone()));
                }
            }
            _ => {}
        }
    }
    out.extend(p.operands[next..].iter().map(|n| (n.clone(), dir.clone())));
    Ok(out)
}

/// fnmatch with FNM_PATHNAME: `*`, `?` and `[...]` match within one component.
pub fn glob_components(pat: &str, name: &str) -> bool {
    let (ps, ns): (Vec<&str>, Vec<&str>) = (pat.split('/').collect(), name.split('/').collect());
    ps.len() == ns.len() && ps.iter().zip(&ns).all(|(p, n)| crate::text::glob_match(p.as_bytes(), n.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles() {
        let q = |style, extra: &str| Quoting { style, extra: extra.chars().collect() };
        assert_eq!(q(Style::Escape, "").quote("a\\b\nc"), "a\\\\b\\nc");
        assert_eq!(q(Style::Escape, "a").quote("d/a.txt"), "d/\\a.txt");
        assert_eq!(q(Style::Literal, "").quote("a\\b"), "a\\b");
        assert_eq!(q(Style::Shell, "").quote("d/a.txt"), "d/a.txt");
        assert_eq!(q(Style::Shell, "").quote("it's"), "'it'\\''s'");
        assert_eq!(q(Style::C, "").quote("a\"b"), "\"a\\\"b\"");
        assert_eq!(unquote("d/\\141.txt\\n\\\\"), "d/a.txt\n\\");
    }
}
