fn main() {
    let code = rocm_learn::cli::run(std::env::args_os().collect());
    std::process::exit(code);
}
