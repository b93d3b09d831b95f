//! -R/--random-sort as GNU orders it: each key is hashed with MD5 after a
//! 16-byte salt, keys compare by digest and equal digests by their bytes.
//! The salt is read from --random-source (so a given file always yields the
//! same order, as in GNU) or else drawn from the host's random source.

use crate::digest::{by_name, Digest};
use std::cell::Cell;
use std::cmp::Ordering;
use std::io::Read;

/// Bytes of salt, MD5's digest size (what GNU reads from the source).
const SALT: usize = 16;

thread_local! {
    static SALT_BYTES: Cell<[u8; SALT]> = Cell::new([0; SALT]);
}

/// Sets the salt from `source` (a file) or the host's randomness; the
/// error is GNU's message for a short or unreadable source.
pub fn seed(source: Option<&str>) -> Result<(), String> {
    let mut salt = [0u8; SALT];
    match source {
        Some(name) => {
            let mut f = std::fs::File::open(crate::fsx::host(name)).map_err(|e| format!("open failed: {}: {}", name, crate::ctx::reason(&e)))?;
            let mut got = 0;
            while got < SALT {
                match f.read(&mut salt[got..]) {
                    Ok(0) => return Err(format!("'{}': end of file", name)),
                    Ok(n) => got += n,
                    Err(e) => return Err(format!("'{}': {}", name, crate::ctx::reason(&e))),
                }
            }
        }
        None => {
            let mut rng = crate::rand::Rng::new();
            for chunk in salt.chunks_mut(8) {
                chunk.copy_from_slice(&rng.next().to_le_bytes()[..chunk.len()]);
            }
        }
    }
    SALT_BYTES.with(|s| s.set(salt));
    Ok(())
}

/// MD5 of salt followed by `key`.
pub fn digest(key: &[u8]) -> [u8; 16] {
    let mut h: Box<dyn Digest> = by_name("md5sum").expect("md5 is built in");
    h.update(&SALT_BYTES.with(|s| s.get()));
    h.update(key);
    let mut out = [0u8; 16];
    out.copy_from_slice(&h.finish());
    out
}

/// The first 8 digest bytes as a number: a rank that never contradicts `cmp`.
pub fn rank(key: &[u8]) -> u64 {
    let d = digest(key);
    u64::from_be_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]])
}

pub fn cmp(a: &[u8], b: &[u8]) -> Ordering {
    digest(a).cmp(&digest(b)).then_with(|| a.cmp(b))
}
