//! true, false, yes.

use crate::args::Spec;
use crate::ctx::{Ctx, Res};
use std::io::Write;

pub fn run_true(_ctx: &mut Ctx, _args: &[String]) -> Res {
    Ok(0)
}

pub fn run_false(_ctx: &mut Ctx, _args: &[String]) -> Res {
    Ok(1)
}

const YES_HELP: &str = "Usage: yes [STRING]...\nRepeatedly output a line with all specified STRING(s), or 'y'.\n";

/// Repeats the line until the reader goes away. Lines are batched into one
/// buffer so each write moves many of them.
pub fn run_yes(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, &[] as &[Spec], YES_HELP, 1);
    let line = if p.operands.is_empty() { "y".to_string() } else { p.operands.join(" ") };
    let mut block = Vec::with_capacity(8192);
    while block.len() < 8192 {
        block.extend_from_slice(line.as_bytes());
        block.push(b'\n');
    }
    loop {
        ctx.out.write_all(&block)?;
    }
}

#[cfg(test)]
mod tests {
    use crate::testutil::run;

    #[test]
    fn exit_codes() {
        assert_eq!(run("true", &["--whatever"], "").0, 0);
        assert_eq!(run("false", &[], "").0, 1);
    }
}
