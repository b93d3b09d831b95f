//! tar's --checkpoint[=N] and --checkpoint-action: a message (or a dot) every N records read or
//! written, counted when the archive is written or read whole.

use crate::ctx::{q, Ctx};

/// --checkpoint[=N] and --checkpoint-action: a message every N records read or written.
pub struct Checkpoints {
    every: Option<usize>,
    actions: Vec<String>,
}

pub fn plan(p: &crate::args::Parsed) -> Result<Checkpoints, String> {
    let every = match (p.has("checkpoint"), p.last("checkpoint")) {
        (false, _) => None,
        (true, None) => Some(10),
        (true, Some(n)) => Some(n.parse::<usize>().ok().filter(|n| *n > 0).ok_or_else(|| format!("{}: invalid checkpoint count", q(n)))?),
    };
    let actions: Vec<String> = p.all("checkpoint-action").into_iter().map(str::to_string).collect();
    for a in &actions {
        let word = a.split('=').next().unwrap_or("");
        if !["echo", "dot", ".", "bell", "sleep", "ttyout"].contains(&word) {
            return Err(format!("{}: unknown checkpoint action (echo, echo=TEXT, dot, sleep=N and ttyout=TEXT are supported here)", q(a)));
        }
    }
    Ok(Checkpoints { every: if every.is_none() && !actions.is_empty() { Some(10) } else { every }, actions })
}

impl Checkpoints {
    pub fn report(&self, ctx: &mut Ctx, op: &str, records: usize) -> std::io::Result<()> {
        let every = match self.every {
            Some(n) => n,
            None => return Ok(()),
        };
        let default = ["echo".to_string()];
        let actions = if self.actions.is_empty() { &default[..] } else { &self.actions[..] };
        for n in (every..=records).step_by(every) {
            for a in actions {
                let (word, text) = a.split_once('=').unwrap_or((a, ""));
                let text = text.replace("%u", &n.to_string()).replace("%s", op);
                match word {
                    "echo" if text.is_empty() => {
                        let _ = writeln!(ctx.diag.raw(), "tar: {} checkpoint {}", if op == "read" { "Read" } else { "Write" }, n);
                    }
                    "echo" => {
                        let _ = writeln!(ctx.diag.raw(), "tar: {}", text);
                    }
                    "dot" | "." => {
                        let _ = write!(ctx.diag.raw(), ".");
                    }
                    "ttyout" => {
                        let _ = write!(ctx.diag.raw(), "{}", text);
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}
