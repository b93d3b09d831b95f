//! meter IN.wasm OUT.wasm — adds step metering ("fuel") to a module so a
//! CPU-bound loop stops by counting work, not by the clock (the clock does
//! not advance during CPU-bound code on Workers).
//!
//! The module gets a mutable i64 global exported as `toolshed_fuel`. Each
//! function entry and each loop iteration subtracts 1; when the result is
//! negative the module executes `unreachable` (a trap). The host sets the
//! budget before running (`exports.toolshed_fuel.value = 1_000_000n`), and
//! after a trap reads the global: a negative value means "out of fuel".
//! No import is added, so no function index shifts.

use parity_wasm::elements::{
    BlockType, ExportEntry, GlobalEntry, GlobalType, InitExpr, Instruction, Internal, Module, Section, ExportSection, GlobalSection, ValueType,
};
use std::process::exit;

pub const EXPORT: &str = "toolshed_fuel";

fn charge(g: u32) -> Vec<Instruction> {
    vec![
        Instruction::GetGlobal(g),
        Instruction::I64Const(1),
        Instruction::I64Sub,
        Instruction::SetGlobal(g),
        Instruction::GetGlobal(g),
        Instruction::I64Const(0),
        Instruction::I64LtS,
        Instruction::If(BlockType::NoResult),
        Instruction::Unreachable,
        Instruction::End,
    ]
}

/// Returns the number of metering points inserted.
pub fn instrument(m: &mut Module) -> Result<usize, String> {
    if m.export_section().map(|e| e.entries().iter().any(|x| x.field() == EXPORT)).unwrap_or(false) {
        return Err(format!("module already exports {}", EXPORT));
    }
    let g = m.globals_space() as u32;
    let entry = GlobalEntry::new(GlobalType::new(ValueType::I64, true), InitExpr::new(vec![Instruction::I64Const(i64::MAX), Instruction::End]));
    match m.global_section_mut() {
        Some(gs) => gs.entries_mut().push(entry),
        None => m.insert_section(Section::Global(GlobalSection::with_entries(vec![entry]))).map_err(|e| e.to_string())?,
    }
    let exp = ExportEntry::new(EXPORT.to_string(), Internal::Global(g));
    match m.export_section_mut() {
        Some(es) => es.entries_mut().push(exp),
        None => m.insert_section(Section::Export(ExportSection::with_entries(vec![exp]))).map_err(|e| e.to_string())?,
    }
    let mut points = 0;
    let code = m.code_section_mut().ok_or("module has no code section")?;
    for body in code.bodies_mut() {
        let old = std::mem::take(body.code_mut().elements_mut());
        let mut new = Vec::with_capacity(old.len() + 10);
        new.extend(charge(g));
        points += 1;
        for ins in old {
            let is_loop = matches!(ins, Instruction::Loop(_));
            new.push(ins);
            if is_loop {
                new.extend(charge(g));
                points += 1;
            }
        }
        *body.code_mut().elements_mut() = new;
    }
    Ok(points)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: meter IN.wasm OUT.wasm");
        exit(2);
    }
    let mut m = match parity_wasm::deserialize_file(&args[1]) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("meter: {}: cannot parse module: {}", args[1], e);
            exit(1);
        }
    };
    let n = match instrument(&mut m) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("meter: {}: {}", args[1], e);
            exit(1);
        }
    };
    if let Err(e) = parity_wasm::serialize_to_file(&args[2], m) {
        eprintln!("meter: {}: cannot write: {}", args[2], e);
        exit(1);
    }
    println!("meter: {} -> {} ({} metering points)", args[1], args[2], n);
}

#[cfg(test)]
mod tests {
    use super::*;
    use parity_wasm::builder;

    /// A module with one function whose body is a loop (plus a nested one).
    fn module() -> Module {
        builder::module()
            .function()
            .signature()
            .build()
            .body()
            .with_instructions(parity_wasm::elements::Instructions::new(vec![
                Instruction::Loop(BlockType::NoResult),
                Instruction::Loop(BlockType::NoResult),
                Instruction::End,
                Instruction::Br(0),
                Instruction::End,
                Instruction::End,
            ]))
            .build()
            .build()
            .export()
            .field("run")
            .internal()
            .func(0)
            .build()
            .build()
    }

    #[test]
    fn adds_global_export_and_checks() {
        let mut m = module();
        assert_eq!(instrument(&mut m).unwrap(), 3, "entry + two loop headers");
        let g = m.global_section().unwrap().entries();
        assert_eq!(g.len(), 1);
        assert!(g[0].global_type().is_mutable());
        let exp = m.export_section().unwrap().entries();
        assert!(exp.iter().any(|e| e.field() == EXPORT && matches!(e.internal(), Internal::Global(0))));
        let code = m.code_section().unwrap().bodies()[0].code().elements();
        // Each metering point ends in `if unreachable end` right after it starts.
        assert_eq!(code.iter().filter(|i| matches!(i, Instruction::Unreachable)).count(), 3);
        assert!(matches!(code[0], Instruction::GetGlobal(0)));
        assert!(matches!(code[10], Instruction::Loop(_)));
        assert!(matches!(code[11], Instruction::GetGlobal(0)));
        // Round-trips through the binary format.
        let bytes = m.to_bytes().unwrap();
        let back = Module::from_bytes(&bytes).unwrap();
        assert_eq!(back.code_section().unwrap().bodies()[0].code().elements().len(), 6 + 30);
    }

    #[test]
    fn refuses_double_instrumentation() {
        let mut m = module();
        instrument(&mut m).unwrap();
        assert!(instrument(&mut m).is_err());
    }
}
