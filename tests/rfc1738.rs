//! RFC 1738 (seed 002): the profile `rfc1738` and the typed views of
//! `urilex::scheme::rfc1738`, against the seed's own examples (each test
//! names its section), the examples of seed 001 section 1.3, the default
//! ports of section 3, and a reference parser written directly from the
//! BNF of section 5 (tests/support/rfc1738_reference.rs) on generated valid
//! and invalid URLs of every scheme.

#[path = "support/gen.rs"]
mod gen;
#[path = "support/rfc1738_reference.rs"]
mod reference;

use std::borrow::Cow;
use urilex::scheme::rfc1738::{FtpCommand, Login, NewsTarget, TypeCode, Url, WaisTarget};
use urilex::{Parser, Profile};

fn parser() -> Parser {
    Parser::new().profile(Profile::Rfc1738)
}

fn url(s: &str) -> Url<'_> {
    Url::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn b(s: &str) -> Cow<'_, [u8]> {
    Cow::Borrowed(s.as_bytes())
}

fn commands(s: &str) -> Vec<String> {
    match url(s) {
        Url::Ftp(f) => f.commands().iter().map(FtpCommand::to_string).collect(),
        _ => panic!("{s} is not ftp"),
    }
}

/// Section 1: the URI working group's archive.
#[test]
fn section_1_archive_url() {
    let Url::Http(h) = url("http://www.acl.lanl.gov/URI/archive/uri-archive.index.html") else {
        panic!()
    };
    assert_eq!(h.host(), "www.acl.lanl.gov");
    assert_eq!(h.port(), Some(80));
    assert_eq!(h.path(), Some("URI/archive/uri-archive.index.html"));
    let segs: Vec<_> = h.segments().collect();
    assert_eq!(segs, ["URI", "archive", "uri-archive.index.html"]);
    assert_eq!(h.search(), None);
}

/// Section 2.1: scheme names are compared ignoring case ("HTTP" is
/// "http"), although the BNF's `scheme` has lower case only: the prose
/// decides (abnf/rfc1738.abnf note 2), and the scheme's own rule applies.
#[test]
fn section_2_1_scheme_case() {
    let u = parser().parse("HTTP://WWW.EXAMPLE.COM/A").unwrap();
    assert_eq!(u.scheme_rule(), Some("httpurl"));
    assert!(matches!(url("HTTP://WWW.EXAMPLE.COM/A"), Url::Http(_)));
    assert!(matches!(url("Ftp://h/x;TYPE=I"), Url::Ftp(_)));
    // Unknown schemes fall back to `genericurl`.
    let u = parser().parse("x-private:anything;at=all").unwrap();
    assert_eq!(u.scheme_rule(), None);
    assert_eq!(u.part("schemepart"), Some("anything;at=all"));
}

/// Section 2.2: "#" is unsafe and not a URL character; "%" only in an
/// escape; controls, space, "<", ">", '"' and the national characters
/// never.
#[test]
fn section_2_2_unsafe_characters() {
    for bad in [
        "http://h/a#b",
        "http://h/a b",
        "http://h/a<b",
        "http://h/a\"b",
        "http://h/a{b",
        "http://h/a~b",
        "http://h/a%zzb",
        "http://h/a%",
        "mailto:a%b",
        "x:a|b",
        "x:a\u{e9}",
    ] {
        assert!(parser().parse(bad).is_err(), "{bad}");
    }
    assert!(parser().parse("x:$-_.+!*'(),;/?:@&=%41").is_ok());
}

/// Section 3.1: "an empty user name or password is different than no
/// user name or password": `ftp://@host.com/` has an empty user name and
/// no password, `ftp://host.com/` no user name, `ftp://foo:@host.com/` the
/// user name "foo" and an empty password.
#[test]
fn section_3_1_user_and_password() {
    let cases: [(&str, Option<&str>, Option<&str>, Login); 3] = [
        (
            "ftp://@host.com/",
            Some(""),
            None,
            Login::User {
                user: b(""),
                password: None,
            },
        ),
        ("ftp://host.com/", None, None, Login::Anonymous),
        (
            "ftp://foo:@host.com/",
            Some("foo"),
            Some(""),
            Login::User {
                user: b("foo"),
                password: Some(b("")),
            },
        ),
    ];
    for (s, user, password, login) in cases {
        let Url::Ftp(f) = url(s) else { panic!() };
        assert_eq!((f.user(), f.password()), (user, password), "{s}");
        assert_eq!(f.login(), login, "{s}");
        assert_eq!(f.host(), "host.com");
    }
    // The user and password together are RFC 3986's userinfo (the
    // grammar groups them, abnf/rfc1738.abnf note 10), which the lints read.
    let u = parser().parse("ftp://foo:bar@host.com/").unwrap();
    assert_eq!(u.userinfo(), Some("foo:bar"));
    let kinds: Vec<_> = u.lints().iter().map(|l| l.kind).collect();
    assert!(kinds.contains(&urilex::LintKind::PasswordInUserinfo));
    // A password without a user name cannot be written (3.1).
    assert!(parser()
        .parse("ftp://:pw@host.com/")
        .is_ok_and(|u| u.part("user") == Some("")));
    // ":", "@" and "/" in a user name or password must be encoded.
    assert!(parser().parse("ftp://a@b@host.com/").is_err());
    let Url::Ftp(f) = url("ftp://a%40b:c%3Ad@host.com/") else {
        panic!()
    };
    assert_eq!(
        f.login(),
        Login::User {
            user: b("a@b"),
            password: Some(b("c:d"))
        }
    );
}

/// Section 3.1: a host is a domain name whose last label does not begin
/// with a digit, or a dotted-decimal IPv4 address.
#[test]
fn section_3_1_hosts() {
    for (s, kind) in [
        ("http://a.b.example/", Some("reg-name")),
        ("http://x/", Some("reg-name")),
        ("http://a-1.b2/", Some("reg-name")),
        ("http://10.0.0.1/", Some("ipv4")),
    ] {
        assert_eq!(parser().parse(s).unwrap().kind_name(), kind, "{s}");
    }
    for bad in [
        "http://1.2.3/",
        "http://a.1b/",
        "http://-a.b/",
        "http://a-.b/",
        "http://a_b.c/",
        "http:///x",
        "http://[::1]/",
    ] {
        assert!(parser().parse(bad).is_err(), "{bad}");
    }
}

/// Section 3.2.2: `%2F` in a segment is part of the name; an empty first
/// segment is a `CWD` with an empty argument.
#[test]
fn section_3_2_2_ftp_commands() {
    assert_eq!(
        commands("ftp://myname@host.dom/%2Fetc/motd"),
        ["CWD /etc", "RETR motd"]
    );
    assert_eq!(
        commands("ftp://myname@host.dom/etc/motd"),
        ["CWD etc", "RETR motd"]
    );
    assert_eq!(
        commands("ftp://myname@host.dom//etc/motd"),
        ["CWD", "CWD etc", "RETR motd"]
    );
    let Url::Ftp(f) = url("ftp://myname@host.dom//etc/motd") else {
        panic!()
    };
    assert_eq!(f.cwd(), vec![b(""), b("etc")]);
    assert_eq!(f.name(), Some(b("motd")));
    assert_eq!(
        f.commands()[0],
        FtpCommand::Cwd(b("")),
        "an empty argument, not none"
    );
    assert_eq!(
        f.login(),
        Login::User {
            user: b("myname"),
            password: None
        }
    );
    // The type code: "d" lists with NLST, "a"/"i" send TYPE then RETR.
    assert_eq!(
        commands("ftp://info.cern.ch/pub/www/doc;type=d"),
        ["CWD pub", "CWD www", "NLST doc"]
    );
    assert_eq!(
        commands("ftp://ds.internic.net/rfc/rfc1436.txt;type=a"),
        ["CWD rfc", "TYPE A", "RETR rfc1436.txt"]
    );
    assert_eq!(
        commands("ftp://h/a/b.tar;TYPE=I"),
        ["CWD a", "TYPE I", "RETR b.tar"]
    );
    // Without a type the client guesses (3.2.3): a listing for an empty
    // name or no path, RETR otherwise.
    assert_eq!(commands("ftp://ds.internic.net/rfc"), ["RETR rfc"]);
    assert_eq!(commands("ftp://host.com/"), ["NLST"]);
    assert_eq!(commands("ftp://host.com"), ["NLST"]);
    assert_eq!(commands("ftp://h/a/;type=d"), ["CWD a", "NLST"]);
    // ";" and "/" in a name are encoded, and decoded for the command.
    assert_eq!(commands("ftp://h/a%3Bb/c%2Fd"), ["CWD a;b", "RETR c/d"]);
}

/// Section 3.2.2: the type code is one of a, i, d; anything else is an
/// error that names the part, the rule and the byte.
#[test]
fn section_3_2_2_bad_type_code() {
    let e = parser()
        .parse("ftp://host.dom/pub/file;type=x")
        .unwrap_err();
    assert_eq!(e.part(), Some("ftptype"));
    assert_eq!(e.index(), 29);
    assert_eq!(
        e.to_string(),
        "invalid character 'x' (0x78) at byte 29 in ftptype (rule ftpurl)"
    );
    for t in ["a", "A", "i", "I", "d", "D"] {
        let s = format!("ftp://h/f;type={t}");
        let Url::Ftp(f) = url(&s) else { panic!() };
        let want = match t.to_ascii_lowercase().as_str() {
            "a" => TypeCode::Ascii,
            "i" => TypeCode::Image,
            _ => TypeCode::Directory,
        };
        assert_eq!(f.typecode(), Some(want));
    }
    assert!(parser().parse("ftp://h/f;type=").is_err());
    assert!(parser().parse("ftp://h/f;type=ai").is_err());
    // ";" is reserved in a segment: only ";type=" may follow the path.
    assert!(parser().parse("ftp://h/f;x=1").is_err());
}

/// Section 3.3: HTTP, port 80, path and search; no user name.
#[test]
fn section_3_3_http() {
    let Url::Http(h) = url("http://ds.internic.net/instructions/overview.html") else {
        panic!()
    };
    assert_eq!((h.host(), h.port()), ("ds.internic.net", Some(80)));
    let Url::Http(h) = url("http://h:8080/cgi-bin/q;x?a=1&b=%20") else {
        panic!()
    };
    assert_eq!(h.port(), Some(8080));
    assert_eq!(h.path(), Some("cgi-bin/q;x"));
    assert_eq!(h.search(), Some("a=1&b=%20"));
    let Url::Http(h) = url("http://h") else {
        panic!()
    };
    assert_eq!((h.path(), h.search()), (None, None));
    // No user name or password in http (3.3); "?" only after a path.
    assert!(parser().parse("http://u@h/").is_err());
    assert!(parser().parse("http://h?q").is_err());
    assert!(parser().parse("http://h/a?b?c").is_err());
}

/// Section 3.4: an empty gopher path means type "1" and an empty
/// selector; the selector may begin with a copy of the type.
#[test]
fn section_3_4_gopher_types_and_selectors() {
    for s in [
        "gopher://gopher.example.org",
        "gopher://gopher.example.org/",
    ] {
        let Url::Gopher(g) = url(s) else { panic!() };
        assert_eq!(g.gopher_type(), b'1', "{s}");
        assert_eq!(g.selector(), b(""));
        assert_eq!(g.port(), Some(70));
        assert_eq!(g.request(), b"\r\n");
    }
    let Url::Gopher(g) =
        url("gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles")
    else {
        panic!()
    };
    assert_eq!(g.gopher_type(), b'0');
    assert_eq!(g.selector(), b("0/Weather/California/Los Angeles"));
    assert_eq!(g.search(), None);
}

/// Section 3.4: `selector = *xchar` in section 5 would swallow the "%09"
/// that separates the search (3.4.2) and the Gopher+ string (3.4.3); the
/// prose decides: "%09" is the separator, and a selector holds no tab, LF
/// or CR (abnf/rfc1738.abnf note 7).
#[test]
fn section_3_4_tab_separates_search_and_gopher_plus() {
    let Url::Gopher(g) = url("gopher://h:7070/7find%09rfc%201738") else {
        panic!()
    };
    assert_eq!(g.port(), Some(7070));
    assert_eq!(g.gopher_type(), b'7');
    assert_eq!(g.selector(), b("find"));
    assert_eq!(g.search(), Some(b("rfc 1738")));
    assert_eq!(g.gopher_plus(), None);
    assert_eq!(g.request(), b"find\trfc 1738\r\n");
    // The search may be empty, but its %09 must be there (3.4.3).
    let Url::Gopher(g) = url("gopher://h/1docs%09%09+") else {
        panic!()
    };
    assert_eq!((g.selector(), g.search()), (b("docs"), Some(b(""))));
    assert_eq!(g.gopher_plus(), Some(b("+")));
    assert_eq!(g.request(), b"docs\t\t+\r\n");
    // A selector cannot hold an encoded LF or CR (3.4.1).
    for bad in ["gopher://h/0a%0Ab", "gopher://h/0a%0db"] {
        let e = parser().parse(bad).unwrap_err();
        assert_eq!(e.part(), Some("selector"), "{bad}");
    }
    // Other escapes are selector bytes.
    let Url::Gopher(g) = url("gopher://h/0a%0Bb%2Fc") else {
        panic!()
    };
    assert_eq!(g.selector(), b("a\x0bb/c"));
}

/// Sections 3.4.4 to 3.4.9: the Gopher+ strings of the text.
#[test]
fn section_3_4_gopher_plus_strings() {
    for (plus, decoded) in [
        ("+", "+"),                                   // 3.4.4
        ("?", "?"),                                   // 3.4.4
        ("!", "!"),                                   // 3.4.6
        ("$", "$"),                                   // 3.4.6
        ("!+ABSTRACT", "!+ABSTRACT"),                 // 3.4.7
        ("!+ABSTRACT%20+SMELL", "!+ABSTRACT +SMELL"), // 3.4.7
        (
            "+application/postscript%20Es_ES",
            "+application/postscript Es_ES",
        ), // 3.4.8
        (
            "+%091%0D%0A+-1%0D%0Ayes%0D%0Ano%0D%0A.%0D%0A",
            "+\t1\r\n+-1\r\nyes\r\nno\r\n.\r\n",
        ), // 3.4.9
    ] {
        let s = format!("gopher://h/0sel%09%09{plus}");
        let Url::Gopher(g) = url(&s) else { panic!() };
        assert_eq!(g.gopher_plus(), Some(b(decoded)), "{s}");
        assert_eq!(g.search(), Some(b("")));
        let mut want = b"sel\t\t".to_vec();
        want.extend_from_slice(decoded.as_bytes());
        want.extend_from_slice(b"\r\n");
        assert_eq!(g.request(), want);
    }
}

/// Section 3.5: mailto, the address decoded ("%" must be encoded).
#[test]
fn section_3_5_mailto() {
    let Url::Mailto(m) = url("mailto:user%25relay@example.org") else {
        panic!()
    };
    assert_eq!(m.encoded(), "user%25relay@example.org");
    assert_eq!(m.address(), b("user%relay@example.org"));
    assert!(parser().parse("mailto:").is_err(), "1*xchar");
    assert!(parser().parse("mailto:a%b").is_err());
    assert_eq!(url("mailto:x").default_port(), None);
}

/// Section 3.6: news, a group, an article or "*" (all groups).
#[test]
fn section_3_6_news() {
    let Url::News(n) = url("news:*") else {
        panic!()
    };
    assert_eq!(n.target(), NewsTarget::AllGroups);
    let Url::News(n) = url("news:comp.infosystems.www.misc") else {
        panic!()
    };
    assert_eq!(n.target(), NewsTarget::Group("comp.infosystems.www.misc"));
    let Url::News(n) = url("news:a1b2c3@news.example.org") else {
        panic!()
    };
    assert_eq!(n.target(), NewsTarget::Article("a1b2c3@news.example.org"));
    assert_eq!(n.article_host(), Some("news.example.org"));
    for bad in ["news:", "news:**", "news:1group", "news:a@", "news:<a@b.c>"] {
        assert!(parser().parse(bad).is_err(), "{bad}");
    }
}

/// Section 3.7: nntp, group and article number, port 119.
#[test]
fn section_3_7_nntp() {
    let Url::Nntp(n) = url("nntp://news.example.org/comp.infosystems.www.misc/1234") else {
        panic!()
    };
    assert_eq!(n.host(), "news.example.org");
    assert_eq!(n.group(), "comp.infosystems.www.misc");
    assert_eq!(n.article(), Some(1234));
    assert_eq!(n.port(), Some(119));
    let Url::Nntp(n) = url("nntp://news.example.org:1119/alt.test") else {
        panic!()
    };
    assert_eq!((n.article(), n.port()), (None, Some(1119)));
    assert!(parser().parse("nntp://h/").is_err(), "a group is required");
    assert!(parser().parse("nntp://h/g/12a").is_err());
}

/// Section 3.8: telnet, user and password advisory, port 23, the final
/// "/" optional.
#[test]
fn section_3_8_telnet() {
    let Url::Telnet(t) = url("telnet://guest:secret@bbs.example.org:2323/") else {
        panic!()
    };
    assert_eq!(
        (t.user(), t.password(), t.host(), t.port()),
        (Some("guest"), Some("secret"), "bbs.example.org", Some(2323))
    );
    let Url::Telnet(t) = url("telnet://bbs.example.org") else {
        panic!()
    };
    assert_eq!((t.user(), t.port()), (None, Some(23)));
    assert!(parser().parse("telnet://h/x").is_err());
}

/// Section 3.9: the three forms of a WAIS URL, port 210.
#[test]
fn section_3_9_wais() {
    let Url::Wais(w) = url("wais://wais.example.org:210/papers") else {
        panic!()
    };
    assert_eq!((w.database(), w.target()), ("papers", WaisTarget::Database));
    let Url::Wais(w) = url("wais://wais.example.org/papers?uniform+resource+locators") else {
        panic!()
    };
    assert_eq!(w.target(), WaisTarget::Search("uniform+resource+locators"));
    assert_eq!(w.port(), Some(210));
    let Url::Wais(w) = url("wais://wais.example.org/papers/TEXT/0%2C1%2Cabc") else {
        panic!()
    };
    assert_eq!(
        w.target(),
        WaisTarget::Document {
            wtype: "TEXT",
            wpath: "0%2C1%2Cabc"
        }
    );
    assert!(parser().parse("wais://h/db/TEXT").is_err());
    assert!(parser().parse("wais://h").is_err());
}

/// Section 3.10: the VMS example, and "localhost" or an empty host for
/// the machine interpreting the URL.
#[test]
fn section_3_10_file() {
    let Url::File(f) = url("file://vms.host.edu/disk$user/my/notes/note12345.txt") else {
        panic!()
    };
    assert_eq!(f.host(), Some("vms.host.edu"));
    assert!(!f.is_local());
    let segs: Vec<_> = f.segments().collect();
    assert_eq!(
        segs,
        [b("disk$user"), b("my"), b("notes"), b("note12345.txt")]
    );
    for s in [
        "file:///etc/motd",
        "file://localhost/etc/motd",
        "file://LocalHost/etc/motd",
    ] {
        let Url::File(f) = url(s) else { panic!() };
        assert!(f.is_local(), "{s}");
        assert_eq!(f.path(), "etc/motd");
    }
    assert_eq!(url("file:///x").default_port(), None);
    assert!(
        parser().parse("file://h").is_err(),
        "the / and path are required"
    );
}

/// Section 3.11: prospero, the hsoname and the field/value pairs, port
/// 1525; `prospero://host.dom//pros/name` names "/pros/name".
#[test]
fn section_3_11_prospero() {
    let Url::Prospero(p) = url("prospero://host.dom//pros/name") else {
        panic!()
    };
    assert_eq!(p.hsoname(), b("/pros/name"));
    assert_eq!(p.fields().count(), 0);
    assert_eq!(p.port(), Some(1525));
    let Url::Prospero(p) =
        url("prospero://prospero.example.org:1525/pub/docs;OBJECT-VERSION=2;format=text")
    else {
        panic!()
    };
    let f: Vec<_> = p.fields().collect();
    assert_eq!(f, [(b("OBJECT-VERSION"), b("2")), (b("format"), b("text"))]);
    assert!(
        parser().parse("prospero://h/a;b").is_err(),
        "a field needs ="
    );
    assert!(parser().parse("prospero://h/a;b=c=d").is_err());
}

/// Section 3: the default port of every scheme with a server.
#[test]
fn section_3_default_ports() {
    for (s, port) in [
        ("ftp://h/", 21),         // 3.2
        ("http://h/", 80),        // 3.3
        ("gopher://h/", 70),      // 3.4.1
        ("nntp://h/g", 119),      // 3.7
        ("telnet://h/", 23),      // 3.8
        ("wais://h/db", 210),     // 3.9
        ("prospero://h/x", 1525), // 3.11
    ] {
        let u = url(s);
        assert_eq!(u.default_port(), Some(port), "{s}");
        assert_eq!(u.port(), Some(port), "{s}");
        assert_eq!(
            urilex::default_port(s.split(':').next().unwrap()),
            Some(port)
        );
    }
    for s in ["mailto:a@b", "news:*", "file:///x", "x-y:z"] {
        assert_eq!(url(s).default_port(), None, "{s}");
    }
    // A port over 16 bits is in the grammar (`digits`) but not a port.
    assert_eq!(url("ftp://h:65536/").port(), None);
    assert_eq!(url("ftp://h:65535/").port(), Some(65535));
}

/// Seed 002's appendix ("Recommendations for URLs in Context") and its
/// references: every URL it gives, each a valid RFC 1738 URL, with the
/// exception of the fragment: "#WARNING" is a fragment identifier
/// associated with the URL, not part of it.
#[test]
fn appendix_and_references() {
    for s in [
        "ftp://info.cern.ch/pub/www/doc;type=d",
        "ftp://ds.internic.net/rfc",
        "ftp://ds.internic.net/rfc/rfc1436.txt;type=a",
        "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
        "ftp://ds.internic.net/rfc/rfc1630.txt",
        "ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z",
        "ftp://ds.internic.net/rfc/rfc1123.txt",
        "ftp://ds.internic.net/rfc/rfc822.txt",
        "ftp://quake.think.com/pub/wais/doc/protspec.txt",
        "ftp://ds.internic.net/rfc/rfc1036.txt",
        "ftp://quake.think.com/pub/wais/doc/doc-ids.txt",
        "ftp://ds.internic.net/rfc/rfc977.txt",
        "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
        "ftp://ds.internic.net/rfc/rfc1034.txt",
        "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
        "ftp://ds.internic.net/rfc/rfc959.txt",
        "ftp://ds.internic.net/rfc/rfc1737.txt",
        "ftp://ds.internic.net/rfc/rfc1625.txt",
        "ftp://uu.psi.com/wp/nir.txt",
    ] {
        let Url::Ftp(f) = url(s) else { panic!("{s}") };
        assert_eq!(f.port(), Some(21));
        assert_eq!(f.login(), Login::Anonymous);
        let c = commands(s);
        assert!(c.last().unwrap().starts_with("RETR") || c.last().unwrap().starts_with("NLST"));
    }
    assert!(parser()
        .parse("http://ds.internic.net/instructions/overview.html#WARNING")
        .is_err());
    assert!(parser()
        .parse("http://ds.internic.net/instructions/overview.html")
        .is_ok());
    // And the extractor finds them in the appendix's own sentence.
    let text =
        "Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;type=d> but you can \
                probably pick it up from <URL:ftp://ds.internic.net/rfc>.";
    let o = urilex::extract::ExtractOptions::new().profile(Profile::Rfc1738);
    let hits: Vec<_> = urilex::extract::find_iter(text.as_bytes(), o)
        .map(|h| h.uri.into_owned())
        .collect();
    assert_eq!(
        hits,
        [
            "ftp://info.cern.ch/pub/www/doc;type=d",
            "ftp://ds.internic.net/rfc"
        ]
    );
}

/// Seed 001 section 1.3: the example URLs, each with its typed view.
#[test]
fn seed_001_section_1_3_examples() {
    let Url::Ftp(f) = url("ftp://ftp.is.co.za/rfc/rfc1808.txt") else {
        panic!()
    };
    assert_eq!(
        (f.host(), f.cwd(), f.name()),
        ("ftp.is.co.za", vec![b("rfc")], Some(b("rfc1808.txt")))
    );
    let Url::Gopher(g) =
        url("gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles")
    else {
        panic!()
    };
    assert_eq!(g.host(), "spinaltap.micro.umn.edu");
    let Url::Http(h) = url("http://www.math.uio.no/faq/compression-faq/part1.html") else {
        panic!()
    };
    assert_eq!(h.path(), Some("faq/compression-faq/part1.html"));
    let Url::Mailto(m) = url("mailto:mduerst@ifi.unizh.ch") else {
        panic!()
    };
    assert_eq!(m.address(), b("mduerst@ifi.unizh.ch"));
    let Url::News(n) = url("news:comp.infosystems.www.servers.unix") else {
        panic!()
    };
    assert_eq!(
        n.target(),
        NewsTarget::Group("comp.infosystems.www.servers.unix")
    );
    let Url::Telnet(t) = url("telnet://melvyl.ucop.edu/") else {
        panic!()
    };
    assert_eq!(
        (t.host(), t.port(), t.user()),
        ("melvyl.ucop.edu", Some(23), None)
    );
}

/// The parts of every bundled sample URL, by the reference parser.
#[test]
fn bundled_samples_agree_with_reference() {
    for s in include_str!("data/rfc1738-urls.txt").lines() {
        assert_eq!(
            urilex_parts(s.as_bytes()),
            reference::parse(s.as_bytes()),
            "{s}"
        );
    }
}

/// Every part urilex gives, as the reference lists them.
fn urilex_parts(input: &[u8]) -> Option<Vec<(&'static str, usize, usize)>> {
    let u = parser().parse_bytes(input).ok()?;
    let mut out = Vec::new();
    for p in Profile::Rfc1738.parts() {
        for r in u.occurrences(p.name()).spans() {
            out.push((p.name(), r.start, r.end));
        }
    }
    out.sort();
    Some(out)
}

const HOSTS: &[&str] = &[
    "host.dom",
    "a",
    "a-b.c1.org",
    "10.0.0.1",
    "1.2.3",
    "-a.b",
    "a_b.c",
    "x.",
    "1a.2b",
    "h.1",
    "",
    "LOCALHOST",
    "localhost",
    "a..b",
    "256.1.1.1",
    "EX.COM",
    "a-.b",
];
const PORTS: &[&str] = &["", "", "", ":21", ":", ":99999", ":8a", ":0"];
const USERS: &[&str] = &[
    "",
    "u",
    "a%20b",
    "a;b?c&d=e",
    "a@b",
    "a:b",
    "%zz",
    "a/b",
    "a b",
    "$-_.+!*'(),",
    "%2F",
];
const TOKENS: &[&str] = &[
    "a", "Z", "0", "9", "$", "-", "_", ".", "+", "!", "*", "'", "(", ")", ",", ";", "/", "?", ":",
    "@", "&", "=", "%20", "%2F", "%09", "%0a", "%0D", "%41", "%", "%g1", "#", "~", " ", "<", "\"",
    "\u{e9}", "ab", "xyz", "12", ";type=a", "%090",
];

fn word(rng: &mut gen::Rng, n: usize) -> String {
    (0..rng.below(n + 1)).map(|_| rng.pick(TOKENS)).collect()
}

fn login(rng: &mut gen::Rng, with_user: bool) -> String {
    let mut s = String::new();
    if with_user && rng.chance(40) {
        s.push_str(rng.pick(USERS));
        if rng.chance(50) {
            s.push(':');
            s.push_str(rng.pick(USERS));
        }
        s.push('@');
    }
    s.push_str(rng.pick(HOSTS));
    s.push_str(rng.pick(PORTS));
    s
}

fn scheme(rng: &mut gen::Rng, name: &str) -> String {
    if rng.chance(15) {
        name.to_ascii_uppercase()
    } else {
        name.to_string()
    }
}

/// A URL-like string for one of the eleven rules, sometimes broken.
fn generate(rng: &mut gen::Rng) -> String {
    let mut s = match rng.below(11) {
        0 => {
            let mut s = format!("{}://{}", scheme(rng, "ftp"), login(rng, true));
            if rng.chance(80) {
                s += &format!("/{}", word(rng, 6));
                if rng.chance(30) {
                    s += ";type=";
                    s += rng.pick(&["a", "I", "d", "x", "", "ai"]);
                }
            }
            s
        }
        1 => format!(
            "{}://{}/{}",
            scheme(rng, "file"),
            rng.pick(&["", "localhost", "vms.host.edu", "a_b", "10.1.1.1"]),
            word(rng, 6)
        ),
        2 => {
            let mut s = format!("{}://{}", scheme(rng, "http"), login(rng, false));
            if rng.chance(80) {
                s += &format!("/{}", word(rng, 6));
                if rng.chance(40) {
                    s += &format!("?{}", word(rng, 4));
                }
            }
            s
        }
        3 => {
            let mut s = format!("{}://{}", scheme(rng, "gopher"), login(rng, false));
            if rng.chance(80) {
                s.push('/');
                if rng.chance(85) {
                    s += rng.pick(&["0", "1", "7", "h", "%2B", "%09", "+"]);
                    s += &word(rng, 4);
                    if rng.chance(50) {
                        s += &format!("%09{}", word(rng, 3));
                        if rng.chance(50) {
                            s += &format!("%09{}", word(rng, 3));
                        }
                    }
                }
            }
            s
        }
        4 => format!("{}:{}", scheme(rng, "mailto"), word(rng, 5)),
        5 => {
            let g = match rng.below(4) {
                0 => "*".to_string(),
                1 => format!("comp.{}", word(rng, 2)),
                2 => format!("{}@{}", word(rng, 3), rng.pick(HOSTS)),
                _ => word(rng, 3),
            };
            format!("{}:{g}", scheme(rng, "news"))
        }
        6 => {
            let mut s = format!(
                "{}://{}/{}",
                scheme(rng, "nntp"),
                login(rng, false),
                rng.pick(&["comp.lang.c", "alt.test", "a", "1a", "g_+-.x", ""])
            );
            if rng.chance(50) {
                s += &format!(
                    "/{}",
                    rng.pick(&["12", "0", "1a", "", "99999999999999999999"])
                );
            }
            s
        }
        7 => {
            let mut s = format!("{}://{}", scheme(rng, "telnet"), login(rng, true));
            if rng.chance(50) {
                s += rng.pick(&["/", "/x", "//"]);
            }
            s
        }
        8 => {
            let mut s = format!(
                "{}://{}/{}",
                scheme(rng, "wais"),
                login(rng, false),
                word(rng, 3)
            );
            match rng.below(3) {
                0 => s += &format!("?{}", word(rng, 3)),
                1 => s += &format!("/{}/{}", word(rng, 2), word(rng, 3)),
                _ => {}
            }
            s
        }
        9 => {
            let mut s = format!(
                "{}://{}/{}",
                scheme(rng, "prospero"),
                login(rng, false),
                word(rng, 4)
            );
            for _ in 0..rng.below(3) {
                s += &format!(";{}={}", word(rng, 2), word(rng, 2));
            }
            s
        }
        _ => {
            let sc = rng.pick(&["https", "x-a", "A1+.-", "1", "-", "ftp2", "", "a b"]);
            if rng.chance(60) {
                let mut s = format!("{sc}://{}", login(rng, true));
                if rng.chance(60) {
                    s += &format!("/{}", word(rng, 5));
                }
                s
            } else {
                format!("{sc}:{}", word(rng, 5))
            }
        }
    };
    // Mutate a few toward the edges.
    if rng.chance(15) && !s.is_empty() {
        let mut v = s.into_bytes();
        let i = rng.below(v.len());
        match rng.below(3) {
            0 => {
                v.remove(i);
            }
            1 => v.insert(i, rng.pick(TOKENS).as_bytes()[0]),
            _ => v[i] = rng.pick(TOKENS).as_bytes()[0],
        }
        s = String::from_utf8_lossy(&v).into_owned();
    }
    s
}

/// Generated URLs of every scheme, valid and broken: urilex and the
/// reference parser agree on the verdict and on every part's spans, and
/// every typed view reads a valid one without panicking.
#[test]
fn generated_urls_agree_with_reference_parser() {
    let n: usize = std::env::var("URILEX_RFC1738_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let mut rng = gen::Rng(0x1738_1738_5EED);
    let (mut valid, mut invalid) = (0, 0);
    let mut per_rule = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    let mut disagreements = Vec::new();
    for _ in 0..n {
        let s = generate(&mut rng);
        let got = urilex_parts(s.as_bytes());
        let want = reference::parse(s.as_bytes());
        let rule = parser()
            .parse(&s)
            .ok()
            .and_then(|u| u.scheme_rule())
            .unwrap_or("genericurl/invalid");
        let e = per_rule.entry(rule).or_default();
        if got.is_some() {
            valid += 1;
            e.0 += 1;
            let u = Url::parse(&s).unwrap();
            let _ = (u.port(), u.default_port());
            match &u {
                Url::Ftp(f) => {
                    let _ = (f.commands(), f.login(), f.typecode());
                }
                Url::Gopher(g) => {
                    let _ = g.request();
                }
                Url::Prospero(p) => {
                    let _ = p.fields().count();
                }
                _ => {}
            }
        } else {
            invalid += 1;
            e.1 += 1;
        }
        if got != want {
            disagreements.push(format!("{s:?}: urilex {got:?}, reference {want:?}"));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements, first: {:#?}",
        disagreements.len(),
        &disagreements[..disagreements.len().min(10)]
    );
    // Both verdicts are well represented, and every scheme rule was hit.
    eprintln!("{valid} valid, {invalid} invalid: {per_rule:?}");
    assert!(
        valid > n / 4 && invalid > n / 10,
        "{valid} valid, {invalid} invalid"
    );
    for r in [
        "ftpurl",
        "fileurl",
        "httpurl",
        "gopherurl",
        "mailtourl",
        "newsurl",
        "nntpurl",
        "telneturl",
        "waisurl",
        "prosperourl",
    ] {
        assert!(
            per_rule.get(r).is_some_and(|c| c.0 > 50),
            "{r}: {per_rule:?}"
        );
    }
}

/// Bad input of any kind: an error naming the part, the rule and the
/// byte, never a panic.
#[test]
fn errors_name_part_rule_and_byte() {
    for (s, part, index) in [
        ("ftp://host/a;type=x", Some("ftptype"), 18),
        ("gopher://h/0a%0Ab", Some("selector"), 15),
        ("nntp://h/g/1x", Some("digits"), 12),
        ("news:1x", Some("article"), 7),
        ("telnet://h:2x/", Some("port"), 12),
        ("http://h/a b", Some("hsegment"), 10),
    ] {
        let e = parser().parse(s).unwrap_err();
        assert_eq!((e.part(), e.index()), (part, index), "{s}: {e}");
        assert!(!e.rule().is_empty(), "{s}");
    }
    let mut rng = gen::Rng(7);
    for _ in 0..2000 {
        let v: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
        let _ = parser().parse_bytes(&v);
        let mut w = b"ftp://".to_vec();
        w.extend_from_slice(&v);
        let _ = parser().parse_bytes(&w);
    }
    let long = format!("ftp://h/{}", "a/".repeat(500_000));
    let Url::Ftp(f) = url(&long) else { panic!() };
    assert_eq!(f.cwd().len(), 500_000);
}

/// The typed accessors of the default grammar's parts (`scheme()`,
/// `port()`, ...) agree with the parts by name in every profile, and give
/// nothing for a part the profile lacks, though other parts of the profile
/// share those slots (RFC 1738's `article` and `port` never meet; a news
/// URL has no port). Found by the parse fuzz target: `news:/@o`.
#[test]
fn typed_accessors_agree_with_parts_in_every_profile() {
    use urilex::Component;
    let mut inputs: Vec<String> = include_str!("data/rfc1738-urls.txt")
        .lines()
        .map(String::from)
        .collect();
    inputs.extend(
        [
            "news:/@o",
            "news:a@b.c",
            "mailto:x@y",
            "urn:ex:a?+r?=q#f",
            "urn:isbn:1?s=x&c=y#z",
            "http://u@h:1/p?q#f",
        ]
        .map(String::from),
    );
    for p in Profile::ALL {
        let parser = Parser::new().profile(*p);
        for s in &inputs {
            let Ok(u) = parser.parse(s) else { continue };
            for c in Component::ALL {
                let declared = p.part(c.as_str()).is_some();
                let by_name = if declared { u.part(c.as_str()) } else { None };
                let typed = u.span(c).map(|r| &s[r]);
                if c == Component::Path && declared {
                    assert_eq!(Some(u.path()), by_name.or(Some("")), "{p:?} {s}");
                    continue;
                }
                assert_eq!(typed, by_name, "{p:?} {c:?} of {s}");
            }
        }
    }
    let u = parser().parse("news:/@o").unwrap();
    assert_eq!(
        (u.port(), u.host_str(), u.part("article")),
        (None, Some("o"), Some("/@o"))
    );
}
