//! mktemp [-d] [-u] [-q] [-p DIR | --tmpdir[=DIR]] [-t] [--suffix=S] [TEMPLATE]
//! — create a file or directory with a unique name and print it. The
//! directory defaults to $TMPDIR, else /tmp, as in GNU.

use crate::args::{flag, optval, val, Spec};
use crate::ctx::{lq, reason, Ctx, Res};
use crate::fsx;
use crate::rand::Rng;
use std::fs;
use std::io::{self, Write};

const SPECS: &[Spec] = &[
    flag('d', "directory", "d"),
    flag('u', "dry-run", "u"),
    flag('q', "quiet", "q"),
    val('\0', "suffix", "suffix"),
    val('p', "", "p"),
    optval('\0', "tmpdir", "p"),
    flag('t', "", "t"),
];
const HELP: &str = "Usage: mktemp [OPTION]... [TEMPLATE]\nCreate a temporary file or directory, safely, and print its name.\nTEMPLATE must contain at least 3 consecutive 'X's in last component.\nIf TEMPLATE is not specified, use tmp.XXXXXXXXXX, and --tmpdir is implied.\nFiles are created u+rw, and directories u+rwx, minus umask restrictions.\n\n  -d, --directory     create a directory, not a file\n  -u, --dry-run       do not create anything; merely print a name (unsafe)\n  -q, --quiet         suppress diagnostics about file/dir-creation failure\n      --suffix=SUFF   append SUFF to TEMPLATE; SUFF must not contain a slash.\n                        This option is implied if TEMPLATE does not end in X\n  -p DIR, --tmpdir[=DIR]  interpret TEMPLATE relative to DIR; if DIR is not\n                        specified, use $TMPDIR if set, else /tmp.  With\n                        this option, TEMPLATE must not be an absolute name;\n                        unlike with -t, TEMPLATE may contain slashes, but\n                        mktemp creates only the final component\n  -t                  interpret TEMPLATE as a single file name component,\n                        relative to a directory: $TMPDIR, if set; else the\n                        directory specified via -p; else /tmp [deprecated]\n";

const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const TRIES: usize = 100;

fn tmpdir_env() -> Option<String> {
    std::env::var("TMPDIR").ok().filter(|s| !s.is_empty())
}

/// Where the template goes: the path to fill in, or a GNU error message.
fn target(p: &crate::args::Parsed) -> Result<(String, Option<String>), String> {
    let explicit = p.operands.first().cloned();
    let template = explicit.clone().unwrap_or_else(|| "tmp.XXXXXXXXXX".to_string());
    let use_dir = p.has("p") || p.has("t") || explicit.is_none();
    let suffix = p.last("suffix").map(str::to_string);
    if let Some(s) = &suffix {
        if s.contains('/') {
            return Err(format!("invalid suffix {}, contains directory separator", lq(s)));
        }
    }
    if !use_dir {
        return Ok((template, suffix));
    }
    let given = p.last("p").filter(|d| !d.is_empty()).map(str::to_string);
    let dir = if p.has("t") {
        tmpdir_env().or(given).unwrap_or_else(|| "/tmp".into())
    } else {
        given.or_else(tmpdir_env).unwrap_or_else(|| "/tmp".into())
    };
    if p.has("t") && template.contains('/') {
        return Err(format!("invalid template, {}, contains directory separator", lq(&template)));
    }
    if template.starts_with('/') {
        return Err(format!("invalid template, {}; with --tmpdir, it may not be absolute", lq(&template)));
    }
    Ok((fsx::join(&dir, &template), suffix))
}

/// Splits `path` into (stem, number of trailing X's, suffix); a template not
/// ending in X takes what follows its last X as the suffix.
fn split_template(path: &str, suffix: Option<String>) -> Result<(String, usize, String), String> {
    let (body, suf) = match suffix {
        Some(s) => (path.to_string(), s),
        None => {
            let base_start = path.rfind('/').map(|i| i + 1).unwrap_or(0);
            let cut = path[base_start..].rfind('X').map(|i| base_start + i + 1).unwrap_or(path.len());
            (path[..cut].to_string(), path[cut..].to_string())
        }
    };
    let xs = body.len() - body.trim_end_matches('X').len();
    let base_len = body.len() - body.rfind('/').map(|i| i + 1).unwrap_or(0);
    if xs < 3 || xs > base_len {
        return Err(format!("too few X's in template {}", lq(&format!("{}{}", body, suf))));
    }
    Ok((body[..body.len() - xs].to_string(), xs, suf))
}

/// Makes the file or directory readable by its owner only, as mkstemp/mkdtemp do.
fn create(path: &str, dir: bool) -> io::Result<()> {
    let h = fsx::host(path);
    if dir {
        fs::create_dir(h)?;
    } else {
        fs::OpenOptions::new().write(true).create_new(true).open(h)?;
    }
    crate::host::set_mode(path, if dir { 0o700 } else { 0o600 })
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.len() > 1 {
        ctx.diag.usage("too many templates");
        return Ok(1);
    }
    let quiet = p.has("q");
    let checked = target(&p).and_then(|(path, suffix)| split_template(&path, suffix));
    let (stem, xs, suf) = match checked {
        Ok(t) => t,
        Err(m) => {
            if !quiet {
                ctx.diag.error(m);
            }
            return Ok(1);
        }
    };
    let mut rng = Rng::new();
    let mut last_err = None;
    for _ in 0..TRIES {
        let name: String = (0..xs).map(|_| CHARS[rng.below(CHARS.len())] as char).collect();
        let path = format!("{}{}{}", stem, name, suf);
        if p.has("u") {
            if fsx::symlink_metadata(&path).is_ok() {
                continue;
            }
            writeln!(ctx.out, "{}", path)?;
            return Ok(0);
        }
        match create(&path, p.has("d")) {
            Ok(()) => {
                writeln!(ctx.out, "{}", path)?;
                return Ok(0);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                last_err = Some(e);
                break;
            }
        }
    }
    if !quiet {
        let what = if p.has("d") { "directory" } else { "file" };
        let template = format!("{}{}{}", stem, "X".repeat(xs), suf);
        let why = last_err.map(|e| reason(&e)).unwrap_or_else(|| "File exists".into());
        ctx.diag.error(format!("failed to create {} via template {}: {}", what, lq(&template), why));
    }
    Ok(1)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{run, tmpdir};

    #[test]
    fn creates_unique_names() {
        let d = tmpdir();
        let cases: &[(&[&str], &str, &str, bool)] = &[
            (&["-p", &d], "/tmp.", "", false),
            (&["-d", "-p", &d, "work.XXXX"], "/work.", "", true),
            (&["-p", &d, "--suffix=.txt", "fXXX"], "/f", ".txt", false),
            (&["--tmpdir", "-p", &d, "aXXXb.c"], "/a", "b.c", false),
        ];
        for (args, stem, suf, is_dir) in cases {
            let (c, o, e) = run("mktemp", args, "");
            assert_eq!(c, 0, "{:?}: {}", args, e);
            let path = o.trim_end();
            assert!(path.starts_with(&format!("{}{}", d, stem)) && path.ends_with(suf), "{:?} gave {}", args, path);
            let m = std::fs::metadata(path).unwrap();
            assert_eq!(m.is_dir(), *is_dir, "{:?}", args);
        }
        let (_, a, _) = run("mktemp", &["-u", "-p", &d], "");
        let (_, b, _) = run("mktemp", &["-u", "-p", &d], "");
        assert_ne!(a, b);
        assert!(std::fs::metadata(a.trim_end()).is_err(), "-u creates nothing");
    }

    #[test]
    fn errors() {
        let cases: &[(&[&str], &str)] = &[
            (&["-u", "XX"], "mktemp: too few X's in template ‘XX’\n"),
            (&["-u", "-t", "a/bXXX"], "mktemp: invalid template, ‘a/bXXX’, contains directory separator\n"),
            (&["-u", "-p", "/x", "/y/zXXX"], "mktemp: invalid template, ‘/y/zXXX’; with --tmpdir, it may not be absolute\n"),
            (&["-u", "--suffix=/c", "fXXX"], "mktemp: invalid suffix ‘/c’, contains directory separator\n"),
            (&["/nonexistent-dir/XXX"], "mktemp: failed to create file via template ‘/nonexistent-dir/XXX’: No such file or directory\n"),
            (&["-q", "/nonexistent-dir/XXX"], ""),
            (&["a", "b"], "mktemp: too many templates\nTry 'mktemp --help' for more information.\n"),
        ];
        for (args, err) in cases {
            let (c, _, e) = run("mktemp", args, "");
            assert_eq!((e.as_str(), c), (*err, 1), "{:?}", args);
        }
    }
}
