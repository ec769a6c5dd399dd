//! `urilex sql` runs `urilex-sql` (the SQL crate's binary); without it, it
//! says how to build it.

/// The tests here copy the binary and run the copy: one at a time, since a
/// copy still open for writing in the other test's forked child cannot be
/// run ("text file busy").
static COPY_AND_RUN: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `urilex sql ARGS` run by a copy of the binary alone in folder `name`
/// (with `beside`, a script named urilex-sql, next to it) and an empty
/// PATH: the exit code and standard error.
fn sql_alone(name: &str, beside: Option<&str>, args: &[&str]) -> (Option<i32>, String) {
    let _one = COPY_AND_RUN.lock().unwrap_or_else(|p| p.into_inner());
    let dir = std::env::temp_dir().join(format!("urilex-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("urilex");
    std::fs::copy(env!("CARGO_BIN_EXE_urilex"), &bin).unwrap();
    if let Some(script) = beside {
        let fake = dir.join("urilex-sql");
        std::fs::write(&fake, script).unwrap();
        let mut perm = std::fs::metadata(&fake).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
        std::fs::set_permissions(&fake, perm).unwrap();
    }
    let out = std::process::Command::new(&bin)
        .arg("sql")
        .args(args)
        .env("PATH", "")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn sql_without_urilex_sql_says_how_to_build_it() {
    // No urilex-sql beside the copy or on the PATH.
    let (code, err) = sql_alone("nosql", None, &["SELECT 1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cargo install --path sql"), "{err}");
}

/// `urilex sql` passes urilex-sql's exit status on (issue 45, fault 7): 2
/// for a statement that does not parse or a usage error, not 1 ("invalid
/// references found"). A stand-in urilex-sql beside a copy of the binary
/// says so.
#[test]
fn sql_passes_urilex_sqls_status_on() {
    let fake = "#!/bin/sh\necho \"urilex-sql: $*\" >&2\nexit 2\n";
    let (code, err) = sql_alone("fakesql", Some(fake), &["SELEC 1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("urilex-sql: SELEC 1"), "{err}");
}
