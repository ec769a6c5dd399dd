//! The generator: its output is the build's, deterministic, and reviewed in
//! codegen/golden/; it fails loudly with file:line; the grammar files really
//! drive the parser; and its DFAs agree with regex-automata's construction
//! from the same grammar.

#[allow(dead_code, clippy::all)]
#[path = "../codegen/mod.rs"]
mod codegen;
#[path = "support/gen.rs"]
mod gen;

use codegen::ir::Expr;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn regenerated_tables_equal_the_builds() {
    let fresh = codegen::generate(&root().join("abnf")).expect("generate");
    let built = include_str!(concat!(env!("OUT_DIR"), "/tables.rs"));
    assert!(
        fresh == built,
        "codegen output differs from the build's OUT_DIR/tables.rs"
    );
    let again = codegen::generate(&root().join("abnf")).expect("generate");
    assert!(fresh == again, "generator output is not deterministic");
}

/// The reviewed copy. Refresh with `UPDATE_GOLDEN=1 cargo test --test codegen`.
#[test]
fn golden_copy_is_current() {
    let fresh = codegen::generate(&root().join("abnf")).expect("generate");
    let golden = root().join("codegen/golden/tables.rs");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(&golden, &fresh).unwrap();
    }
    let have = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(have == fresh, "codegen/golden/tables.rs is stale: run `UPDATE_GOLDEN=1 cargo test --test codegen` and review the diff");
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("urilex-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn compile_one(files: &[(&str, &str)]) -> Result<(), String> {
    let d = temp_dir(&format!("g{}", files[0].0.len() + files[0].1.len()));
    std::fs::write(d.join("core.abnf"), include_str!("../abnf/core.abnf")).unwrap();
    for (name, text) in files {
        std::fs::write(d.join(name), text).unwrap();
    }
    let r = codegen::compile_dir(&d)
        .map(|_| ())
        .map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&d);
    r
}

const HEAD: &str =
    ";@ profile T t \"test\"\n;@ default\n;@ resolution rfc3986\n;@ include core.abnf\n;@ entry reference top\n";

#[test]
fn grammar_errors_name_file_and_line() {
    let cases: [(&str, &str); 7] = [
        ("top = a\na = \"x\" /\n", "t.abnf:7: empty alternative"),
        (
            "top = a\na = missing\n",
            "t.abnf:7: undefined rule `missing`",
        ),
        ("top = a\na = \"x\" a\n", "t.abnf:7: recursive rule: a -> a"),
        (
            "top = a\na = \"x\" top\n",
            "t.abnf:6: recursive rule: top -> a -> top",
        ),
        (
            "top = %x300\n",
            "t.abnf:6: value 768 does not fit in one byte",
        ),
        (
            "top = <prose>\n",
            "t.abnf:6: prose value <prose> cannot be compiled",
        ),
        (
            "top = \"a\"\ntop = \"b\"\n",
            "t.abnf:7: rule `top` is already defined at t.abnf:6",
        ),
    ];
    for (body, want) in cases {
        let err = compile_one(&[("t.abnf", &format!("{HEAD}{body}"))]).expect_err(body);
        assert!(err.contains(want), "{body:?}: got {err:?}, want {want:?}");
    }
}

#[test]
fn continuation_lines_comments_and_empty_path() {
    let g = format!(
        "{HEAD};@ part path p\n\
         top = p [ \"?\" q ]   ; a comment with \"quotes\" and / slashes\n\
         \x20     / \"#\"\n\
         p = 0<pchar> / 1*%x61-62 / %x61.62.63\n\
         q = *( %d48-57 / %b1000001 ) ; digits or A\n"
    );
    compile_one(&[("t.abnf", &g)]).expect("valid grammar");
}

#[test]
fn longest_match_proof_rejects_ambiguous_structure() {
    // The path may contain "?", which also starts the query: the split is
    // ambiguous and urilex refuses to build it.
    let g = format!("{HEAD};@ part path p\n;@ part query q\ntop = p [ \"?\" q ]\np = *( \"a\" / \"?\" )\nq = *\"b\"\n");
    let err = compile_one(&[("t.abnf", &g)]).unwrap_err();
    assert!(err.contains("rule `p` can go on with byte 0x3f"), "{err}");
}

/// The proof that grammars are data: a copy of the crate whose
/// abnf/rfc3986.abnf lacks "~" in `unreserved`, built and run; `src/` is the
/// same. Needs cargo and the dependencies in the local registry (offline).
#[test]
fn editing_the_grammar_changes_the_parser() {
    let d = temp_dir("tilde");
    let copy = d.join("urilex");
    for sub in ["src", "codegen", "abnf"] {
        copy_dir(&root().join(sub), &copy.join(sub));
    }
    std::fs::copy(root().join("build.rs"), copy.join("build.rs")).unwrap();
    std::fs::write(
        copy.join("Cargo.toml"),
        "[package]\nname = \"urilex\"\nversion = \"0.0.0\"\nedition = \"2021\"\nbuild = \"build.rs\"\n\
         [features]\nserde = []\nstep-count = []\nrayon = []\n[dependencies]\nmemchr = \"2\"\n[workspace]\n",
    )
    .unwrap();
    let abnf = copy.join("abnf/rfc3986.abnf");
    let text = std::fs::read_to_string(&abnf).unwrap();
    let edited = text.replace(
        "unreserved    = ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\"",
        "unreserved    = ALPHA / DIGIT / \"-\" / \".\" / \"_\"",
    );
    assert_ne!(
        text, edited,
        "unreserved rule not found in abnf/rfc3986.abnf"
    );
    std::fs::write(&abnf, edited).unwrap();
    let probe = d.join("probe");
    std::fs::create_dir_all(probe.join("src")).unwrap();
    std::fs::write(
        probe.join("Cargo.toml"),
        "[package]\nname = \"probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\n[dependencies]\nurilex = { path = \"../urilex\" }\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(
        probe.join("src/main.rs"),
        "fn main() { for a in [\"http://a/~b\", \"http://a/b\"] { println!(\"{a} {}\", urilex::UriRef::parse(a).is_ok()); } }\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO"))
        .args(["run", "--quiet", "--offline"])
        .current_dir(&probe)
        .env("CARGO_TARGET_DIR", d.join("target"))
        .output()
        .expect("run cargo");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout, "http://a/~b false\nhttp://a/b true\n");
    // And the real crate, built from the unedited grammar, accepts it.
    assert!(urilex::UriRef::parse("http://a/~b").is_ok());
    let _ = std::fs::remove_dir_all(&d);
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

// ---- regex-automata as an independent oracle ----

use regex_automata::dfa::{dense, Automaton};
use regex_automata::nfa::thompson;
use regex_automata::{Anchored, Input};
use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, Hir, Repetition};

fn to_hir(g: &codegen::ir::Grammar, e: &Expr) -> Hir {
    match e {
        Expr::Empty => Hir::empty(),
        Expr::Set(s) => {
            let ranges: Vec<ClassBytesRange> =
                s.iter().map(|b| ClassBytesRange::new(b, b)).collect();
            Hir::class(Class::Bytes(ClassBytes::new(ranges)))
        }
        Expr::Seq(xs) => Hir::concat(xs.iter().map(|x| to_hir(g, x)).collect()),
        Expr::Alt(xs) => Hir::alternation(xs.iter().map(|x| to_hir(g, x)).collect()),
        Expr::Rep { min, max, e } => Hir::repetition(Repetition {
            min: *min,
            max: *max,
            greedy: true,
            sub: Box::new(to_hir(g, e)),
        }),
        Expr::Ref(r) => to_hir(g, &g.rules[*r].expr),
    }
}

/// regex-automata's DFA for a rule, and which of its states are live: some
/// continuation (possibly empty) of the input read so far is in the language.
/// (Its DFAs report a match one byte late, so "not dead" is not "live".)
struct Oracle {
    dfa: dense::DFA<Vec<u32>>,
    live: std::collections::HashSet<regex_automata::util::primitives::StateID>,
}

impl Oracle {
    fn new(rule: &str) -> Oracle {
        let specs = codegen::ir::load_profiles(&root().join("abnf")).unwrap();
        let spec = specs.iter().find(|s| s.cli_name == "rfc3986").unwrap();
        let hir = to_hir(
            &spec.grammar,
            &Expr::Ref(spec.grammar.lookup(rule).unwrap()),
        );
        let nfa = thompson::Compiler::new()
            .configure(thompson::Config::new().utf8(false))
            .build_from_hir(&hir)
            .unwrap();
        let dfa = dense::Builder::new()
            .configure(
                dense::Config::new()
                    .start_kind(regex_automata::dfa::StartKind::Anchored)
                    .match_kind(regex_automata::MatchKind::All),
            )
            .build_from_nfa(&nfa)
            .unwrap();
        let start = dfa
            .start_state_forward(&Input::new("").anchored(Anchored::Yes))
            .unwrap();
        let mut states = vec![start];
        let mut seen: std::collections::HashSet<_> = states.iter().copied().collect();
        let mut i = 0;
        while i < states.len() {
            for b in 0..=255u8 {
                let t = dfa.next_state(states[i], b);
                if seen.insert(t) {
                    states.push(t);
                }
            }
            i += 1;
        }
        let mut live: std::collections::HashSet<_> = states
            .iter()
            .copied()
            .filter(|&s| dfa.is_match_state(dfa.next_eoi_state(s)))
            .collect();
        loop {
            let before = live.len();
            for &s in &states {
                if !live.contains(&s) && (0..=255u8).any(|b| live.contains(&dfa.next_state(s, b))) {
                    live.insert(s);
                }
            }
            if live.len() == before {
                break;
            }
        }
        Oracle { dfa, live }
    }
    /// (whole input matches, length of the longest prefix that is still viable)
    fn run(&self, input: &[u8]) -> (bool, usize) {
        let d = &self.dfa;
        let mut s = d
            .start_state_forward(&Input::new(input).anchored(Anchored::Yes))
            .unwrap();
        for (i, &b) in input.iter().enumerate() {
            let t = d.next_state(s, b);
            if !self.live.contains(&t) {
                return (false, i);
            }
            s = t;
        }
        (d.is_match_state(d.next_eoi_state(s)), input.len())
    }
}

#[test]
fn dfas_agree_with_regex_automata() {
    let oracle = Oracle::new("URI-reference");
    let mut rng = gen::Rng(0xD1FF);
    let mut checked = 0;
    for _ in 0..40_000 {
        let input = gen::input(&mut rng);
        let (ok, viable) = oracle.run(&input);
        match urilex::UriRef::parse_bytes(&input) {
            Ok(_) => assert!(ok, "{:?}", String::from_utf8_lossy(&input)),
            Err(e) => {
                assert!(!ok, "{:?}: {e}", String::from_utf8_lossy(&input));
                assert_eq!(
                    e.index(),
                    viable,
                    "{:?}: {e}",
                    String::from_utf8_lossy(&input)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000);
    // Component grammars too.
    for (rule, comp) in [
        ("host", urilex::Component::Host),
        ("port", urilex::Component::Port),
        ("query", urilex::Component::Query),
    ] {
        let oracle = Oracle::new(rule);
        for _ in 0..5_000 {
            let input = gen::input(&mut rng);
            let piece = &input[..input.len().min(12)];
            let (ok, _) = oracle.run(piece);
            assert_eq!(
                urilex::Parser::new()
                    .validate_component(comp, piece)
                    .is_ok(),
                ok,
                "{rule} {:?}",
                String::from_utf8_lossy(piece)
            );
        }
    }
}
