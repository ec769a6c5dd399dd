//! Bug: normalizing under `rfc1738` dropped everything after the host
//! (`ftp://H/a/./b;type=A` gave `ftp://h`, `urn:x:y` gave `urn:`): the
//! normalizer rebuilds a reference from RFC 3986's components, and RFC
//! 1738's grammar has no generic path (each scheme names its own parts).
//! Found by running every subcommand under the new profile. Fixed: for a
//! grammar without RFC 3986's path, the text is kept byte for byte but for
//! the case of the scheme and the host, and the percent-encodings (RFC
//! 1738 2.2: a character that needs no encoding may be encoded without
//! changing the URL); no dot segment is removed (an FTP "." is a CWD).

use urilex::scheme::rfc1738::Url;
use urilex::{NormalizeOptions, Parser, Profile};

#[test]
fn rfc1738_normalization_keeps_every_part() {
    let p = Parser::new().profile(Profile::Rfc1738);
    for (input, want) in [
        ("ftp://H/a/./b;type=A", "ftp://h/a/./b;type=A"),
        ("FTP://Foo.Example:21/%7e/x", "ftp://foo.example:21/%7E/x"),
        ("URN:Ex:a%2cb%41", "urn:Ex:a,bA"),
        ("gopher://H/1Sel%09Srch", "gopher://h/1Sel%09Srch"),
        ("news:Comp.Lang", "news:Comp.Lang"),
        ("mailto:A%40b@Example.ORG", "mailto:A%40b@Example.ORG"),
        ("telnet://U:P@H.Example/", "telnet://U:P@h.example/"),
    ] {
        let u = p.parse(input).unwrap();
        let mut out = String::new();
        urilex::normalize_into(&u, NormalizeOptions::new().scheme_based(true), &mut out);
        assert_eq!(out, want, "{input}");
        // Still a URL, of the same scheme rule, with the same FTP commands.
        let n = p.parse(&out).unwrap();
        assert_eq!(n.scheme_rule(), u.scheme_rule(), "{input}");
        if let (Some(Url::Ftp(a)), Some(Url::Ftp(b))) = (Url::of(u), Url::of(n)) {
            assert_eq!(a.commands(), b.commands());
        }
    }
}
