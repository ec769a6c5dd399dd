//! `urilex sql` runs `urilex-sql` (the SQL crate's binary); without it, it
//! says how to build it.

/// The tests here copy the binary and run the copy: one at a time, since a
/// copy still open for writing in the other test's forked child cannot be
/// run ("text file busy").
static COPY_AND_RUN: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn sql_without_urilex_sql_says_how_to_build_it() {
    let _one = COPY_AND_RUN.lock().unwrap_or_else(|p| p.into_inner());
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

/// `urilex sql` passes urilex-sql's exit status on (issue 45, fault 7): 2
/// for a statement that does not parse or a usage error, not 1 ("invalid
/// references found"). A stand-in urilex-sql beside a copy of the binary
/// says so.
#[test]
fn sql_passes_urilex_sqls_status_on() {
    let _one = COPY_AND_RUN.lock().unwrap_or_else(|p| p.into_inner());
    let dir = std::env::temp_dir().join(format!("urilex-fakesql-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("urilex");
    std::fs::copy(env!("CARGO_BIN_EXE_urilex"), &bin).unwrap();
    let fake = dir.join("urilex-sql");
    std::fs::write(&fake, "#!/bin/sh\necho \"urilex-sql: $*\" >&2\nexit 2\n").unwrap();
    let mut perm = std::fs::metadata(&fake).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&fake, perm).unwrap();
    let out = std::process::Command::new(&bin)
        .args(["sql", "SELEC 1"])
        .env("PATH", "")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("urilex-sql: SELEC 1"));
}
