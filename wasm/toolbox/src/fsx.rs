//! Paths as the host sees them. Under WASI there is no process-wide current
//! directory the host could hand us; the host preopens `/workspace` and may
//! set $PWD, so relative operands are joined onto $PWD (or `/workspace`).
//! Natively (unit tests) paths are used as given. Messages always show the
//! user's own spelling, never the resolved path.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub const ROOT: &str = "/workspace";

#[cfg(target_os = "wasi")]
pub fn host(p: &str) -> PathBuf {
    if p.starts_with('/') {
        return PathBuf::from(p);
    }
    let mut base = match std::env::var("PWD") {
        Ok(d) if d.starts_with('/') => PathBuf::from(d),
        _ => PathBuf::from(ROOT),
    };
    if !p.is_empty() && p != "." {
        base.push(p);
    }
    base
}

#[cfg(not(target_os = "wasi"))]
pub fn host(p: &str) -> PathBuf {
    PathBuf::from(p)
}

pub fn metadata(p: &str) -> io::Result<fs::Metadata> {
    fs::metadata(host(p))
}

pub fn symlink_metadata(p: &str) -> io::Result<fs::Metadata> {
    fs::symlink_metadata(host(p))
}

pub fn is_dir(p: &str) -> bool {
    metadata(p).map(|m| m.is_dir()).unwrap_or(false)
}

/// Joins a directory operand and an entry name the way GNU prints them:
/// `dir/name`, without doubling a trailing slash.
pub fn join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{}{}", dir, name)
    } else {
        format!("{}/{}", dir, name)
    }
}

/// Last component, ignoring trailing slashes (`a/b/` gives `b`).
pub fn base_name(p: &str) -> &str {
    let t = p.trim_end_matches('/');
    if t.is_empty() {
        return if p.is_empty() { "" } else { "/" };
    }
    match t.rfind('/') {
        Some(i) => &t[i + 1..],
        None => t,
    }
}

/// A file's inode number (`ls -i`), from stat(2) on every target.
pub fn inode(p: &str) -> Option<u64> {
    let c = std::ffi::CString::new(host(p).to_string_lossy().as_bytes()).ok()?;
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    (unsafe { libc::stat(c.as_ptr(), &mut st) } == 0).then(|| st.st_ino as u64)
}

/// Directory entry names, sorted bytewise (the C locale's order).
pub fn read_dir_names(p: &str) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    for e in fs::read_dir(host(p))? {
        names.push(e?.file_name().to_string_lossy().into_owned());
    }
    names.sort();
    Ok(names)
}

/// Directory entries with their types as the listing gives them (no stat per
/// entry), sorted bytewise like `read_dir_names`.
pub fn read_dir_typed(p: &str) -> io::Result<Vec<(String, fs::FileType)>> {
    let mut out = Vec::new();
    for e in fs::read_dir(host(p))? {
        let e = e?;
        let ft = match e.file_type() {
            Ok(t) => t,
            Err(_) => e.metadata()?.file_type(),
        };
        out.push((e.file_name().to_string_lossy().into_owned(), ft));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// A file's mtime as whole seconds and nanoseconds since the epoch.
/// Last access, as (seconds, nanoseconds); the modification time where a host keeps none.
pub fn atime(m: &fs::Metadata) -> (i64, u32) {
    m.accessed().ok().and_then(|x| x.duration_since(std::time::UNIX_EPOCH).ok()).map(|d| (d.as_secs() as i64, d.subsec_nanos())).unwrap_or_else(|| mtime(m))
}

pub fn mtime(m: &fs::Metadata) -> (i64, u32) {
    use std::time::UNIX_EPOCH;
    match m.modified() {
        Ok(t) => match t.duration_since(UNIX_EPOCH) {
            Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
            Err(e) => (-(e.duration().as_secs() as i64), 0),
        },
        Err(_) => (0, 0),
    }
}

/// Sets access and modification times (None leaves one unchanged). Std's
/// File::set_times is newer than Debian's rustc, so this goes through libc. A time left unchanged
/// is passed as its current value rather than UTIME_OMIT: the libc crate of Debian's Rust and
/// wasi-libc disagree on UTIME_OMIT's value, and wasi-libc refuses the crate's (EINVAL).
pub fn set_times(p: &Path, atime: Option<(i64, u32)>, mtime: Option<(i64, u32)>) -> io::Result<()> {
    use std::ffi::CString;
    let (atime, mtime) = match (atime, mtime) {
        (Some(a), Some(m)) => (a, m),
        (a, m) => {
            let meta = fs::metadata(p)?;
            (a.unwrap_or_else(|| self::atime(&meta)), m.unwrap_or_else(|| self::mtime(&meta)))
        }
    };
    let ts = |(s, ns): (i64, u32)| libc::timespec { tv_sec: s as _, tv_nsec: ns as _ };
    let times = [ts(atime), ts(mtime)];
    let c = CString::new(p.to_string_lossy().as_bytes()).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "invalid path"))?;
    let r = unsafe { libc::utimensat(libc::AT_FDCWD, c.as_ptr(), times.as_ptr(), 0) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Current time as (seconds, nanoseconds).
pub fn now() -> (i64, u32) {
    use std::time::{SystemTime, UNIX_EPOCH};
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
        Err(_) => (0, 0),
    }
}

/// Lexically normalised absolute form of an operand (`.`/`..` folded), for
/// "same file" and "into itself" checks. Native relative paths are taken
/// from the process's current directory.
pub fn normal(p: &str) -> String {
    let h = host(p);
    let abs = if h.is_absolute() {
        h
    } else {
        std::env::current_dir().map(|c| c.join(&h)).unwrap_or(h)
    };
    let mut parts: Vec<String> = Vec::new();
    for c in abs.to_string_lossy().split('/') {
        match c {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(c.to_string()),
        }
    }
    format!("/{}", parts.join("/"))
}

/// True when `inner` is `outer` or lies below it.
pub fn is_within(inner: &str, outer: &str) -> bool {
    let (i, o) = (normal(inner), normal(outer));
    i == o || (i.starts_with(&o) && (o == "/" || i.as_bytes().get(o.len()) == Some(&b'/')))
}

/// `ln -s target link`: the target text is stored as given.
pub fn symlink(target: &str, link: &str) -> io::Result<()> {
    // std's wasi symlink_path is unstable in Debian's rustc; wasi-libc's symlink(3) is the same call.
    let t = std::ffi::CString::new(target).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    let l = std::ffi::CString::new(host(link).to_string_lossy().as_bytes()).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    if unsafe { libc::symlink(t.as_ptr(), l.as_ptr()) } == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// A link's target text (readlink(2)).
pub fn read_link(p: &str) -> io::Result<String> {
    fs::read_link(host(p)).map(|t| t.to_string_lossy().into_owned())
}

/// True when `p` itself is a symbolic link (lstat).
pub fn is_symlink(p: &str) -> bool {
    symlink_metadata(p).map(|m| m.file_type().is_symlink()).unwrap_or(false)
}

/// How much of a path `canonical` requires to exist (readlink -e / -f / -m).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Exist {
    All,
    AllButLast,
    None,
}

/// Linux's limit on links followed while resolving one path.
pub const MAX_LINK_HOPS: usize = 40;

/// The absolute path with every link followed and no `.`/`..` (realpath(3) and GNU's
/// canonicalize_filename_mode): links are read one component at a time, so `..` after a link
/// climbs from where the link led. `exist` says which components must exist.
pub fn canonical(p: &str, exist: Exist) -> io::Result<String> {
    let start = host(p).to_string_lossy().into_owned();
    let mut pending: Vec<String> = start.split('/').rev().map(String::from).collect();
    let mut parts: Vec<String> = Vec::new();
    let mut hops = 0;
    let mut missing = false;
    while let Some(part) = pending.pop() {
        match part.as_str() {
            "" | "." => continue,
            ".." => {
                parts.pop();
                continue;
            }
            _ => {}
        }
        parts.push(part);
        if missing {
            if exist != Exist::None {
                return Err(io::Error::from(io::ErrorKind::NotFound));
            }
            continue;
        }
        let cur = format!("/{}", parts.join("/"));
        let last = pending.iter().all(|s| s.is_empty() || s == ".");
        match fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                hops += 1;
                if hops > MAX_LINK_HOPS {
                    return Err(io::Error::from_raw_os_error(libc::ELOOP));
                }
                let target = fs::read_link(&cur)?.to_string_lossy().into_owned();
                parts.pop();
                if target.starts_with('/') {
                    parts.clear();
                }
                pending.extend(target.split('/').rev().map(String::from));
            }
            Ok(m) if !m.is_dir() && !last => {
                if exist != Exist::None {
                    return Err(io::Error::from_raw_os_error(libc::ENOTDIR));
                }
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if exist == Exist::All || (exist == Exist::AllButLast && !last) {
                    return Err(e);
                }
                missing = true;
            }
            Err(e) => return Err(e),
        }
    }
    Ok(format!("/{}", parts.join("/")))
}

/// `path` relative to directory `base` (both absolute and canonical), as `ln -r` and `realpath --relative-to` print.
pub fn relative_to(path: &str, base: &str) -> String {
    let p: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let b: Vec<&str> = base.split('/').filter(|s| !s.is_empty()).collect();
    let common = p.iter().zip(b.iter()).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<&str> = std::iter::repeat("..").take(b.len() - common).collect();
    parts.extend(&p[common..]);
    if parts.is_empty() {
        ".".into()
    } else {
        parts.join("/")
    }
}
