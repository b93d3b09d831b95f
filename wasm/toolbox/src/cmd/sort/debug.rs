//! --debug as GNU sort prints it in the C locale: warnings about the keys
//! before sorting, then under each output line (tabs shown as `>`) one row
//! per key underlining what it compared (`^ no match for key` when nothing),
//! and a row for the whole line when the last-resort comparison is on.

use super::{begfield, blank, limfield, Key, KeyOpts};

fn numeric(o: &KeyOpts) -> bool {
    o.n || o.g || o.h
}

/// GNU's key_to_opts order, for "option(s) '-X' (is|are) ignored".
fn letters(o: &KeyOpts, blanks: bool) -> String {
    let flags = [(blanks, 'b'), (o.d, 'd'), (o.f, 'f'), (o.g, 'g'), (o.h, 'h'), (o.i, 'i'), (o.m, 'M'), (o.n, 'n'), (o.rnd, 'R'), (o.r, 'r'), (o.v, 'V')];
    flags.iter().filter(|(on, _)| *on).map(|(_, c)| *c).collect()
}

/// The messages GNU prints before sorting. `keys_given`: some -k was used
/// (otherwise the one key is the global options').
pub fn warnings(keys: &[Key], global: &KeyOpts, keys_given: bool, tab: Option<u8>, stable: bool, unique: bool) -> Vec<String> {
    let mut out = vec!["text ordering performed using simple byte comparison".to_string()];
    // Global options no key took over.
    let mut unused = *global;
    let mut unused_blanks = global.b;
    let (mut basic, mut general, mut span) = (false, false, false);
    for (n, k) in keys.iter().enumerate() {
        let o = &k.o;
        if numeric(o) {
            if o.g {
                general = true;
            } else {
                basic = true;
            }
        }
        let zero_width = matches!(k.eword, Some(e) if e < k.sword);
        if zero_width {
            out.push(format!("key {} has zero width and will be ignored", n + 1));
        }
        let implicit_skip = numeric(o) || o.m;
        let line_offset = k.eword == Some(0) && k.echar != 0;
        if !zero_width && keys_given && tab.is_none() && !line_offset && ((!k.skip_sblanks && (!implicit_skip || k.schar > 0)) || (!k.skip_eblanks && k.echar > 0)) {
            out.push(format!("leading blanks are significant in key {}; consider also specifying 'b'", n + 1));
        }
        if keys_given && numeric(o) && k.eword.map_or(true, |e| k.sword < e) {
            out.push(format!("key {} is numeric and spans multiple fields", n + 1));
            span = true;
        }
        for (g, mine) in [(&mut unused.d, o.d), (&mut unused.f, o.f), (&mut unused.g, o.g), (&mut unused.h, o.h), (&mut unused.i, o.i), (&mut unused.m, o.m), (&mut unused.n, o.n), (&mut unused.rnd, o.rnd), (&mut unused.r, o.r), (&mut unused.v, o.v)] {
            if *g && mine {
                *g = false;
            }
        }
        if unused_blanks && (k.skip_sblanks || k.skip_eblanks) {
            unused_blanks = false;
        }
    }
    let mut decimal_warned = false;
    if span {
        match tab {
            Some(b'.') => {
                out.push("field separator '.' is treated as a decimal point in numbers".into());
                decimal_warned = true;
            }
            Some(b'-') => out.push("field separator '-' is treated as a minus sign in numbers".into()),
            Some(b'+') if general => out.push("field separator '+' is treated as a plus sign in numbers".into()),
            _ => {}
        }
    }
    if (basic || general) && !decimal_warned {
        let note = if tab == Some(b'.') { "" } else { "note " };
        out.push(format!("{}numbers use '.' as a decimal point in this locale", note));
    }
    let mut shown = unused;
    if !(stable || unique) {
        shown.r = false;
    }
    let ignored = letters(&shown, unused_blanks);
    if !ignored.is_empty() && (ignored != "r" || keys_given) {
        if ignored.len() == 1 {
            out.push(format!("option '-{}' is ignored", ignored));
        } else {
            out.push(format!("options '-{}' are ignored", ignored));
        }
    }
    if unused.r && !(stable || unique) && keys_given {
        out.push("option '-r' only applies to last-resort comparison".into());
    }
    out
}

/// Display columns GNU counts for `s` in the C locale: printable bytes and tabs.
fn width(s: &[u8]) -> usize {
    s.iter().filter(|&&c| c == b'\t' || (0x20..0x7f).contains(&c)).count()
}

/// End of the number starting at `p` (digits, then `.` and digits), and
/// whether it had a digit.
fn number_end(s: &[u8], mut p: usize) -> (usize, bool) {
    let start = p;
    while p < s.len() && s[p].is_ascii_digit() {
        p += 1;
    }
    let mut digits = p > start;
    if p < s.len() && s[p] == b'.' {
        p += 1;
        let frac = p;
        while p < s.len() && s[p].is_ascii_digit() {
            p += 1;
        }
        digits |= p > frac;
    }
    (p, digits)
}

/// The length of the prefix strtold would read as a number (0: none).
fn strtold_len(s: &[u8]) -> usize {
    let mut p = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    let rest = s[p..].to_ascii_lowercase();
    for word in [&b"infinity"[..], b"inf", b"nan"] {
        if rest.starts_with(word) {
            return p + word.len();
        }
    }
    let (end, digits) = number_end(s, p);
    if !digits {
        return 0;
    }
    p = end;
    if p < s.len() && (s[p] == b'e' || s[p] == b'E') {
        let mut q = p + 1;
        if q < s.len() && (s[q] == b'+' || s[q] == b'-') {
            q += 1;
        }
        let (e, exp_digits) = number_end(s, q);
        if exp_digits && !s[q..e].contains(&b'.') {
            p = e;
        }
    }
    p
}

/// Where key `k` begins and ends in `line` as --debug underlines it.
fn span(line: &[u8], k: &Key, tab: Option<u8>) -> (usize, usize) {
    let mut beg = begfield(line, k, tab);
    let lim = limfield(line, k, tab).max(beg);
    let o = &k.o;
    if !(o.m || numeric(o)) {
        return (beg, lim);
    }
    while beg < lim && blank(line[beg]) {
        beg += 1;
    }
    let key = &line[beg..lim];
    let len = if o.m {
        if super::month(key) > 0 {
            3
        } else {
            0
        }
    } else if o.g {
        strtold_len(key)
    } else {
        let sign = usize::from(key.first() == Some(&b'-'));
        match number_end(key, sign) {
            (end, true) => end + usize::from(o.h && matches!(key.get(end), Some(b'K' | b'k' | b'M' | b'G' | b'T' | b'P' | b'E' | b'Z' | b'Y' | b'R' | b'Q'))),
            _ => 0,
        }
    };
    (beg, beg + len)
}

fn mark(out: &mut Vec<u8>, offset: usize, width: usize) {
    out.extend(std::iter::repeat(b' ').take(offset));
    if width == 0 {
        out.extend_from_slice(b"^ no match for key\n");
    } else {
        out.extend(std::iter::repeat(b'_').take(width));
        out.push(b'\n');
    }
}

/// Whether the global options alone order like plain bytes, in which case
/// GNU keeps no key at all when no -k is given (one row per line).
pub fn plain(o: &KeyOpts) -> bool {
    !(o.b || o.d || o.f || o.i || numeric(o) || o.m || o.v || o.rnd)
}

/// `line` as --debug shows it, with its key rows; ends with a newline.
pub fn annotate(line: &[u8], keys: &[Key], tab: Option<u8>, last_resort: bool, out: &mut Vec<u8>) {
    out.extend(line.iter().map(|&c| if c == b'\t' { b'>' } else { c }));
    out.push(b'\n');
    for k in keys {
        let (b, e) = span(line, k, tab);
        mark(out, width(&line[..b]), width(&line[b..e]));
    }
    if last_resort {
        mark(out, 0, width(line));
    }
}
