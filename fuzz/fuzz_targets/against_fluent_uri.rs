//! urilex against fluent-uri: same verdict and components on any string.
//! There are no documented exceptions: tests/against_fluent_uri.rs lists
//! none, and a disagreement here is a bug in one of the two.
#![no_main]
use fluent_uri::component::Host;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|s: &str| {
    let ours = urilex::UriRef::parse(s);
    let theirs = fluent_uri::UriRef::parse(s);
    assert_eq!(
        ours.is_ok(),
        theirs.is_ok(),
        "verdict on {s:?}: urilex {ours:?}"
    );
    if let (Ok(u), Ok(f)) = (ours, theirs) {
        assert_eq!(u.scheme(), f.scheme().map(|x| x.as_str()));
        assert_eq!(u.path(), f.path().as_str());
        assert_eq!(u.query(), f.query().map(|x| x.as_str()));
        assert_eq!(u.fragment(), f.fragment().map(|x| x.as_str()));
        let a = f.authority();
        assert_eq!(u.authority(), a.as_ref().map(|a| a.as_str()));
        assert_eq!(
            u.userinfo(),
            a.as_ref().and_then(|a| a.userinfo()).map(|x| x.as_str())
        );
        assert_eq!(u.host_str(), a.as_ref().map(|a| a.host()));
        assert_eq!(
            u.port(),
            a.as_ref().and_then(|a| a.port()).map(|x| x.as_str())
        );
        let kind = a.as_ref().map(|a| match a.host_parsed() {
            Host::Ipv4(..) => "ipv4",
            Host::Ipv6(..) => "ipv6",
            Host::RegName(..) => "reg-name",
            _ => "ipvfuture",
        });
        assert_eq!(u.host_kind().map(|k| k.as_str()), kind);
    }
});
