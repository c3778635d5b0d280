//! PATH's folders compared as Ubuntu resolves them; shared by the checks of every kind.

/// Whether PATH's `dirs` include `want`, however written: a trailing slash is the same
/// folder, and on Ubuntu's merged /usr /bin is /usr/bin (and /sbin is /usr/sbin).
pub fn on_path(dirs: &[&str], want: &str) -> bool {
    let canon = |d: &str| -> String {
        let d = d.trim_end_matches('/');
        match d {
            "/bin" => "/usr/bin".into(),
            "/sbin" => "/usr/sbin".into(),
            _ => d.into(),
        }
    };
    let want = canon(want);
    dirs.iter().any(|d| canon(d) == want)
}

#[cfg(test)]
mod tests {
    use super::on_path;

    #[test]
    fn a_folder_is_on_path_however_it_is_written() {
        assert!(on_path(&["/usr/local/bin", "/bin/"], "/usr/bin"));
        assert!(on_path(&["/sbin"], "/usr/sbin/"));
        assert!(!on_path(&["/opt/rocm/bin"], "/usr/bin"));
    }
}
