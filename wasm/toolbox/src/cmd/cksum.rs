//! cksum [-a ALGORITHM] [--untagged] [-c] [FILE]... — the POSIX CRC (the
//! default), the old BSD and System V sums, or, with -a md5/sha1/sha2, the
//! digests md5sum and sha*sum compute (BSD-tagged output by default).

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, reason, Ctx, Res};
use crate::input;
use std::io::{BufRead, Write};

const SPECS: &[Spec] = &[
    val('a', "algorithm", "a"),
    flag('c', "check", "c"),
    val('l', "length", "l"),
    flag('\0', "tag", "tag"),
    flag('\0', "untagged", "untagged"),
    flag('z', "zero", "z"),
    flag('\0', "ignore-missing", "ignore-missing"),
    flag('\0', "quiet", "quiet"),
    flag('\0', "status", "status"),
    flag('\0', "strict", "strict"),
    flag('w', "warn", "w"),
    flag('\0', "debug", "debug"),
];
const HELP: &str = "Usage: cksum [OPTION]... [FILE]...\nPrint or verify checksums.\nBy default use the 32 bit CRC algorithm.\n\nWith no FILE, or when FILE is -, read standard input.\n\n  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.\n  -c, --check           read checksums from the FILEs and check them\n      --tag             create a BSD-style checksum (the default)\n      --untagged        create a reversed style checksum, without digest type\n  -z, --zero            end each output line with NUL, not newline\n\nThe following five options are useful only when verifying checksums:\n      --ignore-missing  don't fail or report status for missing files\n      --quiet           don't print OK for each successfully verified file\n      --status          don't output anything, status code shows success\n      --strict          exit non-zero for improperly formatted checksum lines\n  -w, --warn            warn about improperly formatted checksum lines\n\nDIGEST determines the digest algorithm and default output format:\n  sysv      (equivalent to sum -s)\n  bsd       (equivalent to sum -r)\n  crc       (equivalent to cksum)\n  md5       (equivalent to md5sum)\n  sha1      (equivalent to sha1sum)\n  sha224    (equivalent to sha224sum)\n  sha256    (equivalent to sha256sum)\n  sha384    (equivalent to sha384sum)\n  sha512    (equivalent to sha512sum)\n(blake2b and sm3 are not available here.)\n";

const DIGESTS: &[(&str, &str)] = &[("md5", "md5sum"), ("sha1", "sha1sum"), ("sha224", "sha224sum"), ("sha256", "sha256sum"), ("sha384", "sha384sum"), ("sha512", "sha512sum")];

fn crc_table() -> [u32; 256] {
    let mut t = [0u32; 256];
    for (i, e) in t.iter_mut().enumerate() {
        let mut c = (i as u32) << 24;
        for _ in 0..8 {
            c = if c & 0x8000_0000 != 0 { (c << 1) ^ 0x04C1_1DB7 } else { c << 1 };
        }
        *e = c;
    }
    t
}

/// The running state of one of the three classic sums.
enum Sum {
    Crc([u32; 256], u32),
    Bsd(u16),
    Sysv(u64),
}

impl Sum {
    fn update(&mut self, data: &[u8]) {
        match self {
            Sum::Crc(t, c) => {
                for &b in data {
                    *c = (*c << 8) ^ t[((*c >> 24) as u8 ^ b) as usize];
                }
            }
            Sum::Bsd(s) => {
                for &b in data {
                    *s = s.rotate_right(1).wrapping_add(b as u16);
                }
            }
            Sum::Sysv(s) => *s += data.iter().map(|&b| b as u64).sum::<u64>(),
        }
    }
    /// The output line's numbers for `len` bytes read.
    fn finish(mut self, len: u64) -> String {
        match &mut self {
            Sum::Crc(..) => {
                let mut n = len;
                let mut bytes = Vec::new();
                while n > 0 {
                    bytes.push(n as u8);
                    n >>= 8;
                }
                self.update(&bytes);
                let c = if let Sum::Crc(_, c) = self { c } else { 0 };
                format!("{} {}", !c, len)
            }
            Sum::Bsd(s) => format!("{:05} {:5}", s, (len + 1023) / 1024),
            Sum::Sysv(s) => {
                let r = (*s & 0xffff) + ((*s & 0xffff_ffff) >> 16);
                format!("{} {}", (r & 0xffff) + (r >> 16), (len + 511) / 512)
            }
        }
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let alg = p.last("a").unwrap_or("crc");
    if p.has("l") && alg != "blake2b" {
        ctx.diag.error("--length is only supported with --algorithm=blake2b");
        return Ok(1);
    }
    let digest = DIGESTS.iter().find(|(a, _)| *a == alg).map(|(_, c)| *c);
    // Checking without -a reads the algorithm from each tagged line.
    let auto = p.has("c") && p.last("a").is_none();
    if digest.is_some() || auto {
        // The digests are md5sum/sha*sum's, with cksum's tagged default.
        let mut rest: Vec<String> = Vec::new();
        let mut skip = false;
        for a in args {
            if skip {
                skip = false;
                continue;
            }
            if a == "-a" || a == "--algorithm" {
                skip = true;
            } else if !(a.starts_with("-a") && a.len() > 2 || a.starts_with("--algorithm=") || a == "--untagged" || a == "--tag" || a == "--debug") {
                rest.push(a.clone());
            }
        }
        if !p.has("untagged") && !p.has("c") {
            rest.insert(0, "--tag".into());
        }
        return super::hashsum::run_digest(ctx, &rest, digest);
    }
    let fresh: fn() -> Sum = match alg {
        "crc" => || Sum::Crc(crc_table(), 0),
        "bsd" => || Sum::Bsd(0),
        "sysv" => || Sum::Sysv(0),
        "blake2b" | "sm3" => {
            ctx.diag.error(format!("the {} algorithm is not supported here; use -a sha256 (or sha1, sha512, md5)", alg));
            return Ok(1);
        }
        _ => {
            ctx.diag.error(format!("invalid argument {} for '--algorithm'\nValid arguments are: 'sysv', 'bsd', 'crc', 'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'", lq(alg)));
            ctx.diag.try_help();
            return Ok(1);
        }
    };
    if p.has("c") {
        ctx.diag.error("--check is not supported with --algorithm={bsd,sysv,crc}");
        return Ok(1);
    }
    let named = !p.operands.is_empty();
    let end = if p.has("z") { '\0' } else { '\n' };
    for f in input::or_stdin(&p.operands) {
        let mut s = fresh();
        let mut len = 0u64;
        let res = input::open(ctx.stdin, &f).and_then(|mut r| loop {
            let n = {
                let b = r.fill_buf()?;
                if b.is_empty() {
                    return Ok(());
                }
                s.update(b);
                b.len()
            };
            len += n as u64;
            r.consume(n);
        });
        if let Err(e) = res {
            ctx.diag.error(format!("{}: {}", f, reason(&e)));
            continue;
        }
        let nums = s.finish(len);
        if named {
            write!(ctx.out, "{} {}{}", nums, f, end)?;
        } else {
            write!(ctx.out, "{}{}", nums, end)?;
        }
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        // Outputs from GNU coreutils 9.1.
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], "hello\n", "3015617425 6\n"),
            (&[], "", "4294967295 0\n"),
            (&["-a", "bsd"], "hello\n", "36979     1\n"),
            (&["-a", "sysv", "-"], "hello\n", "542 1 -\n"),
            (&["-a", "md5"], "hello\n", "MD5 (-) = b1946ac92492d2347c6235b4d2611184\n"),
            (&["-a", "sha256", "--untagged"], "hello\n", "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  -\n"),
            (&["--algorithm=sha1"], "hello\n", "SHA1 (-) = f572d396fae9206628714fb2ce00f72e94f2258f\n"),
        ];
        for (args, input, out) in cases {
            check("cksum", args, input, out, 0);
        }
        check("cksum", &["-a", "blake2b"], "", "", 1);
        check("cksum", &["-a", "crc", "-c"], "", "", 1);
    }
}
