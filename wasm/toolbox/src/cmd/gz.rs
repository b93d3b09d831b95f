//! gzip/gunzip/zcat [-c] [-d] [-k] [-f] [-t] [-n] [-1..-9] [FILE]... and the
//! gzip container used by `tar -z`. Deflate is GNU gzip's own (C, linked in by
//! build.rs through csrc/shim.c), so the bytes are GNU's at every level; inflate
//! is Debian's miniz_oxide; the member header, CRC-32 and size trailer are done here. Multi-member
//! files are read one member deep (what gzip itself writes is one member).

use crate::args::{flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use crate::fsx;
use crate::input;
use std::io::{Read, Write};

fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
        }
        *t = c;
    }
    let mut c = !0u32;
    for b in data {
        c = table[((c ^ *b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// A gzip member holding `data` (no name, mtime 0: reproducible output).
pub fn compress(data: &[u8], level: u8) -> Vec<u8> {
    compress_named(data, level, None, 0, false)
}

fn compress_named(data: &[u8], level: u8, name: Option<&str>, mtime: u32, rsyncable: bool) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, if name.is_some() { 8 } else { 0 }];
    out.extend_from_slice(&mtime.to_le_bytes());
    out.push(if level >= 9 { 2 } else if level <= 1 { 4 } else { 0 });
    out.push(3); // OS: Unix
    if let Some(n) = name {
        out.extend_from_slice(n.as_bytes());
        out.push(0);
    }
    out.extend(gnu_deflate(data, level, rsyncable));
    out.extend_from_slice(&crc32(data).to_le_bytes());
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out
}

extern "C" {
    /// csrc/shim.c: deflates `len` bytes at `level` with gzip's deflate.c, handing output to toolbox_gzip_out.
    fn toolbox_gzip_deflate(data: *const u8, len: usize, level: i32, rsyncable: i32, ctx: *mut std::ffi::c_void) -> i32;
}

/// Where shim.c puts each full output buffer: `ctx` is the `Vec` gnu_deflate passed it.
#[no_mangle]
extern "C" fn toolbox_gzip_out(ctx: *mut std::ffi::c_void, p: *const u8, n: usize) {
    // SAFETY: ctx is the live &mut Vec of gnu_deflate's frame, p..p+n is shim.c's output buffer.
    unsafe { (*(ctx as *mut Vec<u8>)).extend_from_slice(std::slice::from_raw_parts(p, n)) }
}

/// Raw deflate data of `data` as GNU gzip 1.12 writes it at `level` (clamped to 1..9).
fn gnu_deflate(data: &[u8], level: u8, rsyncable: bool) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(data.len() / 3 + 64);
    // SAFETY: the shim reads data[..len] and writes only through toolbox_gzip_out; it keeps no
    // pointer after it returns. It is not reentrant, and nothing here calls it twice at once.
    let r = unsafe { toolbox_gzip_deflate(data.as_ptr(), data.len(), level.clamp(1, 9) as i32, rsyncable as i32, &mut out as *mut Vec<u8> as *mut std::ffi::c_void) };
    debug_assert_eq!(r, 0);
    out
}

/// Inflates one raw deflate stream: (data, bytes of `body` it took).
fn inflate(body: &[u8]) -> Result<(Vec<u8>, usize), String> {
    use miniz_oxide::inflate::core::{decompress, inflate_flags, DecompressorOxide};
    use miniz_oxide::inflate::TINFLStatus;
    let mut st = Box::<DecompressorOxide>::default();
    let mut out = vec![0u8; body.len().saturating_mul(2).max(64)];
    let (mut at, mut made) = (0, 0);
    loop {
        let (status, took, wrote) = decompress(&mut st, &body[at..], &mut out, made, inflate_flags::TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF);
        at += took;
        made += wrote;
        match status {
            TINFLStatus::Done => {
                out.truncate(made);
                return Ok((out, at));
            }
            TINFLStatus::HasMoreOutput => out.resize(out.len() * 2, 0),
            TINFLStatus::FailedCannotMakeProgress | TINFLStatus::NeedsMoreInput => return Err("unexpected end of file".into()),
            _ => return Err("invalid compressed data--format violated".into()),
        }
    }
}

/// Where a member's deflate data starts (after its header), with the header checked.
fn header_len(b: &[u8]) -> Result<usize, String> {
    if b.len() < 18 || b[0] != 0x1f || b[1] != 0x8b {
        return Err("not in gzip format".into());
    }
    if b[2] != 8 {
        return Err("unknown method -- not supported".into());
    }
    let flags = b[3];
    let mut pos = 10;
    if flags & 4 != 0 {
        let xlen = *b.get(pos).ok_or("unexpected end of file")? as usize | (*b.get(pos + 1).ok_or("unexpected end of file")? as usize) << 8;
        pos += 2 + xlen;
    }
    for bit in [8u8, 16] {
        if flags & bit != 0 {
            while *b.get(pos).ok_or("unexpected end of file")? != 0 {
                pos += 1;
            }
            pos += 1;
        }
    }
    if flags & 2 != 0 {
        pos += 2;
    }
    Ok(pos)
}

/// Every member of a gzip file, one after another (what `cat a.gz b.gz` makes). Bytes after a
/// member that do not start another one are trailing garbage: an error here (tar's use); gzip
/// itself warns and keeps the data (decompress_members).
pub fn decompress(b: &[u8]) -> Result<Vec<u8>, String> {
    match decompress_members(b)? {
        (data, false) => Ok(data),
        (_, true) => Err("not in gzip format".into()),
    }
}

/// (data, whether trailing garbage followed the last member), as GNU gzip reads a file: after
/// the first member, what does not begin with the gzip magic ends the input (zeros silently).
pub fn decompress_members(b: &[u8]) -> Result<(Vec<u8>, bool), String> {
    let mut all = Vec::new();
    let mut rest = b;
    loop {
        let pos = header_len(rest)?;
        let (data, took) = inflate(rest.get(pos..).ok_or("unexpected end of file")?)?;
        let t = rest.get(pos + took..pos + took + 8).ok_or("unexpected end of file")?;
        let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]);
        if crc != crc32(&data) || size != data.len() as u32 {
            return Err("invalid compressed data--crc error".into());
        }
        all.extend(data);
        rest = &rest[pos + took + 8..];
        // Trailing zeros (padding) end the file, as gzip allows.
        if rest.iter().all(|&c| c == 0) {
            return Ok((all, false));
        }
        if !rest.starts_with(&[0x1f, 0x8b]) {
            return Ok((all, true));
        }
    }
}

/// The name and mtime a member's header records (-N restores them).
fn header_name_time(b: &[u8]) -> (Option<String>, i64) {
    let mtime = b.get(4..8).map_or(0, |t| u32::from_le_bytes([t[0], t[1], t[2], t[3]]) as i64);
    if b.len() < 10 || b[3] & 8 == 0 {
        return (None, mtime);
    }
    let mut pos = 10;
    if b[3] & 4 != 0 && b.len() >= 12 {
        pos += 2 + (b[10] as usize | (b[11] as usize) << 8);
    }
    let rest = b.get(pos..).unwrap_or(&[]);
    let end = rest.iter().position(|&c| c == 0).unwrap_or(rest.len());
    (Some(String::from_utf8_lossy(&rest[..end]).into_owned()), mtime)
}

/// -l: one line of gzip's listing (sizes, ratio, name; -v adds method, CRC and date, the file's
/// own time when the header holds none, as gzip does).
fn list_line(b: &[u8], name: &str, verbose: bool, file_time: i64) -> Result<(u64, u64, u64, String), String> {
    let head = header_len(b)?;
    let t = &b[b.len() - 8..];
    let crc = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
    let size = u32::from_le_bytes([t[4], t[5], t[6], t[7]]) as u64;
    let mut line = String::new();
    if verbose {
        let mtime = match u32::from_le_bytes([b[4], b[5], b[6], b[7]]) as i64 {
            0 => file_time,
            m => m,
        };
        let (_, mon, day) = crate::cmd::date::days_to_civil(mtime.div_euclid(86400));
        let (hour, min) = (mtime.rem_euclid(86400) / 3600, mtime.rem_euclid(3600) / 60);
        const MON: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
        line.push_str(&format!("defla {:08x} {}{:3} {:02}:{:02} ", crc, MON[(mon - 1) as usize], day, hour, min));
    }
    let over = head as u64 + 8;
    let comp = b.len() as u64;
    line.push_str(&format!("{:19} {:19} {} {}", comp, size, ratio(size as i64 - (comp as i64 - over as i64), size), name));
    Ok((comp, size, over, line))
}

/// -v's ratio for one file: the deflate data against the plain size, headers not counted.
fn member_ratio(gz: &[u8], plain: u64) -> String {
    let over = header_len(gz).unwrap_or(10) as i64 + 8;
    ratio(plain as i64 - (gz.len() as i64 - over), plain)
}

fn ratio(num: i64, den: u64) -> String {
    format!("{:5.1}%", if den == 0 { 0.0 } else { 100.0 * num as f64 / den as f64 })
}

const SPECS: &[Spec] = &[
    flag('c', "stdout", "c"),
    flag('c', "to-stdout", "c"),
    flag('d', "decompress", "d"),
    flag('d', "uncompress", "d"),
    flag('k', "keep", "k"),
    flag('f', "force", "f"),
    flag('t', "test", "t"),
    flag('n', "no-name", "n"),
    flag('N', "name", "N"),
    flag('l', "list", "l"),
    val('S', "suffix", "S"),
    flag('\0', "synchronous", "ignored"),
    // gzip's own rsyncable mode (deflate.c ends a block where a rolling sum of the input says).
    flag('\0', "rsyncable", "rsyncable"),
    flag('h', "help", crate::args::HELP),
    flag('V', "version", crate::args::VERSION),
    flag('L', "license", "L"),
    flag('q', "quiet", "q"),
    flag('v', "verbose", "v"),
    flag('r', "recursive", "r"),
    flag('1', "fast", "1"),
    flag('2', "", "2"),
    flag('3', "", "3"),
    flag('4', "", "4"),
    flag('5', "", "5"),
    flag('6', "", "6"),
    flag('7', "", "7"),
    flag('8', "", "8"),
    flag('9', "best", "9"),
];
const HELP: &str = "Usage: gzip [OPTION]... [FILE]...\nCompress or uncompress FILEs (by default, compress FILES in-place).\n\n  -c, --stdout      write on standard output, keep original files unchanged\n  -d, --decompress  decompress\n  -f, --force       force overwrite of output file\n  -k, --keep        keep (don't delete) input files\n  -n, --no-name     do not save the original file name and timestamp\n  -r, --recursive   operate recursively on directories\n  -S, --suffix=SUF  use suffix SUF on compressed files\n  -t, --test        test compressed file integrity\n  -1, --fast        compress faster\n  -9, --best        compress better\n\nWith no FILE, or when FILE is -, read standard input.\n";

fn run_mode(ctx: &mut Ctx, args: &[String], decomp: bool, to_stdout: bool) -> Res {
    // Debian's gunzip and zcat are scripts that run `gzip -d`: every message names gzip.
    ctx.diag.name = "gzip";
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.has("L") {
        writeln!(ctx.out, "{} (toolshed toolbox) {}\nDeflate is GNU gzip 1.12's own (deflate.c, trees.c, bits.c; GPL-3.0-or-later), compiled from Debian's source package; inflate is the miniz_oxide crate's (MIT or Apache-2.0); the gzip container is the toolbox's own.", ctx.name, env!("CARGO_PKG_VERSION"))?;
        return Ok(0);
    }
    let decomp = decomp || p.has("d") || p.has("t");
    let to_stdout = to_stdout || p.has("c") || p.has("t");
    // The last level given wins (`gzip -9 -1` is -1), as GNU's.
    let level = p.last_key(&["1", "2", "3", "4", "5", "6", "7", "8", "9"]).and_then(|k| k.parse().ok()).unwrap_or(6u8);
    let suffix = p.last("S").unwrap_or(".gz").to_string();
    if suffix.is_empty() || suffix.contains('/') {
        ctx.diag.error(format!("invalid suffix '{}'", suffix));
        return Ok(1);
    }
    let mut status = 0;
    let verbose = p.has("v") && !p.has("q");
    let mut names = input::or_stdin(&p.operands);
    if p.has("r") {
        names = recurse(ctx, &names, decomp, &suffix);
    }
    if p.has("l") {
        return list(ctx, &names, p.has("v"), p.has("q"), &suffix);
    }
    for name in names {
        // Decompressing `x` when only `x.gz` exists reads `x.gz`, as gzip does.
        let name = if decomp && name != "-" && fsx::metadata(&name).is_err() {
            [suffix.as_str(), ".gz"].iter().map(|s| format!("{}{}", name, s)).find(|n| fsx::metadata(n).is_ok()).unwrap_or(name)
        } else {
            name
        };
        if name != "-" && fsx::is_dir(&name) {
            let _ = writeln!(ctx.diag.raw(), "gzip: {} is a directory -- ignored", name);
            status = status.max(2);
            continue;
        }
        let mut out_name = if name == "-" || to_stdout {
            None
        } else if decomp {
            let base = if let Some(b) = name.strip_suffix(suffix.as_str()).filter(|b| !b.is_empty()) {
                b.to_string()
            } else if let Some(b) = name.strip_suffix(".gz") {
                b.to_string()
            } else if let Some(b) = name.strip_suffix(".tgz") {
                format!("{}.tar", b)
            } else if let Some(b) = name.strip_suffix(".z") {
                b.to_string()
            } else {
                let _ = writeln!(ctx.diag.raw(), "gzip: {}: unknown suffix -- ignored", name);
                status = status.max(2);
                continue;
            };
            Some(base)
        } else {
            // A warning that leaves the exit status alone, as gzip 1.12 does.
            if name.ends_with(suffix.as_str()) && !p.has("f") {
                if !p.has("q") {
                    let _ = writeln!(ctx.diag.raw(), "gzip: {} already has {} suffix -- unchanged", name, suffix);
                }
                continue;
            }
            Some(format!("{}{}", name, suffix))
        };
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, &name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            status = 1;
            continue;
        }
        // -N on decompression: the name and time the header recorded, in the input's directory.
        let (stored_name, stored_time) = header_name_time(&data);
        if decomp && p.has("N") && out_name.is_some() {
            if let Some(n) = stored_name.as_deref().map(fsx::base_name).filter(|n| !n.is_empty() && *n != "." && *n != "..") {
                let dir = name.rfind('/').map_or("", |i| &name[..=i]);
                out_name = Some(format!("{}{}", dir, n));
            }
        }
        if let Some(o) = &out_name {
            if fsx::metadata(o).is_ok() && !p.has("f") {
                let _ = writeln!(ctx.diag.raw(), "gzip: {} already exists;\tnot overwritten", o);
                status = status.max(2);
                continue;
            }
        }
        if verbose && name != "-" {
            ctx.out.flush()?;
            let _ = write!(ctx.diag.raw(), "{}:\t", name);
        }
        // -f with output to stdout passes what is not gzip through unchanged, as gzip does.
        let plain = decomp && p.has("f") && out_name.is_none() && !p.has("t") && !data.starts_with(&[0x1f, 0x8b]);
        let mut garbage = false;
        let result = if plain {
            data.clone()
        } else if decomp {
            match decompress_members(&data) {
                Ok((d, g)) => {
                    garbage = g;
                    d
                }
                // -f with output to stdout: what is not compressed passes through as it is (zcat -f).
                Err(_) if p.has("f") && to_stdout && !(data.len() >= 2 && data[0] == 0x1f && data[1] == 0x8b) => data.clone(),
                // gzip's get_method starts this one message with a newline (gzip.c).
                Err(m) if m == "not in gzip format" => {
                    let _ = writeln!(ctx.diag.raw(), "\ngzip: {}: {}", if name == "-" { "stdin" } else { &name }, m);
                    status = 1;
                    continue;
                }
                Err(m) => {
                    ctx.diag.error(format!("{}: {}", if name == "-" { "stdin" } else { &name }, m));
                    status = 1;
                    continue;
                }
            }
        } else if p.has("n") {
            compress_named(&data, level, None, 0, p.has("rsyncable"))
        } else if name == "-" {
            // GNU stores no name for stdin, but a regular file's mtime (`gzip < f`); a pipe's is 0.
            compress_named(&data, level, None, stdin_file_mtime(), p.has("rsyncable"))
        } else {
            let mtime = fsx::metadata(&name).map(|m| fsx::mtime(&m).0 as u32).unwrap_or(0);
            compress_named(&data, level, Some(fsx::base_name(&name)), mtime, p.has("rsyncable"))
        };
        if p.has("t") {
            if verbose && name != "-" {
                let _ = writeln!(ctx.diag.raw(), " OK");
            }
            continue;
        }
        let shown = if verbose {
            if decomp { member_ratio(&data, result.len() as u64) } else { member_ratio(&result, data.len() as u64) }
        } else {
            String::new()
        };
        match out_name {
            None => {
                ctx.out.write_all(&result)?;
                if verbose {
                    ctx.out.flush()?;
                    let _ = writeln!(ctx.diag.raw(), "{}{}", shown, if name == "-" { "" } else { " -- replaced with stdout" });
                }
            }
            Some(o) => {
                if let Err(e) = std::fs::write(fsx::host(&o), &result) {
                    ctx.diag.error(format!("{}: {}", o, reason(&e)));
                    status = 1;
                    continue;
                }
                if decomp && p.has("N") && stored_time != 0 {
                    let _ = fsx::set_times(&fsx::host(&o), None, Some((stored_time, 0)));
                } else if let Ok(m) = fsx::metadata(&name) {
                    let _ = fsx::set_times(&fsx::host(&o), None, Some(fsx::mtime(&m)));
                }
                if verbose {
                    let _ = writeln!(ctx.diag.raw(), "{} -- {} {}", shown, if p.has("k") { "created" } else { "replaced with" }, o);
                }
                if !p.has("k") {
                    if let Err(e) = std::fs::remove_file(fsx::host(&name)) {
                        ctx.diag.error(format!("{}: {}", name, reason(&e)));
                        status = 1;
                    }
                }
            }
        }
        // GNU: a warning (exit 2) after the data, which is kept.
        if garbage {
            ctx.out.flush()?;
            if !p.has("q") {
                let _ = writeln!(ctx.diag.raw(), "\ngzip: {}: decompression OK, trailing garbage ignored", if name == "-" { "stdin" } else { &name });
            }
            status = status.max(2);
        }
    }
    Ok(status)
}

/// The modification time of standard input when it is a regular file (opened with `<`), else 0.
fn stdin_file_mtime() -> u32 {
    // SAFETY: fstat only writes the zeroed struct it is given; fd 0 stays open.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(0, &mut st) } != 0 || st.st_mode & libc::S_IFMT != libc::S_IFREG {
        return 0;
    }
    #[cfg(target_os = "wasi")]
    let t = st.st_mtim.tv_sec as i64;
    #[cfg(not(target_os = "wasi"))]
    let t = st.st_mtime as i64;
    if t > 0 && t <= u32::MAX as i64 {
        t as u32
    } else {
        0
    }
}

fn compressed_name(n: &str, suffix: &str) -> bool {
    n.ends_with(suffix) || n.ends_with(".gz") || n.ends_with(".tgz") || n.ends_with(".z")
}

/// -l for every operand, with a totals line when there are several.
fn list(ctx: &mut Ctx, names: &[String], verbose: bool, quiet: bool, suffix: &str) -> Res {
    let mut status = 0;
    let mut header = !quiet;
    let (mut tc, mut ts, mut to, mut n) = (0, 0, 0, 0);
    for name in names {
        let mut data = Vec::new();
        if let Err(e) = input::open(ctx.stdin, name).and_then(|mut r| r.read_to_end(&mut data)) {
            ctx.diag.error(format!("{}: {}", name, reason(&e)));
            status = 1;
            continue;
        }
        // A .tgz or .taz lists as the .tar inside it, as gzip names what it would restore.
        let tar = [".tgz", ".taz"].iter().find_map(|x| name.strip_suffix(x)).map(|b| format!("{}.tar", b));
        let shown = if name == "-" {
            "stdout".to_string()
        } else if let Some(t) = tar.filter(|_| !name.ends_with(suffix)) {
            t
        } else {
            name.strip_suffix(suffix).or_else(|| name.strip_suffix(".gz")).unwrap_or(name).to_string()
        };
        let file_time = if name == "-" { 0 } else { fsx::metadata(name).map_or(0, |m| fsx::mtime(&m).0) };
        match list_line(&data, &shown, verbose, file_time) {
            Ok((c, s, o, line)) => {
                if header {
                    if verbose {
                        write!(ctx.out, "method  crc     date  time  ")?;
                    }
                    writeln!(ctx.out, "{:>19} {:>19}  ratio uncompressed_name", "compressed", "uncompressed")?;
                    header = false;
                }
                writeln!(ctx.out, "{}", line)?;
                // gzip's totals ratio counts only the last file's header.
                (tc, ts, to, n) = (tc + c, ts + s, o, n + 1);
            }
            Err(m) => {
                ctx.diag.error(format!("{}: {}", name, m));
                status = 1;
            }
        }
    }
    if n > 1 && !quiet {
        let pad = if verbose { " ".repeat(28) } else { String::new() };
        writeln!(ctx.out, "{}{:19} {:19} {} (totals)", pad, tc, ts, ratio(ts as i64 - (tc as i64 - to as i64), ts))?;
    }
    Ok(status)
}

/// -r: directory operands become the files below them (name order), those
/// with a compressed suffix when decompressing and the others when not.
fn recurse(ctx: &mut Ctx, ops: &[String], decomp: bool, suffix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack: Vec<(String, bool)> = ops.iter().rev().map(|o| (o.clone(), true)).collect();
    while let Some((path, top)) = stack.pop() {
        if path == "-" || !fsx::is_dir(&path) {
            if top || compressed_name(&path, suffix) == decomp {
                out.push(path);
            }
            continue;
        }
        match fsx::read_dir_names(&path) {
            Ok(names) => stack.extend(names.iter().rev().map(|n| (fsx::join(&path, n), false))),
            Err(e) => ctx.diag.error(format!("{}: {}", path, reason(&e))),
        }
    }
    out
}

pub fn run_gzip(ctx: &mut Ctx, args: &[String]) -> Res {
    run_mode(ctx, args, false, false)
}

pub fn run_gunzip(ctx: &mut Ctx, args: &[String]) -> Res {
    run_mode(ctx, args, true, false)
}

pub fn run_zcat(ctx: &mut Ctx, args: &[String]) -> Res {
    run_mode(ctx, args, true, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::{check, check_err, read, run, tmpdir, write};

    #[test]
    fn round_trips() {
        assert_eq!(crc32(b"hello"), 0x3610a686);
        let text = "hello hello hello hello\n".repeat(50);
        assert_eq!(decompress(&compress(text.as_bytes(), 6)).unwrap(), text.as_bytes());
        let d = tmpdir();
        let f = format!("{}/a.txt", d);
        write(&f, &text);
        check("gzip", &[&f], "", "", 0);
        assert!(std::fs::metadata(&f).is_err());
        check("zcat", &[&format!("{}.gz", f)], "", &text, 0);
        check("gunzip", &["-k", &format!("{}.gz", f)], "", "", 0);
        assert_eq!(read(&f), text);
        check_err("gzip", &[&f], "", &format!("gzip: {}.gz already exists;\tnot overwritten\n", f), 2);
        check_err("gunzip", &[&f], "", &format!("gzip: {}: unknown suffix -- ignored\n", f), 2);
        let (c, _, e) = run("gunzip", &["-c"], "plain text, not gzip");
        assert_eq!((c, e.as_str()), (1, "\ngzip: stdin: not in gzip format\n"));
        check("gzip", &["-t", &format!("{}.gz", f)], "", "", 0);
    }

    #[test]
    fn names_times_and_ratios() {
        let d = tmpdir();
        let f = format!("{}/a.txt", d);
        write(&f, "hello hello hello\n");
        let _ = fsx::set_times(&fsx::host(&f), None, Some((1_577_836_800, 0)));
        // -v: the ratio of the deflate data to the plain size, headers not counted.
        check_err("gzip", &["-v", &f], "", &format!("{}:\t 38.9% -- replaced with {}.gz\n", f, f), 0);
        // -N restores the stored name and time, whatever the compressed file is called.
        let other = format!("{}/other.gz", d);
        std::fs::rename(format!("{}.gz", f), &other).unwrap();
        check("gunzip", &["-N", &other], "", "", 0);
        assert_eq!(read(&f), "hello hello hello\n");
        assert_eq!(fsx::mtime(&std::fs::metadata(&f).unwrap()).0, 1_577_836_800);
    }

    #[test]
    fn reads_system_gzip_output() {
        // `printf 'hi\n' | gzip -n` from GNU gzip 1.12.
        let g: &[u8] = &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xcb, 0xc8, 0xe4, 2, 0, 0x7a, 0x7a, 0x6f, 0xed, 3, 0, 0, 0];
        assert_eq!(decompress(g).unwrap(), b"hi\n");
        // and what the toolbox writes is the same bytes (gzip's own deflate).
        assert_eq!(compress(b"hi\n", 6), g);
    }

    #[test]
    fn levels_and_trailing_garbage_as_gnu() {
        // `printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabcabcabc\n' | gzip -1 -n | tail -c +11 | head -c -8 | od -An -tx1`
        // and the same with -9, from GNU gzip 1.12.
        let text = b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabcabcabc\n";
        let body = |g: Vec<u8>| g[10..g.len() - 8].to_vec();
        assert_eq!(compress(text, 1)[8], 4);
        assert_eq!(compress(text, 9)[8], 2);
        assert_eq!(body(compress(text, 1)), [0x4b, 0x4c, 0x24, 0x0e, 0x24, 0x25, 0x27, 0x82, 0x11, 0x17, 0x00]);
        assert_eq!(body(compress(text, 9)), [0x4b, 0x4c, 0x24, 0x0e, 0x24, 0x25, 0x43, 0x10, 0x17, 0x00]);
        let mut junk = compress(b"x", 6);
        junk.extend_from_slice(b"junk\n");
        assert_eq!(decompress_members(&junk).unwrap(), (b"x".to_vec(), true));
    }
}
