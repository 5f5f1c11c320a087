//! Fuzz target over parse + eval: any input must come back as a value or an
//! error — never a panic, a hang or a stack overflow.
//!
//! Besides evaluation it drives what RTFS 2.0 conformance added: the reader
//! forms (`#(...)`, `^meta`, `@x`, radix integers, type-annotation colons)
//! come from the input itself (seeds in `seeds/parse_eval/`, tokens in
//! `parse_eval.dict`), and every form is also read as a type expression,
//! checked against the program's value, printed back and converted to JSON
//! Schema, and scanned for literal/annotation mismatches.
//!
//! Run (outside CI), from `fuzz/`:
//! `RUSTC_BOOTSTRAP=1 cargo fuzz run parse_eval corpus/parse_eval seeds/parse_eval -- -dict=parse_eval.dict -max_total_time=600`
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let Ok(forms) = rtfs::parse(src) else { return };
    // Tight limits keep each input fast; the limits themselves are under test.
    let limits = rtfs::Limits {
        max_steps: 20_000,
        max_depth: 2_000,
        max_collection_size: 10_000,
        max_loop_iterations: 1_000,
    };
    let ev = rtfs::Evaluator::new(&rtfs::PureHost).with_limits(limits);
    let result = ev.eval_program(&forms);
    if let Ok(v) = &result {
        // Printing must not panic, and printable values must read back.
        let printed = rtfs::print_value(v);
        if !printed.contains("#<fn") {
            match rtfs::parse_one(&printed) {
                Ok(back) => assert_eq!(&back.to_value(), v, "round trip of {printed}"),
                // Values built at run time may nest deeper than the reader
                // accepts; that is the only acceptable reason not to read back.
                Err(e) => assert!(e.message.contains("nesting deeper"), "{printed}: {e}"),
            }
        }
    }
    // The canonical form of the source is stable.
    for f in &forms {
        let once = rtfs::print_expr(f);
        let again = rtfs::print_expr(&rtfs::parse_one(&once).expect("canonical form parses"));
        assert_eq!(once, again);
    }
    // Every form read as a type: checking, printing back, JSON Schema.
    for f in &forms {
        let Ok(ty) = rtfs::TypeExpr::parse_expr(f) else { continue };
        if let Ok(v) = &result {
            let _ = ty.check(v);
        }
        let back = rtfs::TypeExpr::parse(&ty.to_value()).expect("a printed type reads back");
        assert_eq!(back, ty, "type round trip of {ty}");
        let _ = ty.to_json_schema();
    }
    let _ = rtfs::types::literal_mismatches(&forms);
});
