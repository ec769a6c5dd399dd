//! Running the `urilex` binary from the tests: arguments, standard input,
//! and what it gave back (exit code, standard output, standard error).

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `urilex ARGS` with `stdin` on its standard input, in `dir` (the
/// package's folder when `None`).
pub fn run_in(dir: Option<&str>, args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_urilex"));
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn urilex");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `urilex ARGS` in the repository's root (where `samples/` are).
#[allow(dead_code)]
pub fn urilex(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    run_in(
        Some(concat!(env!("CARGO_MANIFEST_DIR"), "/..")),
        args,
        stdin,
    )
}

/// [`urilex`] with text in and out.
#[allow(dead_code)]
pub fn text(args: &[&str], stdin: &str) -> (i32, String, String) {
    let (c, o, e) = urilex(args, stdin.as_bytes());
    (c, String::from_utf8(o).expect("UTF-8 output"), e)
}
