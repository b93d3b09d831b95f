//! base64 [-d] [-i] [-w COLS] [FILE]

use crate::args::{flag, val, Spec};
use crate::ctx::{lq, reason, Ctx, Res};
use crate::input;
use std::io::{BufRead, Write};

const SPECS: &[Spec] = &[flag('d', "decode", "d"), flag('i', "ignore-garbage", "i"), val('w', "wrap", "w")];
const HELP: &str = "Usage: base64 [OPTION]... [FILE]\nBase64 encode or decode FILE, or standard input, to standard output.\n\n  -d, --decode          decode data\n  -i, --ignore-garbage  when decoding, ignore non-alphabet characters\n  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).\n                          Use 0 to disable line wrapping\n";
const ALPHA: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub fn encode_block(inp: &[u8], out: &mut Vec<u8>) {
    for ch in inp.chunks(3) {
        let b = [ch[0], *ch.get(1).unwrap_or(&0), *ch.get(2).unwrap_or(&0)];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        out.push(ALPHA[(n >> 18) as usize & 63]);
        out.push(ALPHA[(n >> 12) as usize & 63]);
        out.push(if ch.len() > 1 { ALPHA[(n >> 6) as usize & 63] } else { b'=' });
        out.push(if ch.len() > 2 { ALPHA[n as usize & 63] } else { b'=' });
    }
}

fn val_of(c: u8) -> Option<u32> {
    ALPHA.iter().position(|a| *a == c).map(|p| p as u32)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.len() > 1 {
        super::extra_operand(ctx, &p.operands[1]);
        return Ok(1);
    }
    let wrap = match p.last("w").map(|w| w.parse::<usize>()) {
        None => 76,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            ctx.diag.error(format!("invalid wrap size: {}", lq(p.last("w").unwrap())));
            return Ok(1);
        }
    };
    let name = p.operands.first().cloned().unwrap_or_else(|| "-".into());
    let mut r = match input::open(ctx.stdin, &name) {
        Ok(r) => r,
        Err(e) => {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            return Ok(1);
        }
    };
    if !p.has("d") {
        let mut pending: Vec<u8> = Vec::new();
        let mut col = 0usize;
        let mut enc = Vec::new();
        let emit = |enc: &[u8], out: &mut dyn Write, col: &mut usize| -> std::io::Result<()> {
            if wrap == 0 {
                return out.write_all(enc);
            }
            let mut rest = enc;
            while !rest.is_empty() {
                let k = (wrap - *col).min(rest.len());
                out.write_all(&rest[..k])?;
                *col += k;
                rest = &rest[k..];
                if *col == wrap {
                    out.write_all(b"\n")?;
                    *col = 0;
                }
            }
            Ok(())
        };
        loop {
            let n = {
                let b = r.fill_buf()?;
                if b.is_empty() {
                    break;
                }
                pending.extend_from_slice(b);
                b.len()
            };
            r.consume(n);
            let whole = pending.len() / 3 * 3;
            enc.clear();
            encode_block(&pending[..whole], &mut enc);
            pending.drain(..whole);
            emit(&enc, &mut ctx.out, &mut col)?;
        }
        enc.clear();
        encode_block(&pending, &mut enc);
        emit(&enc, &mut ctx.out, &mut col)?;
        if wrap > 0 && col > 0 {
            ctx.out.write_all(b"\n")?;
        }
        return Ok(0);
    }
    let ignore = p.has("i");
    let mut acc = 0u32;
    let mut nbits = 0;
    let mut out = Vec::new();
    let mut ended = false;
    loop {
        let n = {
            let b = r.fill_buf()?;
            if b.is_empty() {
                break;
            }
            for &c in b {
                if c == b'\n' || c == b'\r' {
                    continue;
                }
                if c == b'=' {
                    ended = true;
                    continue;
                }
                match val_of(c) {
                    Some(v) if !ended => {
                        acc = acc << 6 | v;
                        nbits += 6;
                        if nbits >= 8 {
                            nbits -= 8;
                            out.push((acc >> nbits) as u8);
                            acc &= (1 << nbits) - 1;
                        }
                    }
                    _ if ignore => {}
                    _ => {
                        ctx.out.write_all(&out)?;
                        ctx.diag.error("invalid input");
                        return Ok(1);
                    }
                }
            }
            b.len()
        };
        r.consume(n);
        ctx.out.write_all(&out)?;
        out.clear();
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, &str)] = &[
            (&[], "hello", "aGVsbG8=\n"),
            (&[], "", ""),
            (&["-w", "4"], "hello", "aGVs\nbG8=\n"),
            (&["-w", "0"], "hi", "aGk="),
            (&["-d"], "aGVsbG8=\n", "hello"),
            (&["-d"], "aGVs\nbG8=", "hello"),
            (&["-d", "-i"], "aG!Vs bG8=", "hello"),
        ];
        for (args, input, out) in cases {
            check("base64", args, input, out, 0);
        }
        check_err("base64", &["-d"], "a*b", "base64: invalid input\n", 1);
    }
}
