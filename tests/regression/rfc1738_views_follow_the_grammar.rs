//! Bug: `scheme::rfc1738::Url::of` chose the view by comparing the scheme
//! with ten names written in the code, not by the rule the grammar chose
//! (`;@ scheme` in `abnf/rfc1738.abnf`). Found in review. Fixed: the view
//! follows the grammar's rule, so a URL the grammar parsed with its scheme's
//! rule gets that scheme's view, and one it parsed with `genericurl` is
//! `Other`.

use urilex::scheme::rfc1738::Url;
use urilex::{Parser, Profile};

#[test]
fn the_view_is_the_rule_the_grammar_chose() {
    let p = Parser::new().profile(Profile::Rfc1738);
    let cases = [
        ("ftp://host/a/b;type=i", Some("ftpurl"), "Ftp"),
        ("FTP://host/a", Some("ftpurl"), "Ftp"),
        ("news:comp.infosystems", Some("newsurl"), "News"),
        ("mailto:a@b.example", Some("mailtourl"), "Mailto"),
        ("x-other://h/p", None, "Other"),
        ("https://h/p", None, "Other"),
    ];
    for (input, rule, view) in cases {
        let u = p.parse(input).unwrap();
        assert_eq!(u.scheme_rule(), rule, "{input}");
        let got = match Url::of(u).unwrap() {
            Url::Ftp(_) => "Ftp",
            Url::News(_) => "News",
            Url::Mailto(_) => "Mailto",
            Url::Other(_) => "Other",
            _ => "another",
        };
        assert_eq!(got, view, "{input}");
    }
    // Every sample URL: the generic view exactly when no scheme rule.
    for line in include_str!("../data/rfc1738-urls.txt").lines() {
        let u = p.parse(line).unwrap();
        let other = matches!(Url::of(u), Some(Url::Other(_)));
        assert_eq!(other, u.scheme_rule().is_none(), "{line}");
    }
}
