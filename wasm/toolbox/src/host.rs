//! What toolbox asks the host that runs it. Commands that start other
//! commands in-process (xargs, find -exec, env, timeout) are a way around the
//! shell's command rules, so each such command line is shown to the host
//! first: the `toolshed.check_command` import gets the argv as NUL-terminated
//! strings and answers 0 (run it) or 1 (refused; the host has already said
//! why on stderr and recorded the denial). Natively (unit tests, the GNU
//! comparison) there is no host to ask and everything is allowed.

/// Exit status for a command line the host refused, as for one that cannot
/// be executed (126).
pub const EXIT_DENIED: i32 = 126;

/// The argv as the host reads it: each argument followed by a NUL.
pub fn encode_argv(argv: &[String]) -> Vec<u8> {
    let mut buf = Vec::with_capacity(argv.iter().map(|a| a.len() + 1).sum());
    for a in argv {
        buf.extend_from_slice(a.as_bytes());
        buf.push(0);
    }
    buf
}

#[cfg(target_os = "wasi")]
mod imp {
    #[link(wasm_import_module = "toolshed")]
    extern "C" {
        fn check_command(argv_ptr: *const u8, argv_len: usize) -> i32;
        fn path_mode(path_ptr: *const u8, path_len: usize) -> i32;
        fn path_set_mode(path_ptr: *const u8, path_len: usize, mode: u32) -> i32;
    }

    pub fn allowed(buf: &[u8]) -> bool {
        // SAFETY: the host only reads `argv_len` bytes at `argv_ptr`, which `buf` owns.
        unsafe { check_command(buf.as_ptr(), buf.len()) == 0 }
    }

    pub fn mode(path: &str) -> Option<u32> {
        // SAFETY: the host only reads `path_len` bytes at `path_ptr`.
        let r = unsafe { path_mode(path.as_ptr(), path.len()) };
        if r < 0 { None } else { Some(r as u32) }
    }

    pub fn set_mode(path: &str, mode: u32) -> std::io::Result<()> {
        // SAFETY: as above.
        let r = unsafe { path_set_mode(path.as_ptr(), path.len(), mode) };
        if r == 0 { Ok(()) } else { Err(std::io::Error::from_raw_os_error(-r)) }
    }
}

#[cfg(not(target_os = "wasi"))]
mod imp {
    use std::os::unix::fs::PermissionsExt;

    pub fn allowed(_buf: &[u8]) -> bool {
        true
    }

    pub fn mode(path: &str) -> Option<u32> {
        std::fs::metadata(path).ok().map(|m| m.permissions().mode() & 0o7777)
    }

    pub fn set_mode(path: &str, mode: u32) -> std::io::Result<()> {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
}

/// Set in `path_mode`'s answer beside the permission bits when root owns the file (the
/// read-only system tree, and /tmp as on Debian); everything else is the session's user's.
pub const ROOT_OWNED: u32 = 1 << 16;

/// Permission bits of a file (the workspace keeps them; WASI's filestat has none), or the
/// usual defaults when the host cannot say.
pub fn mode_of(path: &str, is_dir: bool) -> u32 {
    let p = crate::fsx::host(path);
    imp::mode(&p.to_string_lossy()).map(|m| m & 0o7777).unwrap_or(if is_dir { 0o755 } else { 0o644 })
}

/// Whether root owns a file as the host says (ls -l, stat). Natively (unit tests, the GNU
/// comparison) every file is the session's user's, so outputs do not depend on who runs them.
pub fn root_owned(path: &str) -> bool {
    if cfg!(not(target_os = "wasi")) {
        return false;
    }
    let p = crate::fsx::host(path);
    imp::mode(&p.to_string_lossy()).map_or(false, |m| m & ROOT_OWNED != 0)
}

/// The owner's name and id as ls and stat print them.
pub fn owner_of(path: &str) -> (&'static str, u32) {
    if root_owned(path) {
        ("root", 0)
    } else {
        (crate::cmd::sysinfo::USER, crate::cmd::sysinfo::UID)
    }
}

/// A MODE as chmod, mkdir -m and install -m read it: octal, or symbolic clauses
/// (`u+x`, `go-w`, `a=rx`, comma-separated) applied to `base`. None when malformed.
pub fn parse_mode(spec: &str, base: u32) -> Option<u32> {
    if !spec.is_empty() && spec.chars().all(|c| ('0'..='7').contains(&c)) {
        return u32::from_str_radix(spec, 8).ok().filter(|m| *m <= 0o7777);
    }
    let mut mode = base;
    for clause in spec.split(',') {
        let at = clause.find(|c| c == '+' || c == '-' || c == '=')?;
        let mut who = 0;
        for c in clause[..at].chars() {
            who |= match c {
                'u' => 0o4700,
                'g' => 0o2070,
                'o' => 0o1007,
                'a' => 0o7777,
                _ => return None,
            };
        }
        if who == 0 {
            who = 0o7777;
        }
        let (op, perms) = clause[at..].split_at(1);
        let mut bits = 0;
        for c in perms.chars() {
            bits |= match c {
                'r' => 0o444,
                'w' => 0o222,
                'x' | 'X' => 0o111,
                's' => 0o6000,
                't' => 0o1000,
                _ => return None,
            };
        }
        let bits = bits & who;
        mode = match op {
            "+" => mode | bits,
            "-" => mode & !bits,
            _ => (mode & !(who & 0o7777)) | bits,
        };
    }
    Some(mode)
}

/// chmod through the host.
pub fn set_mode(path: &str, mode: u32) -> std::io::Result<()> {
    let p = crate::fsx::host(path);
    imp::set_mode(&p.to_string_lossy(), mode & 0o7777)
}

/// `rwxr-xr-x` with s/S and t/T for the special bits, as ls -l spells them.
pub fn mode_letters(mode: u32) -> String {
    let mut s = String::with_capacity(9);
    for (shift, special, ch) in [(6, 0o4000, 's'), (3, 0o2000, 's'), (0, 0o1000, 't')] {
        s.push(if mode >> shift & 4 != 0 { 'r' } else { '-' });
        s.push(if mode >> shift & 2 != 0 { 'w' } else { '-' });
        let x = mode >> shift & 1 != 0;
        s.push(match (mode & special != 0, x) {
            (true, true) => ch,
            (true, false) => ch.to_ascii_uppercase(),
            (false, true) => 'x',
            (false, false) => '-',
        });
    }
    s
}

/// True when the host lets `argv` run (argv[0] as the user wrote it).
pub fn command_allowed(argv: &[String]) -> bool {
    imp::allowed(&encode_argv(argv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spells_modes() {
        assert_eq!(mode_letters(0o755), "rwxr-xr-x");
        assert_eq!(mode_letters(0o4644), "rwSr--r--");
        assert_eq!(mode_letters(0o1777), "rwxrwxrwt");
    }

    #[test]
    fn modes() {
        let cases: &[(&str, u32, Option<u32>)] = &[("700", 0o777, Some(0o700)), ("u=rwx,go=", 0o777, Some(0o700)), ("go-w", 0o777, Some(0o755)), ("+x", 0o644, Some(0o755)), ("a=r", 0o777, Some(0o444)), ("u+z", 0o777, None), ("9", 0o777, None)];
        for (spec, base, want) in cases {
            assert_eq!(super::parse_mode(spec, *base), *want, "{}", spec);
        }
    }

    #[test]
    fn encodes_and_allows_natively() {
        let argv: Vec<String> = ["rm", "-rf", "", "a b"].iter().map(|s| s.to_string()).collect();
        assert_eq!(encode_argv(&argv), b"rm\0-rf\0\0a b\0".to_vec());
        assert!(command_allowed(&argv));
    }
}

/// ripgrep's rule for a command line without paths: search stdin when it is
/// a pipe or a file, not when it is a terminal or /dev/null. The host shows
/// "no stdin" (and /dev/null) as a character device. Natively (unit tests,
/// the GNU comparison) stdin is never searched implicitly, so tests do not
/// depend on how they were started.
#[cfg(target_os = "wasi")]
pub fn stdin_is_readable() -> bool {
    // SAFETY: fstat only writes into the zeroed struct it is given.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(0, &mut st) } != 0 {
        return false;
    }
    let kind = st.st_mode & libc::S_IFMT;
    kind != libc::S_IFCHR && kind != libc::S_IFDIR
}

#[cfg(not(target_os = "wasi"))]
pub fn stdin_is_readable() -> bool {
    false
}

