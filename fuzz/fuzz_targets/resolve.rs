//! Resolution, normalization and relativization on arbitrary pairs: the
//! result of resolving parses; normalizing twice changes nothing;
//! relativizing a resolved target and resolving again gives it back.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use urilex::{DotAboveRoot, NormalizeOptions, Parser, Profile, ResolveOptions, UriRef};

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    base: &'a [u8],
    reference: &'a [u8],
    profile: u8,
    non_strict: bool,
    dots: u8,
    scheme_based: bool,
}

fuzz_target!(|x: Input| {
    let profile = Profile::ALL[x.profile as usize % Profile::ALL.len()];
    let p = Parser::new().profile(profile);
    let (Ok(base), Ok(r)) = (p.parse_bytes(x.base), p.parse_bytes(x.reference)) else {
        return;
    };
    let dots = [
        DotAboveRoot::Remove,
        DotAboveRoot::Keep,
        DotAboveRoot::Error,
    ][x.dots as usize % 3];
    let opts = ResolveOptions::new()
        .strict(!x.non_strict)
        .dot_above_root(dots);
    if let Ok(t) = base.resolve_with(&r, opts) {
        // The target is a valid reference of the profile.
        p.parse(t.as_str()).expect("resolved target parses");
        if profile == Profile::Rfc3986 && base.scheme().is_some() {
            let t = t.as_ref();
            let strict_default = ResolveOptions::new();
            if let Ok(t) = base.resolve_with(&r, strict_default) {
                let rel = base.relativize(&t.as_ref());
                let back = base.resolve(&rel.as_ref()).expect("relative form resolves");
                assert_eq!(back.as_str(), t.as_str(), "relativize round trip");
            }
            let _ = t;
        }
    }
    for u in [base, r] {
        let o = NormalizeOptions::new().scheme_based(x.scheme_based);
        let once = u.normalized_with(o);
        p.parse(once.as_str())
            .expect("normal form is a valid reference of the profile");
        let twice = once.as_ref().normalized_with(o);
        assert_eq!(once.as_str(), twice.as_str(), "normalization is idempotent");
        let _ = UriRef::parse(once.as_str()).map(|v| v.lints());
    }
});
