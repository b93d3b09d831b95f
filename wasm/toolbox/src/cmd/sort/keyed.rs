//! The sorting engine behind `sort`: every key is located and digested once
//! per line, so the comparator mostly compares integers instead of finding
//! fields and parsing numbers again in each of the ~n log n comparisons.
//!
//! Each key gets a 64-bit "rank" per line that never contradicts the key's
//! real order (rank(a) < rank(b) implies key(a) < key(b)); only equal ranks
//! need the exact comparison, which runs on precomputed ranges. The ordering
//! is exactly `Sorter::cmp`'s; `tests::same_order_as_sorter` checks that.

use super::{blank, cmp_num, general, key_cmp, month, parse_num, Key, KeyOpts, Num, Sorter};
use super::{begfield, limfield};
use std::cmp::Ordering;

/// How a key compares, in `key_cmp`'s order of precedence.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// -n: rank is a coarse value; ties go to the exact digit comparison.
    Numeric,
    /// -g and -M: the rank is the whole comparison.
    ExactRank,
    /// Plain or -d/-f/-i text: rank is the first 8 compared bytes.
    Text,
    /// -h and -V: no rank; compared by `key_cmp` on the stored range.
    Other,
    /// -R: rank is the head of the salted digest; ties go to `key_cmp`.
    Random,
}

struct KeyData {
    kind: Kind,
    /// The key's own options with `r` cleared; reversal is applied here.
    opts: KeyOpts,
    reverse: bool,
    /// Plain text (no -d/-f/-i): rank ties are settled by `aux`, the length.
    plain: bool,
    /// Per line: the key's byte range in the input buffer.
    range: Vec<(u32, u32)>,
    /// Per line: rank and aux, side by side so a comparison touches one
    /// place. Empty for the first key, whose values live in `Sorted::items`.
    digests: Vec<(u64, u32)>,
}

/// One line to sort, carrying its first key's digest so most comparisons
/// never leave the array being sorted.
#[derive(Clone, Copy)]
pub struct Item {
    rank: u64,
    pub line: u32,
    /// What settles a rank tie cheaply: the key's length for plain text,
    /// 1 for a -n number the rank holds exactly; else 0.
    aux: u32,
}

/// Lines of `data` (as `(start, end)` ranges without the delimiter) and
/// everything precomputed to sort them by `sorter`'s rules.
pub struct Sorted<'a> {
    data: &'a [u8],
    lines: &'a [(usize, usize)],
    keys: Vec<KeyData>,
    stable: bool,
    reverse: bool,
    /// The only key is the whole line as plain text, so equal keys mean
    /// equal lines and the last-resort comparison can be skipped.
    whole_line: bool,
    /// Input order until `sort` runs.
    pub items: Vec<Item>,
}

impl<'a> Sorted<'a> {
    pub fn new(sorter: &Sorter, data: &'a [u8], lines: &'a [(usize, usize)]) -> Self {
        // Offsets and line numbers are kept as u32: wasm32 memory cannot
        // hold more, and native builds only run the tests.
        assert!(data.len() <= u32::MAX as usize, "sort input over 4 GiB");
        let mut items = Vec::with_capacity(lines.len());
        let mut keys = Vec::with_capacity(sorter.keys.len());
        for (n, k) in sorter.keys.iter().enumerate() {
            let key = if n == 0 {
                digest(k, sorter.tab, data, lines, |i, rank, aux| items.push(Item { rank, line: i as u32, aux }))
            } else {
                let mut digests = Vec::with_capacity(lines.len());
                let mut key = digest(k, sorter.tab, data, lines, |_, r, x| digests.push((r, x)));
                key.digests = digests;
                key
            };
            keys.push(key);
        }
        let k0 = &sorter.keys[0];
        let whole_line = keys.len() == 1
            && keys[0].kind == Kind::Text
            && keys[0].plain
            && (k0.sword, k0.schar, k0.eword, k0.skip_sblanks) == (0, 0, None, false);
        Sorted { data, lines, keys, stable: sorter.stable, reverse: sorter.reverse, whole_line, items }
    }

    /// Sorts `items`: by first-key rank with a radix sort, then each run
    /// of equal ranks with the full comparison. Unstable sorting is safe
    /// there: the comparison only says Equal for byte-identical lines, or
    /// (stable mode) never, as it then falls back on input position.
    pub fn sort(&mut self) {
        let mut items = std::mem::take(&mut self.items);
        radix_sort(&mut items, self.keys[0].reverse);
        // Reused for runs sorted by their second key's digest.
        let mut by_second: Vec<((u64, u32), Item)> = Vec::new();
        let mut start = 0;
        while start < items.len() {
            let rank = items[start].rank;
            let mut end = start + 1;
            while end < items.len() && items[end].rank == rank {
                end += 1;
            }
            let run = &mut items[start..end];
            if run.len() > 1 {
                if self.keys.len() > 1 && self.first_key_settled(run) {
                    // The first key is equal throughout: gather the second
                    // key's digests once instead of in every comparison.
                    let second = &self.keys[1];
                    by_second.clear();
                    by_second.extend(run.iter().map(|it| (second.digests[it.line as usize], *it)));
                    let rev = second.reverse;
                    by_second.sort_unstable_by(|(da, a), (db, b)| {
                        if da.0 != db.0 {
                            let r = da.0.cmp(&db.0);
                            return if rev { r.reverse() } else { r };
                        }
                        self.cmp_lines_from(1, a, b, *da, *db)
                    });
                    for (slot, (_, it)) in run.iter_mut().zip(by_second.iter()) {
                        *slot = *it;
                    }
                } else {
                    run.sort_unstable_by(|a, b| self.cmp_lines(a, b));
                }
            }
            start = end;
        }
        self.items = items;
    }

    /// Whether the first key compares equal across a run of equal ranks
    /// (its tie-breaks would all say Equal).
    fn first_key_settled(&self, run: &[Item]) -> bool {
        let k = &self.keys[0];
        match k.kind {
            Kind::ExactRank => true,
            Kind::Numeric => run.iter().all(|it| it.aux == 1),
            Kind::Text if k.plain => run.iter().all(|it| it.aux == run[0].aux && it.aux <= 8),
            _ => false,
        }
    }

    /// Whether two items have equal keys (what -u calls the same line).
    pub fn same_keys(&self, a: &Item, b: &Item) -> bool {
        self.keys_cmp(a, b) == Ordering::Equal
    }

    fn keys_cmp(&self, a: &Item, b: &Item) -> Ordering {
        self.keys_cmp_from(0, a, b, (a.rank, a.aux), (b.rank, b.aux))
    }

    /// Compares keys `first..` of two items, given key `first`'s digests
    /// (the first key's live in the items, later ones in `digests`).
    fn keys_cmp_from(&self, first: usize, a: &Item, b: &Item, da: (u64, u32), db: (u64, u32)) -> Ordering {
        let (i, j) = (a.line as usize, b.line as usize);
        for (n, k) in self.keys.iter().enumerate().skip(first) {
            let ((ra, xa), (rb, xb)) = if n == first { (da, db) } else { (k.digests[i], k.digests[j]) };
            let r = match ra.cmp(&rb) {
                Ordering::Equal => self.tie(k, i, j, xa, xb),
                r => r,
            };
            if r != Ordering::Equal {
                return if k.reverse { r.reverse() } else { r };
            }
        }
        Ordering::Equal
    }

    /// Key `k` of lines `i` and `j` when their ranks are equal.
    fn tie(&self, k: &KeyData, i: usize, j: usize, xa: u32, xb: u32) -> Ordering {
        match k.kind {
            Kind::ExactRank => Ordering::Equal,
            Kind::Numeric if xa == 1 && xb == 1 => Ordering::Equal,
            // Rare enough to parse both numbers again.
            Kind::Numeric => cmp_num(&parse_num(self.span(k.range[i])), &parse_num(self.span(k.range[j]))),
            Kind::Text if k.plain => {
                if xa.min(xb) <= 8 {
                    // Equal zero-padded prefixes: the shorter key is a
                    // prefix of the longer one.
                    xa.cmp(&xb)
                } else {
                    self.span(k.range[i])[8..].cmp(&self.span(k.range[j])[8..])
                }
            }
            Kind::Text | Kind::Other | Kind::Random => key_cmp(self.span(k.range[i]), self.span(k.range[j]), &k.opts),
        }
    }

    /// The full order: keys, then the whole line as a last resort (or the
    /// input position under -s/-u, which is what a stable sort yields).
    fn cmp_lines(&self, a: &Item, b: &Item) -> Ordering {
        self.cmp_lines_from(0, a, b, (a.rank, a.aux), (b.rank, b.aux))
    }

    /// `cmp_lines` for items known equal on keys before `first`.
    fn cmp_lines_from(&self, first: usize, a: &Item, b: &Item, da: (u64, u32), db: (u64, u32)) -> Ordering {
        let r = self.keys_cmp_from(first, a, b, da, db);
        if r != Ordering::Equal {
            return r;
        }
        if self.stable {
            return a.line.cmp(&b.line);
        }
        if self.whole_line {
            return Ordering::Equal;
        }
        let (x, y) = (self.lines[a.line as usize], self.lines[b.line as usize]);
        let r = self.data[x.0..x.1].cmp(&self.data[y.0..y.1]);
        if self.reverse {
            r.reverse()
        } else {
            r
        }
    }

    fn span(&self, r: (u32, u32)) -> &[u8] {
        &self.data[r.0 as usize..r.1 as usize]
    }
}

/// Orders `items` by rank (descending if `descending`), least significant
/// byte first; a byte position where all ranks agree is skipped, so short
/// numbers cost only a few passes.
fn radix_sort(items: &mut Vec<Item>, descending: bool) {
    let n = items.len();
    let key = |it: &Item| if descending { !it.rank } else { it.rank };
    let mut counts = vec![[0u32; 256]; 8];
    for it in items.iter() {
        let k = key(it);
        for (b, count) in counts.iter_mut().enumerate() {
            count[(k >> (8 * b)) as u8 as usize] += 1;
        }
    }
    let mut other: Vec<Item> = Vec::new();
    for (b, count) in counts.iter().enumerate() {
        if count.iter().any(|&c| c as usize == n) {
            continue;
        }
        if other.is_empty() {
            other = items.clone();
        }
        let mut next = [0usize; 256];
        let mut sum = 0;
        for (slot, &c) in next.iter_mut().zip(count.iter()) {
            *slot = sum;
            sum += c as usize;
        }
        for it in items.iter() {
            let d = (key(it) >> (8 * b)) as u8 as usize;
            other[next[d]] = *it;
            next[d] += 1;
        }
        std::mem::swap(items, &mut other);
    }
}

/// Locates key `k` in every line, storing its range, and hands each line's
/// rank and aux (see `Item`) to `put(line index, rank, aux)`.
fn digest(k: &Key, tab: Option<u8>, data: &[u8], lines: &[(usize, usize)], mut put: impl FnMut(usize, u64, u32)) -> KeyData {
    let o = k.o;
    let kind = kind_of(&o);
    let mut opts = o;
    opts.r = false;
    let plain = !(o.d || o.f || o.i);
    let mut range = Vec::with_capacity(lines.len());
    for (i, &(s, e)) in lines.iter().enumerate() {
        let line = &data[s..e];
        let b = begfield(line, k, tab);
        let end = limfield(line, k, tab).max(b);
        range.push(((s + b) as u32, (s + end) as u32));
        let (rank, aux) = rank_of(kind, &line[b..end], &opts);
        put(i, rank, aux);
    }
    KeyData { kind, opts, reverse: o.r, plain, range, digests: Vec::new() }
}

fn kind_of(o: &KeyOpts) -> Kind {
    if o.n {
        Kind::Numeric
    } else if o.h {
        Kind::Other
    } else if o.g || o.m {
        Kind::ExactRank
    } else if o.rnd {
        Kind::Random
    } else if o.v {
        Kind::Other
    } else {
        Kind::Text
    }
}

/// A key's rank and aux (see `Item`); `opts` has `r` cleared.
fn rank_of(kind: Kind, key: &[u8], opts: &KeyOpts) -> (u64, u32) {
    match kind {
        Kind::Numeric => {
            let num = parse_num(key);
            let exact = num.int.len() <= 17 && num.frac.len() <= 1;
            (numeric_rank(&num), exact as u32)
        }
        Kind::ExactRank if opts.g => (general_rank(general(key)), 0),
        Kind::ExactRank => (month(key) as u64, 0),
        Kind::Text => (text_rank(key, opts), key.len() as u32),
        Kind::Other => (0, 0),
        Kind::Random => (super::random::rank(&super::random_key(key, opts)), 0),
    }
}

/// The first key's rank of single lines, for merging sorted runs: two lines
/// whose ranks differ are ordered by them alone (descending when the key is
/// reversed), as in `Sorted::keys_cmp_from`; equal ranks need `Sorter::cmp`.
pub struct FirstRank<'s> {
    key: &'s Key,
    tab: Option<u8>,
    kind: Kind,
    opts: KeyOpts,
    pub reverse: bool,
}

impl<'s> FirstRank<'s> {
    /// None when the first key has no rank (-h, -V): every comparison is exact.
    pub fn new(sorter: &'s Sorter) -> Option<Self> {
        let key = sorter.keys.first()?;
        let kind = kind_of(&key.o);
        if kind == Kind::Other {
            return None;
        }
        let mut opts = key.o;
        opts.r = false;
        Some(FirstRank { key, tab: sorter.tab, kind, opts, reverse: key.o.r })
    }

    pub fn rank(&self, line: &[u8]) -> u64 {
        let b = begfield(line, self.key, self.tab);
        let end = limfield(line, self.key, self.tab).max(b);
        rank_of(self.kind, &line[b..end], &self.opts).0
    }
}

/// A coarse value of a -n number: never out of order, equal for numbers
/// that differ only beyond its precision (18+ integer digits, or from the
/// second fraction digit on). Negatives sit below 2^63, zero at 2^63.
fn numeric_rank(n: &Num) -> u64 {
    let magnitude = if n.int.len() <= 17 {
        let int = n.int.iter().fold(0u64, |v, d| v * 10 + (d - b'0') as u64);
        int * 10 + n.frac.first().map_or(0, |d| (d - b'0') as u64)
    } else {
        // Above every value of 17 digits or fewer (those stay below 10^18 <
        // 2^62); longer integers are bigger, same lengths tie.
        (1 << 62) | n.int.len() as u64
    };
    if n.neg {
        (1 << 63) - 1 - magnitude
    } else {
        (1 << 63) | magnitude
    }
}

/// -g's order as an integer: no number < NaN < -inf ... inf, with -0 = 0,
/// matching `general_cmp` exactly.
fn general_rank(v: Option<f64>) -> u64 {
    match v {
        None => 0,
        Some(x) if x.is_nan() => 1,
        Some(x) => {
            let bits = if x == 0.0 { 0 } else { x.to_bits() };
            // Flip negatives wholesale and set the top bit of positives so
            // the bit patterns order like the values.
            if bits >> 63 == 1 {
                !bits
            } else {
                bits | 1 << 63
            }
        }
    }
}

/// The first 8 bytes `text_cmp` would compare, big-endian, zero-padded: a
/// prefix of the compared sequence, so its order never contradicts it.
fn text_rank(key: &[u8], o: &KeyOpts) -> u64 {
    let mut v = 0u64;
    let mut taken = 0;
    if !(o.d || o.f || o.i) {
        for &c in key.iter().take(8) {
            v = v << 8 | c as u64;
            taken += 1;
        }
    } else {
        for &c in key {
            if taken == 8 {
                break;
            }
            if (o.d && !(c.is_ascii_alphanumeric() || blank(c))) || (o.i && !(0x20..0x7f).contains(&c)) {
                continue;
            }
            let c = if o.f { c.to_ascii_uppercase() } else { c };
            v = v << 8 | c as u64;
            taken += 1;
        }
    }
    // Pad short keys with zero bytes (a shift by 64 would overflow).
    match taken {
        0 => 0,
        _ => v << (8 * (8 - taken)),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{parse_key, Key, KeyOpts, Sorter};
    use super::{FirstRank, Sorted};

    /// Deterministic pseudo-random numbers (xorshift), enough to vary inputs.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[(self.next() % from.len() as u64) as usize]
        }
    }

    /// Lines built from pieces that hit the tricky spots: signs, -0, leading
    /// zeros and blanks, long numbers, fractions, case, punctuation, NUL,
    /// CR, months, floats, suffixes.
    fn random_input(rng: &mut Rng, lines: usize) -> Vec<u8> {
        const PIECES: &[&str] = &[
            "0", "-0", "00", "-0.0", "0.000", "1", "01", "-1", "10", "9", "-10", "1.5", "1.50", "1.05", "-1.5", ".5", "-.5",
            "12345678901234567", "12345678901234568", "123456789012345678", "123456789012345679", "-123456789012345678",
            "99999999999999999999", "00000000000000000000001", "0.00000000000000000001", "1e3", "-2e-1", "inf", "-inf",
            "nan", "2K", "1M", "-3G", "a", "A", "b", "B", "ab", "aB", "abcdefgh", "abcdefghi", "abcdefgh\0", "x-y", "x y",
            " ", "  ", "\t", "\r", "\0", "~", "é", "jan", "FEB", "Mar", "dec", "1.2.10", "1.2.9", "1.0~rc1", ",", ":",
        ];
        let mut out = Vec::new();
        for _ in 0..lines {
            let fields = 1 + rng.next() % 4;
            for f in 0..fields {
                if f > 0 {
                    out.extend_from_slice(rng.pick(&[" ", "  ", "\t", ",", " , "]).as_bytes());
                }
                for _ in 0..1 + rng.next() % 2 {
                    out.extend_from_slice(rng.pick(PIECES).as_bytes());
                }
            }
            out.push(b'\n');
        }
        out
    }

    fn split(data: &[u8]) -> Vec<(usize, usize)> {
        let mut lines = Vec::new();
        let mut s = 0;
        for i in memchr::memchr_iter(b'\n', data) {
            lines.push((s, i));
            s = i + 1;
        }
        lines
    }

    /// The engine must order lines exactly as a stable sort with
    /// `Sorter::cmp` (the reference comparator) does, for every option mix.
    #[test]
    fn same_order_as_sorter() {
        let specs: &[(&str, &[&str], Option<u8>, bool)] = &[
            ("", &[], None, false),
            ("n", &[], None, false),
            ("r", &[], None, false),
            ("rn", &[], None, false),
            ("n", &[], None, true),
            ("f", &[], None, false),
            ("d", &[], None, false),
            ("i", &[], None, false),
            ("fdi", &[], None, false),
            ("b", &[], None, false),
            ("g", &[], None, false),
            ("M", &[], None, false),
            ("h", &[], None, false),
            ("V", &[], None, false),
            ("", &["2,2", "1,1n"], Some(b' '), false),
            ("", &["2,2", "1,1n"], Some(b' '), true),
            ("", &["2"], None, false),
            ("", &["2n,2", "1r"], None, false),
            ("", &["1.2,1.4f", "3g"], Some(b','), false),
            ("r", &["2,2b", "1.3"], None, true),
            ("", &["3M", "2h,2"], None, false),
            ("n", &["2,2", "1,1V"], Some(b'\t'), false),
        ];
        let mut rng = Rng(0x9e3779b97f4a7c15);
        for (global, keydefs, tab, stable) in specs {
            let mut g = KeyOpts::default();
            for c in global.chars() {
                g.set(c);
            }
            let mut keys: Vec<Key> = keydefs.iter().map(|k| parse_key(k, &g).unwrap()).collect();
            if keys.is_empty() {
                keys.push(Key { sword: 0, schar: 0, eword: None, echar: 0, skip_sblanks: g.b, skip_eblanks: g.b, o: g });
            }
            let sorter = Sorter { keys, tab: *tab, stable: *stable, reverse: g.r };
            for round in 0..8 {
                let data = random_input(&mut rng, [0, 1, 2, 50, 300, 300, 1000, 1000][round]);
                let lines = split(&data);
                let mut want: Vec<usize> = (0..lines.len()).collect();
                let line = |i: usize| &data[lines[i].0..lines[i].1];
                want.sort_by(|&a, &b| sorter.cmp(line(a), line(b)));
                let mut engine = Sorted::new(&sorter, &data, &lines);
                engine.sort();
                let got: Vec<u32> = engine.items.iter().map(|it| it.line).collect();
                let want_text: Vec<&[u8]> = want.iter().map(|&i| line(i)).collect();
                let got_text: Vec<&[u8]> = got.iter().map(|&i| line(i as usize)).collect();
                assert!(want_text == got_text, "order differs for {:?} {:?} round {}", global, keydefs, round);
                if *stable {
                    // Equal keys keep input order, which -u relies on.
                    assert_eq!(want, got.iter().map(|&i| i as usize).collect::<Vec<_>>());
                }
                for w in engine.items.windows(2) {
                    let (a, b) = (w[0].line as usize, w[1].line as usize);
                    assert_eq!(engine.keys_cmp(&w[0], &w[1]), sorter.keys_cmp(line(a), line(b)));
                }
                // What a merge of runs relies on: differing first-key ranks
                // of two lines give their order.
                if let Some(first) = FirstRank::new(&sorter) {
                    let n = lines.len();
                    for a in 0..n {
                        let b = (a * 7 + 3) % n;
                        let (ra, rb) = (first.rank(line(a)), first.rank(line(b)));
                        if ra != rb {
                            let by_rank = if first.reverse { rb.cmp(&ra) } else { ra.cmp(&rb) };
                            assert_eq!(by_rank, sorter.cmp(line(a), line(b)), "rank order differs for {:?} {:?}", global, keydefs);
                        }
                    }
                }
            }
        }
    }
}
