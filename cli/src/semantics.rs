//! `urilex parse --semantics`: what the scheme's own section of RFC 1738
//! says a URL's parts mean (the library's typed views in
//! `urilex::scheme::rfc1738`), as one JSON object per valid row.

use serde_json::{json, Map, Value};
use std::borrow::Cow;
use urilex::scheme::rfc1738::{FtpCommand, Login, NewsTarget, TypeCode, Url, WaisTarget};
use urilex::UriRef;

/// Decoded bytes as JSON text (bytes that are not UTF-8 replaced).
fn text(b: &[u8]) -> Value {
    Value::String(String::from_utf8_lossy(b).into_owned())
}

fn texts<'a>(xs: impl IntoIterator<Item = Cow<'a, [u8]>>) -> Value {
    Value::Array(xs.into_iter().map(|x| text(&x)).collect())
}

/// The typed fields of a URL parsed under the RFC 1738 profile; `None` for
/// a reference of another profile.
pub fn of(u: &UriRef<'_>) -> Option<Value> {
    let url = Url::of(*u)?;
    let mut m = Map::new();
    m.insert("default_port".into(), json!(url.default_port()));
    m.insert("port".into(), json!(url.port()));
    let add = |m: &mut Map<String, Value>, v: Value| {
        if let Value::Object(o) = v {
            m.extend(o);
        }
    };
    match &url {
        Url::Ftp(f) => {
            let login = match f.login() {
                Login::Anonymous => json!("anonymous"),
                Login::User { user, password } => json!({
                    "user": text(&user),
                    "password": password.map(|p| text(&p)),
                }),
            };
            let typecode = f.typecode().map(|t| match t {
                TypeCode::Ascii => "a",
                TypeCode::Image => "i",
                TypeCode::Directory => "d",
            });
            let commands: Vec<String> = f.commands().iter().map(FtpCommand::to_string).collect();
            add(
                &mut m,
                json!({
                    "section": "3.2",
                    "host": f.host(),
                    "login": login,
                    "cwd": texts(f.cwd()),
                    "name": f.name().map(|n| text(&n)),
                    "typecode": typecode,
                    "commands": commands,
                }),
            );
        }
        Url::Http(h) => add(
            &mut m,
            json!({
                "section": "3.3",
                "host": h.host(),
                "path": h.path(),
                "segments": h.segments().collect::<Vec<_>>(),
                "search": h.search(),
            }),
        ),
        Url::Gopher(g) => add(
            &mut m,
            json!({
                "section": "3.4",
                "host": g.host(),
                "gopher_type": text(&[g.gopher_type()]),
                "selector": text(&g.selector()),
                "search": g.search().map(|s| text(&s)),
                "gopher_plus": g.gopher_plus().map(|s| text(&s)),
                "request": text(&g.request()),
            }),
        ),
        Url::Mailto(a) => add(
            &mut m,
            json!({ "section": "3.5", "address": text(&a.address()) }),
        ),
        Url::News(n) => add(
            &mut m,
            match n.target() {
                NewsTarget::AllGroups => json!({ "section": "3.6", "target": "all-groups" }),
                NewsTarget::Group(g) => json!({ "section": "3.6", "target": "group", "group": g }),
                NewsTarget::Article(a) => {
                    json!({ "section": "3.6", "target": "article", "message_id": a })
                }
            },
        ),
        Url::Nntp(n) => add(
            &mut m,
            json!({
                "section": "3.7",
                "host": n.host(),
                "group": n.group(),
                "article": n.article(),
            }),
        ),
        Url::Telnet(t) => add(
            &mut m,
            json!({
                "section": "3.8",
                "host": t.host(),
                "user": t.user(),
                "password": t.password(),
            }),
        ),
        Url::Wais(w) => add(
            &mut m,
            match w.target() {
                WaisTarget::Database => json!({
                    "section": "3.9", "host": w.host(), "database": w.database(), "form": "database",
                }),
                WaisTarget::Search(s) => json!({
                    "section": "3.9", "host": w.host(), "database": w.database(), "form": "search",
                    "search": s,
                }),
                WaisTarget::Document { wtype, wpath } => json!({
                    "section": "3.9", "host": w.host(), "database": w.database(), "form": "document",
                    "wtype": wtype, "wpath": wpath,
                }),
            },
        ),
        Url::File(f) => add(
            &mut m,
            json!({
                "section": "3.10",
                "host": f.host(),
                "local": f.is_local(),
                "path": f.path(),
                "segments": texts(f.segments()),
            }),
        ),
        Url::Prospero(p) => add(
            &mut m,
            json!({
                "section": "3.11",
                "host": p.host(),
                "hsoname": text(&p.hsoname()),
                "fields": p.fields().map(|(n, v)| json!([text(&n), text(&v)])).collect::<Vec<_>>(),
            }),
        ),
        _ => add(&mut m, json!({ "section": "5 (genericurl)" })),
    }
    Some(Value::Object(m))
}
