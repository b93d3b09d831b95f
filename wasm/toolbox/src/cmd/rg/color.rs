//! `--color always` and `--colors TYPE:ATTR:VALUE`: ripgrep's default palette
//! (paths magenta, line numbers green, matches bold red) written as ripgrep
//! writes it: reset, style, foreground, background, text, reset.

#[derive(Clone, Default)]
pub struct Spec {
    fg: Option<String>,
    bg: Option<String>,
    bold: bool,
    underline: bool,
    intense: bool,
}

/// Colours for paths, line numbers, columns (and byte offsets) and matches.
#[derive(Clone)]
pub struct Colors {
    pub path: Spec,
    pub line: Spec,
    pub column: Spec,
    pub matched: Spec,
}

fn named(v: &str) -> Option<&'static str> {
    Some(match v {
        "black" => "0",
        "red" => "1",
        "green" => "2",
        "yellow" => "3",
        "blue" => "4",
        "magenta" => "5",
        "cyan" => "6",
        "white" => "7",
        _ => return None,
    })
}

impl Default for Colors {
    fn default() -> Colors {
        Colors {
            path: Spec { fg: Some("magenta".into()), ..Spec::default() },
            line: Spec { fg: Some("green".into()), ..Spec::default() },
            column: Spec::default(),
            matched: Spec { fg: Some("red".into()), bold: true, ..Spec::default() },
        }
    }
}

impl Colors {
    /// Applies one `--colors` spec, e.g. `match:fg:blue`, `path:none`, `line:style:bold`.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        let bad = || format!("unrecognized color spec: {} (format is TYPE:ATTR:VALUE or TYPE:none)", spec);
        let mut parts = spec.splitn(3, ':');
        let which = match parts.next() {
            Some("path") => &mut self.path,
            Some("line") => &mut self.line,
            Some("column") => &mut self.column,
            Some("match") => &mut self.matched,
            _ => return Err(bad()),
        };
        match (parts.next(), parts.next()) {
            (Some("none"), None) => *which = Spec::default(),
            (Some("fg"), Some(v)) | (Some("bg"), Some(v)) if color_code(v, false).is_some() => {
                if spec.split(':').nth(1) == Some("fg") {
                    which.fg = Some(v.into());
                } else {
                    which.bg = Some(v.into());
                }
            }
            (Some("style"), Some(v)) => match v {
                "bold" => which.bold = true,
                "nobold" => which.bold = false,
                "underline" => which.underline = true,
                "nounderline" => which.underline = false,
                "intense" => which.intense = true,
                "nointense" => which.intense = false,
                _ => return Err(bad()),
            },
            _ => return Err(bad()),
        }
        Ok(())
    }
}

/// The SGR parameters of a colour: a name, an ANSI number (0-255) or `r,g,b`.
fn color_code(v: &str, background: bool) -> Option<String> {
    let base = if background { 4 } else { 3 };
    if let Some(n) = named(v) {
        return Some(format!("{}{}", base, n));
    }
    if let Ok(n) = v.parse::<u8>() {
        return Some(format!("{}8;5;{}", base, n));
    }
    let rgb: Vec<u8> = v.split(',').map(|x| x.parse().ok()).collect::<Option<_>>()?;
    (rgb.len() == 3).then(|| format!("{}8;2;{};{};{}", base, rgb[0], rgb[1], rgb[2]))
}

/// Writes `text` in `spec`'s colours, as ripgrep does.
pub fn paint(out: &mut Vec<u8>, spec: &Spec, text: &[u8]) {
    out.extend_from_slice(b"\x1b[0m");
    if spec.bold {
        out.extend_from_slice(b"\x1b[1m");
    }
    if spec.underline {
        out.extend_from_slice(b"\x1b[4m");
    }
    for (c, bg) in [(&spec.fg, false), (&spec.bg, true)] {
        if let Some(code) = c.as_deref().and_then(|v| color_code(v, bg)) {
            // Intense named colours are the bright half of the 256-colour palette (8-15).
            let code = match (spec.intense, named(c.as_deref().unwrap_or(""))) {
                (true, Some(n)) => format!("{}8;5;{}", if bg { 4 } else { 3 }, 8 + n.parse::<u8>().unwrap_or(0)),
                _ => code,
            };
            out.extend_from_slice(format!("\x1b[{}m", code).as_bytes());
        }
    }
    out.extend_from_slice(text);
    out.extend_from_slice(b"\x1b[0m");
}
