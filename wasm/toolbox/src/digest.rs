//! MD5, SHA-1, SHA-224/256 and SHA-384/512, streaming, written from the
//! published specifications (RFC 1321, FIPS 180-4) so no extra crate is needed.

pub trait Digest {
    fn update(&mut self, data: &[u8]);
    fn finish(self: Box<Self>) -> Vec<u8>;
}

/// Buffers input into fixed blocks and applies padding shared by all four
/// Merkle–Damgård constructions (only the length encoding differs).
struct Blocks<const N: usize> {
    buf: [u8; N],
    len: usize,
    total: u128,
}

impl<const N: usize> Blocks<N> {
    fn new() -> Self {
        Blocks { buf: [0; N], len: 0, total: 0 }
    }
    fn feed(&mut self, mut data: &[u8], mut f: impl FnMut(&[u8; N])) {
        self.total += data.len() as u128;
        if self.len > 0 {
            let k = (N - self.len).min(data.len());
            self.buf[self.len..self.len + k].copy_from_slice(&data[..k]);
            self.len += k;
            data = &data[k..];
            if self.len == N {
                f(&self.buf);
                self.len = 0;
            }
        }
        while data.len() >= N {
            let mut b = [0u8; N];
            b.copy_from_slice(&data[..N]);
            f(&b);
            data = &data[N..];
        }
        self.buf[..data.len()].copy_from_slice(data);
        self.len += data.len();
    }
    /// Appends 0x80, zeros and the bit length (`len_bytes` wide, big or little endian).
    fn pad(&mut self, len_bytes: usize, little: bool, mut f: impl FnMut(&[u8; N])) {
        let bits = self.total * 8;
        let mut tail = vec![0x80u8];
        while (self.len + tail.len()) % N != N - len_bytes {
            tail.push(0);
        }
        let lb = bits.to_be_bytes();
        let mut lenb = lb[16 - len_bytes..].to_vec();
        if little {
            lenb.reverse();
        }
        tail.extend_from_slice(&lenb);
        let total = self.total;
        self.feed(&tail, &mut f);
        self.total = total;
    }
}

pub struct Md5 {
    s: [u32; 4],
    b: Blocks<64>,
}

const MD5_K: [u32; 64] = {
    // floor(abs(sin(i + 1)) * 2^32), precomputed per RFC 1321.
    [
        0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
        0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
        0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
        0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
    ]
};
const MD5_R: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

fn md5_block(s: &mut [u32; 4], blk: &[u8; 64]) {
    let mut m = [0u32; 16];
    for i in 0..16 {
        m[i] = u32::from_le_bytes([blk[i * 4], blk[i * 4 + 1], blk[i * 4 + 2], blk[i * 4 + 3]]);
    }
    let (mut a, mut b, mut c, mut d) = (s[0], s[1], s[2], s[3]);
    for i in 0..64 {
        let (f, g) = match i / 16 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        let t = d;
        d = c;
        c = b;
        b = b.wrapping_add(a.wrapping_add(f).wrapping_add(MD5_K[i]).wrapping_add(m[g]).rotate_left(MD5_R[i]));
        a = t;
    }
    s[0] = s[0].wrapping_add(a);
    s[1] = s[1].wrapping_add(b);
    s[2] = s[2].wrapping_add(c);
    s[3] = s[3].wrapping_add(d);
}

impl Digest for Md5 {
    fn update(&mut self, data: &[u8]) {
        let s = &mut self.s;
        self.b.feed(data, |blk| md5_block(s, blk));
    }
    fn finish(mut self: Box<Self>) -> Vec<u8> {
        let s = &mut self.s;
        self.b.pad(8, true, |blk| md5_block(s, blk));
        self.s.iter().flat_map(|w| w.to_le_bytes()).collect()
    }
}

pub struct Sha1 {
    s: [u32; 5],
    b: Blocks<64>,
}

fn sha1_block(s: &mut [u32; 5], blk: &[u8; 64]) {
    let mut w = [0u32; 80];
    for i in 0..16 {
        w[i] = u32::from_be_bytes([blk[i * 4], blk[i * 4 + 1], blk[i * 4 + 2], blk[i * 4 + 3]]);
    }
    for i in 16..80 {
        w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
    }
    let (mut a, mut b, mut c, mut d, mut e) = (s[0], s[1], s[2], s[3], s[4]);
    for (i, wi) in w.iter().enumerate() {
        let (f, k) = match i / 20 {
            0 => ((b & c) | (!b & d), 0x5A827999),
            1 => (b ^ c ^ d, 0x6ED9EBA1),
            2 => ((b & c) | (b & d) | (c & d), 0x8F1BBCDC),
            _ => (b ^ c ^ d, 0xCA62C1D6u32),
        };
        let t = a.rotate_left(5).wrapping_add(f).wrapping_add(e).wrapping_add(k).wrapping_add(*wi);
        e = d;
        d = c;
        c = b.rotate_left(30);
        b = a;
        a = t;
    }
    for (x, v) in s.iter_mut().zip([a, b, c, d, e]) {
        *x = x.wrapping_add(v);
    }
}

impl Digest for Sha1 {
    fn update(&mut self, data: &[u8]) {
        let s = &mut self.s;
        self.b.feed(data, |blk| sha1_block(s, blk));
    }
    fn finish(mut self: Box<Self>) -> Vec<u8> {
        let s = &mut self.s;
        self.b.pad(8, false, |blk| sha1_block(s, blk));
        self.s.iter().flat_map(|w| w.to_be_bytes()).collect()
    }
}

const K256: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

pub struct Sha256 {
    s: [u32; 8],
    b: Blocks<64>,
    out_len: usize,
}

fn sha256_block(s: &mut [u32; 8], blk: &[u8; 64]) {
    let mut w = [0u32; 64];
    for i in 0..16 {
        w[i] = u32::from_be_bytes([blk[i * 4], blk[i * 4 + 1], blk[i * 4 + 2], blk[i * 4 + 3]]);
    }
    for i in 16..64 {
        let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
        let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let mut v = *s;
    for i in 0..64 {
        let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
        let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
        let t1 = v[7].wrapping_add(s1).wrapping_add(ch).wrapping_add(K256[i]).wrapping_add(w[i]);
        let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
        let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
        let t2 = s0.wrapping_add(maj);
        v = [t1.wrapping_add(t2), v[0], v[1], v[2], v[3].wrapping_add(t1), v[4], v[5], v[6]];
    }
    for (x, y) in s.iter_mut().zip(v) {
        *x = x.wrapping_add(y);
    }
}

impl Digest for Sha256 {
    fn update(&mut self, data: &[u8]) {
        let s = &mut self.s;
        self.b.feed(data, |blk| sha256_block(s, blk));
    }
    fn finish(mut self: Box<Self>) -> Vec<u8> {
        let s = &mut self.s;
        self.b.pad(8, false, |blk| sha256_block(s, blk));
        let mut v: Vec<u8> = self.s.iter().flat_map(|w| w.to_be_bytes()).collect();
        v.truncate(self.out_len);
        v
    }
}

const K512: [u64; 80] = [
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
    0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
    0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65, 0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
    0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
    0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
    0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
    0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec, 0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
    0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
    0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
];

pub struct Sha512 {
    s: [u64; 8],
    b: Blocks<128>,
    out_len: usize,
}

fn sha512_block(s: &mut [u64; 8], blk: &[u8; 128]) {
    let mut w = [0u64; 80];
    for i in 0..16 {
        let mut x = [0u8; 8];
        x.copy_from_slice(&blk[i * 8..i * 8 + 8]);
        w[i] = u64::from_be_bytes(x);
    }
    for i in 16..80 {
        let s0 = w[i - 15].rotate_right(1) ^ w[i - 15].rotate_right(8) ^ (w[i - 15] >> 7);
        let s1 = w[i - 2].rotate_right(19) ^ w[i - 2].rotate_right(61) ^ (w[i - 2] >> 6);
        w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
    }
    let mut v = *s;
    for i in 0..80 {
        let s1 = v[4].rotate_right(14) ^ v[4].rotate_right(18) ^ v[4].rotate_right(41);
        let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
        let t1 = v[7].wrapping_add(s1).wrapping_add(ch).wrapping_add(K512[i]).wrapping_add(w[i]);
        let s0 = v[0].rotate_right(28) ^ v[0].rotate_right(34) ^ v[0].rotate_right(39);
        let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
        let t2 = s0.wrapping_add(maj);
        v = [t1.wrapping_add(t2), v[0], v[1], v[2], v[3].wrapping_add(t1), v[4], v[5], v[6]];
    }
    for (x, y) in s.iter_mut().zip(v) {
        *x = x.wrapping_add(y);
    }
}

impl Digest for Sha512 {
    fn update(&mut self, data: &[u8]) {
        let s = &mut self.s;
        self.b.feed(data, |blk| sha512_block(s, blk));
    }
    fn finish(mut self: Box<Self>) -> Vec<u8> {
        let s = &mut self.s;
        self.b.pad(16, false, |blk| sha512_block(s, blk));
        let mut v: Vec<u8> = self.s.iter().flat_map(|w| w.to_be_bytes()).collect();
        v.truncate(self.out_len);
        v
    }
}

/// A fresh hasher for a command name (md5sum, sha1sum, sha224sum, ...).
pub fn by_name(cmd: &str) -> Option<Box<dyn Digest>> {
    Some(match cmd {
        "md5sum" => Box::new(Md5 { s: [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476], b: Blocks::new() }),
        "sha1sum" => Box::new(Sha1 { s: [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0], b: Blocks::new() }),
        "sha256sum" => Box::new(Sha256 { s: [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19], b: Blocks::new(), out_len: 32 }),
        "sha224sum" => Box::new(Sha256 { s: [0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4], b: Blocks::new(), out_len: 28 }),
        "sha512sum" => Box::new(Sha512 {
            s: [0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179],
            b: Blocks::new(),
            out_len: 64,
        }),
        "sha384sum" => Box::new(Sha512 {
            s: [0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939, 0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4],
            b: Blocks::new(),
            out_len: 48,
        }),
        _ => return None,
    })
}

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{:02x}", x)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(cmd: &str, data: &[u8]) -> String {
        let mut d = by_name(cmd).unwrap();
        // Feed in odd pieces to exercise block buffering.
        for ch in data.chunks(7) {
            d.update(ch);
        }
        hex(&d.finish())
    }

    #[test]
    fn known_vectors() {
        let abc = b"abc";
        let long = vec![b'a'; 1000];
        let cases: &[(&str, &[u8], &str)] = &[
            ("md5sum", b"", "d41d8cd98f00b204e9800998ecf8427e"),
            ("md5sum", abc, "900150983cd24fb0d6963f7d28e17f72"),
            ("sha1sum", abc, "a9993e364706816aba3e25717850c26c9cd0d89d"),
            ("sha256sum", abc, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("sha256sum", b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("sha224sum", abc, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
            ("sha512sum", abc, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"),
            ("sha384sum", abc, "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"),
        ];
        for (cmd, data, want) in cases {
            assert_eq!(h(cmd, data), *want, "{}", cmd);
        }
        // Multi-block inputs, checked against the system tools' values.
        assert_eq!(h("sha256sum", &long), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
        assert_eq!(h("md5sum", &long), "cabe45dcc9ae5b66ba86600cca6b8ba8");
    }
}
