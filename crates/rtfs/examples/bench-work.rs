//! A fixed workload of the `rtfs` benchmark (parse the plan corpus, parse
//! and evaluate the small expressions) for instruction counts, which are
//! steadier than wall time on a shared machine:
//!
//! ```text
//! valgrind --tool=callgrind target/release/examples/bench-work parse 20
//! valgrind --tool=callgrind target/release/examples/bench-work eval 20000
//! valgrind --tool=callgrind target/release/examples/bench-work eval 20000 1
//! ```
//!
//! A third argument picks one expression (0, 1 or 2: `let_arith`,
//! `map_filter`, `str_ops`) instead of all three.

#[path = "../benches/support/corpus.rs"]
mod corpus;

use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let what = args.first().map(String::as_str).unwrap_or("parse");
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    match what {
        "parse" => {
            let src = corpus::corpus(128 * 1024);
            let mut forms = 0;
            for _ in 0..n {
                forms += rtfs::parse(black_box(&src)).map(|f| f.len()).unwrap_or(0);
            }
            println!("parsed {forms} forms");
        }
        _ => {
            let srcs = [
                "(let [x 2] (+ x (* 3 4)))",
                "(count (filter (fn [m] (= (:state m) \"open\")) [{:state \"open\"} {:state \"closed\"} {:state \"open\"}]))",
                "(upper-case (join \", \" (map str [1 2 3])))",
            ];
            let pick: Option<usize> = args.get(2).and_then(|s| s.parse().ok());
            let srcs: Vec<&str> = match pick.and_then(|i| srcs.get(i)) {
                Some(s) => vec![*s],
                None => srcs.to_vec(),
            };
            let mut ok = 0;
            for _ in 0..n {
                for &s in &srcs {
                    ok += usize::from(rtfs::eval_str(black_box(s)).is_ok());
                }
            }
            println!("evaluated {ok}");
        }
    }
}
