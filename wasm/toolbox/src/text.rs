//! Small text helpers shared by several commands.

/// fnmatch(3) without flags: `*`, `?`, `[...]` (with `!`/`^` negation and
/// ranges) and `\` escapes; `*` also matches `/` (as grep's --include does).
pub fn glob_match(pat: &[u8], s: &[u8]) -> bool {
    let (mut p, mut i) = (0usize, 0usize);
    let (mut star_p, mut star_i) = (usize::MAX, 0usize);
    while i < s.len() {
        if p < pat.len() {
            match pat[p] {
                b'*' => {
                    star_p = p;
                    star_i = i;
                    p += 1;
                    continue;
                }
                b'?' => {
                    p += 1;
                    i += 1;
                    continue;
                }
                b'[' => {
                    if let Some((ok, next)) = class_match(pat, p, s[i], false) {
                        if ok {
                            p = next;
                            i += 1;
                            continue;
                        }
                    } else if s[i] == b'[' {
                        p += 1;
                        i += 1;
                        continue;
                    }
                }
                b'\\' if p + 1 < pat.len() => {
                    if pat[p + 1] == s[i] {
                        p += 2;
                        i += 1;
                        continue;
                    }
                }
                c => {
                    if c == s[i] {
                        p += 1;
                        i += 1;
                        continue;
                    }
                }
            }
        }
        if star_p != usize::MAX {
            p = star_p + 1;
            star_i += 1;
            i = star_i;
            continue;
        }
        return false;
    }
    while p < pat.len() && pat[p] == b'*' {
        p += 1;
    }
    p == pat.len()
}

/// Matches byte `c` against the bracket expression at `pat[start]`; returns
/// (matched, index after `]`), or None when the bracket is not closed.
pub fn class_match(pat: &[u8], start: usize, c: u8, icase: bool) -> Option<(bool, usize)> {
    let mut j = start + 1;
    let neg = j < pat.len() && (pat[j] == b'!' || pat[j] == b'^');
    if neg {
        j += 1;
    }
    // Case-insensitively, either case of `c` may match (ASCII only, as the globs are bytes).
    let cases = if icase { [c, c.to_ascii_lowercase(), c.to_ascii_uppercase()] } else { [c; 3] };
    let mut hit = false;
    let mut first = true;
    while j < pat.len() {
        if pat[j] == b']' && !first {
            return Some((hit != neg, j + 1));
        }
        first = false;
        let lo = pat[j];
        if j + 2 < pat.len() && pat[j + 1] == b'-' && pat[j + 2] != b']' {
            let hi = pat[j + 2];
            if cases.iter().any(|&x| lo <= x && x <= hi) {
                hit = true;
            }
            j += 3;
        } else {
            if cases.contains(&lo) {
                hit = true;
            }
            j += 1;
        }
    }
    None
}

/// cat -v notation for one byte.
pub fn push_visible(out: &mut Vec<u8>, b: u8) {
    let mut b = b;
    if b >= 128 {
        out.extend_from_slice(b"M-");
        b -= 128;
    }
    if b < 32 {
        out.push(b'^');
        out.push(b + 64);
    } else if b == 127 {
        out.extend_from_slice(b"^?");
    } else {
        out.push(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        let cases: &[(&str, &str, bool)] = &[
            ("*.rs", "main.rs", true),
            ("*.rs", "main.rsx", false),
            ("a?c", "abc", true),
            ("[ab]*", "beta", true),
            ("[!ab]*", "beta", false),
            ("[a-c]x", "bx", true),
            ("*", "", true),
            ("\\*", "*", true),
            ("*a*b", "xxaxxb", true),
            ("*a*b", "xxaxxc", false),
        ];
        for (p, s, want) in cases {
            assert_eq!(glob_match(p.as_bytes(), s.as_bytes()), *want, "{} {}", p, s);
        }
    }
}
