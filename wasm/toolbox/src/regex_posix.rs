//! POSIX basic/extended regular expressions (GNU flavour) rewritten into
//! the `regex` crate's syntax. What the crate cannot do (back-references)
//! is refused with a clear message rather than matched differently.

fn push_lit(out: &mut String, c: char) {
    let mut b = [0u8; 4];
    out.push_str(&regex::escape(c.encode_utf8(&mut b)));
}

/// Copies a bracket expression starting at chars[i] == '['; returns the
/// index after its closing ']'.
fn bracket(chars: &[char], mut i: usize, out: &mut String) -> Result<usize, String> {
    out.push('[');
    i += 1;
    if i < chars.len() && chars[i] == '^' {
        out.push('^');
        i += 1;
    }
    // GNU's dfa: a '[' (or "[^") that ends the pattern is reported before any bracket is parsed.
    if i == chars.len() {
        return Err("Invalid regular expression".into());
    }
    let mut first = true;
    while i < chars.len() {
        let c = chars[i];
        if c == ']' && !first {
            out.push(']');
            return Ok(i + 1);
        }
        first = false;
        if c == '[' && i + 1 < chars.len() && matches!(chars[i + 1], ':' | '=' | '.') {
            let kind = chars[i + 1];
            let mut j = i + 2;
            while j + 1 < chars.len() && !(chars[j] == kind && chars[j + 1] == ']') {
                j += 1;
            }
            if j + 1 >= chars.len() {
                return Err("Unmatched [, [^, [:, [., or [=".into());
            }
            let name: String = chars[i + 2..j].iter().collect();
            if kind == ':' {
                const OK: [&str; 12] = ["alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl", "xdigit"];
                if !OK.contains(&name.as_str()) {
                    return Err("Invalid character class name".into());
                }
                out.push_str(&format!("[:{}:]", name));
            } else {
                for ch in name.chars() {
                    push_class_lit(out, ch);
                }
            }
            i = j + 2;
            continue;
        }
        push_class_lit(out, c);
        i += 1;
    }
    Err("Unmatched [, [^, [:, [., or [=".into())
}

fn push_class_lit(out: &mut String, c: char) {
    // Inside a POSIX bracket a backslash is literal; the crate also gives
    // '[', '&', '~' and '-' (when doubled) special meaning, so escape them.
    match c {
        '\\' | '[' | '&' | '~' => {
            out.push('\\');
            out.push(c);
        }
        _ => out.push(c),
    }
}

/// True when chars[i..] starts a valid interval `{m}`, `{m,}`, `{,n}`, `{m,n}`
/// (chars[i] is just after the opening brace); returns the index of '}'.
fn interval_end(chars: &[char], i: usize, bre: bool) -> Option<usize> {
    let mut j = i;
    let mut digits = 0;
    while j < chars.len() && chars[j].is_ascii_digit() {
        j += 1;
        digits += 1;
    }
    if j < chars.len() && chars[j] == ',' {
        j += 1;
        while j < chars.len() && chars[j].is_ascii_digit() {
            j += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return None;
    }
    if bre {
        if j + 1 < chars.len() && chars[j] == '\\' && chars[j + 1] == '}' {
            return Some(j);
        }
        return None;
    }
    if j < chars.len() && chars[j] == '}' {
        Some(j)
    } else {
        None
    }
}

/// Translates one pattern. `ere` selects extended syntax (grep -E).
pub fn translate(pat: &str, ere: bool) -> Result<String, String> {
    let chars: Vec<char> = pat.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    // True where a following '*' would have nothing to repeat (so is literal).
    let mut at_start = true;
    let mut depth = 0i32;
    while i < chars.len() {
        let c = chars[i];
        let was_start = at_start;
        at_start = false;
        match c {
            '[' => {
                i = bracket(&chars, i, &mut out)?;
                continue;
            }
            '\\' => {
                let n = match chars.get(i + 1) {
                    Some(n) => *n,
                    None => return Err("Trailing backslash".into()),
                };
                i += 2;
                match n {
                    '(' if !ere => {
                        out.push('(');
                        depth += 1;
                        at_start = true;
                    }
                    ')' if !ere => {
                        if depth == 0 {
                            return Err("Unmatched ) or \\)".into());
                        }
                        depth -= 1;
                        out.push(')');
                    }
                    '|' if !ere => {
                        out.push('|');
                        at_start = true;
                    }
                    '{' if !ere => match interval_end(&chars, i, true) {
                        Some(end) if !was_start => {
                            out.push('{');
                            out.extend(chars[i..end].iter());
                            out.push('}');
                            i = end + 2;
                        }
                        _ => return Err("Unmatched \\{".into()),
                    },
                    '+' | '?' if !ere => {
                        if was_start {
                            push_lit(&mut out, n);
                        } else {
                            out.push(n);
                        }
                    }
                    '<' | '>' => out.push_str("\\b"),
                    'b' | 'B' | 'w' | 'W' | 's' | 'S' => {
                        out.push('\\');
                        out.push(n);
                    }
                    '`' => out.push_str("\\A"),
                    '\'' => out.push_str("\\z"),
                    '1'..='9' => return Err("back-references (\\1-\\9) are not supported by this grep".into()),
                    'n' => out.push('\n'),
                    't' => push_lit(&mut out, 't'),
                    other => push_lit(&mut out, other),
                }
            }
            '^' => {
                if ere || was_start {
                    out.push('^');
                    at_start = true;
                } else {
                    push_lit(&mut out, '^');
                }
            }
            '$' => {
                let next_is_end = i + 1 == chars.len()
                    || (!ere && chars[i + 1] == '\\' && matches!(chars.get(i + 2), Some(')') | Some('|')));
                if ere || next_is_end {
                    out.push('$');
                } else {
                    push_lit(&mut out, '$');
                }
                i += 1;
                continue;
            }
            '*' => {
                if was_start {
                    push_lit(&mut out, '*');
                } else {
                    out.push('*');
                }
            }
            '+' | '?' if ere => {
                if was_start {
                    push_lit(&mut out, c);
                } else {
                    out.push(c);
                }
            }
            '{' if ere => match interval_end(&chars, i + 1, false) {
                Some(end) if !was_start => {
                    out.extend(chars[i..=end].iter());
                    i = end + 1;
                    continue;
                }
                _ => push_lit(&mut out, '{'),
            },
            '(' if ere => {
                out.push('(');
                depth += 1;
                at_start = true;
            }
            ')' if ere => {
                if depth == 0 {
                    push_lit(&mut out, ')');
                } else {
                    depth -= 1;
                    out.push(')');
                }
            }
            '|' if ere => {
                out.push('|');
                at_start = true;
            }
            '.' => out.push('.'),
            other => push_lit(&mut out, other),
        }
        if c != '\\' {
            i += 1;
        }
    }
    if depth > 0 {
        return Err("Unmatched ( or \\(".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::translate;

    #[test]
    fn bre_and_ere() {
        let ok: &[(&str, bool, &str)] = &[
            ("a\\(b\\)*", false, "a(b)*"),
            ("a(b)", false, "a\\(b\\)"),
            ("a|b", false, "a\\|b"),
            ("a\\|b", false, "a|b"),
            ("a\\{2\\}", false, "a{2}"),
            ("a{2}", true, "a{2}"),
            ("a{", true, "a\\{"),
            ("*a", false, "\\*a"),
            ("^*a", false, "^\\*a"),
            ("a^b$c", false, "a\\^b\\$c"),
            ("^ab$", false, "^ab$"),
            ("[]a]", false, "[]a]"),
            ("[^\\[]", false, "[^\\\\\\[]"),
            ("[[:digit:]]+", true, "[[:digit:]]+"),
            ("\\<w\\>", false, "\\bw\\b"),
            ("a\\.b", false, "a\\.b"),
            ("a+b?", false, "a\\+b\\?"),
            ("a\\+", false, "a+"),
            ("(a|b)+", true, "(a|b)+"),
        ];
        for (p, ere, want) in ok {
            assert_eq!(translate(p, *ere).as_deref(), Ok(*want), "{}", p);
            regex::bytes::Regex::new(want).unwrap();
        }
        assert!(translate("\\(a", false).is_err());
        assert!(translate("(a)\\1", true).is_err());
        assert!(translate("[abc", false).is_err());
        assert!(translate("a\\{1", false).is_err());
    }
}
