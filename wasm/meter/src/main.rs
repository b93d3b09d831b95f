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
//!
//! It also makes the module *resettable*, so the host can run it again in the
//! same instance instead of instantiating it per run (instantiation copies the
//! data segments and allocates memory, the largest part of a program start):
//! every mutable global is exported as `toolshed_global_<index>` (the stack
//! pointer is not exported otherwise), and a custom section
//! `toolshed.resettable` says that the memory and these globals are the
//! module's whole mutable state. That holds for the MVP features parity-wasm
//! parses (no table.set, no passive segments: a module using them does not
//! parse), and not with a start function, which runs at instantiation only;
//! such a module is left unmarked. The initial memory is raised to
//! MIN_INITIAL_PAGES, so a small command's heap fits without growing memory
//! (the host reuses an instance only while its memory has its initial size).

use parity_wasm::elements::{
    BlockType, CustomSection, ExportEntry, ExportSection, GlobalEntry, GlobalSection, GlobalType, ImportCountType, InitExpr, Instruction, Internal,
    MemoryType, Module, Section, ValueType,
};
use std::process::exit;

pub const EXPORT: &str = "toolshed_fuel";
/// Custom section marking a module the host may reset and run again.
pub const RESETTABLE: &str = "toolshed.resettable";
/// Export name prefix of the mutable globals (followed by the global's index).
pub const GLOBAL_PREFIX: &str = "toolshed_global_";
/// 3 MiB: the toolbox's small commands (cat, grep, sed, sort, wc, jq .) peak at 1.8-2.9 MiB.
pub const MIN_INITIAL_PAGES: u32 = 48;

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

/// Exports the mutable globals, raises the initial memory and marks the module
/// resettable (see the top of this file); false when it cannot be (a start function).
pub fn make_resettable(m: &mut Module) -> Result<bool, String> {
    if m.start_section().is_some() {
        return Ok(false);
    }
    let imported = m.import_count(ImportCountType::Global) as u32;
    let exported: Vec<u32> = m
        .export_section()
        .map(|e| e.entries().iter().filter_map(|x| if let Internal::Global(i) = x.internal() { Some(*i) } else { None }).collect())
        .unwrap_or_default();
    let mutable: Vec<u32> = m
        .global_section()
        .map(|g| g.entries().iter().enumerate().filter(|(_, e)| e.global_type().is_mutable()).map(|(i, _)| imported + i as u32).collect())
        .unwrap_or_default();
    let mut exports: Vec<ExportEntry> = mutable
        .into_iter()
        .filter(|i| !exported.contains(i))
        .map(|i| ExportEntry::new(format!("{}{}", GLOBAL_PREFIX, i), Internal::Global(i)))
        .collect();
    if !exports.is_empty() {
        match m.export_section_mut() {
            Some(es) => es.entries_mut().append(&mut exports),
            None => m.insert_section(Section::Export(ExportSection::with_entries(exports))).map_err(|e| e.to_string())?,
        }
    }
    if let Some(ms) = m.memory_section_mut() {
        for mem in ms.entries_mut() {
            let (initial, maximum) = (mem.limits().initial(), mem.limits().maximum());
            if initial < MIN_INITIAL_PAGES && maximum.map_or(true, |max| max >= MIN_INITIAL_PAGES) {
                *mem = MemoryType::new(MIN_INITIAL_PAGES, maximum);
            }
        }
    }
    m.sections_mut().push(Section::Custom(CustomSection::new(RESETTABLE.to_string(), b"memory+globals".to_vec())));
    Ok(true)
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
    let resettable = match make_resettable(&mut m) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("meter: {}: {}", args[1], e);
            exit(1);
        }
    };
    if let Err(e) = parity_wasm::serialize_to_file(&args[2], m) {
        eprintln!("meter: {}: cannot write: {}", args[2], e);
        exit(1);
    }
    let reset = if resettable { ", resettable" } else { "" };
    println!("meter: {} -> {} ({} metering points{})", args[1], args[2], n, reset);
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
    fn exports_mutable_globals_raises_memory_and_marks_resettable() {
        let mut m = module();
        m.insert_section(Section::Global(GlobalSection::with_entries(vec![
            GlobalEntry::new(GlobalType::new(ValueType::I32, true), InitExpr::new(vec![Instruction::I32Const(1024), Instruction::End])),
            GlobalEntry::new(GlobalType::new(ValueType::I32, false), InitExpr::new(vec![Instruction::I32Const(7), Instruction::End])),
        ])))
        .unwrap();
        m.insert_section(Section::Memory(parity_wasm::elements::MemorySection::with_entries(vec![MemoryType::new(2, None)]))).unwrap();
        instrument(&mut m).unwrap();
        assert!(make_resettable(&mut m).unwrap());
        let exp = m.export_section().unwrap().entries();
        assert!(exp.iter().any(|e| e.field() == "toolshed_global_0" && matches!(e.internal(), Internal::Global(0))));
        assert!(!exp.iter().any(|e| e.field() == "toolshed_global_1"), "immutable globals stay private");
        assert!(!exp.iter().any(|e| e.field() == "toolshed_global_2"), "the fuel global is exported already");
        assert_eq!(m.memory_section().unwrap().entries()[0].limits().initial(), MIN_INITIAL_PAGES);
        let bytes = m.to_bytes().unwrap();
        let back = Module::from_bytes(&bytes).unwrap();
        assert!(back.custom_sections().any(|c| c.name() == RESETTABLE));
    }

    #[test]
    fn a_start_function_is_not_resettable() {
        let mut m = module();
        m.set_start_section(0);
        assert!(!make_resettable(&mut m).unwrap());
        assert!(!m.custom_sections().any(|c| c.name() == RESETTABLE));
    }

    #[test]
    fn refuses_double_instrumentation() {
        let mut m = module();
        instrument(&mut m).unwrap();
        assert!(instrument(&mut m).is_err());
    }
}
