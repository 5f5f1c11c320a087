//! Snapshot tests of rendered diagnostics: each error points at its cause.

use miette::{GraphicalReportHandler, GraphicalTheme};

fn render(src: &str) -> String {
    let err = match rtfs::eval_str(src) {
        Ok(v) => panic!("expected an error, got {v}"),
        Err(e) => e.with_source("plan.rtfs", src),
    };
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(100)
        .render_report(&mut out, &err)
        .unwrap();
    out
}

#[test]
fn unbalanced_delimiter_points_at_opener() {
    insta::assert_snapshot!(render(
        "(do\n  (step \"Fetch\"\n    (call :ccos.echo {:message \"hi\"})\n"
    ));
}

#[test]
fn mismatched_delimiter_points_at_both() {
    insta::assert_snapshot!(render("(let [x 1) x)"));
}

#[test]
fn unterminated_string_points_at_start() {
    insta::assert_snapshot!(render("(call :ccos.echo {:message \"hi})"));
}

#[test]
fn duplicate_key_points_at_both() {
    insta::assert_snapshot!(render("{:path \"a\"\n :path \"b\"}"));
}

#[test]
fn integer_overflow_in_literal() {
    insta::assert_snapshot!(render("(+ 1 99999999999999999999)"));
}

#[test]
fn type_error_names_function_and_value() {
    insta::assert_snapshot!(render("(let [n \"3\"]\n  (+ n 1))"));
}

#[test]
fn unbound_symbol_suggests() {
    insta::assert_snapshot!(render("(filtr odd? [1 2 3])"));
}

#[test]
fn host_failure_points_at_call() {
    insta::assert_snapshot!(render(
        "(do\n  (step \"Greet\" (call :ccos.echo {:message \"hi\"})))"
    ));
}
