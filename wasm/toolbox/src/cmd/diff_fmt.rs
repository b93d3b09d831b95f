//! diff's other output styles, as GNU diffutils prints them: side by side (-y, -W,
//! --left-column, --suppress-common-lines), ed scripts (-e), RCS (-n), and the group/line
//! formats (--LTYPE-line-format, --GTYPE-group-format, --line-format, -D NAME).

use super::{File, Hunk};

/// What -y needs: total width, tab size, whether tabs are expanded, and the two switches.
pub(super) struct Side {
    pub(super) width: usize,
    pub(super) tabsize: usize,
    pub(super) expand: bool,
    pub(super) left_column: bool,
    pub(super) suppress_common: bool,
}

/// Pads from column `from` to `to` with tabs (unless expanding) then spaces.
fn tab_from_to(out: &mut Vec<u8>, mut from: usize, to: usize, s: &Side) -> usize {
    if !s.expand {
        let mut tab = from + s.tabsize - from % s.tabsize;
        while tab <= to {
            out.push(b'\t');
            from = tab;
            tab += s.tabsize;
        }
    }
    while from < to {
        out.push(b' ');
        from += 1;
    }
    to
}

/// One half of a side-by-side line cut at `bound` columns; returns the column reached.
fn half_line(out: &mut Vec<u8>, line: &[u8], indent: usize, bound: usize, s: &Side) -> usize {
    let (mut inp, mut outp) = (0usize, 0usize);
    for &c in line {
        match c {
            b'\t' => {
                let spaces = s.tabsize - (inp + indent) % s.tabsize;
                if outp == inp {
                    let mut stop = outp + spaces;
                    if s.expand {
                        stop = stop.min(bound);
                        while outp < stop {
                            out.push(b' ');
                            outp += 1;
                        }
                    } else if stop < bound {
                        outp = stop;
                        out.push(c);
                    }
                }
                inp += spaces;
            }
            b'\r' => {
                out.push(c);
                tab_from_to(out, 0, indent, s);
                inp = 0;
                outp = 0;
            }
            0x0b | 0x0c => out.push(c),
            // UTF-8 continuation bytes take no column.
            0x80..=0xbf => {
                if inp <= bound && outp == inp && inp > 0 {
                    out.push(c);
                }
            }
            _ => {
                if inp < bound {
                    out.push(c);
                    outp = inp + 1;
                }
                inp += 1;
            }
        }
    }
    outp
}

fn sdiff_line(out: &mut Vec<u8>, left: Option<(&[u8], bool)>, mut sep: u8, right: Option<(&[u8], bool)>, s: &Side) {
    let t = if s.expand { 1 } else { s.tabsize };
    let off = (s.width + t + 3) / (2 * t) * t;
    let hw = off.saturating_sub(3).min(s.width.saturating_sub(off));
    let c2o = if hw < off { off } else { s.width };
    let mut col = 0;
    let mut newline = false;
    if let Some((l, nl)) = left {
        newline |= nl;
        col = half_line(out, l, 0, hw, s);
    }
    if sep != b' ' {
        col = tab_from_to(out, col, (hw + c2o - 1) / 2, s) + 1;
        if let (b'|', Some((_, rnl))) = (sep, right) {
            if newline != rnl {
                sep = if newline { b'/' } else { b'\\' };
            }
        }
        out.push(sep);
    }
    if let Some((r, nl)) = right {
        newline |= nl;
        if !r.is_empty() {
            col = tab_from_to(out, col, c2o, s);
            half_line(out, r, col, hw, s);
        }
    }
    if newline {
        out.push(b'\n');
    }
}

fn with_nl(f: &File, i: usize) -> (&[u8], bool) {
    (&f.lines[i], !(f.no_nl && i + 1 == f.lines.len()))
}

pub(super) fn side_by_side(fa: &File, fb: &File, hunks: &[Hunk], s: &Side) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    let common = |out: &mut Vec<u8>, i: &mut usize, j: &mut usize, to_i: usize, to_j: usize| {
        while *i < to_i && *j < to_j {
            if !s.suppress_common {
                if s.left_column {
                    sdiff_line(out, Some(with_nl(fa, *i)), b'(', None, s);
                } else {
                    sdiff_line(out, Some(with_nl(fa, *i)), b' ', Some(with_nl(fb, *j)), s);
                }
            }
            *i += 1;
            *j += 1;
        }
    };
    for &(a0, a1, b0, b1) in hunks {
        common(&mut out, &mut i, &mut j, a0, b0);
        let (mut x, mut y) = (a0, b0);
        while x < a1 && y < b1 {
            sdiff_line(&mut out, Some(with_nl(fa, x)), b'|', Some(with_nl(fb, y)), s);
            x += 1;
            y += 1;
        }
        while y < b1 {
            sdiff_line(&mut out, None, b'>', Some(with_nl(fb, y)), s);
            y += 1;
        }
        while x < a1 {
            sdiff_line(&mut out, Some(with_nl(fa, x)), b'<', None, s);
            x += 1;
        }
        i = a1;
        j = b1;
    }
    common(&mut out, &mut i, &mut j, fa.lines.len(), fb.lines.len());
    out
}

fn ed_range(a: usize, b: usize) -> String {
    if b - a == 1 { format!("{}", a + 1) } else { format!("{},{}", a + 1, b) }
}

/// -e: ed commands, last change first, so line numbers stay right as they apply.
pub(super) fn ed(fb: &File, hunks: &[Hunk]) -> Vec<u8> {
    let mut out = Vec::new();
    for &(a0, a1, b0, b1) in hunks.iter().rev() {
        let cmd = if a0 == a1 { format!("{}a", a0) } else if b0 == b1 { format!("{}d", ed_range(a0, a1)) } else { format!("{}c", ed_range(a0, a1)) };
        out.extend_from_slice(cmd.as_bytes());
        out.push(b'\n');
        if b0 < b1 {
            for y in b0..b1 {
                // A lone "." would end the text: ed writes it as ".." and fixes it after.
                out.extend_from_slice(&fb.lines[y]);
                out.push(b'\n');
            }
            out.extend_from_slice(b".\n");
        }
    }
    out
}

/// -n: RCS commands, first change first, numbered in the original file.
pub(super) fn rcs(fb: &File, hunks: &[Hunk]) -> Vec<u8> {
    let mut out = Vec::new();
    for &(a0, a1, b0, b1) in hunks {
        if a0 < a1 {
            out.extend_from_slice(format!("d{} {}\n", a0 + 1, a1 - a0).as_bytes());
        }
        if b0 < b1 {
            out.extend_from_slice(format!("a{} {}\n", a1, b1 - b0).as_bytes());
            for y in b0..b1 {
                out.extend_from_slice(&fb.lines[y]);
                // RCS text ends where the file does: no newline added to an incomplete last line.
                if !(fb.no_nl && y + 1 == fb.lines.len()) {
                    out.push(b'\n');
                }
            }
        }
    }
    out
}

/// --*-line-format and --*-group-format (and -D, which is made of them).
pub(super) struct Formats {
    /// Line formats: old, new, unchanged.
    pub(super) line: [String; 3],
    /// Group formats: old, new, unchanged, changed.
    pub(super) group: [String; 4],
}

impl Formats {
    /// GNU's defaults for what was not given: line "%l\n"; old and new groups fall back on the
    /// changed one, which is otherwise old's then new's.
    pub(super) fn new(line: [Option<String>; 3], group: [Option<String>; 4]) -> Formats {
        let line = line.map(|l| l.unwrap_or_else(|| "%l\n".into()));
        let [old, new, unchanged, changed] = group;
        let old = old.or_else(|| changed.clone()).unwrap_or_else(|| "%<".into());
        let new = new.or_else(|| changed.clone()).unwrap_or_else(|| "%>".into());
        let changed = changed.unwrap_or_else(|| format!("{}{}", old, new));
        Formats { line, group: [old, new, unchanged.unwrap_or_else(|| "%=".into()), changed] }
    }

    pub(super) fn ifdef(name: &str) -> Formats {
        let n = name;
        Formats::new(
            [None, None, None],
            [
                Some(format!("#ifndef {n}\n%<#endif /* ! {n} */\n")),
                Some(format!("#ifdef {n}\n%>#endif /* {n} */\n")),
                Some("%=".into()),
                Some(format!("#ifndef {n}\n%<#else /* {n} */\n%>#endif /* {n} */\n")),
            ],
        )
    }
}

/// `%c'X'` and `%c'\OOO'`: the character, and how many bytes of `f` it took.
fn char_directive(f: &[u8]) -> Option<(u8, usize)> {
    let rest = f.strip_prefix(b"c'")?;
    if rest.first() == Some(&b'\\') {
        let digits: Vec<u8> = rest[1..].iter().take_while(|c| (b'0'..=b'7').contains(c)).take(3).cloned().collect();
        let v = u8::from_str_radix(std::str::from_utf8(&digits).ok()?, 8).ok()?;
        (rest.get(1 + digits.len()) == Some(&b'\'')).then_some((v, 2 + 1 + digits.len() + 1))
    } else {
        (rest.get(1) == Some(&b'\'')).then(|| (rest[0], 4))
    }
}

/// A printf-style number directive (`%5dn`, `%xE`): (text, bytes of `f` it took).
fn num_directive(f: &[u8], value: &dyn Fn(u8) -> Option<i64>) -> Option<(String, usize)> {
    let spec_len = f.iter().take_while(|c| b"-+ #0123456789".contains(c)).count();
    let conv = *f.get(spec_len)?;
    let letter = *f.get(spec_len + 1)?;
    if !b"doxX".contains(&conv) {
        return None;
    }
    let v = value(letter)?;
    let spec = std::str::from_utf8(&f[..spec_len]).ok()?;
    let width: usize = spec.trim_start_matches(['-', '0', '+', ' ', '#']).parse().unwrap_or(0);
    let body = match conv {
        b'o' => format!("{:o}", v),
        b'x' => format!("{:x}", v),
        b'X' => format!("{:X}", v),
        _ => v.to_string(),
    };
    let text = if spec.contains('-') {
        format!("{:<w$}", body, w = width)
    } else if spec.starts_with('0') {
        format!("{:0>w$}", body, w = width)
    } else {
        format!("{:>w$}", body, w = width)
    };
    Some((text, spec_len + 2))
}

/// Copies a format to `out`: `own` prints the directives of its kind (`%l`, `%<`...) and says
/// whether it knew the letter; `%%`, `%c'X'` and number directives (`value` of a letter) are common.
fn expand(out: &mut Vec<u8>, fmt: &[u8], mut own: impl FnMut(&mut Vec<u8>, u8) -> bool, value: impl Fn(u8) -> Option<i64>) {
    let mut k = 0;
    while k < fmt.len() {
        if fmt[k] != b'%' {
            out.push(fmt[k]);
            k += 1;
            continue;
        }
        let rest = &fmt[k + 1..];
        match rest.first() {
            Some(b'%') => out.push(b'%'),
            Some(&c) if own(out, c) => {}
            _ => {
                if let Some((c, n)) = char_directive(rest) {
                    out.push(c);
                    k += 1 + n;
                } else if let Some((t, n)) = num_directive(rest, &value) {
                    out.extend_from_slice(t.as_bytes());
                    k += 1 + n;
                } else {
                    out.push(b'%');
                    k += 1;
                }
                continue;
            }
        }
        k += 2;
    }
}

fn put_line(out: &mut Vec<u8>, fmt: &str, f: &File, i: usize) {
    let own = |out: &mut Vec<u8>, c: u8| {
        match c {
            b'l' => out.extend_from_slice(&f.lines[i]),
            b'L' => {
                out.extend_from_slice(&f.lines[i]);
                if !(f.no_nl && i + 1 == f.lines.len()) {
                    out.push(b'\n');
                }
            }
            _ => return false,
        }
        true
    };
    expand(out, fmt.as_bytes(), own, |l| (l == b'n').then_some(i as i64 + 1));
}

/// Output through the group and line formats: every stretch of the files, changed or not.
pub(super) fn formatted(fa: &File, fb: &File, hunks: &[Hunk], f: &Formats) -> Vec<u8> {
    let mut out = Vec::new();
    // kind: 0 old only, 1 new only, 2 unchanged, 3 changed.
    let group = |out: &mut Vec<u8>, kind: usize, a0: usize, a1: usize, b0: usize, b1: usize| {
        let fmt = f.group[kind].as_bytes();
        let numbers = |l: u8| -> Option<i64> {
            let (s, e) = if l.is_ascii_lowercase() { (a0, a1) } else { (b0, b1) };
            Some(match l.to_ascii_lowercase() {
                b'f' => s as i64 + 1,
                b'l' => e as i64,
                b'm' => s as i64,
                b'e' => e as i64 + 1,
                b'n' => (e - s) as i64,
                _ => return None,
            })
        };
        let own = |out: &mut Vec<u8>, c: u8| {
            match c {
                b'<' => (a0..a1).for_each(|x| put_line(out, &f.line[0], fa, x)),
                b'>' => (b0..b1).for_each(|y| put_line(out, &f.line[1], fb, y)),
                b'=' => (a0..a1).for_each(|x| put_line(out, &f.line[2], fa, x)),
                _ => return false,
            }
            true
        };
        expand(out, fmt, own, numbers);
    };
    let (mut i, mut j) = (0, 0);
    for &(a0, a1, b0, b1) in hunks {
        if i < a0 {
            group(&mut out, 2, i, a0, j, b0);
        }
        let kind = match (a0 < a1, b0 < b1) {
            (true, false) => 0,
            (false, true) => 1,
            _ => 3,
        };
        group(&mut out, kind, a0, a1, b0, b1);
        i = a1;
        j = b1;
    }
    if i < fa.lines.len() {
        group(&mut out, 2, i, fa.lines.len(), j, fb.lines.len());
    }
    out
}
