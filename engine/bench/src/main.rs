//! `basalt-bench [memtier flags]` or `basalt-bench ycsb load|run [YCSB options]`.

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let code = if argv.get(1).map(String::as_str) == Some("ycsb") {
        basalt_bench::ycsb::main(argv[1..].to_vec())
    } else {
        basalt_bench::memtier::main(argv)
    };
    std::process::exit(code);
}
