//! Evaluates one RTFS program with no host and the default limits, and
//! prints its value (or its error's kind and message) and the wall time.
//! Used to measure the evaluation bounds (`docs/rtfs.md`, section 6) from
//! outside, e.g. peak memory with `/usr/bin/time -v`.
//!
//! ```text
//! cargo run -p rtfs --release --example rtfs-eval -- -e '(count (range 10))'
//! cargo run -p rtfs --release --example rtfs-eval -- plan.rtfs
//! ```

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let src = match args.as_slice() {
        [flag, expr] if flag == "-e" => expr.clone(),
        [path] => match std::fs::read_to_string(path) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("cannot read {path}: {e}");
                std::process::exit(2);
            }
        },
        _ => {
            eprintln!("usage: rtfs-eval (-e EXPR | FILE)");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let result = rtfs::eval_str(&src);
    let elapsed = start.elapsed();
    match result {
        Ok(v) => {
            let printed = v.to_string();
            let shown: String = printed.chars().take(200).collect();
            println!("value: {shown}");
        }
        Err(e) => println!("error {}: {}", e.kind.code(), e.message),
    }
    println!("wall: {:.3} s", elapsed.as_secs_f64());
}
