//! df [-h] [-k] [-T] [FILE]... — the workspace is the only file system: its
//! size is the workspace quota (TOOLSHED_QUOTA_BYTES when the host passes
//! it, else the 1 GiB default of src/policy/limits.ts) and "used" is the
//! sum of the sizes of the files under /workspace.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{q, reason, Ctx, Res};
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
    optval('\0', "output", "output"),
    val('t', "type", "t"),
    val('x', "exclude-type", "x"),
    flag('v', "", "ignored"),
];

/// The workspace's file-system type, as df -T and stat -f name it.
pub const FS_TYPE: &str = "workspace";
const HELP: &str = "Usage: df [OPTION]... [FILE]...\nShow information about the file system on which each FILE resides (here\nalways the workspace), or all file systems by default.\n\n  -h, --human-readable  print sizes in powers of 1024 (e.g., 1023M)\n  -i, --inodes          list inode (file count) information instead of block usage\n  -B, --block-size=SIZE scale sizes by SIZE (1M: 1M-blocks; M: print M after each)\n  -k                    like --block-size=1K\n  -T, --print-type      print file system type\n  -t, --type=TYPE       limit listing to file systems of type TYPE\n  -x, --exclude-type=TYPE  limit listing to file systems not of type TYPE\n      --output[=FIELD_LIST]  use the output format defined by FIELD_LIST\n";

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
                ctx.diag.error(format!("invalid -B argument {}", crate::ctx::lq(b)));
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
    let output = match output_fields(&p) {
        Ok(f) => f,
        Err(e) => {
            ctx.diag.usage(e);
            return Ok(1);
        }
    };
    // -t keeps only the named types, -x drops them: the one file system here is FS_TYPE.
    let types = p.all("t");
    let excluded = p.all("x");
    if let Some(t) = types.iter().find(|t| excluded.contains(t)) {
        ctx.diag.error(format!("file system type {} both selected and excluded", q(t)));
        return Ok(1);
    }
    if (!types.is_empty() && !types.contains(&FS_TYPE)) || excluded.contains(&FS_TYPE) {
        ctx.diag.error("no file systems processed");
        return Ok(1);
    }
    let (quota, used, fquota, files) = space();
    let posix = p.has("P");
    let human = p.has("h");
    let size_head = match &block {
        _ if human => "Size".to_string(),
        Some(b) if posix => format!("{}-blocks", b.0),
        Some(b) => format!("{}-blocks", b.2),
        None if posix => "1024-blocks".into(),
        None => "1K-blocks".into(),
    };
    let bytes = |n: u64| -> String {
        if human {
            crate::num::human(n)
        } else if let Some((unit, suffix, _)) = &block {
            format!("{}{}", crate::num::in_blocks(n, *unit), suffix)
        } else {
            ((n + 1023) / 1024).to_string()
        }
    };
    let pct = |used: u64, size: u64| if size == 0 { "-".to_string() } else { format!("{}%", (used * 100 + size - 1) / size) };
    let file = p.operands.first().map(String::as_str).unwrap_or("-");
    // (header, value, left-aligned, minimum width): GNU df's field table.
    let cell = |f: &str| -> (String, String, bool, usize) {
        match f {
            "source" => ("Filesystem".into(), "workspace".into(), true, 14),
            "fstype" => ("Type".into(), FS_TYPE.into(), true, 4),
            "itotal" => ("Inodes".into(), fquota.to_string(), false, 5),
            "iused" => ("IUsed".into(), files.to_string(), false, 5),
            "iavail" => ("IFree".into(), fquota.saturating_sub(files).to_string(), false, 5),
            "ipcent" => ("IUse%".into(), pct(files, fquota), false, 5),
            "size" => (size_head.clone(), bytes(quota), false, 5),
            "used" => ("Used".into(), bytes(used), false, 5),
            "avail" => ("Avail".into(), bytes(quota.saturating_sub(used)), false, 5),
            "pcent" => ("Use%".into(), pct(used, quota), false, 4),
            "file" => ("File".into(), file.into(), true, 4),
            _ => ("Mounted on".into(), crate::fsx::ROOT.into(), true, 0),
        }
    };
    let mut cols: Vec<(String, String, bool, usize)> = match &output {
        Some(fields) => fields.iter().map(|f| cell(f)).collect(),
        None => {
            let mut v = vec![cell("source")];
            if p.has("T") {
                v.push(cell("fstype"));
            }
            let nums: &[&str] = if p.has("i") { &["itotal", "iused", "iavail", "ipcent"] } else { &["size", "used", "avail", "pcent"] };
            v.extend(nums.iter().map(|f| cell(f)));
            // Without --output the free column is "Available" (-h: "Avail"), -P calls Use% Capacity.
            let n = v.len();
            if !p.has("i") && !human {
                v[n - 2].0 = "Available".into();
            }
            if posix && !p.has("i") {
                v[n - 1].0 = "Capacity".into();
            }
            v.push(cell("target"));
            v
        }
    };
    // --total repeats the one file system's numbers, named "total" ("-" for the other text fields).
    let total: Vec<String> = cols
        .iter()
        .map(|(h, v, left, _)| if h == "Filesystem" { "total".into() } else if *left { "-".into() } else { v.clone() })
        .collect();
    let mut rows = vec![cols.iter().map(|c| c.0.clone()).collect::<Vec<_>>(), cols.iter().map(|c| c.1.clone()).collect()];
    if p.has("total") {
        rows.push(total);
    }
    let last = cols.len() - 1;
    for (i, c) in cols.iter_mut().enumerate() {
        c.3 = rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0).max(c.3);
    }
    for r in &rows {
        let mut line = String::new();
        for (i, (text, (_, _, left, w))) in r.iter().zip(&cols).enumerate() {
            if i == last && *left {
                line.push_str(text);
            } else if *left {
                line.push_str(&format!("{:<w$}", text, w = *w));
            } else {
                line.push_str(&format!("{:>w$}", text, w = *w));
            }
            if i != last {
                line.push(' ');
            }
        }
        writeln!(ctx.out, "{}", line)?;
    }
    Ok(if ctx.diag.failed { 1 } else { 0 })
}

/// The fields of --output (all of them when given no list), or GNU's usage error.
fn output_fields(p: &crate::args::Parsed) -> Result<Option<Vec<String>>, String> {
    const FIELDS: &[&str] = &["source", "fstype", "itotal", "iused", "iavail", "ipcent", "size", "used", "avail", "pcent", "file", "target"];
    if !p.has("output") {
        return Ok(None);
    }
    for (key, name) in [("i", "-i"), ("P", "-P"), ("T", "-T")] {
        if p.has(key) {
            return Err(format!("options {} and --output are mutually exclusive", name));
        }
    }
    let mut out: Vec<String> = Vec::new();
    for list in p.all("output") {
        for f in list.split(',').filter(|f| !f.is_empty()) {
            if !FIELDS.contains(&f) {
                return Err(format!("option --output: field {} unknown", q(f)));
            }
            if out.iter().any(|o| o == f) {
                return Err(format!("option --output: field {} used more than once", q(f)));
            }
            out.push(f.to_string());
        }
    }
    Ok(Some(if out.is_empty() { FIELDS.iter().map(|f| f.to_string()).collect() } else { out }))
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

    #[test]
    fn output_fields_and_types() {
        let (c, o, _) = run("df", &["--output=source,fstype,used,pcent,target"], "");
        assert_eq!(c, 0);
        assert_eq!(o.lines().next(), Some("Filesystem     Type       Used Use% Mounted on"), "{}", o);
        let (_, o, _) = run("df", &["-h", "--output=size"], "");
        assert_eq!(o, " Size\n1.0G\n".replace("\n1", "\n 1"));
        check_err("df", &["-i", "--output"], "", "df: options -i and --output are mutually exclusive\nTry 'df --help' for more information.\n", 1);
        check_err("df", &["--output=foo"], "", "df: option --output: field 'foo' unknown\nTry 'df --help' for more information.\n", 1);
        check_err("df", &["-t", "ext4"], "", "df: no file systems processed\n", 1);
        check_err("df", &["-x", "workspace"], "", "df: no file systems processed\n", 1);
        assert_eq!(run("df", &["-t", "workspace", "-v"], "").0, 0);
    }
}
