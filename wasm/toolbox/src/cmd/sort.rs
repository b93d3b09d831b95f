//! sort [-bdfghiMnRrsuVzcC] [-k KEYDEF]... [-t SEP] [-o FILE] [FILE]...
//!
//! Keys follow GNU's field arithmetic (begfield/limfield) in the C locale.
//! Input is held as one buffer plus line offsets, which is the least a sort
//! can keep in memory; past the sort buffer (`-S`) sorted runs go to
//! temporary files (`-T`, else $TMPDIR, else /tmp) and are merged (spill.rs).

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::{fsx, input};
use std::cmp::Ordering;
use std::io::{BufRead, Write};

mod debug;
mod keyed;
mod random;
mod spill;
mod split;
mod staged;

const SPECS: &[Spec] = &[
    flag('b', "ignore-leading-blanks", "b"),
    flag('d', "dictionary-order", "d"),
    flag('f', "ignore-case", "f"),
    flag('g', "general-numeric-sort", "g"),
    flag('h', "human-numeric-sort", "h"),
    flag('i', "ignore-nonprinting", "i"),
    flag('M', "month-sort", "M"),
    flag('n', "numeric-sort", "n"),
    flag('r', "reverse", "r"),
    flag('V', "version-sort", "V"),
    val('\0', "sort", "sortword"),
    flag('c', "", "c"),
    optval('\0', "check", "check"),
    flag('C', "", "C"),
    val('k', "key", "k"),
    flag('m', "merge", "m"),
    val('o', "output", "o"),
    flag('s', "stable", "s"),
    val('t', "field-separator", "t"),
    flag('u', "unique", "u"),
    flag('z', "zero-terminated", "z"),
    val('S', "buffer-size", "S"),
    val('T', "temporary-directory", "T"),
    val('\0', "parallel", "ignored"),
    flag('R', "random-sort", "R"),
    val('\0', "random-source", "random-source"),
    // Both shape temporary files only: merges here read every input at
    // once and spilled runs stay uncompressed, so the output is the same.
    val('\0', "batch-size", "batch-size"),
    val('\0', "compress-program", "ignored"),
    flag('\0', "debug", "debug"),
];
const HELP: &str = "Usage: sort [OPTION]... [FILE]...\nWrite sorted concatenation of all FILE(s) to standard output.\n\nWith no FILE, or when FILE is -, read standard input.\n\nOrdering options:\n  -b, --ignore-leading-blanks  ignore leading blanks\n  -d, --dictionary-order      consider only blanks and alphanumeric characters\n  -f, --ignore-case           fold lower case to upper case characters\n  -g, --general-numeric-sort  compare according to general numerical value\n  -i, --ignore-nonprinting    consider only printable characters\n  -M, --month-sort            compare (unknown) < 'JAN' < ... < 'DEC'\n  -h, --human-numeric-sort    compare human readable numbers (e.g., 2K 1G)\n  -n, --numeric-sort          compare according to string numerical value\n  -R, --random-sort           shuffle, but group identical keys\n      --random-source=FILE    get random bytes from FILE\n  -r, --reverse               reverse the result of comparisons\n  -V, --version-sort          natural sort of (version) numbers within text\n\nOther options:\n  -c, --check                 check for sorted input; do not sort\n      --debug                 annotate the part of the line used to sort\n  -C, --check=quiet           like -c, but do not report first bad line\n  -k, --key=KEYDEF            sort via a key; KEYDEF gives location and type\n  -m, --merge                 merge already sorted files; do not sort\n  -o, --output=FILE           write result to FILE instead of standard output\n  -s, --stable                stabilize sort by disabling last-resort comparison\n  -t, --field-separator=SEP   use SEP instead of non-blank to blank transition\n  -u, --unique                output only the first of an equal run\n  -S, --buffer-size=SIZE      use SIZE for main memory buffer (b, K, M, G, %)\n      --batch-size=NMERGE     accepted (merges here read all inputs at once)\n      --compress-program=PROG  accepted; temporaries are not compressed\n  -T, --temporary-directory=DIR  use DIR for temporaries, not $TMPDIR or /tmp\n  -z, --zero-terminated       line delimiter is NUL, not newline\n\nKEYDEF is F[.C][OPTS][,F[.C][OPTS]] for start and stop position, where F is a\nfield number and C a character position in the field; both are origin 1, and\nthe stop position defaults to the line's end.  OPTS is one or more single-letter\nordering options [bdfgiMhnRrV], which override global ordering options for that key.\n";

#[derive(Clone, Copy, Default, PartialEq, Debug)]
pub struct KeyOpts {
    pub b: bool,
    pub d: bool,
    pub f: bool,
    pub g: bool,
    pub h: bool,
    pub i: bool,
    pub m: bool,
    pub n: bool,
    pub r: bool,
    pub v: bool,
    /// -R: ordered by a salted hash (random.rs).
    pub rnd: bool,
}

impl KeyOpts {
    fn set(&mut self, c: char) -> bool {
        match c {
            'b' => self.b = true,
            'd' => self.d = true,
            'f' => self.f = true,
            'g' => self.g = true,
            'h' => self.h = true,
            'i' => self.i = true,
            'M' => self.m = true,
            'n' => self.n = true,
            'r' => self.r = true,
            'V' => self.v = true,
            'R' => self.rnd = true,
            _ => return false,
        }
        true
    }
    fn any(&self) -> bool {
        *self != KeyOpts::default()
    }
}

#[derive(Clone, Debug)]
pub struct Key {
    /// 0-based start field and character offset.
    sword: usize,
    schar: usize,
    /// 0-based end field; None = end of line. echar 0 = end of that field.
    eword: Option<usize>,
    echar: usize,
    skip_sblanks: bool,
    skip_eblanks: bool,
    o: KeyOpts,
}

fn digits(s: &str) -> Option<(usize, &str)> {
    let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    if end == 0 {
        return None;
    }
    Some((s[..end].parse().ok()?, &s[end..]))
}

/// Parses KEYDEF; returns the message GNU prints for a bad one.
pub fn parse_key(spec: &str, global: &KeyOpts) -> Result<Key, String> {
    let bad = || format!("invalid number at field start: invalid count at start of {}", lq(spec));
    let (pos1, pos2) = match spec.split_once(',') {
        Some((a, b)) => (a, Some(b)),
        None => (spec, None),
    };
    let mut o = KeyOpts::default();
    let (f1, rest) = digits(pos1).ok_or_else(bad)?;
    if f1 == 0 {
        return Err(format!("field number is zero: invalid field specification {}", lq(spec)));
    }
    let (c1, rest) = match rest.strip_prefix('.') {
        Some(r) => digits(r).ok_or_else(bad)?,
        None => (1, rest),
    };
    if c1 == 0 {
        return Err(format!("character offset is zero: invalid field specification {}", lq(spec)));
    }
    let mut sb = false;
    for c in rest.chars() {
        if c == 'b' {
            sb = true;
        }
        if !o.set(c) {
            return Err(format!("stray character in field spec: invalid field specification {}", lq(spec)));
        }
    }
    let (mut eword, mut echar, mut eb) = (None, 0, false);
    if let Some(p2) = pos2 {
        let (f2, rest) = digits(p2).ok_or_else(|| format!("invalid number after ',': invalid count at start of {}", lq(p2)))?;
        if f2 == 0 {
            return Err(format!("field number is zero: invalid field specification {}", lq(spec)));
        }
        let (c2, rest) = match rest.strip_prefix('.') {
            Some(r) => digits(r).ok_or_else(bad)?,
            None => (0, rest),
        };
        for c in rest.chars() {
            if c == 'b' {
                eb = true;
            }
            if !o.set(c) {
                return Err(format!("stray character in field spec: invalid field specification {}", lq(spec)));
            }
        }
        eword = Some(f2 - 1);
        echar = c2;
    }
    // A key with no ordering options of its own inherits the global ones.
    let inherit = !o.any();
    if inherit {
        o = *global;
        sb = global.b;
        eb = global.b;
    }
    Ok(Key { sword: f1 - 1, schar: c1 - 1, eword, echar, skip_sblanks: sb, skip_eblanks: eb, o })
}

fn blank(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn begfield(line: &[u8], k: &Key, tab: Option<u8>) -> usize {
    let lim = line.len();
    let mut p = 0;
    let mut sword = k.sword;
    match tab {
        Some(t) => {
            while p < lim && sword > 0 {
                while p < lim && line[p] != t {
                    p += 1;
                }
                if p < lim {
                    p += 1;
                }
                sword -= 1;
            }
        }
        None => {
            while p < lim && sword > 0 {
                while p < lim && blank(line[p]) {
                    p += 1;
                }
                while p < lim && !blank(line[p]) {
                    p += 1;
                }
                sword -= 1;
            }
        }
    }
    if k.skip_sblanks {
        while p < lim && blank(line[p]) {
            p += 1;
        }
    }
    (p + k.schar).min(lim)
}

fn limfield(line: &[u8], k: &Key, tab: Option<u8>) -> usize {
    let lim = line.len();
    let mut eword = match k.eword {
        None => return lim,
        Some(e) => e,
    };
    let echar = k.echar;
    if echar == 0 {
        eword += 1;
    }
    let mut p = 0;
    match tab {
        Some(t) => {
            while p < lim && eword > 0 {
                eword -= 1;
                while p < lim && line[p] != t {
                    p += 1;
                }
                if p < lim && (eword > 0 || echar > 0) {
                    p += 1;
                }
            }
        }
        None => {
            while p < lim && eword > 0 {
                eword -= 1;
                while p < lim && blank(line[p]) {
                    p += 1;
                }
                while p < lim && !blank(line[p]) {
                    p += 1;
                }
            }
        }
    }
    if echar != 0 {
        if k.skip_eblanks {
            while p < lim && blank(line[p]) {
                p += 1;
            }
        }
        p = (p + echar).min(lim);
    }
    p
}

/// Exact comparison of decimal numbers as -n reads them (leading blanks,
/// optional '-', digits, optional fraction); anything else counts as 0.
fn numcmp(a: &[u8], b: &[u8]) -> Ordering {
    let pa = parse_num(a);
    let pb = parse_num(b);
    cmp_num(&pa, &pb)
}

struct Num<'a> {
    neg: bool,
    int: &'a [u8],
    frac: &'a [u8],
}

fn parse_num(s: &[u8]) -> Num<'_> {
    let mut i = 0;
    while i < s.len() && blank(s[i]) {
        i += 1;
    }
    let neg = i < s.len() && s[i] == b'-';
    if neg {
        i += 1;
    }
    let is = i;
    while i < s.len() && s[i].is_ascii_digit() {
        i += 1;
    }
    let mut int = &s[is..i];
    while int.first() == Some(&b'0') {
        int = &int[1..];
    }
    let mut frac: &[u8] = &[];
    if i < s.len() && s[i] == b'.' {
        let fs = i + 1;
        let mut j = fs;
        while j < s.len() && s[j].is_ascii_digit() {
            j += 1;
        }
        frac = &s[fs..j];
        while frac.last() == Some(&b'0') {
            frac = &frac[..frac.len() - 1];
        }
    }
    let zero = int.is_empty() && frac.is_empty();
    Num { neg: neg && !zero, int, frac }
}

fn cmp_num(a: &Num, b: &Num) -> Ordering {
    match (a.neg, b.neg) {
        (false, true) => return Ordering::Greater,
        (true, false) => return Ordering::Less,
        _ => {}
    }
    let mag = a.int.len().cmp(&b.int.len()).then_with(|| a.int.cmp(b.int)).then_with(|| a.frac.cmp(b.frac));
    if a.neg {
        mag.reverse()
    } else {
        mag
    }
}

fn suffix_rank(s: &[u8]) -> u8 {
    let mut i = 0;
    while i < s.len() && (blank(s[i]) || s[i] == b'-') {
        i += 1;
    }
    while i < s.len() && (s[i].is_ascii_digit() || s[i] == b'.') {
        i += 1;
    }
    match s.get(i) {
        Some(b'k') | Some(b'K') => 1,
        Some(b'M') => 2,
        Some(b'G') => 3,
        Some(b'T') => 4,
        Some(b'P') => 5,
        Some(b'E') => 6,
        Some(b'Z') => 7,
        Some(b'Y') => 8,
        _ => 0,
    }
}

fn human_cmp(a: &[u8], b: &[u8]) -> Ordering {
    let (na, nb) = (parse_num(a), parse_num(b));
    let sign = |n: &Num| if n.neg { -1 } else if n.int.is_empty() && n.frac.is_empty() { 0 } else { 1 };
    let (sa, sb) = (sign(&na), sign(&nb));
    if sa != sb {
        return sa.cmp(&sb);
    }
    let r = suffix_rank(a).cmp(&suffix_rank(b)).then_with(|| cmp_num(&na, &nb));
    if sa < 0 {
        // Within negatives a bigger suffix means a smaller number.
        suffix_rank(b).cmp(&suffix_rank(a)).then_with(|| cmp_num(&na, &nb))
    } else {
        r
    }
}

/// strtod-like prefix parse; None when no number starts the field.
fn general(s: &[u8]) -> Option<f64> {
    let t = std::str::from_utf8(s).ok()?.trim_start();
    let mut end = 0;
    let mut best = None;
    for (i, _) in t.char_indices().chain(std::iter::once((t.len(), ' '))) {
        if i == 0 {
            continue;
        }
        if let Ok(v) = t[..i].parse::<f64>() {
            best = Some(v);
            end = i;
        } else if i > end + 4 {
            break;
        }
    }
    best
}

fn general_cmp(a: &[u8], b: &[u8]) -> Ordering {
    match (general(a), general(b)) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some(x), Some(y)) => {
            if x.is_nan() || y.is_nan() {
                x.is_nan().cmp(&y.is_nan()).reverse()
            } else {
                x.partial_cmp(&y).unwrap_or(Ordering::Equal)
            }
        }
    }
}

fn month(s: &[u8]) -> u8 {
    const M: [&[u8]; 12] = [b"JAN", b"FEB", b"MAR", b"APR", b"MAY", b"JUN", b"JUL", b"AUG", b"SEP", b"OCT", b"NOV", b"DEC"];
    let t: Vec<u8> = s.iter().skip_while(|c| blank(**c)).take(3).map(|c| c.to_ascii_uppercase()).collect();
    M.iter().position(|m| *m == &t[..]).map(|i| i as u8 + 1).unwrap_or(0)
}

/// Debian-style version comparison of alternating text and number runs;
/// `~` sorts before anything, letters before other characters.
pub fn version_cmp(a: &[u8], b: &[u8]) -> Ordering {
    fn order(c: Option<&u8>) -> i32 {
        match c {
            None => 0,
            Some(b'~') => -1,
            Some(c) if c.is_ascii_digit() => 0,
            Some(c) if c.is_ascii_alphabetic() => *c as i32,
            Some(c) => *c as i32 + 256,
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        while (i < a.len() && !a[i].is_ascii_digit()) || (j < b.len() && !b[j].is_ascii_digit()) {
            let (x, y) = (order(a.get(i)), order(b.get(j)));
            if x != y {
                return x.cmp(&y);
            }
            i += 1;
            j += 1;
        }
        while i < a.len() && a[i] == b'0' {
            i += 1;
        }
        while j < b.len() && b[j] == b'0' {
            j += 1;
        }
        let (si, sj) = (i, j);
        while i < a.len() && a[i].is_ascii_digit() {
            i += 1;
        }
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let r = (i - si).cmp(&(j - sj)).then_with(|| a[si..i].cmp(&b[sj..j]));
        if r != Ordering::Equal {
            return r;
        }
    }
    Ordering::Equal
}

/// The bytes of a key that -d and -i keep, folded by -f.
fn filtered<'a>(key: &'a [u8], o: &'a KeyOpts) -> impl Iterator<Item = u8> + 'a {
    let keep = move |c: &&u8| {
        let c = **c;
        (!o.d || c.is_ascii_alphanumeric() || blank(c)) && (!o.i || (0x20..0x7f).contains(&c))
    };
    key.iter().filter(keep).map(move |c| if o.f { c.to_ascii_uppercase() } else { *c })
}

fn text_cmp(a: &[u8], b: &[u8], o: &KeyOpts) -> Ordering {
    if !(o.d || o.f || o.i) {
        return a.cmp(b);
    }
    filtered(a, o).cmp(filtered(b, o))
}

/// -R hashes the key as -d/-f/-i leave it, as GNU does.
fn random_key<'a>(key: &'a [u8], o: &KeyOpts) -> std::borrow::Cow<'a, [u8]> {
    if o.d || o.f || o.i {
        std::borrow::Cow::Owned(filtered(key, o).collect())
    } else {
        std::borrow::Cow::Borrowed(key)
    }
}

fn key_cmp(a: &[u8], b: &[u8], o: &KeyOpts) -> Ordering {
    let r = if o.n {
        numcmp(a, b)
    } else if o.h {
        human_cmp(a, b)
    } else if o.g {
        general_cmp(a, b)
    } else if o.m {
        month(a).cmp(&month(b))
    } else if o.rnd {
        random::cmp(&random_key(a, o), &random_key(b, o))
    } else if o.v {
        version_cmp(a, b)
    } else {
        text_cmp(a, b, o)
    };
    if o.r {
        r.reverse()
    } else {
        r
    }
}

pub struct Sorter {
    pub keys: Vec<Key>,
    pub tab: Option<u8>,
    pub stable: bool,
    pub reverse: bool,
}

impl Sorter {
    /// Key comparison only (what -u uses to call lines equal).
    pub fn keys_cmp(&self, a: &[u8], b: &[u8]) -> Ordering {
        for k in &self.keys {
            let field = |l: &'_ [u8]| -> (usize, usize) {
                let b = begfield(l, k, self.tab);
                (b, limfield(l, k, self.tab).max(b))
            };
            let ((ab, ae), (bb, be)) = (field(a), field(b));
            let (ka, kb, o) = (&a[ab..ae], &b[bb..be], k.o);
            let r = key_cmp(ka, kb, &o);
            if r != Ordering::Equal {
                return r;
            }
        }
        Ordering::Equal
    }
    pub fn cmp(&self, a: &[u8], b: &[u8]) -> Ordering {
        let r = self.keys_cmp(a, b);
        if r != Ordering::Equal || self.stable {
            return r;
        }
        let r = a.cmp(b);
        if self.reverse {
            r.reverse()
        } else {
            r
        }
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 2);
    let mut g = KeyOpts::default();
    for f in &p.opts {
        if f.key.len() == 1 {
            g.set(f.key.chars().next().unwrap());
        }
        if f.key == "sortword" {
            match f.val.as_deref().unwrap_or("") {
                "numeric" => g.n = true,
                "human-numeric" => g.h = true,
                "general-numeric" => g.g = true,
                "month" => g.m = true,
                "version" => g.v = true,
                w => {
                    ctx.diag.usage(format!("invalid argument {} for '--sort'", lq(w)));
                    return Ok(2);
                }
            }
        }
    }
    if let Some(b) = p.last("batch-size") {
        match b.parse::<u64>() {
            Ok(n) if n >= 2 => {}
            Ok(_) => {
                ctx.diag.error(format!("invalid --batch-size argument {}", lq(b)));
                ctx.diag.error(format!("minimum --batch-size argument is {}", q("2")));
                return Ok(2);
            }
            Err(_) => {
                ctx.diag.error(format!("invalid --batch-size argument {}", lq(b)));
                return Ok(2);
            }
        }
    }
    let tab = match p.last("t") {
        None => None,
        Some(t) if t.len() == 1 => Some(t.as_bytes()[0]),
        Some("\\0") => Some(0),
        Some("") => {
            ctx.diag.error("empty tab");
            return Ok(2);
        }
        Some(t) => {
            ctx.diag.error(format!("multi-character tab {}", q(t)));
            return Ok(2);
        }
    };
    let mut keys = Vec::new();
    for k in p.all("k") {
        match parse_key(k, &g) {
            Ok(k) => keys.push(k),
            Err(m) => {
                ctx.diag.error(m);
                return Ok(2);
            }
        }
    }
    if keys.is_empty() {
        keys.push(Key { sword: 0, schar: 0, eword: None, echar: 0, skip_sblanks: g.b, skip_eblanks: g.b, o: g });
    }
    if keys.iter().any(|k| k.o.rnd) {
        if let Err(m) = random::seed(p.last("random-source")) {
            ctx.diag.error(m);
            return Ok(2);
        }
    }
    let sorter = Sorter { keys, tab, stable: p.has("s") || p.has("u"), reverse: g.r };
    let debug = p.has("debug");
    let keys_given = !p.all("k").is_empty();
    // The keys --debug shows: none when GNU would keep none.
    let shown_keys = if debug && (keys_given || !debug::plain(&g)) { &sorter.keys[..] } else { &[] };
    if debug && (p.has("c") || p.has("C") || p.has("check") || p.has("o")) {
        let c = if p.has("C") || matches!(p.last("check"), Some("quiet") | Some("silent")) { "-C" } else if p.has("o") && !(p.has("c") || p.has("check")) { "-o" } else { "-c" };
        ctx.diag.error(format!("options '{} --debug' are incompatible", c));
        return Ok(2);
    }
    if debug {
        for w in debug::warnings(shown_keys, &g, keys_given, tab, p.has("s"), p.has("u")) {
            ctx.diag.warn(w);
        }
        // Before any line, as GNU writes them (stderr is buffered here).
        ctx.diag.raw().flush()?;
    }
    let delim = if p.has("z") { 0u8 } else { b'\n' };
    let check = p.has("c") || p.has("C") || p.has("check");
    let quiet = p.has("C") || matches!(p.last("check"), Some("quiet") | Some("silent"));
    let files = input::or_stdin(&p.operands);
    if check && files.len() > 1 {
        super::extra_operand(ctx, &files[1]);
        return Ok(2);
    }
    if check {
        return check_sorted(ctx, &sorter, &files[0], delim, p.has("u"), quiet);
    }
    if p.has("m") {
        let shown = if debug { Some(shown_keys) } else { None };
        return merge_sorted(ctx, &sorter, &files, delim, p.has("u"), p.last("o"), shown);
    }
    let budget = match p.last("S") {
        None => spill::DEFAULT_BUFFER,
        Some(s) => match spill::buffer_size(s) {
            Some(n) => n,
            None => {
                ctx.diag.error(format!("invalid -S argument {}", lq(s)));
                return Ok(2);
            }
        },
    };
    let unique = p.has("u");
    let tmp = p.last("T").map(str::to_string).or_else(|| std::env::var("TMPDIR").ok().filter(|s| !s.is_empty())).unwrap_or_else(|| "/tmp".into());
    let mut runs = spill::Runs::new(tmp);
    // Read into one buffer; each line is a range into it. When the buffer
    // is full, its complete lines are sorted out to a run and the partial
    // last line moves to the front.
    let mut data = Vec::new();
    let mut lines: Vec<(usize, usize)> = Vec::new();
    let sizes: u64 = files.iter().filter(|n| *n != "-").filter_map(|n| std::fs::metadata(fsx::host(n)).ok()).map(|m| m.len()).sum();
    // Room for the whole input up front when it fits: no doubling and copying while reading.
    data.reserve((sizes as usize).min(budget).saturating_add(input::BUF));
    let mut rest = 0;
    for name in &files {
        let mut r = match input::open(ctx.stdin, name) {
            Ok(r) => r,
            Err(e) => {
                ctx.diag.error(format!("cannot read: {}: {}", name, reason(&e)));
                return Ok(2);
            }
        };
        loop {
            let n = match r.fill_buf() {
                Ok(b) => {
                    data.extend_from_slice(b);
                    b.len()
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    ctx.diag.error(format!("read failed: {}: {}", name, reason(&e)));
                    return Ok(2);
                }
            };
            if n == 0 {
                break;
            }
            r.consume(n);
            rest = split::lines(&data, rest, delim, &mut lines);
            if data.len() + lines.len() * spill::LINE_COST > budget && !lines.is_empty() {
                if let Err(e) = runs.spill(&sorter, &data, &lines, unique, delim) {
                    return spill_failed(&mut ctx.diag, e);
                }
                data.drain(..rest);
                lines.clear();
                rest = 0;
            }
        }
        if rest < data.len() {
            // Unterminated last line: sort output terminates it.
            lines.push((rest, data.len()));
            data.push(delim);
            rest = data.len();
        }
    }
    let to_file = p.last("o").map(|s| s.to_string());
    if !runs.is_empty() {
        if !lines.is_empty() {
            if let Err(e) = runs.spill(&sorter, &data, &lines, unique, delim) {
                return spill_failed(&mut ctx.diag, e);
            }
        }
        drop(lines);
        drop(data);
        // Every input has been read, so `-o` may name one of them.
        let res = match to_file.as_deref() {
            None | Some("-") => runs.merge_into(&sorter, &mut ctx.out, unique, delim),
            Some(f) => match std::fs::File::create(fsx::host(f)) {
                Ok(file) => {
                    let mut w = std::io::BufWriter::with_capacity(input::BUF, file);
                    runs.merge_into(&sorter, &mut w, unique, delim).and_then(|_| w.flush().map_err(spill::SpillError::Out))
                }
                Err(e) => {
                    ctx.diag.error(format!("open failed: {}: {}", f, reason(&e)));
                    return Ok(2);
                }
            },
        };
        return match res {
            Ok(()) => Ok(0),
            Err(e) => spill_failed(&mut ctx.diag, e),
        };
    }
    let line = |r: &(usize, usize)| &data[r.0..r.1];
    let mut engine = keyed::Sorted::new(&sorter, &data, &lines);
    engine.sort();
    let mut file_out: Vec<u8> = Vec::new();
    let mut staged = staged::Staged::new();
    let mut prev: Option<&keyed::Item> = None;
    for item in &engine.items {
        if unique {
            if let Some(pr) = prev {
                if engine.same_keys(pr, item) {
                    continue;
                }
            }
        }
        let l = line(&lines[item.line as usize]);
        if debug {
            let mut shown = Vec::new();
            debug::annotate(l, shown_keys, sorter.tab, !sorter.stable || shown_keys.is_empty(), &mut shown);
            shown.pop();
            staged.line(&mut ctx.out, &shown, b'\n')?;
        } else if to_file.is_some() {
            // Kept until all input is read, so `-o` may name an input.
            file_out.extend_from_slice(l);
            file_out.push(delim);
        } else {
            staged.line(&mut ctx.out, l, delim)?;
        }
        prev = Some(item);
    }
    staged.flush(&mut ctx.out)?;
    if let Some(f) = to_file {
        // Written only after all input is read, so `-o` may name an input.
        let res = if f == "-" { ctx.out.write_all(&file_out) } else { std::fs::write(fsx::host(&f), &file_out) };
        if let Err(e) = res {
            ctx.diag.error(format!("open failed: {}: {}", f, reason(&e)));
            return Ok(2);
        }
    }
    Ok(0)
}

/// -m: the inputs are taken as sorted already and merged line by line (the
/// smallest head first, the earlier file on ties), as GNU does; unsorted input
/// is not sorted.
/// `debug`: the keys --debug shows under each line.
fn merge_sorted(ctx: &mut Ctx, sorter: &Sorter, files: &[String], delim: u8, unique: bool, to_file: Option<&str>, debug: Option<&[Key]>) -> Res {
    let mut inputs: Vec<Vec<Vec<u8>>> = Vec::new();
    for name in files {
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("cannot read: {}: {}", name, reason(&e)));
            return Ok(2);
        }
        if matches!(data.last(), Some(&c) if c != delim) {
            data.push(delim);
        }
        let mut lines: Vec<Vec<u8>> = data.split(|&c| c == delim).map(|l| l.to_vec()).collect();
        lines.pop();
        lines.reverse();
        inputs.push(lines);
    }
    let mut out: Vec<u8> = Vec::new();
    let mut prev: Option<Vec<u8>> = None;
    loop {
        let mut best: Option<usize> = None;
        for (i, l) in inputs.iter().enumerate() {
            if let Some(head) = l.last() {
                if best.map_or(true, |b| sorter.cmp(head, inputs[b].last().unwrap()) == Ordering::Less) {
                    best = Some(i);
                }
            }
        }
        let b = match best {
            Some(b) => b,
            None => break,
        };
        let line = inputs[b].pop().unwrap();
        if unique && prev.as_ref().map_or(false, |p| sorter.keys_cmp(p, &line) == Ordering::Equal) {
            continue;
        }
        match debug {
            Some(keys) => debug::annotate(&line, keys, sorter.tab, !sorter.stable || keys.is_empty(), &mut out),
            None => {
                out.extend_from_slice(&line);
                out.push(delim);
            }
        }
        prev = Some(line);
    }
    // Written only after every input is read, so `-o` may name one of them.
    match to_file {
        None | Some("-") => ctx.out.write_all(&out)?,
        Some(f) => {
            if let Err(e) = std::fs::write(fsx::host(f), &out) {
                ctx.diag.error(format!("open failed: {}: {}", f, reason(&e)));
                return Ok(2);
            }
        }
    }
    Ok(0)
}

/// GNU's words for a failed spill; the temporary files are removed by `Runs`.
fn spill_failed(diag: &mut crate::ctx::Diag, e: spill::SpillError) -> Res {
    match e {
        spill::SpillError::Temp(dir, e) => {
            diag.error(format!("cannot create temporary file in {}: {}", q(&dir), reason(&e)));
            Ok(2)
        }
        spill::SpillError::Out(e) => Err(e),
    }
}

/// -c/-C: compares each line with the one before it as the input streams by.
fn check_sorted(ctx: &mut Ctx, sorter: &Sorter, name: &str, delim: u8, unique: bool, quiet: bool) -> Res {
    let mut r = match input::open(ctx.stdin, name) {
        Ok(r) => r,
        Err(e) => {
            ctx.diag.error(format!("cannot read: {}: {}", name, reason(&e)));
            return Ok(2);
        }
    };
    let mut prev: Vec<u8> = Vec::new();
    let mut n = 0usize;
    let mut bad: Option<(usize, Vec<u8>)> = None;
    let res = input::each_record(&mut r, delim, |rec| {
        let (line, _) = input::chomp(rec, delim);
        n += 1;
        if n > 1 {
            let c = sorter.cmp(&prev, line);
            if c == Ordering::Greater || (unique && sorter.keys_cmp(&prev, line) == Ordering::Equal) {
                bad = Some((n, line.to_vec()));
                return Ok(false);
            }
        }
        prev.clear();
        prev.extend_from_slice(line);
        Ok(true)
    });
    if let Err(e) = res {
        ctx.diag.error(format!("read failed: {}: {}", name, reason(&e)));
        return Ok(2);
    }
    match bad {
        None => Ok(0),
        Some((at, line)) => {
            if !quiet {
                ctx.diag.error(format!("{}:{}: disorder: {}", name, at, String::from_utf8_lossy(&line)));
            }
            Ok(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::version_cmp;
    use crate::testutil::{check, check_err, read, tmpdir, write};
    use std::cmp::Ordering;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], "b\na\nc\n", "a\nb\nc\n"),
            (&[], "b\na", "a\nb\n"),
            (&["-r"], "b\na\nc\n", "c\nb\na\n"),
            (&["-n"], "10\n9\n-1\n1.5\nx\n", "-1\nx\n1.5\n9\n10\n"),
            (&["-rn"], "10\n9\n100\n", "100\n10\n9\n"),
            (&["-h"], "1G\n10K\n2M\n5\n", "5\n10K\n2M\n1G\n"),
            (&["-g"], "1e3\n5\nabc\n-2.5\n", "abc\n-2.5\n5\n1e3\n"),
            (&["-V"], "a10\na2\na1.10\na1.9\n", "a1.9\na1.10\na2\na10\n"),
            (&["-f"], "b\nA\na\nB\n", "A\na\nB\nb\n"),
            (&["-u"], "b\na\nb\na\n", "a\nb\n"),
            (&["-fu"], "a\nA\nb\n", "a\nb\n"),
            (&["-M"], "Mar\nJan\nfoo\nFEB\n", "foo\nJan\nFEB\nMar\n"),
            (&["-k2"], "x b\ny a\n", "y a\nx b\n"),
            (&["-k2n"], "x 10\ny 9\n", "y 9\nx 10\n"),
            (&["-t", ",", "-k2,2"], "3,b,a\n2,a,y\n1,b,z\n", "2,a,y\n1,b,z\n3,b,a\n"),
            (&["-t", ",", "-k2,2", "-s"], "3,b,a\n2,a,y\n1,b,z\n", "2,a,y\n3,b,a\n1,b,z\n"),
            (&["-t:", "-k3n", "-k1,1r"], "a:x:2\nb:x:1\nc:x:2\n", "b:x:1\nc:x:2\na:x:2\n"),
            (&["-k1.2,1.2"], "ab\nba\naa\n", "aa\nba\nab\n"),
            (&["-b", "-k2"], "a   z\nb y\n", "b y\na   z\n"),
            (&["-d"], "a-c\nab\n", "ab\na-c\n"),
            (&["-z"], "b\0a\0", "a\0b\0"),
            (&["-nk2", "-t", " "], "a 3\nb 1\nc 2\n", "b 1\nc 2\na 3\n"),
            (&[], "", ""),
            (&["-n"], "", ""),
            (&["-u"], "", ""),
            (&[], "\n\n", "\n\n"),
            (&[], "b\r\na\r\nb\n", "a\r\nb\nb\r\n"),
            (&[], "b\0x\na\0y\na\n", "a\na\0y\nb\0x\n"),
            (&["-z"], "b\nx\0a\ny\0a", "a\0a\ny\0b\nx\0"),
            // Numbers -n reads as zero tie, and the whole line decides.
            (&["-n"], " -0\n0\n-0.0\n+1\n 1\n1,5\n-\n.\n", " -0\n+1\n-\n-0.0\n.\n0\n 1\n1,5\n"),
            // Beyond 17 integer digits or one fraction digit the exact path decides.
            (&["-n"], "123456789012345679\n123456789012345678\n1.25\n1.2\n1.21\n", "1.2\n1.21\n1.25\n123456789012345678\n123456789012345679\n"),
            (&["-rn"], "-1.5\n-1.55\n-1.45\n", "-1.45\n-1.5\n-1.55\n"),
            // Keys sharing their first 8 bytes, shorter and longer than 8.
            (&[], "abcdefghb\nabcdefgh\nabcdefgha\nabcdefg\n", "abcdefg\nabcdefgh\nabcdefgha\nabcdefghb\n"),
            (&["-u"], "abc\nabc\nabcdefghij\nabcdefghij\nab\n", "ab\nabc\nabcdefghij\n"),
            (&["-s", "-k1,1"], "b 2\na 9\nb 1\na 3\n", "a 9\na 3\nb 2\nb 1\n"),
            (&["-u", "-k1,1"], "b 2\na 9\nb 1\na 3\n", "a 9\nb 2\n"),
            (&["-t", " ", "-k2,2", "-k1,1n"], "3 x\n10 y\n2 x\n-1 y\n", "2 x\n3 x\n-1 y\n10 y\n"),
        ];
        for (args, input, out) in cases {
            check("sort", args, input, out, 0);
        }
    }

    #[test]
    fn check_output_and_errors() {
        check("sort", &["-c"], "a\nb\n", "", 0);
        check_err("sort", &["-c"], "a\nc\nb\n", "sort: -:3: disorder: b\n", 1);
        check_err("sort", &["-C"], "b\na\n", "", 1);
        check_err("sort", &["-k", "0"], "", "sort: field number is zero: invalid field specification ‘0’\n", 2);
        check_err("sort", &["--bogus"], "", "sort: unrecognized option '--bogus'\nTry 'sort --help' for more information.\n", 2);
        let d = tmpdir();
        let f = format!("{}/f", d);
        write(&f, "2\n1\n");
        check("sort", &["-o", &f, &f], "", "", 0);
        assert_eq!(read(&f), "1\n2\n");
    }

    /// Whole files bigger than the 64 KiB read buffer, with lines of every
    /// length around it, a file lacking its last newline, and output far
    /// beyond one staged write.
    #[test]
    fn big_files() {
        let d = tmpdir();
        let (f1, f2) = (format!("{}/one", d), format!("{}/two", d));
        let mut one = String::new();
        for (k, len) in [65535usize, 65536, 65537, 10, 0, 131072, 7, 8, 9].iter().enumerate() {
            let c = (b'z' - k as u8) as char;
            one.push_str(&c.to_string().repeat(*len));
            one.push('\n');
        }
        for i in 0..20_000 {
            one.push_str(&format!("{}\n", (i * 7919) % 10_007));
        }
        one.push_str("no newline");
        let two = "b\na\nno newline\n".repeat(1000);
        write(&f1, &one);
        write(&f2, &two);
        let mut all: Vec<&str> = one.lines().chain(two.lines()).collect();
        all.sort();
        let want: String = all.iter().map(|l| format!("{}\n", l)).collect();
        check("sort", &[&f1, &f2], "", &want, 0);
        all.dedup();
        let want_u: String = all.iter().map(|l| format!("{}\n", l)).collect();
        check("sort", &["-u", &f1, &f2], "", &want_u, 0);
        check("sort", &["-u"], &format!("{}\n{}", one, two), &want_u, 0);
    }

    /// Inputs past a tiny -S buffer are sorted through spilled runs and
    /// merged (more than MAX_MERGE of them, so merges fold first); the
    /// result must be the in-memory sort's for every option that matters
    /// to merging: -u, -s with keys, -r, -n, -z, -o naming the input, -T.
    #[test]
    fn spilled_runs_merge_like_the_in_memory_sort() {
        let d = tmpdir();
        let mut text = String::new();
        for i in 0..6000u64 {
            let x = (i * 7919 + 13) % 1009;
            text.push_str(&format!("{} k{} {}\n", x, x % 17, i % 3));
        }
        text.push_str("no newline 5");
        let cases: &[&[&str]] = &[&[], &["-u"], &["-n"], &["-rn"], &["-s", "-k2,2"], &["-u", "-k2,2"], &["-t", " ", "-k3,3n", "-k1,1"], &["-z"]];
        for args in cases {
            let (code, want, _) = crate::testutil::run("sort", args, &text);
            assert_eq!(code, 0);
            let mut spilled: Vec<&str> = vec!["-S", "1K", "-T", &d];
            spilled.extend_from_slice(args);
            check("sort", &spilled, &text, &want, 0);
        }
        // Nothing is left behind in the temporary directory.
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0);
        let f = format!("{}/in", d);
        write(&f, &text);
        let (_, want, _) = crate::testutil::run("sort", &["-n", &f], "");
        check("sort", &["-S", "2K", "-T", &d, "-n", "-o", &f, &f], "", "", 0);
        assert_eq!(read(&f), want);
        check_err("sort", &["-S", "1K", "-T", &format!("{}/missing", d)], &text, &format!("sort: cannot create temporary file in '{}/missing': No such file or directory\n", d), 2);
        check_err("sort", &["-S", "x"], "", "sort: invalid -S argument ‘x’\n", 2);
        assert_eq!(super::spill::buffer_size("10M"), Some(10 << 20));
        assert_eq!(super::spill::buffer_size("4096b"), Some(4096));
        assert_eq!(super::spill::buffer_size("50%"), Some(32 << 20));
        assert_eq!(super::spill::buffer_size("2"), Some(2048));
        assert_eq!(super::spill::buffer_size("1Q"), None);
    }

    #[test]
    fn check_streams() {
        check_err("sort", &["-c", "-n"], "1\n2\n10\n3\n", "sort: -:4: disorder: 3\n", 1);
        check_err("sort", &["-cu"], "a\nb\nb\n", "sort: -:3: disorder: b\n", 1);
        check("sort", &["-c"], "a\nb\nc", "", 0);
    }

    /// -R with --random-source and --debug; outputs from GNU sort 9.1 (C locale).
    #[test]
    fn random_source_and_debug() {
        let d = tmpdir();
        let salt = format!("{}/salt", d);
        write(&salt, "one\ntwo\nthree\nfour\nfive\n");
        let words = "apple 3\nbanana 1\nApple 2\ncherry 5\nbanana 1\napple 3\n";
        let src = format!("--random-source={}", salt);
        check("sort", &[&src, "-R"], words, "cherry 5\nApple 2\napple 3\napple 3\nbanana 1\nbanana 1\n", 0);
        check("sort", &[&src, "-R", "-k2,2"], words, "cherry 5\nbanana 1\nbanana 1\napple 3\napple 3\nApple 2\n", 0);
        write(&salt, "short\n");
        check_err("sort", &[&src, "-R"], words, &format!("sort: '{}': end of file\n", salt), 2);
        check("sort", &["--debug", "-k2,2n"], "b 10\na x\n", "a x\n  ^ no match for key\n___\nb 10\n  __\n____\n", 0);
        check_err("sort", &["--debug", "-k2,2n"], "", "sort: text ordering performed using simple byte comparison\nsort: note numbers use '.' as a decimal point in this locale\n", 0);
        check_err("sort", &["--debug", "-c"], "", "sort: options '-c --debug' are incompatible\n", 2);
    }

    #[test]
    fn versions() {
        assert_eq!(version_cmp(b"1.2.10", b"1.2.9"), Ordering::Greater);
        assert_eq!(version_cmp(b"1.0~rc1", b"1.0"), Ordering::Less);
        assert_eq!(version_cmp(b"file2", b"file10"), Ordering::Less);
    }
}
