//! Sizes and name lists as apt prints them, for apt's install and remove alike.

/// apt's SI size strings (`2,615 B`, `55.8 kB`, `1,234 kB`, `63.4 MB`).
pub fn size(bytes: u64) -> String {
    let commas = |n: u64| {
        let s = n.to_string();
        let mut out = String::new();
        for (i, c) in s.chars().enumerate() {
            if i > 0 && (s.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let b = bytes as f64;
    if bytes < 10_000 {
        format!("{} B", commas(bytes))
    } else if bytes < 100_000 {
        format!("{:.1} kB", b / 1000.0)
    } else if bytes < 10_000_000 {
        format!("{} kB", commas((b / 1000.0).round() as u64))
    } else if bytes < 100_000_000 {
        format!("{:.1} MB", b / 1e6)
    } else {
        format!("{} MB", commas((b / 1e6).round() as u64))
    }
}

/// apt's two-space indented, wrapped name list.
pub fn wrap_list(names: &[String]) -> String {
    let mut s = String::new();
    let mut line = String::from(" ");
    for n in names {
        if line.len() + n.len() + 1 > 79 && line.len() > 1 {
            s.push_str(&line);
            s.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(n);
    }
    s.push_str(&line);
    s.push('\n');
    s
}
