//! bc's numbers: arbitrary-precision decimals, `mag / 10^scale`, with the
//! scale rules of POSIX bc (a product keeps at most max(scale, operands'),
//! a quotient gets exactly `scale` digits, results are truncated).

use std::cmp::Ordering;

/// Decimal digits, least significant first, no leading (high) zeros.
type Mag = Vec<u8>;

#[derive(Clone, Debug, Default)]
pub struct Num {
    pub neg: bool,
    mag: Mag,
    pub scale: usize,
}

fn trim(m: &mut Mag) {
    while m.last() == Some(&0) {
        m.pop();
    }
}

fn mag_cmp(a: &Mag, b: &Mag) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn mag_add(a: &Mag, b: &Mag) -> Mag {
    let mut out = Vec::with_capacity(a.len().max(b.len()) + 1);
    let mut carry = 0u8;
    for i in 0..a.len().max(b.len()) {
        let s = a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0) + carry;
        out.push(s % 10);
        carry = s / 10;
    }
    if carry > 0 {
        out.push(carry);
    }
    out
}

/// a - b for a >= b.
fn mag_sub(a: &Mag, b: &Mag) -> Mag {
    let mut out = Vec::with_capacity(a.len());
    let mut borrow = 0i8;
    for i in 0..a.len() {
        let mut d = a[i] as i8 - b.get(i).copied().unwrap_or(0) as i8 - borrow;
        borrow = 0;
        if d < 0 {
            d += 10;
            borrow = 1;
        }
        out.push(d as u8);
    }
    trim(&mut out);
    out
}

fn mag_mul(a: &Mag, b: &Mag) -> Mag {
    if a.is_empty() || b.is_empty() {
        return Vec::new();
    }
    let mut acc = vec![0u32; a.len() + b.len()];
    for (i, &x) in a.iter().enumerate() {
        if x == 0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            acc[i + j] += x as u32 * y as u32;
        }
        // Keep the accumulators small enough for long operands.
        if i % 1000 == 999 {
            carry_through(&mut acc);
        }
    }
    carry_through(&mut acc);
    let mut out: Mag = acc.into_iter().map(|d| d as u8).collect();
    trim(&mut out);
    out
}

fn carry_through(acc: &mut Vec<u32>) {
    let mut carry = 0u32;
    for d in acc.iter_mut() {
        let s = *d + carry;
        *d = s % 10;
        carry = s / 10;
    }
    while carry > 0 {
        acc.push(carry % 10);
        carry /= 10;
    }
}

/// Long division: (quotient, remainder).
fn mag_divmod(a: &Mag, b: &Mag) -> (Mag, Mag) {
    let mut q = vec![0u8; a.len()];
    let mut r: Mag = Vec::new();
    for i in (0..a.len()).rev() {
        r.insert(0, a[i]);
        trim(&mut r);
        let mut d = 0;
        while mag_cmp(&r, b) != Ordering::Less {
            r = mag_sub(&r, b);
            d += 1;
        }
        q[i] = d;
    }
    trim(&mut q);
    (q, r)
}

/// Multiplies by 10^n.
fn shift(m: &Mag, n: usize) -> Mag {
    if m.is_empty() {
        return Vec::new();
    }
    let mut out = vec![0u8; n];
    out.extend_from_slice(m);
    out
}

impl Num {
    pub fn zero() -> Num {
        Num::default()
    }
    pub fn from_i64(v: i64) -> Num {
        let mut mag = Vec::new();
        let mut u = v.unsigned_abs();
        while u > 0 {
            mag.push((u % 10) as u8);
            u /= 10;
        }
        Num { neg: v < 0, mag, scale: 0 }
    }
    fn make(neg: bool, mut mag: Mag, scale: usize) -> Num {
        trim(&mut mag);
        let neg = neg && !mag.is_empty();
        Num { neg, mag, scale }
    }
    pub fn is_zero(&self) -> bool {
        self.mag.is_empty()
    }

    /// Parses a literal in base `ibase`; one-digit literals are taken at face
    /// value whatever the base (bc's rule, so `ibase=A` always works).
    pub fn parse(s: &str, ibase: u32) -> Num {
        let (int, frac) = match s.find('.') {
            Some(i) => (&s[..i], &s[i + 1..]),
            None => (s, ""),
        };
        let face = |c: u8| if c.is_ascii_digit() { (c - b'0') as i64 } else { (c - b'A' + 10) as i64 };
        // In longer literals a digit too big for the base counts as base-1.
        let digit = |c: u8| face(c).min(ibase as i64 - 1);
        if int.len() == 1 && frac.is_empty() {
            return Num::from_i64(face(int.as_bytes()[0]));
        }
        if ibase == 10 && s.bytes().all(|c| c.is_ascii_digit() || c == b'.') {
            let mut mag: Mag = frac.bytes().rev().map(|c| c - b'0').collect();
            mag.extend(int.bytes().rev().map(|c| c - b'0'));
            return Num::make(false, mag, frac.len());
        }
        let base = Num::from_i64(ibase as i64);
        let mut v = Num::zero();
        for c in int.bytes() {
            v = v.mul(&base, 0).add(&Num::from_i64(digit(c)));
        }
        let mut f = Num::zero();
        let mut unit = Num::from_i64(1);
        let work = frac.len() + 2;
        for c in frac.bytes() {
            unit = unit.div(&base, work).unwrap_or_default();
            f = f.add(&unit.mul(&Num::from_i64(digit(c)), work));
        }
        v.add(&f.rescale(frac.len()))
    }

    /// Truncates or zero-extends to `scale` fractional digits.
    pub fn rescale(&self, scale: usize) -> Num {
        let mag = if scale >= self.scale {
            shift(&self.mag, scale - self.scale)
        } else {
            let cut = self.scale - scale;
            if cut >= self.mag.len() {
                Vec::new()
            } else {
                self.mag[cut..].to_vec()
            }
        };
        Num::make(self.neg, mag, scale)
    }

    pub fn neg(&self) -> Num {
        Num::make(!self.neg, self.mag.clone(), self.scale)
    }
    pub fn abs(&self) -> Num {
        Num::make(false, self.mag.clone(), self.scale)
    }

    pub fn cmp(&self, o: &Num) -> Ordering {
        let s = self.scale.max(o.scale);
        let (a, b) = (shift(&self.mag, s - self.scale), shift(&o.mag, s - o.scale));
        match (self.neg, o.neg) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => mag_cmp(&a, &b),
            (true, true) => mag_cmp(&b, &a),
        }
    }

    pub fn add(&self, o: &Num) -> Num {
        let s = self.scale.max(o.scale);
        let (a, b) = (shift(&self.mag, s - self.scale), shift(&o.mag, s - o.scale));
        if self.neg == o.neg {
            return Num::make(self.neg, mag_add(&a, &b), s);
        }
        match mag_cmp(&a, &b) {
            Ordering::Less => Num::make(o.neg, mag_sub(&b, &a), s),
            _ => Num::make(self.neg, mag_sub(&a, &b), s),
        }
    }
    pub fn sub(&self, o: &Num) -> Num {
        self.add(&o.neg())
    }

    /// Product with bc's scale: min(a+b, max(scale, a, b)).
    pub fn mul(&self, o: &Num, scale: usize) -> Num {
        let full = self.scale + o.scale;
        let keep = full.min(scale.max(self.scale).max(o.scale));
        Num::make(self.neg != o.neg, mag_mul(&self.mag, &o.mag), full).rescale(keep)
    }

    /// Quotient truncated to `scale` digits; None on division by zero.
    pub fn div(&self, o: &Num, scale: usize) -> Option<Num> {
        if o.is_zero() {
            return None;
        }
        // (a / 10^sa) / (b / 10^sb) = a * 10^(scale + sb - sa) / b / 10^scale
        let up = scale + o.scale;
        let num = if up >= self.scale { shift(&self.mag, up - self.scale) } else { Num::make(false, self.mag.clone(), self.scale).rescale(up).mag };
        let (q, _) = mag_divmod(&num, &o.mag);
        Some(Num::make(self.neg != o.neg, q, scale))
    }

    /// a - (a/b)*b with the quotient at `scale`, kept at max(scale+sb, sa).
    pub fn rem(&self, o: &Num, scale: usize) -> Option<Num> {
        let q = self.div(o, scale)?;
        let keep = (scale + o.scale).max(self.scale);
        Some(self.sub(&q.mul(o, keep)).rescale(keep))
    }

    /// Integer power (the exponent's fraction is dropped, like bc warns).
    pub fn pow(&self, e: i64, scale: usize) -> Option<Num> {
        let n = e.unsigned_abs();
        let keep = if e < 0 { scale } else { (self.scale.saturating_mul(n as usize)).min(scale.max(self.scale)) };
        let mut result = Num::from_i64(1);
        let mut base = self.clone();
        let mut k = n;
        let work = self.scale.saturating_mul(n as usize).min(keep + 10 + self.scale);
        while k > 0 {
            if k & 1 == 1 {
                result = result.mul(&base, work);
            }
            k >>= 1;
            if k > 0 {
                base = base.mul(&base, work);
            }
        }
        if e < 0 {
            return Num::from_i64(1).div(&result, scale);
        }
        Some(result.rescale(keep))
    }

    /// Square root to max(scale, own scale) digits; None for negatives.
    pub fn sqrt(&self, scale: usize) -> Option<Num> {
        if self.neg {
            return None;
        }
        let keep = scale.max(self.scale);
        // isqrt(mag * 10^(2*keep - own scale)) has exactly `keep` fraction digits.
        let n = shift(&self.mag, 2 * keep - self.scale);
        if n.is_empty() {
            return Some(Num::zero().rescale(keep));
        }
        let mut x = shift(&vec![1], (n.len() + 1) / 2);
        loop {
            // Newton: y = (x + n/x) / 2, from above.
            let (q, _) = mag_divmod(&n, &x);
            let (y, _) = mag_divmod(&mag_add(&x, &q), &vec![2]);
            if mag_cmp(&y, &x) != Ordering::Less {
                break;
            }
            x = y;
        }
        Some(Num::make(false, x, keep))
    }

    pub fn to_i64(&self) -> Option<i64> {
        let int = self.rescale(0);
        if int.mag.len() > 18 {
            return None;
        }
        let v = int.mag.iter().rev().fold(0i64, |a, &d| a * 10 + d as i64);
        Some(if self.neg { -v } else { v })
    }

    /// Significant digits for length(): all digits, integer and fraction.
    pub fn length(&self) -> usize {
        if self.is_zero() {
            return self.scale.max(1);
        }
        self.mag.len().max(self.scale)
    }

    /// The number in base `obase` as bc prints it (no line wrapping).
    pub fn format(&self, obase: u32) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let mut s = String::new();
        if self.neg {
            s.push('-');
        }
        if obase == 10 {
            let int: String = if self.mag.len() > self.scale { self.mag[self.scale..].iter().rev().map(|d| (b'0' + d) as char).collect() } else { String::new() };
            s.push_str(&int);
            if self.scale > 0 {
                s.push('.');
                for i in (0..self.scale).rev() {
                    s.push((b'0' + self.mag.get(i).copied().unwrap_or(0)) as char);
                }
            }
            return s;
        }
        let wide = obase > 16;
        let width = (obase - 1).to_string().len();
        let digit = |d: u32, s: &mut String| {
            if wide {
                s.push_str(&format!(" {:0w$}", d, w = width));
            } else {
                s.push(std::char::from_digit(d, 16).unwrap_or('?').to_ascii_uppercase());
            }
        };
        let base = Num::from_i64(obase as i64);
        let mut int = self.abs().rescale(0);
        let mut digits = Vec::new();
        while !int.is_zero() {
            let (q, r) = mag_divmod(&int.mag, &base.mag);
            digits.push(Num::make(false, r, 0).to_i64().unwrap_or(0) as u32);
            int = Num::make(false, q, 0);
        }
        for d in digits.iter().rev() {
            digit(*d, &mut s);
        }
        if self.scale > 0 {
            let mut frac = self.abs().sub(&self.abs().rescale(0));
            s.push('.');
            let mut reach = Num::from_i64(1);
            while reach.mag.len() <= self.scale {
                frac = frac.mul(&base, self.scale);
                let d = frac.rescale(0);
                digit(d.to_i64().unwrap_or(0) as u32, &mut s);
                frac = frac.sub(&d);
                reach = reach.mul(&base, 0);
            }
        }
        s
    }
}
