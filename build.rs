// The course is embedded with include_dir; tell cargo to rebuild when it changes.
fn main() {
    for dir in ["lessons", "quizzes", "exams", "assets", "i18n"] {
        println!("cargo:rerun-if-changed={dir}");
    }
}
