//! Registrable domains: a host's public suffix, the registrable domain
//! (the suffix and one label more) and the subdomain before it, by the
//! Public Suffix List compiled in (the `psl` crate, feature `psl`; its
//! version pins the list's date: `cargo update -p psl` takes the newest).
//!
//! The name looked up is the host as a name: percent-decoded, ASCII
//! letters lower-cased, one trailing dot dropped ([`lookup_name`]). IP
//! literals, names with an empty label and names whose last label the list
//! does not know (its implicit `*` rule) have no suffix: `None`.
//!
//! The list has two sections, ICANN's and the private domains (`github.io`,
//! `blogspot.com`); [`Section::All`] matches both, as browsers do. The
//! `psl` crate always matches the longest rule of either section, so the
//! ICANN-only answer ([`Section::Icann`]) is computed from it: while the
//! longest match is a private rule, the name is looked up again from that
//! rule's second label on (`shop.barsy.co.uk` → `co.uk`), which finds the
//! longest rule of fewer labels; the first ICANN rule found is the ICANN
//! suffix (every rule that matches the shorter name matches the host, so
//! none is missed).
//!
//! ```
//! use urilex::domain::{lookup, Section};
//! use urilex::UriRef;
//! let u = UriRef::parse("https://Foo.Bar.GitHub.io./x").unwrap();
//! let mut scratch = Vec::new();
//! let d = lookup(&u, Section::All, &mut scratch).unwrap();
//! assert_eq!(d.suffix(), b"github.io");
//! assert_eq!(d.registrable(), Some(&b"bar.github.io"[..]));
//! assert_eq!(d.sub(), Some(&b"foo"[..]));
//! assert!(d.is_private());
//! let d = lookup(&u, Section::Icann, &mut scratch).unwrap();
//! assert_eq!((d.suffix(), d.registrable()), (&b"io"[..], Some(&b"github.io"[..])));
//! ```

use crate::{HostKind, UriRef};
use psl::Psl as _;

/// Which rules of the list count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Section {
    /// ICANN's and the private domains' rules (the list as browsers use it).
    #[default]
    All,
    /// ICANN's rules only.
    Icann,
}

impl Section {
    /// `all` or `icann`.
    pub fn by_name(name: &str) -> Option<Section> {
        match name {
            "all" => Some(Section::All),
            "icann" => Some(Section::Icann),
            _ => None,
        }
    }
}

/// Where a name's suffix and registrable domain start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    /// Byte offset of the public suffix.
    pub suffix: usize,
    /// Byte offset of the registrable domain; `None` when the name is
    /// itself a public suffix.
    pub registrable: Option<usize>,
    /// The rule that matched is in the private section.
    pub private: bool,
}

/// A name with its split.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Domain<'s> {
    name: &'s [u8],
    split: Split,
}

impl<'s> Domain<'s> {
    /// The name looked up (see [`lookup_name`]).
    pub fn name(&self) -> &'s [u8] {
        self.name
    }
    /// The public suffix (`co.uk`).
    pub fn suffix(&self) -> &'s [u8] {
        &self.name[self.split.suffix..]
    }
    /// The registrable domain (`example.co.uk`), when the name is more than
    /// a suffix.
    pub fn registrable(&self) -> Option<&'s [u8]> {
        self.split.registrable.map(|r| &self.name[r..])
    }
    /// The registrable domain's own label (`example`): unfurl's root.
    pub fn root(&self) -> Option<&'s [u8]> {
        let r = self.split.registrable?;
        Some(&self.name[r..self.split.suffix - 1])
    }
    /// The labels before the registrable domain (`www.eu`), when there are
    /// any.
    pub fn sub(&self) -> Option<&'s [u8]> {
        match self.split.registrable {
            Some(r) if r > 0 => Some(&self.name[..r - 1]),
            _ => None,
        }
    }
    /// Whether the suffix is a rule of the private section.
    pub fn is_private(&self) -> bool {
        self.split.private
    }
    /// The split itself.
    pub fn split(&self) -> Split {
        self.split
    }
}

/// Writes the name a host is looked up by into `out` (cleared first):
/// percent-decoded, ASCII lower-cased, one trailing dot dropped. `false`
/// (and `out` left empty) when the host is empty or has an empty label.
pub fn lookup_name(host: &str, out: &mut Vec<u8>) -> bool {
    out.clear();
    push_lookup_name(host, out)
}

/// [`lookup_name`] appending to `out` (left as it was on `false`).
pub(crate) fn push_lookup_name(host: &str, out: &mut Vec<u8>) -> bool {
    push_lookup_name_bytes(host.as_bytes(), out)
}

/// [`push_lookup_name`] of the host's bytes.
pub(crate) fn push_lookup_name_bytes(b: &[u8], out: &mut Vec<u8>) -> bool {
    let mark = out.len();
    if !b.contains(&b'%') {
        // The common case: lower-cased in one pass.
        out.extend(b.iter().map(u8::to_ascii_lowercase));
    } else {
        let mut i = 0;
        while i < b.len() {
            let c = match crate::pct::pct_at(b, i) {
                Some(v) => {
                    i += 3;
                    v
                }
                None => {
                    i += 1;
                    b[i - 1]
                }
            };
            out.push(c.to_ascii_lowercase());
        }
    }
    if out.len() > mark && out.last() == Some(&b'.') {
        out.pop();
    }
    let name = &out[mark..];
    let empty_label = name.first().is_none_or(|&c| c == b'.')
        || name
            .iter()
            .zip(&name[1..])
            .any(|(&a, &c)| a == b'.' && c == b'.');
    if empty_label {
        out.truncate(mark);
        return false;
    }
    true
}

/// The split of `name` (as [`lookup_name`] writes it) by `section`'s
/// rules, or `None` when the list does not know its last label.
///
/// ```
/// use urilex::domain::{split, Section};
/// let s = split(b"a.b.example.co.uk", Section::All).unwrap();
/// assert_eq!((s.suffix, s.registrable), (12, Some(4)));
/// assert!(split(b"example.invalidtld", Section::All).is_none());
/// ```
pub fn split(name: &[u8], section: Section) -> Option<Split> {
    // The name looked up is name[start..].
    let mut start = 0;
    loop {
        let info = psl::List.find(name[start..].rsplit(|&c| c == b'.'));
        let typ = info.typ?;
        if info.len == 0 || info.len > name.len() - start {
            return None;
        }
        let suffix = name.len() - info.len;
        let private = typ == psl::Type::Private;
        if private && section == Section::Icann {
            // Again without the rule's leftmost label (`barsy.co.uk` →
            // `co.uk`): the longest rule of fewer labels, until an ICANN
            // one matches. Dropping more (down to the rule's last label)
            // would skip ICANN rules of several labels under it.
            let first = name[suffix..].iter().position(|&c| c == b'.')?;
            start = suffix + first + 1;
            continue;
        }
        let registrable = (suffix > 0).then(|| {
            name[..suffix - 1]
                .iter()
                .rposition(|&c| c == b'.')
                .map_or(0, |k| k + 1)
        });
        return Some(Split {
            suffix,
            registrable,
            private,
        });
    }
}

/// The domain of `u`'s host, its name written into `scratch`: `None` for
/// references without a host, IP literals, and names the list has no
/// suffix for.
pub fn lookup<'s>(
    u: &UriRef<'_>,
    section: Section,
    scratch: &'s mut Vec<u8>,
) -> Option<Domain<'s>> {
    if u.host_kind()? != HostKind::RegName {
        return None;
    }
    if !lookup_name(u.host_str()?, scratch) {
        return None;
    }
    let split = split(scratch, section)?;
    Some(Domain {
        name: scratch,
        split,
    })
}

/// The domain of a name already in lookup form ([`lookup_name`]).
pub fn of_name(name: &[u8], section: Section) -> Option<Domain<'_>> {
    Some(Domain {
        name,
        split: split(name, section)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(host: &str, section: Section) -> Option<(String, Option<String>, Option<String>)> {
        let mut name = Vec::new();
        if !lookup_name(host, &mut name) {
            return None;
        }
        let d = of_name(&name, section)?;
        let s = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
        Some((s(d.suffix()), d.registrable().map(s), d.sub().map(s)))
    }

    fn t(
        suffix: &str,
        reg: Option<&str>,
        sub: Option<&str>,
    ) -> Option<(String, Option<String>, Option<String>)> {
        Some((suffix.into(), reg.map(Into::into), sub.map(Into::into)))
    }

    /// Rules of the list (publicsuffix.org/list/, as the `psl` crate
    /// compiled it): multi-label suffixes, wildcards and exceptions.
    #[test]
    fn the_lists_rules() {
        let all = Section::All;
        assert_eq!(
            parts("www.example.co.uk", all),
            t("co.uk", Some("example.co.uk"), Some("www"))
        );
        assert_eq!(
            parts("example.com", all),
            t("com", Some("example.com"), None)
        );
        assert_eq!(parts("com", all), t("com", None, None));
        // `*.ck` makes every label under ck a suffix; `!www.ck` excepts one.
        assert_eq!(parts("a.b.ck", all), t("b.ck", Some("a.b.ck"), None));
        assert_eq!(parts("www.ck", all), t("ck", Some("www.ck"), None));
        assert_eq!(parts("a.www.ck", all), t("ck", Some("www.ck"), Some("a")));
        // Unknown last label: no suffix (the implicit `*` rule is not used).
        assert_eq!(parts("example.notatld", all), None);
        assert_eq!(parts("localhost", all), None);
        // IDN suffixes, in Unicode and as A-labels.
        assert_eq!(
            parts("食狮.公司.cn", all),
            t("公司.cn", Some("食狮.公司.cn"), None)
        );
        assert_eq!(
            parts("www.xn--85x722f.xn--55qx5d.cn", all),
            t(
                "xn--55qx5d.cn",
                Some("xn--85x722f.xn--55qx5d.cn"),
                Some("www")
            )
        );
    }

    /// The Public Suffix List's own test list (`tests/test_psl.txt` of
    /// github.com/publicsuffix/list at ffcfa83e, public domain; copied to
    /// `tests/data/psl/`): `checkPublicSuffix(host, registrable)` with the
    /// whole list. The one documented difference: a name whose last label
    /// the list does not know has no suffix here (the list's implicit `*`
    /// rule is not used), where the test list expects that rule's answer.
    #[test]
    fn the_lists_own_test_cases() {
        let text = include_str!("../tests/data/psl/test_psl.txt");
        let implicit = [
            "example.example",
            "b.example.example",
            "a.b.example.example",
        ];
        let arg = |a: &str| -> Option<String> {
            let a = a.trim();
            (a != "null").then(|| a.trim_matches('\'').to_string())
        };
        let mut checked = 0;
        for line in text.lines() {
            let Some(call) = line.strip_prefix("checkPublicSuffix(") else {
                continue;
            };
            let call = call.trim_end_matches(");");
            let (host, want) = call.split_once(", ").expect("two arguments");
            let (host, want) = (arg(host), arg(want));
            let Some(host) = host else { continue };
            let mut name = Vec::new();
            let got = if lookup_name(&host, &mut name) {
                of_name(&name, Section::All)
                    .and_then(|d| d.registrable())
                    .map(|r| String::from_utf8(r.to_vec()).unwrap())
            } else {
                None
            };
            let want = if implicit.contains(&host.as_str()) {
                None
            } else {
                want
            };
            assert_eq!(got, want, "{host}");
            checked += 1;
        }
        assert_eq!(checked, 77);
    }

    /// `--psl icann` under private rules of two, three and four labels
    /// (`github.io`, `barsy.co.uk`, `mel.cloudlets.com.au`), and ICANN
    /// rules of three and four labels (`ide.kyoto.jp`, `pvt.k12.ma.us`)
    /// in both sections: the ICANN answer drops only a private rule's
    /// leftmost label at a time, so an ICANN rule of several labels under
    /// it is found (`co.uk`, not `uk`).
    #[test]
    fn icann_under_private_rules_of_several_labels() {
        let (all, icann) = (Section::All, Section::Icann);
        let cases = [
            ("a.b.github.io", all, "github.io", Some("b.github.io")),
            ("a.b.github.io", icann, "io", Some("github.io")),
            (
                "shop.barsy.co.uk",
                all,
                "barsy.co.uk",
                Some("shop.barsy.co.uk"),
            ),
            ("shop.barsy.co.uk", icann, "co.uk", Some("barsy.co.uk")),
            ("barsy.co.uk", icann, "co.uk", Some("barsy.co.uk")),
            ("barsy.co.uk", all, "barsy.co.uk", None),
            (
                "x.y.mel.cloudlets.com.au",
                all,
                "mel.cloudlets.com.au",
                Some("y.mel.cloudlets.com.au"),
            ),
            (
                "x.y.mel.cloudlets.com.au",
                icann,
                "com.au",
                Some("cloudlets.com.au"),
            ),
            (
                "a.b.ide.kyoto.jp",
                all,
                "ide.kyoto.jp",
                Some("b.ide.kyoto.jp"),
            ),
            (
                "a.b.ide.kyoto.jp",
                icann,
                "ide.kyoto.jp",
                Some("b.ide.kyoto.jp"),
            ),
            (
                "w.s.pvt.k12.ma.us",
                all,
                "pvt.k12.ma.us",
                Some("s.pvt.k12.ma.us"),
            ),
            (
                "w.s.pvt.k12.ma.us",
                icann,
                "pvt.k12.ma.us",
                Some("s.pvt.k12.ma.us"),
            ),
        ];
        for (host, section, suffix, reg) in cases {
            let p = parts(host, section).unwrap_or_else(|| panic!("{host}"));
            assert_eq!(
                (p.0.as_str(), p.1.as_deref()),
                (suffix, reg),
                "{host} {section:?}"
            );
        }
    }

    #[test]
    fn private_section() {
        assert_eq!(
            parts("a.b.github.io", Section::All),
            t("github.io", Some("b.github.io"), Some("a"))
        );
        assert_eq!(
            parts("a.b.github.io", Section::Icann),
            t("io", Some("github.io"), Some("a.b"))
        );
        assert_eq!(parts("github.io", Section::All), t("github.io", None, None));
        assert_eq!(
            parts("github.io", Section::Icann),
            t("io", Some("github.io"), None)
        );
        let mut n = Vec::new();
        assert!(lookup_name("x.github.io", &mut n));
        assert!(of_name(&n, Section::All).unwrap().is_private());
        assert!(!of_name(&n, Section::Icann).unwrap().is_private());
    }

    #[test]
    fn the_name_looked_up() {
        let all = Section::All;
        assert_eq!(
            parts("WWW.Example.CO.UK", all),
            t("co.uk", Some("example.co.uk"), Some("www"))
        );
        assert_eq!(
            parts("example.com.", all),
            t("com", Some("example.com"), None)
        );
        assert_eq!(
            parts("ex%41mple.c%6Fm", all),
            t("com", Some("example.com"), None)
        );
        assert_eq!(parts("%C3%A9.fr", all), t("fr", Some("é.fr"), None));
        assert_eq!(parts("a..com", all), None);
        assert_eq!(parts(".com", all), None);
        assert_eq!(parts("", all), None);
        assert_eq!(parts(".", all), None);
    }

    #[test]
    fn hosts_of_references() {
        let mut s = Vec::new();
        for (u, want) in [
            ("http://192.0.2.1/", None),
            ("http://[::1]/", None),
            ("mailto:a@example.com", None),
            ("//sub.example.org:80", Some("example.org")),
            ("file:///etc/passwd", None),
        ] {
            let u = UriRef::parse(u).unwrap();
            let got =
                lookup(&u, Section::All, &mut s).and_then(|d| d.registrable().map(<[u8]>::to_vec));
            assert_eq!(got.as_deref(), want.map(str::as_bytes), "{}", u.as_str());
        }
        let u = UriRef::parse("https://a.b.example.co.uk/").unwrap();
        let d = lookup(&u, Section::All, &mut s).unwrap();
        assert_eq!(d.root(), Some(&b"example"[..]));
    }
}
