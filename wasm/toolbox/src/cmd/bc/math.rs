//! The -l library (s, c, a, l, e, j), computed natively with guard digits
//! and truncated to `scale`, like bc's own library does.

use super::num::Num;
use std::cmp::Ordering;

fn n(v: i64) -> Num {
    Num::from_i64(v)
}

fn div(a: &Num, b: &Num, s: usize) -> Num {
    a.div(b, s).unwrap_or_default()
}

/// Digits before the point of |x| (how much a result may grow).
fn int_digits(x: &Num) -> usize {
    x.abs().rescale(0).format(10).trim_start_matches('-').len()
}

/// Sum of a power series whose next term is `step(term, i)`, until a term
/// vanishes at working scale `w`.
fn series(first: Num, mut step: impl FnMut(&Num, i64) -> Num) -> Num {
    let mut sum = first.clone();
    let mut term = first;
    let mut i = 1;
    loop {
        term = step(&term, i);
        if term.is_zero() {
            return sum;
        }
        sum = sum.add(&term);
        i += 1;
    }
}

pub fn exp(x: &Num, scale: usize) -> Num {
    if x.neg {
        let w = scale + 10 + int_digits(x);
        return div(&n(1), &exp(&x.abs(), w), scale);
    }
    let grow = (x.to_i64().unwrap_or(0) as f64 * 0.4343) as usize;
    let mut halvings = 0;
    let mut y = x.clone();
    let w0 = scale + 10 + grow;
    while y.cmp(&n(1)) == Ordering::Greater {
        halvings += 1;
        y = div(&y, &n(2), w0 + halvings);
    }
    let w = w0 + halvings;
    let mut r = series(n(1), |t, i| div(&t.mul(&y, w), &n(i), w));
    for _ in 0..halvings {
        r = r.mul(&r, w);
    }
    r.rescale(scale)
}

pub fn ln(x: &Num, scale: usize) -> Num {
    if x.neg || x.is_zero() {
        // What bc's library returns for a logarithm of x <= 0.
        return n(1).sub(&n(10).pow(scale as i64, 0).unwrap_or_default()).rescale(scale);
    }
    let mut roots = 0u32;
    let mut y = x.clone();
    let w = scale + 12 + int_digits(x);
    while y.cmp(&n(2)) != Ordering::Less || y.cmp(&div(&n(1), &n(2), 1)) != Ordering::Greater {
        y = y.sqrt(w).unwrap_or_default();
        roots += 1;
    }
    // ln y = 2 atanh u, u = (y-1)/(y+1)
    let u = div(&y.sub(&n(1)), &y.add(&n(1)), w);
    let u2 = u.mul(&u, w);
    let mut pow = u.clone();
    let mut sum = u.clone();
    let mut k = 3;
    loop {
        pow = pow.mul(&u2, w);
        let t = div(&pow, &n(k), w);
        if t.is_zero() {
            break;
        }
        sum = sum.add(&t);
        k += 2;
    }
    sum.mul(&n(2i64 << roots), w).rescale(scale)
}

pub fn atan(x: &Num, scale: usize) -> Num {
    if x.neg {
        return atan(&x.abs(), scale).neg();
    }
    let w = scale + 12;
    let mut y = x.clone();
    let mut halvings = 0u32;
    // atan y = 2 atan(y / (1 + sqrt(1 + y^2)))
    let limit = div(&n(2), &n(10), 1);
    while y.cmp(&limit) == Ordering::Greater {
        let r = n(1).add(&y.mul(&y, w)).sqrt(w).unwrap_or_default();
        y = div(&y, &n(1).add(&r), w);
        halvings += 1;
    }
    let y2 = y.mul(&y, w);
    let mut pow = y.clone();
    let mut sum = y.clone();
    let mut k = 3;
    let mut sign = true;
    loop {
        pow = pow.mul(&y2, w);
        let t = div(&pow, &n(k), w);
        if t.is_zero() {
            break;
        }
        sum = if sign { sum.sub(&t) } else { sum.add(&t) };
        sign = !sign;
        k += 2;
    }
    sum.mul(&n(1i64 << halvings), w).rescale(scale)
}

fn pi(w: usize) -> Num {
    atan(&n(1), w).mul(&n(4), w)
}

pub fn sin(x: &Num, scale: usize) -> Num {
    let w = scale + 12 + int_digits(x);
    let two_pi = pi(w).mul(&n(2), w);
    // Reduce into (-2π, 2π).
    let turns = div(x, &two_pi, 0);
    let y = x.sub(&turns.mul(&two_pi, w));
    let y2 = y.mul(&y, w);
    let r = series(y.clone(), |t, i| div(&t.mul(&y2, w), &n((2 * i) * (2 * i + 1)), w).neg());
    r.rescale(scale)
}

pub fn cos(x: &Num, scale: usize) -> Num {
    let w = scale + 12;
    let half_pi = div(&pi(w), &n(2), w);
    sin(&x.add(&half_pi), w).rescale(scale)
}

/// Bessel function of the first kind, integer order.
pub fn bessel(order: &Num, x: &Num, scale: usize) -> Num {
    let o = order.to_i64().unwrap_or(0);
    let (k, flip) = if o < 0 { (-o, o % 2 != 0) } else { (o, false) };
    let w = scale + 12 + int_digits(x);
    let half = div(x, &n(2), w);
    let mut first = n(1);
    for i in 1..=k {
        first = div(&first.mul(&half, w), &n(i), w);
    }
    let h2 = half.mul(&half, w);
    let r = series(first, |t, i| div(&t.mul(&h2, w), &n(i * (i + k)), w).neg());
    let r = r.rescale(scale);
    if flip {
        r.neg()
    } else {
        r
    }
}
