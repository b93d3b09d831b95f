//! Which lines changed, chosen the way GNU diff 3.8 chooses among equally short edit scripts,
//! so that hunks start and end where Debian's diff puts them. The steps follow the design of
//! GNU diffutils (io.c's identical ends, analyze.c's discarding, Myers' midpoint split with a cost
//! bound, and the boundary shifting); the code is this project's own.
//!
//! 1. Identical leading and trailing lines are set aside, except `horizon` lines (the context
//!    length) next to the middle: the shifting of step 4 may still use them.
//! 2. Middle lines that match no line of the other side are changed for sure; lines that match
//!    very many are set aside too when they sit inside such a run.
//! 3. The rest is split at the midpoint of Myers' two-way search, recursively; past a cost bound
//!    (about the square root of the input, at least 4096) the best diagonal so far is taken.
//! 4. Each run of changes slides up to merge with earlier runs, then down as far as it goes, then
//!    back up to line up with a change in the other file.

use std::collections::HashMap;

/// A change: lines `a0..a1` of the first file became lines `b0..b1` of the second.
pub(crate) type Hunk = (usize, usize, usize, usize);

/// One input: its lines (without newlines) and whether the last one lacked its newline.
pub(crate) struct Side<'a> {
    pub lines: &'a [Vec<u8>],
    pub incomplete: bool,
}

pub(crate) struct Tuning {
    /// Identical lines kept next to the middle (GNU: the context length, 0 for normal output).
    pub horizon: usize,
    /// -d: no discarding and no cost bound.
    pub minimal: bool,
    /// -H: also stop early at a diagonal that made much progress.
    pub speed_large: bool,
    /// An incomplete last line differs from the same text with a newline (every style but -e).
    pub robust: bool,
    /// -Z, -b, -w: an incomplete last line may still equal a complete one.
    pub loose_end: bool,
}

/// The changes turning `a` into `b`, in order; `key` gives the text a line is compared by.
pub(crate) fn changes(a: Side, b: Side, key: &dyn Fn(&[u8]) -> Vec<u8>, t: &Tuning) -> Vec<Hunk> {
    let (na, nb) = (a.lines.len(), b.lines.len());
    let last_incomplete = |s: &Side, i: usize| s.incomplete && i + 1 == s.lines.len();
    // Byte-identical lines (an incomplete last line only equals another incomplete one).
    let same = |i: usize, j: usize| a.lines[i] == b.lines[j] && (!t.robust || last_incomplete(&a, i) == last_incomplete(&b, j));
    let mut p = 0;
    while p < na && p < nb && same(p, p) {
        p += 1;
    }
    let pre = p.saturating_sub(t.horizon);
    let mut s = 0;
    if !t.robust || a.incomplete == b.incomplete {
        let room = (na - pre).min(nb - pre);
        while s < room && same(na - 1 - s, nb - 1 - s) {
            s += 1;
        }
    }
    let suf = s.saturating_sub(t.horizon);

    // Equivalence classes of the middle lines, numbered from 1.
    let mut ids: HashMap<(bool, Vec<u8>), usize> = HashMap::new();
    let mut classes = |side: &Side, end: usize| -> Vec<usize> {
        (pre..end)
            .map(|i| {
                let apart = t.robust && !t.loose_end && last_incomplete(side, i);
                let n = ids.len() + 1;
                *ids.entry((apart, key(&side.lines[i]))).or_insert(n)
            })
            .collect()
    };
    let ea = classes(&a, na - suf);
    let eb = classes(&b, nb - suf);
    let nclasses = ids.len() + 1;

    // changed flags with a false sentinel on each end: index k + 1 is middle line k.
    let mut ca = vec![false; ea.len() + 2];
    let mut cb = vec![false; eb.len() + 2];
    let (ka, kb) = if t.minimal {
        ((0..ea.len()).collect(), (0..eb.len()).collect())
    } else {
        let ra = discard(&ea, &eb, nclasses, &mut ca);
        let rb = discard(&eb, &ea, nclasses, &mut cb);
        (ra, rb)
    };
    let xv: Vec<usize> = ka.iter().map(|&i| ea[i]).collect();
    let yv: Vec<usize> = kb.iter().map(|&i| eb[i]).collect();
    let mut diags = xv.len() + yv.len() + 3;
    let mut too_expensive = 1usize;
    while diags != 0 {
        too_expensive <<= 1;
        diags >>= 2;
    }
    let width = xv.len() + yv.len() + 3;
    let mut search = Search {
        x: &xv,
        y: &yv,
        xreal: &ka,
        yreal: &kb,
        ca: &mut ca,
        cb: &mut cb,
        fd: vec![0; width],
        bd: vec![0; width],
        off: yv.len() as isize + 1,
        too_expensive: too_expensive.max(4096) as isize,
        heuristic: t.speed_large,
    };
    search.compare(0, xv.len() as isize, 0, yv.len() as isize, t.minimal);
    shift(&mut ca, &cb, &ea);
    shift(&mut cb, &ca, &eb);

    let mut out = Vec::new();
    let (mut i, mut j) = (0usize, 0usize);
    while i < ea.len() || j < eb.len() {
        if ca[i + 1] || cb[j + 1] {
            let (i0, j0) = (i, j);
            while ca[i + 1] {
                i += 1;
            }
            while cb[j + 1] {
                j += 1;
            }
            out.push((i0 + pre, i + pre, j0 + pre, j + pre));
        }
        i += 1;
        j += 1;
    }
    out
}

/// Step 2 for one side: marks lines that match nothing on the `other` side as changed, and lines
/// that match very many when they sit inside a run of such lines. Returns the lines kept.
fn discard(mine: &[usize], other: &[usize], nclasses: usize, changed: &mut [bool]) -> Vec<usize> {
    let mut count = vec![0usize; nclasses];
    for &c in other {
        count[c] += 1;
    }
    let end = mine.len();
    // "Many" grows with about the square root of the length.
    let mut many = 5usize;
    let mut tem = end / 64;
    loop {
        tem >>= 2;
        if tem == 0 {
            break;
        }
        many *= 2;
    }
    // 0 keep, 1 discard, 2 discard only if inside a run.
    let mut d: Vec<u8> = mine
        .iter()
        .map(|&c| match count[c] {
            0 => 1,
            n if n > many => 2,
            _ => 0,
        })
        .collect();
    let mut i = 0usize;
    while i < end {
        if d[i] == 2 {
            d[i] = 0;
        } else if d[i] != 0 {
            // A run of discardable lines starting with a sure one.
            let mut j = i;
            let mut provisional = 0usize;
            while j < end && d[j] != 0 {
                if d[j] == 2 {
                    provisional += 1;
                }
                j += 1;
            }
            while j > i && d[j - 1] == 2 {
                j -= 1;
                d[j] = 0;
                provisional -= 1;
            }
            let length = j - i;
            if provisional * 4 > length {
                // Too many unsure lines: keep them all.
                for k in i..j {
                    if d[k] == 2 {
                        d[k] = 0;
                    }
                }
            } else {
                let mut minimum = 1usize;
                let mut tem = length >> 2;
                loop {
                    tem >>= 2;
                    if tem == 0 {
                        break;
                    }
                    minimum <<= 1;
                }
                minimum += 1;
                // Keep every stretch of `minimum` or more unsure lines.
                let (mut k, mut consec) = (0isize, 0usize);
                while k < length as isize {
                    let at = i + k as usize;
                    if d[at] != 2 {
                        consec = 0;
                    } else {
                        consec += 1;
                        if consec == minimum {
                            k -= consec as isize;
                        } else if consec > minimum {
                            d[at] = 0;
                        }
                    }
                    k += 1;
                }
                // From each end of the run, keep unsure lines until three sure ones in a row
                // (or a sure one at least 8 lines in).
                let edge = |d: &mut Vec<u8>, at: &dyn Fn(usize) -> usize| {
                    let mut consec = 0;
                    for k in 0..length {
                        let x = at(k);
                        if k >= 8 && d[x] == 1 {
                            break;
                        }
                        if d[x] == 2 {
                            consec = 0;
                            d[x] = 0;
                        } else if d[x] == 0 {
                            consec = 0;
                        } else {
                            consec += 1;
                        }
                        if consec == 3 {
                            break;
                        }
                    }
                };
                edge(&mut d, &|k| i + k);
                i += length - 1;
                let last = i;
                edge(&mut d, &|k| last - k);
            }
        }
        i += 1;
    }
    let mut kept = Vec::with_capacity(end);
    for (k, &m) in d.iter().enumerate() {
        if m == 0 {
            kept.push(k);
        } else {
            changed[k + 1] = true;
        }
    }
    kept
}

/// Snakes longer than this are "big" for the -H heuristic.
const SNAKE_LIMIT: isize = 20;

/// Step 3: Myers' search over the kept lines (`x`, `y` hold classes; `xreal`/`yreal` map back).
struct Search<'a> {
    x: &'a [usize],
    y: &'a [usize],
    xreal: &'a [usize],
    yreal: &'a [usize],
    ca: &'a mut Vec<bool>,
    cb: &'a mut Vec<bool>,
    /// Furthest x reached on each diagonal (index diagonal + off), forward and backward.
    fd: Vec<isize>,
    bd: Vec<isize>,
    off: isize,
    too_expensive: isize,
    heuristic: bool,
}

struct Mid {
    x: isize,
    y: isize,
    lo_minimal: bool,
    hi_minimal: bool,
}

impl Search<'_> {
    fn eq(&self, x: isize, y: isize) -> bool {
        self.x[x as usize] == self.y[y as usize]
    }

    fn compare(&mut self, mut xoff: isize, mut xlim: isize, mut yoff: isize, mut ylim: isize, mut minimal: bool) {
        loop {
            while xoff < xlim && yoff < ylim && self.eq(xoff, yoff) {
                xoff += 1;
                yoff += 1;
            }
            while xoff < xlim && yoff < ylim && self.eq(xlim - 1, ylim - 1) {
                xlim -= 1;
                ylim -= 1;
            }
            if xoff == xlim {
                for y in yoff..ylim {
                    self.cb[self.yreal[y as usize] + 1] = true;
                }
                return;
            }
            if yoff == ylim {
                for x in xoff..xlim {
                    self.ca[self.xreal[x as usize] + 1] = true;
                }
                return;
            }
            let m = self.midpoint(xoff, xlim, yoff, ylim, minimal);
            // Recurse into the smaller half, loop on the other (the result is the same either way).
            if (xlim + ylim) - (m.x + m.y) < (m.x + m.y) - (xoff + yoff) {
                self.compare(m.x, xlim, m.y, ylim, m.hi_minimal);
                xlim = m.x;
                ylim = m.y;
                minimal = m.lo_minimal;
            } else {
                self.compare(xoff, m.x, yoff, m.y, m.lo_minimal);
                xoff = m.x;
                yoff = m.y;
                minimal = m.hi_minimal;
            }
        }
    }

    /// The midpoint of a shortest edit script of x[xoff..xlim] and y[yoff..ylim], whose first and
    /// last elements differ; or, past the cost bound, a good point that is not proven best.
    fn midpoint(&mut self, xoff: isize, xlim: isize, yoff: isize, ylim: isize, minimal: bool) -> Mid {
        let o = self.off;
        let (dmin, dmax) = (xoff - ylim, xlim - yoff);
        let (fmid, bmid) = (xoff - yoff, xlim - ylim);
        let (mut fmin, mut fmax, mut bmin, mut bmax) = (fmid, fmid, bmid, bmid);
        let odd = (fmid - bmid) & 1 != 0;
        self.fd[(fmid + o) as usize] = xoff;
        self.bd[(bmid + o) as usize] = xlim;
        let mut c = 1isize;
        loop {
            let mut big_snake = false;
            if fmin > dmin {
                fmin -= 1;
                self.fd[(fmin - 1 + o) as usize] = -1;
            } else {
                fmin += 1;
            }
            if fmax < dmax {
                fmax += 1;
                self.fd[(fmax + 1 + o) as usize] = -1;
            } else {
                fmax -= 1;
            }
            let mut d = fmax;
            while d >= fmin {
                let (lo, hi) = (self.fd[(d - 1 + o) as usize], self.fd[(d + 1 + o) as usize]);
                let x0 = if lo < hi { hi } else { lo + 1 };
                let (mut x, mut y) = (x0, x0 - d);
                while x < xlim && y < ylim && self.eq(x, y) {
                    x += 1;
                    y += 1;
                }
                if x - x0 > SNAKE_LIMIT {
                    big_snake = true;
                }
                self.fd[(d + o) as usize] = x;
                if odd && bmin <= d && d <= bmax && self.bd[(d + o) as usize] <= x {
                    return Mid { x, y, lo_minimal: true, hi_minimal: true };
                }
                d -= 2;
            }
            if bmin > dmin {
                bmin -= 1;
                self.bd[(bmin - 1 + o) as usize] = isize::MAX;
            } else {
                bmin += 1;
            }
            if bmax < dmax {
                bmax += 1;
                self.bd[(bmax + 1 + o) as usize] = isize::MAX;
            } else {
                bmax -= 1;
            }
            let mut d = bmax;
            while d >= bmin {
                let (lo, hi) = (self.bd[(d - 1 + o) as usize], self.bd[(d + 1 + o) as usize]);
                let x0 = if lo < hi { lo } else { hi - 1 };
                let (mut x, mut y) = (x0, x0 - d);
                while xoff < x && yoff < y && self.eq(x - 1, y - 1) {
                    x -= 1;
                    y -= 1;
                }
                if x0 - x > SNAKE_LIMIT {
                    big_snake = true;
                }
                self.bd[(d + o) as usize] = x;
                if !odd && fmin <= d && d <= fmax && x <= self.fd[(d + o) as usize] {
                    return Mid { x, y, lo_minimal: true, hi_minimal: true };
                }
                d -= 2;
            }
            if minimal {
                c += 1;
                continue;
            }
            if self.heuristic && c > 200 && big_snake {
                if let Some(m) = self.progress(xoff, xlim, yoff, ylim, c, (fmin, fmax, fmid), (bmin, bmax, bmid)) {
                    return m;
                }
            }
            if c >= self.too_expensive {
                return self.give_up(xoff, xlim, yoff, ylim, (fmin, fmax), (bmin, bmax));
            }
            c += 1;
        }
    }

    /// -H: a diagonal that has come far for its cost and ends in a long snake.
    fn progress(&self, xoff: isize, xlim: isize, yoff: isize, ylim: isize, c: isize, f: (isize, isize, isize), b: (isize, isize, isize)) -> Option<Mid> {
        let o = self.off;
        let (mut best, mut at) = (0isize, (0isize, 0isize));
        let mut d = f.1;
        while d >= f.0 {
            let dd = d - f.2;
            let x = self.fd[(d + o) as usize];
            let y = x - d;
            let v = (x - xoff) * 2 - dd;
            if v > 12 * (c + dd.abs()) && v > best && xoff + SNAKE_LIMIT <= x && x < xlim && yoff + SNAKE_LIMIT <= y && y < ylim {
                let mut k = 1;
                while self.eq(x - k, y - k) {
                    if k == SNAKE_LIMIT {
                        best = v;
                        at = (x, y);
                        break;
                    }
                    k += 1;
                }
            }
            d -= 2;
        }
        if best > 0 {
            return Some(Mid { x: at.0, y: at.1, lo_minimal: true, hi_minimal: false });
        }
        let mut d = b.1;
        while d >= b.0 {
            let dd = d - b.2;
            let x = self.bd[(d + o) as usize];
            let y = x - d;
            let v = (xlim - x) * 2 + dd;
            if v > 12 * (c + dd.abs()) && v > best && xoff < x && x <= xlim - SNAKE_LIMIT && yoff < y && y <= ylim - SNAKE_LIMIT {
                let mut k = 0;
                while self.eq(x + k, y + k) {
                    if k == SNAKE_LIMIT - 1 {
                        best = v;
                        at = (x, y);
                        break;
                    }
                    k += 1;
                }
            }
            d -= 2;
        }
        if best > 0 {
            return Some(Mid { x: at.0, y: at.1, lo_minimal: false, hi_minimal: true });
        }
        None
    }

    /// Past the cost bound: the forward or backward diagonal that got furthest.
    fn give_up(&self, xoff: isize, xlim: isize, yoff: isize, ylim: isize, f: (isize, isize), b: (isize, isize)) -> Mid {
        let o = self.off;
        let (mut fxy, mut fx) = (-1isize, 0isize);
        let mut d = f.1;
        while d >= f.0 {
            let mut x = self.fd[(d + o) as usize].min(xlim);
            let mut y = x - d;
            if ylim < y {
                x = ylim + d;
                y = ylim;
            }
            if fxy < x + y {
                fxy = x + y;
                fx = x;
            }
            d -= 2;
        }
        let (mut bxy, mut bx) = (isize::MAX, 0isize);
        let mut d = b.1;
        while d >= b.0 {
            let mut x = self.bd[(d + o) as usize].max(xoff);
            let mut y = x - d;
            if y < yoff {
                x = yoff + d;
                y = yoff;
            }
            if x + y < bxy {
                bxy = x + y;
                bx = x;
            }
            d -= 2;
        }
        if (xlim + ylim) - bxy < fxy - (xoff + yoff) {
            Mid { x: fx, y: fxy - fx, lo_minimal: true, hi_minimal: false }
        } else {
            Mid { x: bx, y: bxy - bx, lo_minimal: false, hi_minimal: true }
        }
    }
}

/// Step 4 for one side (`ch` and `other` carry a false sentinel at each end: index k + 1 is line
/// k): slide each run of changes over equal lines to merge runs, and to line up with the other
/// side's changes where it can.
fn shift(ch: &mut [bool], other: &[bool], eq: &[usize]) {
    let n = eq.len() as isize;
    let c = |ch: &[bool], k: isize| ch[(k + 1) as usize];
    let oc = |k: isize| other[(k + 1) as usize];
    let set = |ch: &mut [bool], k: isize, v: bool| ch[(k + 1) as usize] = v;
    let e = |k: isize| eq[k as usize];
    let (mut i, mut j) = (0isize, 0isize);
    loop {
        // To the next run of changes, keeping j at the matching point of the other side.
        while i < n && !c(ch, i) {
            loop {
                let was = oc(j);
                j += 1;
                if !was {
                    break;
                }
            }
            i += 1;
        }
        if i == n {
            break;
        }
        let mut start = i;
        i += 1;
        while c(ch, i) {
            i += 1;
        }
        while oc(j) {
            j += 1;
        }
        let mut corresponding;
        loop {
            let runlength = i - start;
            // Up, while the line before the run equals its last line (merging earlier runs).
            while start > 0 && e(start - 1) == e(i - 1) {
                start -= 1;
                set(ch, start, true);
                i -= 1;
                set(ch, i, false);
                while c(ch, start - 1) {
                    start -= 1;
                }
                loop {
                    j -= 1;
                    if !oc(j) {
                        break;
                    }
                }
            }
            // The last end of the run that lines up with a change on the other side (n: none).
            corresponding = if oc(j - 1) { i } else { n };
            // Down, while the run's first line equals the line after it.
            while i != n && e(start) == e(i) {
                set(ch, start, false);
                start += 1;
                set(ch, i, true);
                i += 1;
                while c(ch, i) {
                    i += 1;
                }
                loop {
                    j += 1;
                    if !oc(j) {
                        break;
                    }
                    corresponding = i;
                }
            }
            if runlength == i - start {
                break;
            }
        }
        while corresponding < i {
            start -= 1;
            set(ch, start, true);
            i -= 1;
            set(ch, i, false);
            loop {
                j -= 1;
                if !oc(j) {
                    break;
                }
            }
        }
    }
}
