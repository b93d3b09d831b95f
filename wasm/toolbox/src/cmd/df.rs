//! df [-h] [-k] [-T] [FILE]... — the workspace is the only file system: its
//! size is the workspace quota (TOOLSHED_QUOTA_BYTES when the host passes
//! it, else the 1 GiB default of src/policy/limits.ts) and "used" is the
//! sum of the sizes of the files under /workspace.

use crate::args::{flag, val, Spec};
use crate::ctx::{reason, Ctx, Res};
use std::io::Write;

const SPECS: &[Spec] = &[
    flag('h', "human-readable", "h"),
    flag('H', "si", "h"),
    flag('k', "", "k"),
    flag('T', "print-type", "T"),
    flag('a', "all", "a"),
    flag('l', "local", "l"),
    flag('P', "portability", "P"),
    val('B', "block-size", "B"),
    flag('i', "inodes", "i"),
    flag('\0', "total", "total"),
    // Sizes come from the session's own tables: there is nothing to sync first.
    flag('\0', "sync", "ignored"),
    flag('\0', "no-sync", "ignored"),
];
const HELP: &str = "Usage: df [OPTION]... [FILE]...\nShow information about the file system on which each FILE resides (here\nalways the workspace), or all file systems by default.\n\n  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)\n  -i, --inodes          list inode (file count) information instead of block usage\n  -B, --block-size=SIZE scale sizes by SIZE (1M: 1M-blocks; M: print M after each)\n  -k                    like --block-size=1K\n  -T, --print-type      print file system type\n";

const DEFAULT_QUOTA: u64 = 1024 * 1024 * 1024;
const DEFAULT_FILES: u64 = 100_000;

fn usage(path: &std::path::Path, bytes: &mut u64, files: &mut u64) {
    if let Ok(rd) = std::fs::read_dir(path) {
        for e in rd.flatten() {
            if let Ok(m) = e.metadata() {
                *files += 1;
                if m.is_dir() {
                    usage(&e.path(), bytes, files);
                } else {
                    *bytes += m.len();
                }
            }
        }
    }
}

fn env_num(k: &str, d: u64) -> u64 {
    std::env::var(k).ok().and_then(|v| v.parse().ok()).filter(|n| *n > 0).unwrap_or(d)
}

/// The workspace as a file system: (size, used bytes, file quota, files used).
pub fn space() -> (u64, u64, u64, u64) {
    let (mut used, mut files) = (0u64, 0u64);
    usage(&crate::fsx::host(crate::fsx::ROOT), &mut used, &mut files);
    (env_num("TOOLSHED_QUOTA_BYTES", DEFAULT_QUOTA), used, env_num("TOOLSHED_QUOTA_FILES", DEFAULT_FILES), files)
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let block = match p.last("B") {
        Some(b) => match crate::num::block_size(b) {
            Some(v) => Some(v),
            None => {
                ctx.diag.error(format!("invalid -B argument {}", crate::ctx::q(b)));
                return Ok(1);
            }
        },
        None => None,
    };
    for f in &p.operands {
        if let Err(e) = crate::fsx::metadata(f) {
            ctx.diag.error(format!("{}: {}", f, reason(&e)));
        }
    }
    if ctx.diag.failed && p.operands.len() == 1 {
        return Ok(1);
    }
    let (quota, used, fquota, files) = space();
    // -P (POSIX) names the block size in bytes and calls the percentage Capacity.
    let posix = p.has("P");
    let blocks_head = match &block {
        Some(b) if posix => format!("{}-blocks", b.0),
        Some(b) => format!("{}-blocks", b.2),
        None if posix => "1024-blocks".into(),
        None => "1K-blocks".into(),
    };
    let pct_head = if posix { "Capacity" } else { "Use%" };
    let (size, used, head) = if p.has("i") { (fquota, files, ["Inodes", "IUsed", "IFree", "IUse%"]) } else if p.has("h") { (quota, used, ["Size", "Used", "Avail", "Use%"]) } else { (quota, used, [blocks_head.as_str(), "Used", "Available", pct_head]) };
    let avail = size.saturating_sub(used);
    let pct = if size == 0 { 0 } else { (used * 100 + size - 1) / size };
    let fmt = |n: u64| -> String {
        if p.has("i") {
            n.to_string()
        } else if p.has("h") {
            crate::num::human(n)
        } else if let Some((unit, suffix, _)) = &block {
            format!("{}{}", crate::num::in_blocks(n, *unit), suffix)
        } else {
            ((n + 1023) / 1024).to_string()
        }
    };
    let mut cols: Vec<(String, String)> = vec![("Filesystem".into(), "workspace".into())];
    if p.has("T") {
        cols.push(("Type".into(), "wasi".into()));
    }
    cols.push((head[0].into(), fmt(size)));
    cols.push((head[1].into(), fmt(used)));
    cols.push((head[2].into(), fmt(avail)));
    cols.push((head[3].into(), format!("{}%", pct)));
    let mut h = String::new();
    let mut r = String::new();
    let mut t = String::new();
    for (i, (a, b)) in cols.iter().enumerate() {
        let w = a.len().max(b.len());
        // --total repeats the one file system's numbers, named "total" ("-" for its type).
        let total = match i {
            0 => "total",
            1 if p.has("T") => "-",
            _ => b.as_str(),
        };
        if i == 0 || (p.has("T") && i == 1) {
            let w = if i == 0 { w.max(14) } else { w };
            h.push_str(&format!("{:<w$} ", a, w = w));
            r.push_str(&format!("{:<w$} ", b, w = w));
            t.push_str(&format!("{:<w$} ", total, w = w));
        } else {
            h.push_str(&format!("{:>w$} ", a, w = w));
            r.push_str(&format!("{:>w$} ", b, w = w));
            t.push_str(&format!("{:>w$} ", total, w = w));
        }
    }
    writeln!(ctx.out, "{}Mounted on", h)?;
    writeln!(ctx.out, "{}{}", r, crate::fsx::ROOT)?;
    if p.has("total") {
        writeln!(ctx.out, "{}-", t)?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use crate::testutil::{run, check_err};

    #[test]
    fn shows_the_workspace() {
        let (c, o, _) = run("df", &[], "");
        let lines: Vec<&str> = o.lines().collect();
        assert_eq!(c, 0);
        assert!(lines[0].starts_with("Filesystem     1K-blocks") && lines[0].ends_with("Use% Mounted on"), "{}", o);
        assert!(lines[1].starts_with("workspace") && lines[1].ends_with("% /workspace"), "{}", o);
        let (_, o, _) = run("df", &["-h"], "");
        assert!(o.contains("Size") && o.contains("1.0G"), "{}", o);
        check_err("df", &["/nonexistent/zz"], "", "df: /nonexistent/zz: No such file or directory\n", 1);
    }
}
