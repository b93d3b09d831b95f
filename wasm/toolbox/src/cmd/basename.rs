//! basename NAME [SUFFIX] | basename -a [-s SUFFIX] NAME... [-z]

use crate::args::{flag, val, Spec};
use crate::ctx::{Ctx, Res};
use std::io::Write;

const SPECS: &[Spec] = &[flag('a', "multiple", "a"), val('s', "suffix", "s"), flag('z', "zero", "z")];
const HELP: &str = "Usage: basename NAME [SUFFIX]\n  or:  basename OPTION... NAME...\nPrint NAME with any leading directory components removed.\n\n  -a, --multiple       support multiple arguments and treat each as a NAME\n  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a\n  -z, --zero           end each output line with NUL, not newline\n";

pub fn base(name: &str, suffix: &str) -> String {
    let b = crate::fsx::base_name(name);
    // GNU never strips the whole name: `basename .rs .rs` stays `.rs`.
    if !suffix.is_empty() && b != suffix && b.ends_with(suffix) && b != "/" {
        b[..b.len() - suffix.len()].to_string()
    } else {
        b.to_string()
    }
}

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    let end = if p.has("z") { b'\0' } else { b'\n' };
    let ops = &p.operands;
    if ops.is_empty() {
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    let suffix = p.last("s").unwrap_or("").to_string();
    let multi = p.has("a") || p.has("s");
    let names: Vec<(String, String)> = if multi {
        ops.iter().map(|o| (o.clone(), suffix.clone())).collect()
    } else {
        if ops.len() > 2 {
            super::extra_operand(ctx, &ops[2]);
            return Ok(1);
        }
        vec![(ops[0].clone(), ops.get(1).cloned().unwrap_or_default())]
    };
    for (n, s) in names {
        ctx.out.write_all(base(&n, &s).as_bytes())?;
        ctx.out.write_all(&[end])?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::testutil::{check, check_err};

    #[test]
    fn table() {
        let cases: &[(&[&str], &str, i32)] = &[
            (&["/usr/bin/sort"], "sort\n", 0),
            (&["include/stdio.h", ".h"], "stdio\n", 0),
            (&["-s", ".h", "a/b.h", "c.h"], "b\nc\n", 0),
            (&["-a", "any/str1", "any/str2"], "str1\nstr2\n", 0),
            (&["dir/"], "dir\n", 0),
            (&["/"], "/\n", 0),
            (&[".h", ".h"], ".h\n", 0),
            (&["a"], "a\n", 0),
        ];
        for (args, out, code) in cases {
            check("basename", args, "", out, *code);
        }
        check_err("basename", &[], "", "basename: missing operand\nTry 'basename --help' for more information.\n", 1);
        check_err("basename", &["a", "b", "c"], "", "basename: extra operand ‘c’\nTry 'basename --help' for more information.\n", 1);
    }
}
