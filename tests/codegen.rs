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
    let out = PathBuf::from(env!("OUT_DIR"));
    for (name, text) in &fresh {
        let built = std::fs::read_to_string(out.join(name)).unwrap_or_default();
        assert!(
            *text == built,
            "codegen output differs from the build's OUT_DIR/{name}"
        );
    }
    let again = codegen::generate(&root().join("abnf")).expect("generate");
    assert!(fresh == again, "generator output is not deterministic");
}

/// The reviewed copy. Refresh with `UPDATE_GOLDEN=1 cargo test --test codegen`.
#[test]
fn golden_copy_is_current() {
    let fresh = codegen::generate(&root().join("abnf")).expect("generate");
    let golden = root().join("codegen/golden");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let _ = std::fs::remove_dir_all(&golden);
        std::fs::create_dir_all(&golden).unwrap();
        for (name, text) in &fresh {
            std::fs::write(golden.join(name), text).unwrap();
        }
    }
    let mut names: Vec<String> = std::fs::read_dir(&golden)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want: Vec<String> = fresh.iter().map(|(n, _)| n.clone()).collect();
    want.sort();
    assert_eq!(
        names, want,
        "codegen/golden/ holds other files than the generator writes"
    );
    for (name, text) in &fresh {
        let have = std::fs::read_to_string(golden.join(name)).unwrap_or_default();
        assert!(have == *text, "codegen/golden/{name} is stale: run `UPDATE_GOLDEN=1 cargo test --test codegen` and review the diff");
    }
    let profiles: Vec<String> = fresh[1..]
        .iter()
        .map(|(n, _)| n.clone())
        .filter(|n| n.starts_with("profile_"))
        .collect();
    assert_eq!(
        codegen::included_files(&fresh[0].1),
        profiles,
        "tables.rs includes every profile's file"
    );
}

/// build.rs takes the reviewed copy instead of running the generator only
/// while the copy's recorded hash is the hash of the grammars and generator
/// sources: it is today, and any edit of either, or a new grammar file,
/// changes it.
#[test]
fn recorded_hash_notices_edits() {
    let abnf = root().join("abnf");
    let golden = std::fs::read_to_string(root().join("codegen/golden/tables.rs")).unwrap();
    let now = codegen::input_hash(&abnf);
    assert_eq!(codegen::recorded_hash(&golden), Some(now));
    let d = temp_dir("hash");
    copy_dir(&abnf, &d.join("abnf"));
    copy_dir(&root().join("codegen"), &d.join("codegen"));
    let hash = || codegen::input_hash(&d.join("abnf"));
    assert_eq!(hash(), now, "a copy of the same inputs");
    type Edit<'a> = (&'a str, &'a dyn Fn(&str) -> String);
    let edits: [Edit; 4] = [
        ("abnf/rfc3986.abnf", &|t| t.replacen("\"~\"", "\"!\"", 1)),
        ("codegen/emit.rs", &|t| format!("{t}\n// one more line\n")),
        ("codegen/ranges.rs", &|t| t.replacen("0", "1", 1)),
        ("codegen/escape.rs", &|t| t.replacen("b'%'", "b'#'", 1)),
    ];
    for (file, edit) in edits {
        let path = d.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, edit(&text)).unwrap();
        assert_ne!(hash(), now, "{file} edited");
        std::fs::write(&path, &text).unwrap();
        assert_eq!(hash(), now, "{file} restored");
    }
    std::fs::write(d.join("abnf/extra.abnf"), "x = \"y\"\n").unwrap();
    assert_ne!(hash(), now, "a new grammar file");
    let _ = std::fs::remove_dir_all(&d);
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

/// Each grammar body (after `HEAD`) is refused with a message holding the
/// expected text.
fn assert_refused(cases: &[(&str, &str)]) {
    for (body, want) in cases {
        let err = compile_one(&[("t.abnf", &format!("{HEAD}{body}"))]).expect_err(body);
        assert!(err.contains(want), "{body:?}: got {err:?}, want {want:?}");
    }
}

const HEAD: &str =
    ";@ profile T t \"test\"\n;@ default\n;@ resolution rfc3986\n;@ include core.abnf\n;@ entry reference top\n";

/// The fast path writes each slot knowing no save on the way wrote it
/// (a record's words are OR-ed into): a program that could save a slot
/// twice on one path gets no fast path. Two branches that each save a slot
/// once, and a slot saved on one path and another slot on the next, do.
#[test]
fn fast_path_needs_one_save_per_slot_on_each_path() {
    use codegen::bitprog::eligible;
    use codegen::program::{Op, Program};
    let program = |ops: Vec<Op>| Program {
        ops,
        exact: true,
        max_frames: 1,
        max_trail: 4,
    };
    // Split: a branch at 1..3 and one at 3..; both save slot 0, then join.
    let branches = vec![
        Op::Split(3, 0, 0),
        Op::Save(0),
        Op::Jmp(4),
        Op::Save(0),
        Op::Save(1),
        Op::Match,
    ];
    assert!(eligible(&program(branches.clone())));
    // The same with slot 0 saved again after the join.
    let mut twice = branches.clone();
    twice.insert(5, Op::Save(0));
    assert!(!eligible(&program(twice)));
    // Slot 0 saved before the split and again on one branch only.
    let mut one_branch = branches;
    one_branch.insert(0, Op::Save(0));
    for op in one_branch.iter_mut() {
        match op {
            Op::Split(t, _, _) | Op::Jmp(t) => *t += 1,
            _ => {}
        }
    }
    assert!(!eligible(&program(one_branch)));
    // A backward jump: no fast path either.
    assert!(!eligible(&program(vec![
        Op::Save(0),
        Op::Jmp(0),
        Op::Match
    ])));
}

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
    assert_refused(&cases);
}

/// The directives that declare parts, kinds, schemes and repeated parts
/// refuse what the runtime could not honour, with the file and line.
#[test]
fn part_directives_fail_loudly() {
    let cases: [(&str, &str); 9] = [
        (
            ";@ part p a\n;@ part p b\ntop = a b\na = \"x\"\nb = \"y\"\n",
            "t.abnf:7: part `p` given twice",
        ),
        (
            ";@ part p a\n;@ part q a\ntop = a\na = \"x\"\n",
            "t.abnf:7: rule `a` is already part `p`",
        ),
        (
            ";@ kind h k a\ntop = a\na = \"x\"\n",
            "`;@ kind` names undeclared part `h`",
        ),
        (
            ";@ part h a\n;@ part g b\n;@ kind h k a\n;@ kind g k b\ntop = a b\na = \"x\"\nb = \"y\"\n",
            "t.abnf:9: a profile classifies one part; `h` already has kinds",
        ),
        (
            ";@ scheme 1ftp top\ntop = \"x\"\n",
            "t.abnf:6: `1ftp` is not a scheme name",
        ),
        // A part inside repetitions of two different rules.
        (
            ";@ part s s\ntop = a \"#\" b\na = *( \"/\" s )\nb = *( \"/\" s )\ns = *\"x\"\n",
            "part `s` is repeated in several rules (a, b)",
        ),
        // Repeated in `a`, and also met outside `a`.
        (
            ";@ part s s\ntop = s \"#\" a\na = *( \"/\" s )\ns = *\"x\"\n",
            "part `s` is repeated in rule `a` but also found outside it (via top)",
        ),
        // The occurrences cannot be told apart with one byte of lookahead:
        // after an `s`, a "/" may start another `s` or the `t` after the loop.
        (
            ";@ part s s\ntop = a\na = *( \"/\" s ) [ \"/\" \"t\" ]\ns = 1*\"x\"\n",
            "cannot be listed with one byte of lookahead",
        ),
        (
            ";@ part s s\ntop = a\na = *( [ \"/\" s ] )\ns = 1*\"x\"\n",
            "can go round without consuming a byte",
        ),
    ];
    assert_refused(&cases);
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

/// The proof that grammars are data: a copy of the crate, with `src/`
/// unchanged, whose abnf/rfc3986.abnf lacks "~" in `unreserved` and whose
/// abnf/ holds one more grammar that lives only in the tests
/// (tests/data/test-parts.abnf: parts no bundled grammar has, a rule chosen
/// by the scheme, parts inside repetitions), built and run. Needs cargo and
/// the dependencies in the local registry (offline).
#[test]
fn grammar_files_drive_the_parser() {
    let d = temp_dir("tilde");
    let copy = d.join("urilex");
    for sub in ["src", "codegen", "abnf"] {
        copy_dir(&root().join(sub), &copy.join(sub));
    }
    std::fs::copy(root().join("build.rs"), copy.join("build.rs")).unwrap();
    std::fs::copy(
        root().join("tests/data/test-parts.abnf"),
        copy.join("abnf/test-parts.abnf"),
    )
    .unwrap();
    std::fs::write(
        copy.join("Cargo.toml"),
        "[package]\nname = \"urilex\"\nversion = \"0.0.0\"\nedition = \"2021\"\nbuild = \"build.rs\"\n\
         [features]\nserde = []\nstep-count = []\nrayon = []\ntest-parts = []\n\
         rfc6874 = []\nrfc1738 = []\nrfc2396bis-00 = []\nurl-draft-05 = []\nrfc8141 = []\nurn-draft-03 = []\n[dependencies]\nmemchr = \"2\"\n[workspace]\n",
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
        "[package]\nname = \"probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\n[dependencies]\nurilex = { path = \"../urilex\", features = [\"test-parts\"] }\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(probe.join("src/main.rs"), PROBE).unwrap();
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
    let want = PROBE_OUTPUT;
    for (got, want) in stdout.lines().zip(want.lines()) {
        assert_eq!(got, want);
    }
    assert_eq!(stdout, want);
    // And the real crate, built from the unedited grammar, accepts it.
    assert!(urilex::UriRef::parse("http://a/~b").is_ok());
    let _ = std::fs::remove_dir_all(&d);
}

/// The probe: only the public API, the test grammar's parts by name and by
/// index, its schemes and kinds.
const PROBE: &str = r#"use urilex::{Parser, Profile, Syntax, UriRef};
fn main() {
    for a in ["http://a/~b", "http://a/b"] {
        println!("{a} {}", UriRef::parse(a).is_ok());
    }
    // The batch engine and the validator (the generated fast path and the
    // exact engine behind it) follow the edited grammar too.
    let buf = b"http://a/~b\nhttp://a/b\nhttp://a/~\n";
    let c = urilex::validate_lines(&Parser::new(), buf);
    println!("validate {} of {}", c.valid, c.total);
    let mut batch = urilex::Batch::new();
    batch.parse_lines(&Parser::new(), buf);
    println!("batch {} {} {}", batch.is_valid(0), batch.is_valid(1), batch.is_valid(2));
    let prof = Profile::from_name("test-parts").unwrap();
    let parts: Vec<String> = prof
        .parts()
        .map(|p| format!("{}{}", p.name(), if p.is_repeated() { "*" } else { "" }))
        .collect();
    println!("parts {}", parts.join(" "));
    println!("schemes {}", prof.schemes().collect::<Vec<_>>().join(" "));
    println!("kinds {}", prof.kinds().collect::<Vec<_>>().join(" "));
    let p = Parser::new().profile(prof);
    for a in [
        "ftp://me:pw@host.dom:21/%2Fetc/motd;type=A",
        "FTP://10.0.0.1//a//b",
        "ftp://@h/",
        "urn:isbn:0-395?a=1&bb=x:y&c=",
        "URN:ab-c:x",
        "news:comp.lang",
        "ftp:x",
        "ftp://host/a;type=X",
        "urn:a:x",
    ] {
        match p.parse(a) {
            Ok(u) => {
                let mut row = vec![format!("{a} ok")];
                for info in prof.parts() {
                    let occ: Vec<&str> = u.occurrences(info.name()).collect();
                    if !occ.is_empty() {
                        row.push(format!("{}={}", info.name(), occ.join("|")));
                    }
                }
                if let Some(k) = u.kind_name() {
                    row.push(format!("kind={k}"));
                }
                println!("{}", row.join(" "));
            }
            Err(e) => println!("{a} err {e}"),
        }
    }
    let nid = prof.part("NID").unwrap();
    let u = p.parse("urn:isbn:1?k=v").unwrap();
    println!("nid#{} {:?} {:?} {:?}", nid.index(), u.part_at(nid.index()), u.part("keywd"), u.part_span("value"));
    let spans: Vec<_> = u.occurrences("directive").spans().collect();
    println!("{spans:?}");
    let r = p.syntax(Syntax::RelativeRef);
    println!("{:?}", r.parse("/a/b").map(|u| u.occurrences("fsegment").collect::<Vec<_>>()));
    println!("{}", r.parse("ftp://h/").is_err());
    // A long path: every occurrence, walked on from the last.
    let long = format!("ftp://h/{}", "ab/".repeat(100_000));
    let u = p.parse(&long).unwrap();
    let n = u.occurrences("fsegment").filter(|s| *s == "ab").count();
    println!("{n} {:?}", u.occurrences("fsegment").last());
}
"#;

const PROBE_OUTPUT: &str = r#"http://a/~b false
http://a/b true
validate 1 of 3
batch false true false
parts scheme host port user password fpath fsegment* ftptype nid nss directive* keywd* value*
schemes ftp urn
kinds name number
ftp://me:pw@host.dom:21/%2Fetc/motd;type=A ok host=host.dom port=21 user=me password=pw fpath=%2Fetc/motd fsegment=%2Fetc|motd ftptype=A kind=name
FTP://10.0.0.1//a//b ok host=10.0.0.1 fpath=/a//b fsegment=|a||b kind=number
ftp://@h/ ok host=h user= fpath= fsegment= kind=name
urn:isbn:0-395?a=1&bb=x:y&c= ok nid=isbn nss=0-395 directive=a=1|bb=x:y|c= keywd=a|bb|c value=1|x:y|
URN:ab-c:x ok nid=ab-c nss=x
news:comp.lang ok scheme=news
ftp:x err invalid character 'x' (0x78) at byte 4 (rule ftpurl)
ftp://host/a;type=X err invalid character 'X' (0x58) at byte 18 in ftptype (rule ftpurl)
urn:a:x err invalid character ':' (0x3A) at byte 5 in nid (rule NID)
nid#13 Some("isbn") Some("k") Some(13..14)
[11..14]
Ok(["a", "b"])
true
100000 Some("")
"#;

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

/// The input with "@" put at its authority's start, when its authority (as
/// RFC 3986 Appendix B's regular expression splits it) has no "@", and
/// where it was put.
fn without_userinfo(input: &[u8]) -> Option<(Vec<u8>, usize)> {
    let mut i = 0;
    while i < input.len() && !b":/?#".contains(&input[i]) {
        i += 1;
    }
    let start = if input.get(i) == Some(&b':') {
        i + 1
    } else {
        0
    };
    if !input[start..].starts_with(b"//") {
        return None;
    }
    let at = start + 2;
    let end = input[at..]
        .iter()
        .position(|b| b"/?#".contains(b))
        .map_or(input.len(), |k| at + k);
    if input[at..end].contains(&b'@') {
        return None;
    }
    let mut v = input[..at].to_vec();
    v.push(b'@');
    v.extend_from_slice(&input[at..]);
    Some((v, at))
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
                let viable = match without_userinfo(&input) {
                    // No "@" in the authority (RFC 3986 Appendix B's split):
                    // no reading has a userinfo, so the fault is where the
                    // reading with none (an empty one and its "@") stops.
                    Some((v, at)) => match oracle.run(&v) {
                        (_, n) if n > at => n - 1,
                        _ => viable,
                    },
                    None => viable,
                };
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
