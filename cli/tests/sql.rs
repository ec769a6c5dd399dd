//! `urilex sql` runs `urilex-sql` (the SQL crate's binary); without it, it
//! says how to build it.

#[test]
fn sql_without_urilex_sql_says_how_to_build_it() {
    let dir = std::env::temp_dir().join(format!("urilex-nosql-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A copy of the binary alone in a folder, with an empty PATH: no
    // urilex-sql beside it or on the PATH.
    let bin = dir.join("urilex");
    std::fs::copy(env!("CARGO_BIN_EXE_urilex"), &bin).unwrap();
    let out = std::process::Command::new(&bin)
        .args(["sql", "SELECT 1"])
        .env("PATH", "")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cargo install --path sql"), "{err}");
}
