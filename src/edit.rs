//! Editing references as trurl does, RFC-exact: set a component, append a
//! path segment or a query pair, trim query pairs by name, replace pairs,
//! sort the query, redirect (RFC 3986 section 5.2 resolution). Data given
//! with `=` is percent-encoded for its component, so that every result is
//! a valid reference; data given with `:=` is taken as already encoded.
//! Every result is parsed again before it is handed out: a result that is
//! not a valid reference (only possible with `:=` data, or a scheme or
//! port that cannot be one) is an [`EditError`], never output.
//!
//! The edits run in a fixed order, whatever the order they were given in:
//! the redirect, the `set`s (in order), the `append`s (in order), the
//! trims, the replacements, the sort, dropping the fragment. [`Dedup`]
//! puts normalization before them, for counting and grouping.
//!
//! Where urilex and trurl differ: a reference is edited as RFC 3986 parses
//! it: nothing is normalized on the way (trurl, through libcurl, decodes
//! and encodes every part again, removes dot segments, drops default
//! ports and makes an empty path `/`). Setting a path on a reference with
//! an authority adds the leading `/` the grammar needs, as trurl does; a
//! path that would read as an authority (`//x` without one) gets `/.` in
//! front, and a relative path whose first segment holds a `:` gets `./`
//! (RFC 3986 sections 3.3 and 4.2: the same path after dot-segment
//! removal).
//!
//! ```
//! use urilex::{edit::{Edits, Editor}, UriRef};
//! let edits = Edits::new()
//!     .set("host=example.org").unwrap()
//!     .set("port?=8080").unwrap()
//!     .append("path=a b").unwrap()
//!     .append("query=q=x&y").unwrap()
//!     .qtrim("utm_*")
//!     .sort_query(true);
//! let mut editor = Editor::new();
//! let mut out = String::new();
//! let u = UriRef::parse("https://example.com/docs?utm_source=mail&b=2&A=1").unwrap();
//! editor.apply(&edits, &u, &mut out).unwrap();
//! assert_eq!(out, "https://example.org:8080/docs/a%20b?A=1&b=2&q=x%26y");
//! ```

use crate::query::{params_with, Decode};
use crate::{Component, Profile, UriRef, UriRefBuf};
use std::fmt;

/// A component `set` can change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The whole reference (its data is taken as written).
    Url,
    /// `scheme`.
    Scheme,
    /// `user`.
    User,
    /// `password`.
    Password,
    /// `host`.
    Host,
    /// `port`.
    Port,
    /// `path`.
    Path,
    /// `query`.
    Query,
    /// `fragment`.
    Fragment,
}

impl Target {
    fn by_name(name: &str) -> Result<Target, String> {
        Ok(match name {
            "url" => Target::Url,
            "scheme" => Target::Scheme,
            "user" => Target::User,
            "password" => Target::Password,
            "host" => Target::Host,
            "port" => Target::Port,
            "path" => Target::Path,
            "query" => Target::Query,
            "fragment" => Target::Fragment,
            "options" => {
                return Err(
                    "`options` is an IMAP notion RFC 3986 does not have: urilex cannot set it"
                        .into(),
                )
            }
            "zoneid" => {
                return Err(
                    "`zoneid`: set the host instead (`host:=[fe80::1%25eth0]`, RFC 6874)".into(),
                )
            }
            _ => return Err(format!("unknown component `{name}`")),
        })
    }
}

/// One `set`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Set {
    target: Target,
    data: String,
    encoded: bool,
    if_absent: bool,
}

/// A name pattern of `qtrim`: a name, or a prefix (`utm_*`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pattern {
    text: Vec<u8>,
    prefix: bool,
}

impl Pattern {
    fn new(p: &str) -> Pattern {
        if let Some(lit) = p.strip_suffix("\\*") {
            let mut text = lit.as_bytes().to_vec();
            text.push(b'*');
            return Pattern {
                text,
                prefix: false,
            };
        }
        match p.strip_suffix('*') {
            Some(pre) => Pattern {
                text: pre.as_bytes().to_vec(),
                prefix: true,
            },
            None => Pattern {
                text: p.as_bytes().to_vec(),
                prefix: false,
            },
        }
    }

    fn matches(&self, key: &[u8]) -> bool {
        if self.prefix {
            key.starts_with(&self.text)
        } else {
            key == self.text.as_slice()
        }
    }
}

/// What to do to each reference (shared by every worker).
#[derive(Clone, Debug, Default)]
pub struct Edits {
    redirect: Option<UriRefBuf>,
    sets: Vec<Set>,
    append_path: Vec<String>,
    append_query: Vec<String>,
    trims: Vec<Pattern>,
    /// (key, value, append when absent), keys and values encoded.
    replaces: Vec<(String, Option<String>, bool)>,
    sort: bool,
    drop_fragment: bool,
    separator: Option<u8>,
}

/// Why an edit cannot be made, or made on a reference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditError(pub String);

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EditError {}

fn err(m: impl Into<String>) -> EditError {
    EditError(m.into())
}

impl Edits {
    /// No edits.
    pub fn new() -> Edits {
        Edits::default()
    }

    /// `COMPONENT=DATA` (DATA percent-encoded for the component),
    /// `COMPONENT:=DATA` (DATA already encoded), `COMPONENT?=DATA` (only
    /// when the component is absent), `COMPONENT?:=DATA`. Empty DATA
    /// removes the component.
    pub fn set(mut self, spec: &str) -> Result<Edits, EditError> {
        let eq = spec
            .find('=')
            .ok_or_else(|| err(format!("`{spec}`: COMPONENT=DATA")))?;
        let (mut name, data) = (&spec[..eq], &spec[eq + 1..]);
        let mut encoded = false;
        let mut if_absent = false;
        if let Some(n) = name.strip_suffix(':') {
            encoded = true;
            name = n;
        }
        if let Some(n) = name.strip_suffix('?') {
            if_absent = true;
            name = n;
        }
        let target = Target::by_name(name).map_err(err)?;
        if target == Target::Url && !data.is_empty() {
            UriRef::parse(data).map_err(|e| err(format!("url={data}: {e}")))?;
        }
        self.sets.push(Set {
            target,
            data: data.to_string(),
            encoded: encoded || target == Target::Url,
            if_absent,
        });
        Ok(self)
    }

    /// `path=SEGMENT` (a segment added after a `/`) or `query=KEY=VALUE`
    /// (a pair added after the separator; each side encoded).
    pub fn append(mut self, spec: &str) -> Result<Edits, EditError> {
        if let Some(seg) = spec.strip_prefix("path=") {
            self.append_path.push(seg.to_string());
        } else if let Some(pair) = spec.strip_prefix("query=") {
            self.append_query.push(pair.to_string());
        } else {
            return Err(err(format!(
                "`{spec}`: only path=SEGMENT and query=KEY=VALUE can be appended"
            )));
        }
        Ok(self)
    }

    /// Removes the query pairs whose decoded key is NAME, or starts with
    /// PREFIX for `PREFIX*` (`\*` at the end: a literal `*`).
    pub fn qtrim(mut self, pattern: &str) -> Edits {
        self.trims.push(Pattern::new(pattern));
        self
    }

    /// `KEY=VALUE` (or `KEY`): the first pair with that key becomes this
    /// one, and later pairs with the key are removed (nothing happens
    /// when there is none).
    pub fn replace(mut self, data: &str) -> Edits {
        let (k, v) = split_pair(data);
        self.replaces.push((k, v, false));
        self
    }

    /// As [`replace`](Self::replace), and the pair is appended when the
    /// key is not there.
    pub fn replace_append(mut self, data: &str) -> Edits {
        let (k, v) = split_pair(data);
        self.replaces.push((k, v, true));
        self
    }

    /// Sorts the query's pairs by their text, ignoring ASCII case (pairs
    /// equal but for case keep their order), as trurl does.
    pub fn sort_query(mut self, on: bool) -> Edits {
        self.sort = on;
        self
    }

    /// Resolves each reference's redirect to `reference` (RFC 3986 section
    /// 5.2) before the other edits.
    pub fn redirect(mut self, reference: &str) -> Result<Edits, EditError> {
        let r = UriRefBuf::parse(reference).map_err(|e| err(format!("--redirect: {e}")))?;
        self.redirect = Some(r);
        Ok(self)
    }

    /// Removes the fragment (after the other edits).
    pub fn drop_fragment(mut self, on: bool) -> Edits {
        self.drop_fragment = on;
        self
    }

    /// The byte between query pairs (`&` by default).
    pub fn query_separator(mut self, sep: u8) -> Edits {
        self.separator = Some(sep);
        self
    }

    fn sep(&self) -> u8 {
        self.separator.unwrap_or(b'&')
    }
}

/// A pair of `replace` data, each side encoded for a query.
fn split_pair(data: &str) -> (String, Option<String>) {
    let mut k = String::new();
    let mut v = String::new();
    match data.split_once('=') {
        Some((a, b)) => {
            push_enc(&mut k, a, Component::Query, b"&=#+");
            push_enc(&mut v, b, Component::Query, b"&#+");
            (k, Some(v))
        }
        None => {
            push_enc(&mut k, data, Component::Query, b"&=#+");
            (k, None)
        }
    }
}

/// Appends `data` percent-encoded for component `c`: every byte its
/// grammar does not take as it is, and those in `also`, and every `%`.
fn push_enc(out: &mut String, data: &str, c: Component, also: &[u8]) {
    let allowed = &Profile::Rfc3986.tables().literal[c as usize];
    for &b in data.as_bytes() {
        if crate::engine::in_set(allowed, b) && !also.contains(&b) {
            out.push(b as char);
        } else {
            crate::pct::push_pct(out, b);
        }
    }
}

/// The components of the reference being edited (owned, reused).
#[derive(Default)]
struct Parts {
    scheme: Option<String>,
    userinfo: Option<String>,
    /// Present: the reference has an authority.
    host: Option<String>,
    port: Option<String>,
    path: String,
    query: Option<String>,
    fragment: Option<String>,
}

fn put(slot: &mut Option<String>, v: Option<&str>) {
    match v {
        Some(v) => {
            let s = slot.get_or_insert_with(String::new);
            s.clear();
            s.push_str(v);
        }
        None => *slot = None,
    }
}

impl Parts {
    fn load(&mut self, u: &UriRef<'_>) {
        put(&mut self.scheme, u.scheme());
        put(&mut self.userinfo, u.userinfo());
        put(&mut self.host, u.host_str());
        put(&mut self.port, u.port());
        self.path.clear();
        self.path.push_str(u.path());
        put(&mut self.query, u.query());
        put(&mut self.fragment, u.fragment());
    }

    fn write(&self, out: &mut String) {
        out.clear();
        if let Some(s) = &self.scheme {
            out.push_str(s);
            out.push(':');
        }
        if let Some(h) = &self.host {
            out.push_str("//");
            if let Some(i) = &self.userinfo {
                out.push_str(i);
                out.push('@');
            }
            out.push_str(h);
            if let Some(p) = &self.port {
                out.push(':');
                out.push_str(p);
            }
            if !self.path.is_empty() && !self.path.starts_with('/') {
                out.push('/');
            }
        } else if self.path.starts_with("//") {
            // Would read as an authority (RFC 3986 section 3.3).
            out.push_str("/.");
        } else if self.scheme.is_none()
            && !self.path.starts_with('/')
            && self.path.split('/').next().is_some_and(|s| s.contains(':'))
        {
            // Would read as a scheme (section 4.2).
            out.push_str("./");
        }
        out.push_str(&self.path);
        if let Some(q) = &self.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = &self.fragment {
            out.push('#');
            out.push_str(f);
        }
    }

    fn user_password(&self) -> (Option<&str>, Option<&str>) {
        match &self.userinfo {
            None => (None, None),
            Some(i) => match i.split_once(':') {
                Some((u, p)) => (Some(u), Some(p)),
                None => (Some(i.as_str()), None),
            },
        }
    }
}

/// Whether references of `profile` can be edited: its grammar has every
/// part of RFC 3986's (scheme, userinfo, host, port, path, query,
/// fragment), which [`Editor`] reads and writes; parts within them (RFC
/// 6874's zone, in the host) go along. Not RFC 1738's scheme-specific
/// grammar, whose HTTP URL has no `path`, nor the URN grammars: editing
/// their references would drop what RFC 3986's parts do not hold.
///
/// ```
/// use urilex::{edit::editable, Profile};
/// assert!(editable(Profile::Rfc3986));
/// # #[cfg(feature = "rfc6874")]
/// assert!(editable(Profile::Rfc6874));
/// # #[cfg(feature = "rfc1738")]
/// assert!(!editable(Profile::Rfc1738));
/// ```
pub fn editable(profile: crate::Profile) -> bool {
    crate::Profile::Rfc3986
        .parts()
        .all(|p| profile.part(p.name()).is_some())
}

/// A worker's scratch space for [`Edits`]: reused from reference to
/// reference.
#[derive(Default)]
pub struct Editor {
    parts: Parts,
    text: String,
    tmp: String,
    tmp2: String,
    pairs: Vec<(usize, usize)>,
}

impl Editor {
    /// A new editor.
    pub fn new() -> Editor {
        Editor::default()
    }

    /// Writes `u` edited as `edits` says into `out` (cleared first).
    pub fn apply(
        &mut self,
        edits: &Edits,
        u: &UriRef<'_>,
        out: &mut String,
    ) -> Result<(), EditError> {
        let profile = u.profile();
        if !editable(profile) {
            return Err(err(format!(
                "profile `{}` cannot be edited: its grammar does not have RFC 3986's parts",
                profile.name()
            )));
        }
        // Results are checked by the grammar the reference was read with.
        let parser = crate::Parser::new().profile(profile);
        match &edits.redirect {
            Some(r) => {
                crate::resolve_into(u, &r.as_ref(), crate::ResolveOptions::new(), &mut self.text)
                    .map_err(|e| err(format!("--redirect: {e}")))?;
                let v = parser
                    .parse(&self.text)
                    .map_err(|e| err(format!("--redirect gave an invalid reference: {e}")))?;
                self.parts.load(&v);
            }
            None => {
                self.parts.load(u);
                if profile != crate::Profile::Rfc3986 {
                    // RFC 3986's parts of a reference of another grammar
                    // must hold all of it, or an edit would drop the rest.
                    self.parts.write(&mut self.tmp);
                    if self.tmp != u.as_str() {
                        return Err(err(format!(
                            "`{}` has parts that profile `{}` cannot edit",
                            u.as_str(),
                            profile.name()
                        )));
                    }
                }
            }
        }
        for s in &edits.sets {
            self.set(s)?;
        }
        for seg in &edits.append_path {
            let p = &mut self.parts.path;
            if !p.ends_with('/') && (!p.is_empty() || self.parts.host.is_some()) {
                p.push('/');
            }
            push_enc(p, seg, Component::Path, b"/?#");
        }
        let sep = edits.sep() as char;
        for pair in &edits.append_query {
            let q = self.parts.query.get_or_insert_with(String::new);
            if !q.is_empty() {
                q.push(sep);
            }
            match pair.split_once('=') {
                Some((k, v)) => {
                    push_enc(q, k, Component::Query, &[b'&', b'=', b'#', b'+', sep as u8]);
                    q.push('=');
                    push_enc(q, v, Component::Query, &[b'&', b'#', b'+', sep as u8]);
                }
                None => push_enc(
                    q,
                    pair,
                    Component::Query,
                    &[b'&', b'=', b'#', b'+', sep as u8],
                ),
            }
        }
        if !edits.trims.is_empty() || !edits.replaces.is_empty() || edits.sort {
            self.query_edits(edits);
        }
        if edits.drop_fragment {
            self.parts.fragment = None;
        }
        self.parts.write(out);
        parser
            .parse(out)
            .map_err(|e| err(format!("the edited reference `{out}` is not valid: {e}")))?;
        Ok(())
    }

    fn set(&mut self, s: &Set) -> Result<(), EditError> {
        // The new value is made in `v` and swapped into its slot (the old
        // one's storage is kept for the next line).
        let Editor {
            parts: p, tmp: v, ..
        } = self;
        v.clear();
        let present = match s.target {
            Target::Url => true,
            Target::Scheme => p.scheme.is_some(),
            Target::User => p.user_password().0.is_some_and(|u| !u.is_empty()),
            Target::Password => p.user_password().1.is_some(),
            Target::Host => p.host.is_some(),
            Target::Port => p.port.as_deref().is_some_and(|x| !x.is_empty()),
            Target::Path => !p.path.is_empty(),
            Target::Query => p.query.is_some(),
            Target::Fragment => p.fragment.is_some(),
        };
        if s.if_absent && present {
            return Ok(());
        }
        let data = s.data.as_str();
        let clear = data.is_empty();
        let enc = |v: &mut String, c: Component, also: &[u8]| {
            if s.encoded {
                v.push_str(data);
            } else {
                push_enc(v, data, c, also);
            }
        };
        match s.target {
            Target::Url => {
                if clear {
                    return Err(err("url= cannot be empty"));
                }
                let u = UriRef::parse(data).map_err(|e| err(e.to_string()))?;
                p.load(&u);
            }
            Target::Scheme => {
                if clear {
                    p.scheme = None;
                } else {
                    // The grammar's scheme rule decides (abnf/rfc3986.abnf).
                    let ok = crate::Parser::new()
                        .validate_component(Component::Scheme, data.as_bytes())
                        .is_ok();
                    if !ok {
                        return Err(err(format!(
                            "scheme={data}: a scheme is a letter, then letters, digits, +, - and . (RFC 3986 section 3.1)"
                        )));
                    }
                    put(&mut p.scheme, Some(data));
                }
            }
            Target::User | Target::Password => {
                if p.host.is_none() && !clear {
                    return Err(err(format!(
                        "{}: the reference has no authority (set a host first)",
                        if s.target == Target::User {
                            "user"
                        } else {
                            "password"
                        }
                    )));
                }
                let (user, pass) = p.user_password();
                // The new user info: `user[:password]`, or none at all.
                let some = if s.target == Target::User {
                    if !clear {
                        enc(v, Component::Userinfo, b":");
                    }
                    if let Some(pw) = pass {
                        v.push(':');
                        v.push_str(pw);
                    }
                    !clear || pass.is_some()
                } else {
                    v.push_str(user.unwrap_or(""));
                    if !clear {
                        v.push(':');
                        enc(v, Component::Userinfo, b"");
                    }
                    !clear || user.is_some()
                };
                if some {
                    std::mem::swap(p.userinfo.get_or_insert_with(String::new), v);
                } else {
                    p.userinfo = None;
                }
            }
            Target::Host => {
                if clear {
                    p.host = None;
                    p.userinfo = None;
                    p.port = None;
                } else {
                    // An IP literal as it is; anything else a registered
                    // name, encoded.
                    let literal = data.starts_with('[')
                        && crate::Parser::new()
                            .validate_component(Component::Host, data.as_bytes())
                            .is_ok();
                    if literal || s.encoded {
                        v.push_str(data);
                    } else {
                        push_enc(v, data, Component::Host, b"[]:");
                    }
                    std::mem::swap(p.host.get_or_insert_with(String::new), v);
                }
            }
            Target::Port => {
                if clear {
                    p.port = None;
                } else if crate::Parser::new()
                    .validate_component(Component::Port, data.as_bytes())
                    .is_err()
                {
                    return Err(err(format!(
                        "port={data}: a port is digits (RFC 3986 section 3.2.3)"
                    )));
                } else if p.host.is_none() {
                    return Err(err(
                        "port: the reference has no authority (set a host first)",
                    ));
                } else {
                    put(&mut p.port, Some(data));
                }
            }
            Target::Path => {
                enc(v, Component::Path, b"?#");
                std::mem::swap(&mut p.path, v);
            }
            Target::Query => {
                if clear {
                    p.query = None;
                } else {
                    enc(v, Component::Query, b"#");
                    std::mem::swap(p.query.get_or_insert_with(String::new), v);
                }
            }
            Target::Fragment => {
                if clear {
                    p.fragment = None;
                } else {
                    enc(v, Component::Fragment, b"");
                    std::mem::swap(p.fragment.get_or_insert_with(String::new), v);
                }
            }
        }
        Ok(())
    }

    /// Trims, replacements and the sort, on the query's pairs.
    fn query_edits(&mut self, edits: &Edits) {
        let Some(q) = self.parts.query.as_ref() else {
            // Only replace-append makes a query out of none.
            let adds: Vec<&(String, Option<String>, bool)> =
                edits.replaces.iter().filter(|r| r.2).collect();
            if adds.is_empty() {
                return;
            }
            let mut q = String::new();
            for (k, v, _) in adds {
                if !q.is_empty() {
                    q.push(edits.sep() as char);
                }
                q.push_str(k);
                if let Some(v) = v {
                    q.push('=');
                    q.push_str(v);
                }
            }
            self.parts.query = Some(q);
            return self.query_edits(&Edits {
                replaces: Vec::new(),
                ..edits.clone()
            });
        };
        let sep = edits.sep();
        self.tmp.clear();
        self.tmp.push_str(q);
        let text = &self.tmp;
        // The kept pairs, as spans of `text`.
        self.pairs.clear();
        let mut added: Vec<String> = Vec::new();
        let mut replaced = vec![false; edits.replaces.len()];
        'pairs: for p in params_with(text, sep) {
            let key = p.key_decoded(Decode::Percent);
            if edits.trims.iter().any(|t| t.matches(&key)) {
                continue;
            }
            for (k, r) in edits.replaces.iter().enumerate() {
                if crate::query::decode(&r.0, Decode::Percent) == key {
                    if !replaced[k] {
                        replaced[k] = true;
                        // A replacement pair: written after the kept text.
                        added.push(match &r.1 {
                            Some(v) => format!("{}={v}", r.0),
                            None => r.0.clone(),
                        });
                        self.pairs.push((usize::MAX, added.len() - 1));
                    }
                    continue 'pairs;
                }
            }
            self.pairs.push((p.span.start, p.span.end));
        }
        for (k, r) in edits.replaces.iter().enumerate() {
            if r.2 && !replaced[k] {
                added.push(match &r.1 {
                    Some(v) => format!("{}={v}", r.0),
                    None => r.0.clone(),
                });
                self.pairs.push((usize::MAX, added.len() - 1));
            }
        }
        let piece = |&(a, b): &(usize, usize)| -> &str {
            if a == usize::MAX {
                &added[b]
            } else {
                &text[a..b]
            }
        };
        if edits.sort {
            self.pairs.sort_by(|x, y| {
                let (x, y) = (piece(x).as_bytes(), piece(y).as_bytes());
                x.iter()
                    .map(u8::to_ascii_lowercase)
                    .cmp(y.iter().map(u8::to_ascii_lowercase))
            });
        }
        if self.pairs.is_empty() && params_with(text, sep).next().is_some() {
            // Every pair trimmed: no query left (not an empty one).
            self.parts.query = None;
            return;
        }
        let q = self.parts.query.get_or_insert_with(String::new);
        q.clear();
        for (n, p) in self.pairs.iter().enumerate() {
            if n > 0 {
                q.push(sep as char);
            }
            q.push_str(piece(p));
        }
    }
}

/// The tracking parameters `--strip-tracking` removes, as name patterns
/// ([`Edits::qtrim`]'s: `utm_*` is a prefix). Versioned: the list changes
/// only with [`TRACKING_PARAMS_VERSION`], so that a dedup run can say which
/// list it used. Gathered from the parameters the ad and mail platforms
/// document adding to links (Google Analytics and Ads, Meta, Microsoft
/// Ads, Mailchimp, HubSpot, Marketo, Yandex, TikTok, Twitter/X, LinkedIn,
/// Instagram, Olytics, Vero).
pub const TRACKING_PARAMS: &[&str] = &[
    "utm_*",
    "fbclid",
    "gclid",
    "gclsrc",
    "dclid",
    "gbraid",
    "wbraid",
    "msclkid",
    "mc_cid",
    "mc_eid",
    "_hsenc",
    "_hsmi",
    "__hssc",
    "__hstc",
    "__hsfp",
    "hsCtaTracking",
    "mkt_tok",
    "yclid",
    "ttclid",
    "twclid",
    "li_fat_id",
    "igshid",
    "_ga",
    "_gl",
    "oly_anon_id",
    "oly_enc_id",
    "vero_id",
    "vero_conv",
];

/// The version of [`TRACKING_PARAMS`].
pub const TRACKING_PARAMS_VERSION: &str = "2026-11";

/// Normalization for deduplication: RFC 3986 section 6.2.2 (case,
/// percent-encoding, dot segments), scheme-based normalization (6.2.3:
/// default port, empty http path), then query pairs stripped by name,
/// the query sorted, the fragment dropped. **Not meaning-preserving**:
/// two references this makes equal may name different resources (a
/// server may care about the order of its query, or about a parameter
/// stripped here); it is for counting and grouping, not for rewriting
/// links.
///
/// ```
/// use urilex::{edit::{Dedup, Editor}, UriRef};
/// let d = Dedup::new().strip_tracking();
/// let mut editor = Editor::new();
/// let mut out = String::new();
/// let u = UriRef::parse("HTTP://Example.COM:80/a/./b?utm_source=x&z=1&%61=2#top").unwrap();
/// d.apply(&mut editor, &u, &mut out).unwrap();
/// assert_eq!(out, "http://example.com/a/b?a=2&z=1");
/// ```
#[derive(Clone, Debug)]
pub struct Dedup {
    edits: Edits,
    normalize: crate::NormalizeOptions,
}

impl Default for Dedup {
    fn default() -> Self {
        Dedup::new()
    }
}

impl Dedup {
    /// 6.2.2 and 6.2.3, the query sorted, the fragment dropped; no
    /// parameter stripped.
    pub fn new() -> Dedup {
        Dedup {
            edits: Edits::new().sort_query(true).drop_fragment(true),
            normalize: crate::NormalizeOptions::new().scheme_based(true),
        }
    }

    /// Also removes the query pairs named by `pattern` (`NAME` or
    /// `PREFIX*`).
    pub fn strip(mut self, pattern: &str) -> Dedup {
        self.edits = self.edits.qtrim(pattern);
        self
    }

    /// Also removes the tracking parameters of [`TRACKING_PARAMS`].
    pub fn strip_tracking(mut self) -> Dedup {
        for p in TRACKING_PARAMS {
            self.edits = self.edits.qtrim(p);
        }
        self
    }

    /// Whether the query is sorted (default: yes).
    pub fn sort_query(mut self, on: bool) -> Dedup {
        self.edits = self.edits.sort_query(on);
        self
    }

    /// Whether the fragment is dropped (default: yes).
    pub fn drop_fragment(mut self, on: bool) -> Dedup {
        self.edits = self.edits.drop_fragment(on);
        self
    }

    /// Whether scheme-based normalization is done (default: yes).
    pub fn scheme_based(mut self, on: bool) -> Dedup {
        self.normalize = self.normalize.scheme_based(on);
        self
    }

    /// Whether IPv6 addresses are written in RFC 5952 form (default: no,
    /// as [`crate::NormalizeOptions`]).
    pub fn ipv6_rfc5952(mut self, on: bool) -> Dedup {
        self.normalize = self.normalize.ipv6_rfc5952(on);
        self
    }

    /// The byte between query pairs.
    pub fn query_separator(mut self, sep: u8) -> Dedup {
        self.edits = self.edits.query_separator(sep);
        self
    }

    /// Writes the dedup form of `u` into `out`.
    pub fn apply(
        &self,
        editor: &mut Editor,
        u: &UriRef<'_>,
        out: &mut String,
    ) -> Result<(), EditError> {
        let mut text = std::mem::take(&mut editor.tmp2);
        crate::normalize_into(u, self.normalize, &mut text);
        let r = crate::Parser::new()
            .profile(u.profile())
            .parse(&text)
            .map_err(|e| err(format!("normalized to an invalid reference: {e}")))
            .and_then(|n| editor.apply(&self.edits, &n, out));
        editor.tmp2 = text;
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ed(edits: &Edits, u: &str) -> Result<String, String> {
        let mut out = String::new();
        Editor::new()
            .apply(edits, &UriRef::parse(u).unwrap(), &mut out)
            .map_err(|e| e.to_string())?;
        Ok(out)
    }

    #[test]
    fn sets() {
        let s = |spec: &str, u: &str| ed(&Edits::new().set(spec).unwrap(), u);
        assert_eq!(
            s("host=example.com", "https://curl.se").unwrap(),
            "https://example.com"
        );
        assert_eq!(
            s("port=8080", "https://curl.se/we/are.html").unwrap(),
            "https://curl.se:8080/we/are.html"
        );
        assert_eq!(s("port?=8080", "https://h:1/").unwrap(), "https://h:1/");
        assert_eq!(s("port?=8080", "https://h/").unwrap(), "https://h:8080/");
        assert_eq!(s("port=", "https://h:1/").unwrap(), "https://h/");
        assert_eq!(s("path=pony", "http://hello").unwrap(), "http://hello/pony");
        assert_eq!(
            s("path=/a b?c#d%", "http://h").unwrap(),
            "http://h/a%20b%3Fc%23d%25"
        );
        assert_eq!(s("path:=/a%20b", "http://h").unwrap(), "http://h/a%20b");
        assert_eq!(
            s("query=?elephant", "http://horse?x").unwrap(),
            "http://horse??elephant"
        );
        assert_eq!(
            s("query=a b&c=d#e", "http://h/").unwrap(),
            "http://h/?a%20b&c=d%23e"
        );
        assert_eq!(s("query=", "http://h/?q#f").unwrap(), "http://h/#f");
        assert_eq!(s("fragment=x y", "http://h/").unwrap(), "http://h/#x%20y");
        assert_eq!(
            s("user=::moo::", "https://fake.host/hello#frag").unwrap(),
            "https://%3A%3Amoo%3A%3A@fake.host/hello#frag"
        );
        assert_eq!(
            s("password=p:w", "https://u@h/").unwrap(),
            "https://u:p:w@h/"
        );
        assert_eq!(s("password=", "https://u:p@h/").unwrap(), "https://u@h/");
        assert_eq!(s("user=", "https://u:p@h/").unwrap(), "https://:p@h/");
        assert_eq!(s("scheme=ftp", "http://h/").unwrap(), "ftp://h/");
        assert!(s("scheme=1x", "http://h/")
            .unwrap_err()
            .contains("section 3.1"));
        assert!(s("port=8a", "http://h/")
            .unwrap_err()
            .contains("section 3.2.3"));
        assert!(s("port=1", "mailto:a@b")
            .unwrap_err()
            .contains("no authority"));
        assert_eq!(s("host=h", "/a/b").unwrap(), "//h/a/b");
        assert_eq!(s("host=h", "a/b").unwrap(), "//h/a/b");
        assert_eq!(s("host=[::1]", "http://x/").unwrap(), "http://[::1]/");
        assert_eq!(s("host=a:b", "http://x/").unwrap(), "http://a%3Ab/");
        assert_eq!(s("host=[;", "").unwrap(), "//%5B;");
        // Structure the grammar needs (sections 3.3 and 4.2).
        assert_eq!(s("host=", "http://h//x").unwrap(), "http:/.//x");
        assert_eq!(s("scheme=", "a:b:c").unwrap(), "./b:c");
        assert_eq!(s("path=a:b", "").unwrap(), "./a:b");
        // `:=` data that cannot be there: an error, not output.
        assert!(s("query:=a b", "http://h/")
            .unwrap_err()
            .contains("not valid"));
        assert!(s("host:=a b", "http://h/").is_err());
        assert!(Edits::new().set("options=x").is_err());
        assert!(Edits::new().set("zoneid=x").is_err());
        assert!(Edits::new().set("bogus").is_err());
        assert_eq!(
            s("url=http://other/", "http://h/").unwrap(),
            "http://other/"
        );
    }

    #[test]
    fn appends_and_queries() {
        let e = Edits::new().append("path=you").unwrap();
        assert_eq!(
            ed(&e, "https://curl.se/hello").unwrap(),
            "https://curl.se/hello/you"
        );
        assert_eq!(
            ed(&e, "https://curl.se/hello/").unwrap(),
            "https://curl.se/hello/you"
        );
        assert_eq!(ed(&e, "https://curl.se").unwrap(), "https://curl.se/you");
        let e = Edits::new().append("path=a/b c").unwrap();
        assert_eq!(ed(&e, "http://h/x").unwrap(), "http://h/x/a%2Fb%20c");
        let e = Edits::new().append("query=search=string").unwrap();
        assert_eq!(
            ed(&e, "https://curl.se?name=hello").unwrap(),
            "https://curl.se?name=hello&search=string"
        );
        assert_eq!(
            ed(&e, "https://curl.se").unwrap(),
            "https://curl.se?search=string"
        );
        let e = Edits::new().append("query=a&b=c=d+e").unwrap();
        assert_eq!(ed(&e, "http://h/").unwrap(), "http://h/?a%26b=c=d%2Be");
        assert!(Edits::new().append("host=x").is_err());

        let t = Edits::new().qtrim("utm_*").qtrim("fbclid");
        assert_eq!(
            ed(
                &t,
                "https://curl.se?search=hey&utm_source=tracker&fbclid=1&%75tm_x=2&fbclid2=3"
            )
            .unwrap(),
            "https://curl.se?search=hey&fbclid2=3"
        );
        assert_eq!(ed(&t, "https://h/?utm_a=1#f").unwrap(), "https://h/#f");
        assert_eq!(ed(&t, "https://h/?").unwrap(), "https://h/?");
        let lit = Edits::new().qtrim("a\\*");
        assert_eq!(ed(&lit, "http://h/?a*=1&ab=2").unwrap(), "http://h/?ab=2");

        let r = Edits::new().replace("b=new value");
        assert_eq!(
            ed(&r, "http://h/?a=1&b=2&c=3&b=4").unwrap(),
            "http://h/?a=1&b=new%20value&c=3"
        );
        assert_eq!(ed(&r, "http://h/?a=1").unwrap(), "http://h/?a=1");
        let ra = Edits::new().replace_append("b=x");
        assert_eq!(ed(&ra, "http://h/?a=1").unwrap(), "http://h/?a=1&b=x");
        assert_eq!(ed(&ra, "http://h/").unwrap(), "http://h/?b=x");

        let s = Edits::new().sort_query(true);
        assert_eq!(
            ed(&s, "http://h/?b=2&A=1&a=0&c").unwrap(),
            "http://h/?a=0&A=1&b=2&c"
        );
        let semi = Edits::new().sort_query(true).query_separator(b';');
        assert_eq!(
            ed(&semi, "http://h/?b=2;a=1&z").unwrap(),
            "http://h/?a=1&z;b=2"
        );
    }

    /// RFC 3986 section 5.4.1's base and some of its examples.
    #[test]
    fn redirects() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("../g", "http://a/b/g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("//g", "http://g"),
        ] {
            let e = Edits::new().redirect(r).unwrap();
            assert_eq!(ed(&e, base).unwrap(), want);
        }
        let e = Edits::new()
            .redirect("here.html")
            .unwrap()
            .set("port=8080")
            .unwrap();
        assert_eq!(
            ed(&e, "https://curl.se/we/are.html").unwrap(),
            "https://curl.se:8080/we/here.html"
        );
        assert!(ed(&Edits::new().redirect("x").unwrap(), "/relative").is_err());
    }
}
