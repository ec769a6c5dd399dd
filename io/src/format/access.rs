//! `common` and `combined`: Apache/nginx access logs (the Common Log
//! Format, and the Combined one with a referer and a user agent). A row is
//! the request line's target, in the form its method gives it, and the
//! referer where `--field` asks for it ([`crate::logline`] reads the line).

use super::{numbered_lines, Carried, CarriedKind, Chunk, Context, Decoder, Registered, Rows};
use crate::logline::{self, LogLine};
use std::sync::Arc;

pub(super) const COMMON: Registered = Registered {
    name: "common",
    argument: None,
    about: "Apache/nginx Common Log Format: the request target",
    make: |_| Ok(Arc::new(Access { combined: false })),
};

pub(super) const COMBINED: Registered = Registered {
    name: "combined",
    argument: None,
    about: "Combined Log Format: the request target and the referer",
    make: |_| Ok(Arc::new(Access { combined: true })),
};

/// The carried fields, the combined format's two last.
const FIELDS: [Carried; 10] = [
    Carried::text("client"),
    Carried::text("ident"),
    Carried::text("user"),
    Carried::text("time"),
    Carried::text("method"),
    Carried::text("protocol"),
    Carried::new("status", CarriedKind::U16),
    Carried::new("bytes", CarriedKind::U64),
    Carried::text("referer"),
    Carried::text("user_agent"),
];

struct Access {
    combined: bool,
}

impl Decoder for Access {
    fn splittable(&self) -> bool {
        true
    }

    fn spec(&self) -> String {
        self.name().into()
    }
    fn label(&self) -> &'static str {
        if self.combined {
            "combined format"
        } else {
            "common format"
        }
    }
    fn requests(&self) -> bool {
        true
    }
    fn has_referer(&self) -> bool {
        self.combined
    }
    fn carried(&self) -> &'static [Carried] {
        if self.combined {
            &FIELDS
        } else {
            &FIELDS[..8]
        }
    }

    fn decode(&self, chunk: &Chunk, _: &Context, rows: &mut Rows<'_>) {
        // Each carried field asked for, by its place in FIELDS.
        let wanted: Vec<Option<usize>> = rows
            .ex
            .carry
            .iter()
            .map(|c| FIELDS.iter().position(|f| f == c))
            .collect();
        for (line, rec) in numbered_lines(chunk) {
            self.row(rows, rec, line, &wanted);
        }
    }
}

impl Access {
    fn name(&self) -> &'static str {
        if self.combined {
            "combined"
        } else {
            "common"
        }
    }

    fn row(&self, rows: &mut Rows<'_>, rec: &[u8], line: u64, wanted: &[Option<usize>]) {
        let parsed = match logline::parse(rec, self.combined) {
            Ok(l) => l,
            Err((what, at)) => return rows.error(line, what, at),
        };
        let out = &mut *rows.out;
        let start = out.arena.len();
        let l = LogLine::unescape(&parsed, &mut out.arena, !wanted.is_empty());
        let request = &out.arena[l.request.0 as usize..l.request.1 as usize];
        let target = match logline::request_target(request) {
            Ok(t) => t,
            Err(what) => {
                out.arena.truncate(start);
                return rows.error(line, what, None);
            }
        };
        let at =
            |r: std::ops::Range<usize>| (l.request.0 + r.start as u32, l.request.0 + r.end as u32);
        rows.request(Some((target.form, at(target.target.clone()))), l.referer);
        for &k in wanted {
            let span = match k.unwrap_or(usize::MAX) {
                0 => l.client,
                1 => l.ident,
                2 => l.user,
                3 => l.time,
                4 => Some(at(target.method.clone())),
                5 => target.protocol.clone().map(at),
                6 => l.status,
                7 => l.bytes,
                8 => l.referer,
                9 => l.user_agent,
                _ => None,
            };
            rows.out.carried.push(span);
        }
        rows.done(line);
    }
}
