//! Typed hosts: IPv4 and IPv6 addresses as `std::net` values, IPvFuture and
//! registered names as text.
//!
//! The grammar has already validated the text when these run; they only turn
//! digits into numbers.

use crate::HostKind;
use std::net::{Ipv4Addr, Ipv6Addr};

/// A host (RFC 3986 section 3.2.2). Its kind is the grammar's
/// (`UriRef::host_kind`): a host is never typed as another kind than the
/// profile's grammar gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Host<'a> {
    /// `IPv4address`: four dec-octets.
    Ipv4(Ipv4Addr),
    /// A host the grammar classifies as an IPv4 number whose text is not
    /// four dec-octets: draft-fielding-url-syntax-05's `hostnumber` is `1*digit` four times
    /// (`1.2.3.256`, `010.0.0.1`). Kept as text; how a resolver would read
    /// it is not guessed (`lint` flags it).
    ///
    /// ```
    /// # #[cfg(feature = "url-draft-05")] {
    /// use urilex::{Host, HostKind, Parser, Profile};
    /// let u = Parser::new().profile(Profile::UrlDraft05).parse("http://1.2.3.256/").unwrap();
    /// assert_eq!(u.host(), Some(Host::Ipv4Text("1.2.3.256")));
    /// assert_eq!(u.host_kind(), Some(HostKind::Ipv4));
    /// assert_eq!(u.host().unwrap().kind(), HostKind::Ipv4);
    /// # }
    /// ```
    Ipv4Text(&'a str),
    /// `IPv6address` inside `[` `]`.
    Ipv6(Ipv6Addr),
    /// A host the grammar classifies as IPv6 whose text is not an address
    /// (without the brackets and any zone): draft-fielding-uri-rfc2396bis-00's
    /// `IPv6address` takes `65::c:` (`h4 "::" 0*5( h4 ":" ) [ h4 ]`), which
    /// no reading makes 128 bits. RFC 3986's and RFC 6874's never give
    /// this. Kept as text, as [`Host::Ipv4Text`] is.
    ///
    /// ```
    /// # #[cfg(feature = "rfc2396bis-00")] {
    /// use urilex::{Host, HostKind, Parser, Profile};
    /// let u = Parser::new().profile(Profile::Rfc2396bis00).parse("http://[65::c:]/").unwrap();
    /// assert_eq!(u.host(), Some(Host::Ipv6Text("65::c:")));
    /// assert_eq!(u.host().unwrap().kind(), HostKind::Ipv6);
    /// # }
    /// ```
    Ipv6Text(&'a str),
    /// `IPvFuture` inside `[` `]`, without the brackets, e.g. `v7.abc`.
    IpvFuture(&'a str),
    /// `reg-name` (possibly empty, possibly percent-encoded).
    RegName(&'a str),
}

impl<'a> Host<'a> {
    /// The kind of host.
    ///
    /// ```
    /// use urilex::{Host, HostKind};
    /// assert_eq!(Host::RegName("example.com").kind(), HostKind::RegName);
    /// ```
    pub fn kind(&self) -> HostKind {
        match self {
            Host::Ipv4(_) | Host::Ipv4Text(_) => HostKind::Ipv4,
            Host::Ipv6(_) | Host::Ipv6Text(_) => HostKind::Ipv6,
            Host::IpvFuture(_) => HostKind::IpvFuture,
            Host::RegName(_) => HostKind::RegName,
        }
    }

    /// The host `text` of the grammar's `kind`; `zone`: where the
    /// profile's `zone` part starts in `text`, if it has one.
    ///
    /// An IPv6 host is `Ipv6` when its text is 128 bits, which every text
    /// RFC 3986's and RFC 6874's grammars classify as IPv6 is (each
    /// alternative and group count checked in
    /// tests/regression/ipv6_hosts_are_addresses.rs), else `Ipv6Text`.
    pub(crate) fn from_parts(
        text: &'a str,
        kind: Option<HostKind>,
        zone: Option<usize>,
    ) -> Host<'a> {
        let inner = text
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
            .unwrap_or(text);
        match kind {
            Some(HostKind::Ipv4) => match ipv4(text.as_bytes()) {
                Some(a) => Host::Ipv4(a),
                None => Host::Ipv4Text(text),
            },
            Some(HostKind::Ipv6) => {
                let (address, _) = ipv6_literal(text, zone);
                match ipv6(address.as_bytes()) {
                    Some(a) => Host::Ipv6(a),
                    None => Host::Ipv6Text(address),
                }
            }
            Some(HostKind::IpvFuture) => Host::IpvFuture(inner),
            Some(HostKind::RegName) | None => Host::RegName(text),
        }
    }
}

/// Dotted decimal to an address; `None` unless four dec-octets (0-255, no
/// leading zero).
pub(crate) fn ipv4(s: &[u8]) -> Option<Ipv4Addr> {
    let mut octets = [0u8; 4];
    let mut n = 0;
    for part in s.split(|&b| b == b'.') {
        // dec-octet (RFC 3986 3.2.2): no leading zero, which inet_aton
        // would read as octal.
        if n == 4 || part.is_empty() || part.len() > 3 || (part.len() > 1 && part[0] == b'0') {
            return None;
        }
        let mut v: u32 = 0;
        for &b in part {
            if !b.is_ascii_digit() {
                return None;
            }
            v = v * 10 + u32::from(b - b'0');
        }
        octets[n] = u8::try_from(v).ok()?;
        n += 1;
    }
    (n == 4).then(|| Ipv4Addr::from(octets))
}

/// IPv6 text (with `::` compression and an optional trailing IPv4 part) to
/// an address; `None` if it does not make 128 bits.
pub(crate) fn ipv6(s: &[u8]) -> Option<Ipv6Addr> {
    fn groups(part: &[u8], out: &mut Vec<u16>) -> Option<()> {
        if part.is_empty() {
            return Some(());
        }
        for g in part.split(|&b| b == b':') {
            if g.contains(&b'.') {
                let a = ipv4(g)?.octets();
                out.push(u16::from_be_bytes([a[0], a[1]]));
                out.push(u16::from_be_bytes([a[2], a[3]]));
            } else {
                if g.is_empty() || g.len() > 4 {
                    return None;
                }
                let mut v: u16 = 0;
                for &b in g {
                    v = (v << 4) | (b as char).to_digit(16)? as u16;
                }
                out.push(v);
            }
        }
        Some(())
    }
    let mut head = Vec::with_capacity(8);
    let mut tail = Vec::with_capacity(8);
    match s.windows(2).position(|w| w == b"::") {
        Some(i) => {
            groups(&s[..i], &mut head)?;
            groups(&s[i + 2..], &mut tail)?;
            if head.len() + tail.len() > 7 {
                return None;
            }
        }
        None => {
            groups(s, &mut head)?;
            if head.len() != 8 {
                return None;
            }
        }
    }
    let mut all = [0u16; 8];
    all[..head.len()].copy_from_slice(&head);
    all[8 - tail.len()..].copy_from_slice(&tail);
    Some(Ipv6Addr::from(all))
}

/// An IPv6 literal `[...]` as its address and what follows the address
/// inside the brackets: nothing, or, where the profile's `zone` part starts
/// at `zone` in `text`, RFC 6874's `"%25" ZoneID` (its section 2:
/// `IPv6addrz = IPv6address "%25" ZoneID`, so the address ends three bytes
/// before the zone).
pub(crate) fn ipv6_literal(text: &str, zone: Option<usize>) -> (&str, &str) {
    let end = text.len().saturating_sub(1).max(1);
    let between = "%25".len();
    match zone {
        Some(z) if z > between && z <= end => {
            debug_assert_eq!(&text[z - between..z], "%25");
            (&text[1..z - between], &text[z - between..end])
        }
        _ => (text.get(1..end).unwrap_or(""), ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_forms() {
        for s in [
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:7:8",
            "::ffff:1.2.3.4",
            "1:2::7:8",
            "fe80::1:2",
            "a:b:c:d:e:f:1.2.3.4",
        ] {
            let want: Ipv6Addr = s.parse().unwrap();
            assert_eq!(ipv6(s.as_bytes()), Some(want), "{s}");
        }
        for s in ["1:2:3:4:5:6:7", "1::2::3", "12345::", "1:2:3:4:5:6:7:8:9"] {
            assert_eq!(ipv6(s.as_bytes()), None, "{s}");
        }
    }

    #[test]
    fn ipv4_forms() {
        assert_eq!(ipv4(b"255.0.10.1"), Some(Ipv4Addr::new(255, 0, 10, 1)));
        assert_eq!(ipv4(b"256.0.0.1"), None);
        assert_eq!(ipv4(b"1.2.3"), None);
        assert_eq!(ipv4(b"010.0.0.1"), None);
        assert_eq!(ipv4(b"0.0.0.0"), Some(Ipv4Addr::UNSPECIFIED));
    }
}
