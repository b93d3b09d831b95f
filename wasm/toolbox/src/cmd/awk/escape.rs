//! awk's backslash escapes: in string literals (`\u` as gawk 5.3 has it), and
//! in regexes, where gawk turns `\t`, `\n`, ... into the characters and lets a
//! backslash quote `]`, `-`, `^` and `\` inside a bracket expression. The
//! regex pass rewrites such a bracket into the POSIX form (`]` first, `-`
//! last) that `regex_posix::translate` reads.

/// `\u` followed by up to 8 hex digits, as gawk 5.3 reads it: the code point,
/// or None without a digit (the caller keeps the `u`). Returns the char and
/// how many digits it used.
pub fn unicode(digits: &[char]) -> Option<(char, usize)> {
    let n = digits.iter().take(8).take_while(|c| c.is_ascii_hexdigit()).count();
    if n == 0 {
        return None;
    }
    let v = u32::from_str_radix(&digits[..n].iter().collect::<String>(), 16).ok()?;
    Some((char::from_u32(v).unwrap_or('\u{fffd}'), n))
}

/// The character a one-letter escape stands for in strings and regexes.
fn control(c: char) -> Option<char> {
    Some(match c {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        'a' => '\u{7}',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'v' => '\u{b}',
        _ => return None,
    })
}

/// Reads the escape at chars[i] (just after a backslash) that stands for one
/// character: a control letter, octal, `\u`, `\/` or `\"`. Returns it and the
/// index after it, or None when the escape means something to the regex.
fn char_escape(chars: &[char], i: usize) -> Option<(char, usize)> {
    let e = *chars.get(i)?;
    if let Some(c) = control(e) {
        return Some((c, i + 1));
    }
    match e {
        '/' | '"' => Some((e, i + 1)),
        '0'..='7' => {
            let n = chars[i..].iter().take(3).take_while(|c| matches!(c, '0'..='7')).count();
            let v = chars[i..i + n].iter().fold(0u32, |v, c| v * 8 + c.to_digit(8).unwrap_or(0));
            Some((char::from_u32(v).unwrap_or('?'), i + n))
        }
        'u' => unicode(&chars[i + 1..]).map(|(c, n)| (c, i + 1 + n)),
        _ => None,
    }
}

/// A literal character in an ERE, backslashed when the ERE gives it a meaning.
fn push_lit(out: &mut String, c: char) {
    if ".[]\\()*+?{}|^$".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

/// Rewrites an awk regex (literal or dynamic) into a POSIX ERE.
pub fn regex(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => match char_escape(&chars, i + 1) {
                Some((c, next)) => {
                    push_lit(&mut out, c);
                    i = next;
                }
                None => {
                    out.push('\\');
                    if let Some(&n) = chars.get(i + 1) {
                        out.push(n);
                    }
                    i += 2;
                }
            },
            '[' => i = bracket(&chars, i, &mut out),
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// One bracket expression starting at chars[i] == '['; returns the index after it.
/// An unterminated bracket is copied as it is (translate then reports it).
fn bracket(chars: &[char], start: usize, out: &mut String) -> usize {
    let mut i = start + 1;
    let negate = chars.get(i) == Some(&'^');
    if negate {
        i += 1;
    }
    let (mut close, mut dash, mut caret) = (false, false, false);
    let mut body = String::new();
    let mut first = true;
    loop {
        let c = match chars.get(i) {
            Some(&c) => c,
            None => {
                out.extend(&chars[start..]);
                return chars.len();
            }
        };
        if c == ']' && !first {
            break;
        }
        first = false;
        if c == '[' && matches!(chars.get(i + 1), Some(':' | '=' | '.')) {
            let kind = chars[i + 1];
            if let Some(end) = (i + 2..chars.len().saturating_sub(1)).find(|&j| chars[j] == kind && chars[j + 1] == ']') {
                body.extend(&chars[i..end + 2]);
                i = end + 2;
                continue;
            }
        }
        let (lit, next) = if c == '\\' {
            match char_escape(chars, i + 1) {
                Some(x) => x,
                None => match chars.get(i + 1) {
                    Some(&n) => (n, i + 2),
                    None => ('\\', i + 1),
                },
            }
        } else {
            (c, i + 1)
        };
        // an unescaped `-` between two characters is a range
        let range = c != '\\' && c == '-' && !body.is_empty() && chars.get(next) != Some(&']');
        i = next;
        match lit {
            '-' if range => body.push('-'),
            ']' => close = true,
            '-' => dash = true,
            '^' => caret = true,
            _ => body.push(lit),
        }
    }
    if !negate && !close && !dash && body.is_empty() && caret {
        out.push_str("\\^");
        return i + 1;
    }
    out.push('[');
    if negate {
        out.push('^');
    }
    if close {
        out.push(']');
    }
    out.push_str(&body);
    if caret {
        out.push('^');
    }
    if dash {
        out.push('-');
    }
    out.push(']');
    i + 1
}

#[cfg(test)]
mod tests {
    use super::regex;

    #[test]
    fn rewrites() {
        let cases = [
            (r"^[ \t]+|[ \t]+$", "^[ \t]+|[ \t]+$"),
            (r"[\]\-\^\\]", "[]\\^-]"),
            (r"a\.b\/c", "a\\.b/c"),
            (r"[a-z\]]", "[]a-z]"),
            (r"[^\t]", "[^\t]"),
            (r"[[:alpha:]_]", "[[:alpha:]_]"),
            (r"\u00e9+", "é+"),
            (r"x\.\u", "x\\.\\u"),
            (r"[\^]", "\\^"),
            (r"[", "["),
        ];
        for (src, want) in cases {
            assert_eq!(regex(src), want, "{}", src);
        }
    }
}
