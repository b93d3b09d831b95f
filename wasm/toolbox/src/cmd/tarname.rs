//! How tar prints member names (--quoting-style, --quote-chars, --no-quote-chars; GNU's default
//! is `escape`) and reads them from -T lists (--unquote, the default, undoes those escapes).

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
