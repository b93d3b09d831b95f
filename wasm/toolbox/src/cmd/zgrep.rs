//! zgrep/zegrep/zfgrep as Debian's gzip 1.12 has them: a script that runs `gzip -cdfq FILE |
//! grep ARGS --label=FILE -` for each file. Here the same steps run in-process: the options are
//! sorted out the way the script does (the few it handles itself: -H/-h/-l/-L, and those it
//! refuses), each file is decompressed (or passed through when it is not gzip data, as -f does),
//! and grep reads the result. The exit status combines gzip's and grep's as the script does.

use crate::ctx::{reason, Ctx, Res};
use std::collections::VecDeque;
use std::io::{Read, Write};

/// `$0` in the script's messages: bash runs it by its path.
const SELF: &str = "/usr/bin/zgrep";

const VERSION: &str = "zgrep (gzip) 1.12\nCopyright (C) 2010-2018 Free Software Foundation, Inc.\nThis is free software.  You may redistribute copies of it under the terms of\nthe GNU General Public License <https://www.gnu.org/licenses/gpl.html>.\nThere is NO WARRANTY, to the extent permitted by law.\n\nWritten by Jean-loup Gailly.\n";

fn usage() -> String {
    format!(
        "Usage: {} [OPTION]... [-e] PATTERN [FILE]...\nLook for instances of PATTERN in the input FILEs, using their\nuncompressed contents if they are compressed.\n\nOPTIONs are the same as for 'grep', except that the following 'grep'\noptions are not supported: --dereference-recursive (-R), --directories (-d),\n--exclude, --exclude-from, --exclude-dir, --include, --null (-Z),\n--null-data (-z), and --recursive (-r).\n\nReport bugs to <bug-gzip@gnu.org>.\n",
        SELF
    )
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    zgrep(ctx, args, None)
}

/// zegrep: `zgrep -E`.
pub fn run_zegrep(ctx: &mut Ctx, args: &[String]) -> Res {
    zgrep(ctx, args, Some("-E"))
}

/// zfgrep: `zgrep -F`.
pub fn run_zfgrep(ctx: &mut Ctx, args: &[String]) -> Res {
    zgrep(ctx, args, Some("-F"))
}

/// A long option given as a prefix of `full` at least `min` characters long (`--he` for --help).
fn abbrev(o: &str, full: &str, min: usize) -> bool {
    o.len() >= min && full.starts_with(o)
}

fn zgrep(ctx: &mut Ctx, argv: &[String], extra: Option<&str>) -> Res {
    let mut queue: VecDeque<String> = argv.iter().cloned().collect();
    if let Some(e) = extra {
        queue.push_front(e.to_string());
    }
    let mut gargs: Vec<String> = Vec::new();
    let mut operands: Vec<String> = Vec::new();
    let (mut have_pat, mut with_l, mut without_l, mut no_filename, mut with_filename) = (false, false, false, false, false);
    while let Some(mut option) = queue.pop_front() {
        let mut optarg: Option<String> = None;
        let b = option.as_bytes();
        if option == "--" {
            break;
        }
        // Grouped one-letter options that take no argument (`-ci`): the first letter (with any
        // digits after it) goes on its own, the rest comes back as `-REST`.
        if b.len() > 2 && b[0] == b'-' && b"0123456789EFGHIKLPRTUVZabchilnoqrsuvwxyz".contains(&b[1]) {
            let end = 2 + b[2..].iter().take_while(|c| c.is_ascii_digit()).count();
            if end < b.len() {
                queue.push_front(format!("-{}", &option[end..]));
                option.truncate(end);
            }
        }
        let takes_arg = |o: &str| {
            matches!(o, "-A" | "-B" | "-C" | "-D" | "-X" | "-d" | "-e" | "-f" | "-m" | "--file") || o.starts_with("--binary-") || o.starts_with("--la") || o.starts_with("--ma") || o.starts_with("--reg")
        };
        if (option.starts_with("--binary-") || option.starts_with("--la") || option.starts_with("--ma") || option.starts_with("--reg")) && option.contains('=') {
        } else if takes_arg(&option) {
            match queue.pop_front() {
                Some(a) => optarg = Some(a),
                None => {
                    let _ = writeln!(ctx.diag.raw(), "{}: {} option requires an argument", SELF, option);
                    return Ok(2);
                }
            }
        } else if option.len() > 2 && option.starts_with("-f") {
            optarg = Some(option[2..].to_string());
            option.truncate(2);
        } else if let Some(v) = option.strip_prefix("--file=") {
            optarg = Some(v.to_string());
            option = "--file".into();
        } else if option.len() > 1 && option.starts_with('-') {
        } else {
            operands.push(option);
            continue;
        }
        let o = option.as_str();
        if matches!(o, "-d" | "-r" | "-R" | "-z" | "-Z") || ["--di", "--exc", "--inc", "--rec", "--nu"].iter().any(|p| o.starts_with(p)) {
            let _ = writeln!(ctx.diag.raw(), "{}: {}: option not supported", SELF, o);
            return Ok(2);
        }
        if o.starts_with("-e") || o.starts_with("--reg") || o == "-f" || o == "--file" {
            have_pat = true;
        } else if abbrev(o, "--help", 3) {
            ctx.out.write_all(usage().as_bytes())?;
            return Ok(0);
        } else if o == "-H" || abbrev(o, "--with-filename", 4) {
            with_filename = true;
            continue;
        } else if o == "-l" || o.starts_with("--files-with-") {
            with_l = true;
        } else if o == "-L" || o.starts_with("--files-witho") {
            without_l = true;
        } else if o == "-h" || o.starts_with("--no-f") {
            no_filename = true;
        } else if o == "-V" || abbrev(o, "--version", 3) {
            ctx.out.write_all(VERSION.as_bytes())?;
            return Ok(0);
        }
        gargs.push(option);
        gargs.extend(optarg);
    }
    operands.extend(queue);
    let mut files = operands.into_iter();
    if !have_pat {
        match files.next() {
            Some(p) => {
                gargs.push("--".into());
                gargs.push(p);
            }
            None => {
                let _ = writeln!(ctx.diag.raw(), "{}: 1: missing pattern; try `{} --help' for help", SELF, SELF);
                return Ok(2);
            }
        }
    }
    let mut files: Vec<String> = files.collect();
    if files.is_empty() {
        files.push("-".into());
    } else if files.len() > 1 && !no_filename {
        with_filename = true;
    }
    let mut res = 1;
    for name in &files {
        let (data, gzip_status) = gunzip(ctx, name);
        let mut input = std::io::Cursor::new(data);
        let mut grep_argv: Vec<String> = Vec::new();
        let r = if with_l || without_l {
            grep_argv.extend(gargs.iter().cloned());
            let r = crate::run("grep", &grep_argv, &mut input, &mut std::io::sink(), ctx.diag.raw());
            if (with_l && r == 0) || (without_l && r == 1) {
                writeln!(ctx.out, "{}", name)?;
            }
            r
        } else {
            if with_filename {
                grep_argv.push("-H".into());
            }
            if name != "-" {
                grep_argv.push("--label".into());
                grep_argv.push(name.clone());
            }
            grep_argv.extend(gargs.iter().cloned());
            crate::run("grep", &grep_argv, &mut input, &mut ctx.out, ctx.diag.raw())
        };
        let gzip_status = match gzip_status {
            1 => 2,
            _ => 0,
        };
        let r = r.max(gzip_status);
        res = if r <= 1 && res <= 1 { r.min(res) } else { r.max(res) };
        if res >= 126 {
            break;
        }
    }
    Ok(res)
}

/// `gzip -cdfq FILE`: the data, and gzip's status (1 for an error, 2 for a warning -q silenced).
fn gunzip(ctx: &mut Ctx, name: &str) -> (Vec<u8>, i32) {
    let mut raw = Vec::new();
    let read = if name == "-" {
        ctx.stdin.read_to_end(&mut raw).map(|_| ())
    } else {
        let path = crate::fsx::host(name);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_dir() => return (Vec::new(), 2),
            _ => std::fs::File::open(&path).and_then(|mut f| f.read_to_end(&mut raw)).map(|_| ()),
        }
    };
    if let Err(e) = read {
        let _ = writeln!(ctx.diag.raw(), "gzip: {}: {}", if name == "-" { "stdin" } else { name }, reason(&e));
        return (Vec::new(), 1);
    }
    if !raw.starts_with(&[0x1f, 0x8b]) {
        return (raw, 0);
    }
    match super::gz::decompress_members(&raw) {
        Ok((data, _)) => (data, 0),
        Err(m) => {
            let _ = writeln!(ctx.diag.raw(), "gzip: {}: {}", if name == "-" { "stdin" } else { name }, m);
            (Vec::new(), 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::*;

    fn gz(text: &str) -> String {
        let f = format!("{}/u.gz", tmpdir());
        std::fs::write(&f, crate::cmd::gz::compress(text.as_bytes(), 6)).unwrap();
        f
    }

    #[test]
    fn counts_lists_and_names() {
        let a = gz("a,dev\nb,ops\nc,dev\n");
        check("zgrep", &["-c", "dev", &a], "", "2\n", 0);
        check("zgrep", &["-h", "dev", &a, &a], "", "a,dev\nc,dev\na,dev\nc,dev\n", 0);
        check("zgrep", &["-ci", "DEV", &a, &a], "", &format!("{a}:2\n{a}:2\n"), 0);
        check("zgrep", &["-l", "ops", &a], "", &format!("{a}\n"), 0);
        check("zgrep", &["-L", "ops", &a], "", "", 0);
        check("zegrep", &["dev|ops", &a], "", "a,dev\nb,ops\nc,dev\n", 0);
        check("zfgrep", &["-c", ".", &a], "", "0\n", 1);
        check_err("zgrep", &["-r", "x", &a], "", "/usr/bin/zgrep: -r: option not supported\n", 2);
        check_err("zgrep", &["x", "nope.gz"], "", "gzip: nope.gz: No such file or directory\n", 2);
        check("zgrep", &["-n", "b"], "plain\nb\n", "2:b\n", 0);
    }
}
