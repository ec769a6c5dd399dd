//! `URILEX_KERNEL` with a value the machine cannot run never stops a
//! program that uses the library (issue 45, fault 9): the kernels run the
//! machine's best family, one warning goes to standard error, and every
//! answer is the same. Run in a child process of this test binary, since
//! the variable is read once per process.

use std::process::Command;

const CHILD: &str = "URILEX_KERNEL_ENV_CHILD";

fn child_work() {
    // The first parses run the kernels: batch, single and validate.
    let text = b"http://a/b?c#d\nnot a uri\n//h:80/p\n".repeat(100);
    let parser = urilex::Parser::new();
    let mut batch = urilex::Batch::new();
    batch.parse_lines(&parser, &text);
    assert_eq!(batch.len(), 300);
    let v = urilex::validate_lines(&parser, &text);
    assert_eq!(v.valid, 200);
    assert!(urilex::UriRef::parse("http://a/b").is_ok());
    if !cfg!(feature = "force-scalar") {
        assert!(urilex::kernel_family().is_err());
    }
    println!("child done");
}

#[test]
fn an_unknown_or_unsupported_family_is_ignored_with_one_warning() {
    if std::env::var_os(CHILD).is_some() {
        return child_work();
    }
    // No such family; a family this CPU cannot run.
    let foreign = if cfg!(target_arch = "x86_64") {
        "neon"
    } else {
        "avx2"
    };
    for value in ["avx1024", foreign] {
        let out = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "an_unknown_or_unsupported_family_is_ignored_with_one_warning",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .env("URILEX_KERNEL", value)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{value}: {err}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("child done"));
        let warnings = err.matches("urilex: warning: URILEX_KERNEL=").count();
        let want = usize::from(!cfg!(feature = "force-scalar"));
        assert_eq!(warnings, want, "{value}: {err}");
    }
}
