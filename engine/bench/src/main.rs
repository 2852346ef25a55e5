//! `basalt-bench [memtier flags]`, `basalt-bench ycsb load|run [YCSB options]` or
//! `basalt-bench canonical [options]`.

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let code = if argv.get(1).map(String::as_str) == Some("ycsb") {
        basalt_bench::ycsb::main(argv[1..].to_vec())
    } else if argv.get(1).map(String::as_str) == Some("canonical") {
        basalt_bench::canonical::main(argv[1..].to_vec())
    } else {
        basalt_bench::memtier::main(argv)
    };
    std::process::exit(code);
}
