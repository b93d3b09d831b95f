//! Which files `tar -c` leaves out beyond --exclude: directories marked by a tag file
//! (--exclude-tag*, --exclude-caches*), per-directory ignore files (--exclude-ignore*,
//! --exclude-vcs-ignores) and files not newer than a date (-N, --newer-mtime).

use crate::args::Parsed;
use crate::fsx;

/// What a tagged directory keeps.
pub enum Keep {
    All,
    /// The directory entry and, when named, the tag file itself.
    Only(Option<String>),
    Nothing,
}

#[derive(Default)]
pub struct Pick {
    /// (tag file name, a cache tag whose signature is checked, what the directory keeps)
    tags: Vec<(String, bool, u8)>,
    ignore_files: Vec<String>,
    /// -N/--newer: files whose time is not after this are left out (directories are always kept).
    pub newer: Option<i64>,
}

const CACHE_SIGNATURE: &[u8] = b"Signature: 8a477f597d28d172789f06886806bc55";
// What a tag keeps: the tag file too, the directory only, or nothing.
const WITH_TAG: u8 = 0;
const UNDER: u8 = 1;
const ALL: u8 = 2;

impl Pick {
    pub fn new(p: &Parsed, newer: Option<i64>) -> Pick {
        let mut tags = Vec::new();
        for (key, how) in [("exclude-tag", WITH_TAG), ("exclude-tag-under", UNDER), ("exclude-tag-all", ALL)] {
            tags.extend(p.all(key).into_iter().map(|t| (t.to_string(), false, how)));
        }
        for (key, how) in [("exclude-caches", WITH_TAG), ("exclude-caches-under", UNDER), ("exclude-caches-all", ALL)] {
            if p.has(key) {
                tags.push(("CACHEDIR.TAG".to_string(), true, how));
            }
        }
        let mut ignore_files: Vec<String> = p.all("exclude-ignore").into_iter().chain(p.all("exclude-ignore-recursive")).map(str::to_string).collect();
        if p.has("exclude-vcs-ignores") {
            ignore_files.extend([".cvsignore", ".gitignore", ".bzrignore", ".hgignore"].iter().map(|s| s.to_string()));
        }
        Pick { tags, ignore_files, newer }
    }

    /// What the directory at `path` keeps, by the first tag file found in it.
    pub fn keep(&self, path: &str) -> Keep {
        for (tag, cache, how) in &self.tags {
            let file = fsx::join(path, tag);
            let hit = if *cache { std::fs::read(fsx::host(&file)).map_or(false, |b| b.starts_with(CACHE_SIGNATURE)) } else { fsx::metadata(&file).is_ok() };
            if hit {
                return match *how {
                    WITH_TAG => Keep::Only(Some(tag.clone())),
                    UNDER => Keep::Only(None),
                    _ => Keep::Nothing,
                };
            }
        }
        Keep::All
    }

    /// Patterns the ignore files of the directory at `path` add for everything below it (matched
    /// against base names, as GNU tar 1.34 does for both the plain and the recursive option).
    pub fn ignored_below(&self, path: &str) -> Vec<String> {
        let mut out = Vec::new();
        for f in &self.ignore_files {
            if let Ok(text) = std::fs::read_to_string(fsx::host(&fsx::join(path, f))) {
                out.extend(text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(str::to_string));
            }
        }
        out
    }
}

pub fn ignored(name: &str, pats: &[String]) -> bool {
    let base = name.trim_end_matches('/').rsplit('/').next().unwrap_or(name);
    pats.iter().any(|p| crate::text::glob_match(p.as_bytes(), base.as_bytes()))
}

/// --owner-map/--group-map: `OLD NEW` lines, OLD a name or +ID, NEW `NAME:ID`, `NAME` or `+ID`;
/// the (id, name) the file's (id, name) maps to, if a line names it.
pub fn map_owner(text: &str, id: u64, name: &str) -> Option<(u64, String)> {
    for line in text.lines() {
        let mut w = line.split_whitespace();
        let (old, new) = match (w.next(), w.next()) {
            (Some(o), Some(n)) => (o, n),
            _ => continue,
        };
        let hit = match old.strip_prefix('+') {
            Some(n) => n.parse::<u64>().ok() == Some(id),
            None => old == name,
        };
        if !hit {
            continue;
        }
        return Some(match new.split_once(':') {
            Some((n, i)) => (i.parse().unwrap_or(id), n.to_string()),
            None => match new.strip_prefix('+') {
                Some(i) => (i.parse().unwrap_or(id), String::new()),
                None => (id, new.to_string()),
            },
        });
    }
    None
}
