//! mkfifo NAME... — named pipes cannot exist in the workspace (it stores
//! regular files and directories), so this explains that and fails.

use crate::args::{flag, val, Spec};
use crate::ctx::{q, Ctx, Res};

const SPECS: &[Spec] = &[val('m', "mode", "m"), flag('Z', "", "Z"), val('\0', "context", "context")];
const HELP: &str = "Usage: mkfifo [OPTION]... NAME...\nNamed pipes (FIFOs) are not supported in this sandbox: the workspace\nstores regular files and directories only. Connect commands with a\npipe (cmd1 | cmd2) or use a regular file instead.\n";

pub fn run(ctx: &mut Ctx, args: &[String]) -> Res {
    let p = getopt!(ctx, args, SPECS, HELP, 1);
    if p.operands.is_empty() {
        super::missing_operand(ctx, None);
        return Ok(1);
    }
    for name in &p.operands {
        ctx.diag.error(format!("cannot create fifo {}: named pipes are not supported in this sandbox (only regular files and directories); use a pipe (cmd1 | cmd2) or a regular file", q(name)));
    }
    Ok(1)
}

#[cfg(test)]
mod tests {
    use crate::testutil::check_err;

    #[test]
    fn explains() {
        check_err("mkfifo", &["p"], "", "mkfifo: cannot create fifo 'p': named pipes are not supported in this sandbox (only regular files and directories); use a pipe (cmd1 | cmd2) or a regular file\n", 1);
        check_err("mkfifo", &[], "", "mkfifo: missing operand\nTry 'mkfifo --help' for more information.\n", 1);
    }
}
