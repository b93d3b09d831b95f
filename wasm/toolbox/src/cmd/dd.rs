//! dd [OPERAND]... — copy a file in blocks, converting as asked (GNU coreutils' operands:
//! if= of= bs= ibs= obs= count= skip= seek= conv= iflag= oflag= status=).
//! Which devices dd may name is the command policy's business, not this file's.

use crate::ctx::{lq, q, reason, Ctx, Res};
use crate::fsx;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::time::Instant;

const HELP: &str = "Usage: dd [OPERAND]...\n  or:  dd OPTION\nCopy a file, converting and formatting according to the operands.\n\n  bs=BYTES        read and write up to BYTES bytes at a time (default: 512);\n                  overrides ibs and obs\n  count=N         copy only N input blocks\n  ibs=BYTES       read up to BYTES bytes at a time (default: 512)\n  if=FILE         read from FILE instead of stdin\n  iflag=FLAGS     read as per the comma separated symbol list\n  obs=BYTES       write BYTES bytes at a time (default: 512)\n  of=FILE         write to FILE instead of stdout\n  oflag=FLAGS     write as per the comma separated symbol list\n  seek=N          (or oseek=N) skip N obs-sized output blocks\n  skip=N          (or iseek=N) skip N ibs-sized input blocks\n  status=LEVEL    The LEVEL of information to print to stderr;\n                  'none' suppresses everything but error messages,\n                  'noxfer' suppresses the final transfer statistics,\n                  'progress' shows periodic transfer statistics\n\nN and BYTES may be followed by the following multiplicative suffixes:\nc=1, w=2, b=512, kB=1000, K=1024, MB=1000*1000, M=1024*1024, xM=M,\nGB=1000*1000*1000, G=1024*1024*1024, and so on for T, P, E, Z, Y, R, Q.\nBinary prefixes can be used, too: KiB=K, MiB=M, and so on.\nIf N ends in 'B', it counts bytes not blocks.\n\nEach CONV symbol may be:\n\n  lcase     change upper case to lower case\n  ucase     change lower case to upper case\n  sync      pad every input block with NULs to ibs-size\n  excl      fail if the output file already exists\n  nocreat   do not create the output file\n  notrunc   do not truncate the output file\n  noerror   continue after read errors\n  fdatasync  physically write output file data before finishing\n  fsync     likewise, but also write metadata\n\nEach FLAG symbol may be:\n\n  append    append mode (makes sense only for output; conv=notrunc suggested)\n  fullblock  accumulate full blocks of input (iflag only)\n  count_bytes  treat 'count=N' as a byte count (iflag only)\n  skip_bytes  treat 'skip=N' as a byte count (iflag only)\n  seek_bytes  treat 'seek=N' as a byte count (oflag only)\n";

#[derive(Default)]
struct Ops {
    input: Option<String>,
    output: Option<String>,
    ibs: Option<u64>,
    obs: Option<u64>,
    bs: Option<u64>,
    count: Option<u64>,
    skip: u64,
    seek: u64,
    ucase: bool,
    lcase: bool,
    sync: bool,
    excl: bool,
    nocreat: bool,
    notrunc: bool,
    append: bool,
    fullblock: bool,
    count_bytes: bool,
    skip_bytes: bool,
    seek_bytes: bool,
    /// 0 = default, 1 = noxfer, 2 = none.
    quiet: u8,
}

/// dd's numbers: a size with GNU suffixes, optionally products (`2x512`).
fn number(s: &str) -> Option<u64> {
    s.split('x').try_fold(1u64, |acc, part| acc.checked_mul(crate::num::parse_size(part)?))
}

fn parse_ops(ctx: &mut Ctx, args: &[String]) -> Result<Ops, i32> {
    let mut o = Ops::default();
    for a in args {
        let (key, val) = match a.split_once('=') {
            Some(kv) => kv,
            None => {
                ctx.diag.error(format!("unrecognized operand {}", q(a)));
                ctx.diag.try_help();
                return Err(1);
            }
        };
        let num = |ctx: &mut Ctx| -> Result<u64, i32> {
            match number(val) {
                Some(n) => Ok(n),
                None => {
                    ctx.diag.error(format!("invalid number: {}", lq(val)));
                    Err(1)
                }
            }
        };
        match key {
            "if" => o.input = Some(val.to_string()),
            "of" => o.output = Some(val.to_string()),
            "bs" => o.bs = Some(num(ctx)?),
            "ibs" => o.ibs = Some(num(ctx)?),
            "obs" => o.obs = Some(num(ctx)?),
            "count" => o.count = Some(num(ctx)?),
            "skip" | "iseek" => o.skip = num(ctx)?,
            "seek" | "oseek" => o.seek = num(ctx)?,
            "conv" | "iflag" | "oflag" => {
                for sym in val.split(',').filter(|s| !s.is_empty()) {
                    let known = match (key, sym) {
                        ("conv", "ucase") => { o.ucase = true; true }
                        ("conv", "lcase") => { o.lcase = true; true }
                        ("conv", "sync") => { o.sync = true; true }
                        ("conv", "excl") => { o.excl = true; true }
                        ("conv", "nocreat") => { o.nocreat = true; true }
                        ("conv", "notrunc") => { o.notrunc = true; true }
                        ("conv", "noerror" | "fsync" | "fdatasync") => true,
                        ("iflag", "fullblock") => { o.fullblock = true; true }
                        ("iflag", "count_bytes") => { o.count_bytes = true; true }
                        ("iflag", "skip_bytes") => { o.skip_bytes = true; true }
                        ("oflag", "seek_bytes") => { o.seek_bytes = true; true }
                        ("oflag", "append") => { o.append = true; true }
                        // Cache and sync hints change nothing over the session's storage.
                        ("iflag" | "oflag", "direct" | "dsync" | "sync" | "nocache" | "noatime" | "nonblock" | "noctty" | "nofollow" | "binary" | "text") => true,
                        _ => false,
                    };
                    if !known {
                        let what = if key == "conv" { "conversion" } else if key == "iflag" { "input flag" } else { "output flag" };
                        ctx.diag.error(format!("invalid {}: {}", what, lq(sym)));
                        ctx.diag.try_help();
                        return Err(1);
                    }
                }
            }
            "status" => {
                o.quiet = match val {
                    "none" => 2,
                    "noxfer" => 1,
                    "progress" => 0,
                    _ => {
                        ctx.diag.error(format!("invalid status level: {}", lq(val)));
                        ctx.diag.try_help();
                        return Err(1);
                    }
                }
            }
            _ => {
                ctx.diag.error(format!("unrecognized operand {}", q(a)));
                ctx.diag.try_help();
                return Err(1);
            }
        }
    }
    if o.ucase && o.lcase {
        ctx.diag.error("cannot combine lcase and ucase");
        return Err(1);
    }
    if o.excl && o.nocreat {
        ctx.diag.error("cannot combine excl and nocreat");
        return Err(1);
    }
    Ok(o)
}

/// Reads up to `buf.len()` bytes: one read, or until full (or end) with iflag=fullblock.
fn read_block(r: &mut dyn Read, buf: &mut [u8], full: bool) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        let n = match r.read(&mut buf[got..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        got += n;
        if n == 0 || !full {
            break;
        }
    }
    Ok(got)
}

/// GNU's "10 kB, 10 KiB": one decimal below 10, whole numbers above.
fn scaled(n: u64, base: f64, units: &[&str]) -> String {
    let mut v = n as f64;
    let mut u = 0;
    while v >= base && u < units.len() - 1 {
        v /= base;
        u += 1;
    }
    if v < 10.0 { format!("{:.1} {}", v, units[u]) } else { format!("{:.0} {}", v, units[u]) }
}

fn report(ctx: &mut Ctx, o: &Ops, full_in: u64, part_in: u64, full_out: u64, part_out: u64, bytes: u64, started: Instant) {
    if o.quiet >= 2 {
        return;
    }
    let mut s = format!("{}+{} records in\n{}+{} records out\n", full_in, part_in, full_out, part_out);
    if o.quiet == 0 {
        let secs = started.elapsed().as_secs_f64();
        let size = if bytes >= 1000 {
            format!("{} bytes ({}, {}) copied", bytes, scaled(bytes, 1000.0, &["B", "kB", "MB", "GB", "TB", "PB", "EB"]), scaled(bytes, 1024.0, &["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]))
        } else if bytes == 1 {
            "1 byte copied".to_string()
        } else {
            format!("{} bytes copied", bytes)
        };
        s.push_str(&format!("{}, {} s, {}\n", size, fmt_secs(secs), rate(bytes, secs)));
    }
    let _ = ctx.diag.raw().write_all(s.as_bytes());
}

/// Seconds as GNU prints them (`%g`: six significant digits, an exponent below 1e-4).
fn fmt_secs(s: f64) -> String {
    if s == 0.0 {
        return "0".to_string();
    }
    let exp = s.abs().log10().floor() as i32;
    let trim = |t: String| if t.contains('.') { t.trim_end_matches('0').trim_end_matches('.').to_string() } else { t };
    if exp < -4 {
        let m = s / 10f64.powi(exp);
        return format!("{}e-{:02}", trim(format!("{:.5}", m)), -exp);
    }
    trim(format!("{:.*}", (5 - exp).max(0) as usize, s))
}

/// The rate as GNU's dd prints it: kB/s at least, one decimal below 100.
fn rate(bytes: u64, secs: f64) -> String {
    if secs <= 0.0 {
        return "Infinity B/s".to_string();
    }
    let mut v = bytes as f64 / secs / 1000.0;
    let units = ["kB", "MB", "GB", "TB", "PB", "EB"];
    let mut u = 0;
    while v >= 1000.0 && u < units.len() - 1 {
        v /= 1000.0;
        u += 1;
    }
    if v < 100.0 { format!("{:.1} {}/s", v, units[u]) } else { format!("{:.0} {}/s", v, units[u]) }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    if args.len() == 1 && args[0] == "--help" {
        ctx.out.write_all(HELP.as_bytes())?;
        return Ok(0);
    }
    if args.len() == 1 && args[0] == "--version" {
        ctx.out.write_all(b"dd (coreutils) 9.1\n")?;
        return Ok(0);
    }
    let o = match parse_ops(ctx, args) {
        Ok(o) => o,
        Err(code) => return Ok(code),
    };
    let ibs = o.bs.or(o.ibs).unwrap_or(512);
    let obs = o.bs.or(o.obs).unwrap_or(512);
    if ibs == 0 || obs == 0 {
        ctx.diag.error(format!("invalid number: {}", lq("0")));
        return Ok(1);
    }
    let started = Instant::now();
    let mut file_in;
    let mut stdin: &mut dyn io::BufRead = &mut *ctx.stdin;
    let input: &mut dyn Read = match &o.input {
        Some(name) => match File::open(fsx::host(name)) {
            Ok(f) => {
                file_in = f;
                &mut file_in
            }
            Err(e) => {
                ctx.diag.error(format!("failed to open {}: {}", q(name), reason(&e)));
                return Ok(1);
            }
        },
        None => &mut stdin,
    };
    // Skip: seek a file, read and drop from a stream.
    let skip_bytes = if o.skip_bytes { o.skip } else { o.skip.saturating_mul(ibs) };
    if skip_bytes > 0 {
        let mut left = skip_bytes;
        let mut scratch = vec![0u8; 64 * 1024];
        while left > 0 {
            let want = left.min(scratch.len() as u64) as usize;
            let n = read_block(input, &mut scratch[..want], true)?;
            if n == 0 {
                let name = o.input.clone().unwrap_or_else(|| "standard input".into());
                ctx.diag.error(format!("{}: cannot skip to specified offset", q(&name)));
                break;
            }
            left -= n as u64;
        }
    }
    let seek_bytes = if o.seek_bytes { o.seek } else { o.seek.saturating_mul(obs) };
    // None: standard output.
    let mut file_out: Option<File> = None;
    if let Some(name) = &o.output {
        if fsx::is_dir(name) {
            ctx.diag.error(format!("failed to open {}: Is a directory", q(name)));
            return Ok(1);
        }
        let mut opts = OpenOptions::new();
        opts.write(true);
        if o.append {
            opts.append(true);
        }
        if o.excl {
            opts.create_new(true);
        } else if !o.nocreat {
            opts.create(true);
        }
        match opts.open(fsx::host(name)) {
            Ok(mut f) => {
                if !o.notrunc && !o.append {
                    if let Err(e) = f.set_len(seek_bytes) {
                        ctx.diag.error(format!("failed to truncate to {} bytes in output file {}: {}", seek_bytes, q(name), reason(&e)));
                        return Ok(1);
                    }
                }
                if seek_bytes > 0 && !o.append {
                    f.seek(SeekFrom::Start(seek_bytes))?;
                }
                file_out = Some(f);
            }
            Err(e) => {
                ctx.diag.error(format!("failed to open {}: {}", q(name), reason(&e)));
                return Ok(1);
            }
        }
    }
    let count_limit: Option<u64> = o.count;
    let (mut full_in, mut part_in, mut full_out, mut part_out, mut bytes) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut block = vec![0u8; ibs as usize];
    let mut pending: Vec<u8> = Vec::new();
    let mut in_bytes = 0u64;
    let mut status = 0;
    loop {
        let want = match count_limit {
            Some(c) if o.count_bytes => {
                if in_bytes >= c {
                    break;
                }
                (c - in_bytes).min(ibs) as usize
            }
            Some(c) => {
                if full_in + part_in >= c {
                    break;
                }
                ibs as usize
            }
            None => ibs as usize,
        };
        let n = read_block(input, &mut block[..want], o.fullblock)?;
        if n == 0 {
            break;
        }
        in_bytes += n as u64;
        if n as u64 == ibs { full_in += 1 } else { part_in += 1 }
        let mut data_len = n;
        if o.sync && (n as u64) < ibs {
            for b in &mut block[n..ibs as usize] {
                *b = 0;
            }
            data_len = ibs as usize;
        }
        let data = &mut block[..data_len];
        if o.ucase {
            data.make_ascii_uppercase();
        } else if o.lcase {
            data.make_ascii_lowercase();
        }
        // With bs= every input block is written as it came; otherwise output is reblocked to obs.
        let mut write = |chunk: &[u8], out: &mut crate::ctx::Out| -> io::Result<()> {
            match file_out.as_mut() {
                Some(f) => f.write_all(chunk),
                None => out.write_all(chunk),
            }
        };
        if o.bs.is_some() {
            if let Err(e) = write(data, &mut ctx.out) {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    return Err(e);
                }
                ctx.diag.error(format!("error writing {}: {}", q(o.output.as_deref().unwrap_or("standard output")), reason(&e)));
                status = 1;
                break;
            }
            if data.len() as u64 == obs { full_out += 1 } else { part_out += 1 }
            bytes += data.len() as u64;
        } else {
            pending.extend_from_slice(data);
            while pending.len() as u64 >= obs {
                let chunk: Vec<u8> = pending.drain(..obs as usize).collect();
                write(&chunk, &mut ctx.out)?;
                full_out += 1;
                bytes += chunk.len() as u64;
            }
        }
    }
    if !pending.is_empty() {
        match file_out.as_mut() {
            Some(f) => f.write_all(&pending)?,
            None => ctx.out.write_all(&pending)?,
        }
        part_out += 1;
        bytes += pending.len() as u64;
    }
    if file_out.is_none() {
        ctx.out.flush()?;
    }
    report(ctx, &o, full_in, part_in, full_out, part_out, bytes, started);
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{run, tmpdir, write};

    #[test]
    fn copies_counts_and_converts() {
        let d = tmpdir();
        let src = format!("{}/src", d);
        write(&src, "hello world\n");
        let (c, o, e) = run("dd", &[&format!("if={}", src), "bs=5", "count=2", "conv=ucase"], "");
        assert_eq!((c, o.as_str()), (0, "HELLO WORL"));
        assert!(e.starts_with("2+0 records in\n2+0 records out\n10 bytes copied, "), "{}", e);
        let (c, o, e) = run("dd", &["status=none", "ibs=4", "obs=3"], "abcdefghij");
        assert_eq!((c, o.as_str(), e.as_str()), (0, "abcdefghij", ""));
        let (_, _, e) = run("dd", &["status=noxfer", "ibs=4", "obs=3"], "abcdefghij");
        assert_eq!(e, "2+1 records in\n3+1 records out\n");
    }

    #[test]
    fn prints_times_and_rates_as_gnu() {
        assert_eq!(super::fmt_secs(6.7022e-05), "6.7022e-05");
        assert_eq!(super::fmt_secs(0.00807533), "0.00807533");
        assert_eq!(super::fmt_secs(0.495803), "0.495803");
        assert_eq!(super::rate(10240, 6.7022e-05), "153 MB/s");
        assert_eq!(super::rate(1, 3.6986e-05), "27.0 kB/s");
        assert_eq!(super::rate(0, 3.4224e-05), "0.0 kB/s");
    }

    #[test]
    fn writes_files_with_seek_and_notrunc() {
        let d = tmpdir();
        let out = format!("{}/out", d);
        write(&out, "0123456789");
        run("dd", &[&format!("of={}", out), "bs=1", "seek=2", "conv=notrunc", "status=none"], "ab");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "01ab456789");
        run("dd", &[&format!("of={}", out), "bs=1", "seek=3", "status=none"], "Z");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "01aZ");
    }

    #[test]
    fn refuses_bad_operands_as_gnu() {
        let (c, _, e) = run("dd", &["bogus"], "");
        assert_eq!((c, e.as_str()), (1, "dd: unrecognized operand 'bogus'\nTry 'dd --help' for more information.\n"));
        let (c, _, e) = run("dd", &["bs=1Q"], "");
        assert_eq!((c, e.as_str()), (1, "dd: invalid number: ‘1Q’\n"));
        let (c, _, e) = run("dd", &["conv=wat"], "");
        assert_eq!((c, e.as_str()), (1, "dd: invalid conversion: ‘wat’\nTry 'dd --help' for more information.\n"));
    }
}
