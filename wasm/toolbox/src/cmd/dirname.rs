//! dirname NAME... [-z]

use crate::args::{flag, Spec};
use crate::ctx::{Ctx, Res};
use std::io::Write;

const SPECS: &[Spec] = &[flag('z', "zero", "z")];
const HELP: &str = "Usage: dirname [OPTION] NAME...\nOutput each NAME with its last non-slash component and trailing slashes\nremoved; if NAME contains no /'s, output '.' (meaning the current directory).\n\n  -z, --zero     end each output line with NUL, not newline\n";

pub fn dir(name: &str) -> String {
    let t = name.trim_end_matches('/');
    if t.is_empty() {
        return if name.starts_with('/') { "/".into() } else { ".".into() };
    }
    match t.rfind('/') {
        None => ".".into(),
        Some(i) => {
            let d = t[..i].trim_end_matches('/');
            if d.is_empty() {
                "/".into()
            } else {
                d.into()
            }
        }
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.is_empty() {
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    let end = if p.has("z") { b'\0' } else { b'\n' };
    for n in &p.operands {
        ctx.out.write_all(dir(n).as_bytes())?;
        ctx.out.write_all(&[end])?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::check;

    #[test]
    fn table() {
        let cases: &[(&[&str], &str)] = &[
            (&["/usr/bin/"], "/usr\n"),
            (&["dir1/str", "dir2/str"], "dir1\ndir2\n"),
            (&["stdio.h"], ".\n"),
            (&["/"], "/\n"),
            (&["//a//b//"], "//a\n"),
            (&["/a"], "/\n"),
            (&[""], ".\n"),
        ];
        for (args, out) in cases {
            check("dirname", args, "", out, 0);
        }
    }
}
