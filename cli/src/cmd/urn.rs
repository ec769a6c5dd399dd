//! `urilex urn`: URNs (RFC 8141, or draft-ietf-urnbis-rfc2141bis-urn-03), one per line, split
//! into their parts; or with `--equiv`, pairs compared for lexical
//! equivalence.

use crate::args::{urn_profile_parser, InputsArg, ThreadsArg};
use crate::failure::Failure;
use crate::output::{error_field, json_str};
use std::io::Write;
use urilex::urn::{QueryRule, Urn};
use urilex::Profile;
use urilex_io::schema::ErrorCell;

#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq)]
pub enum QueryArg {
    /// Step 5a of draft-ietf-urnbis-rfc2141bis-urn-03 section 5: ignore the query.
    Drop,
    /// Step 5b: compare the directives in a preferred keyword order.
    Reorder,
}

#[derive(clap::Args)]
#[command(after_help = "Examples:
  echo 'urn:ISBN:0-395-36341-1?+res?=q#f' | urilex urn
  urilex urn --profile urn-draft-03 urns.txt          directives as [keywd, value] pairs
  printf 'URN:foo:a123%2c456\\turn:FOO:a123%2C456\\n' | urilex urn --equiv          true
  printf 'urn:foo:a?x=y\\turn:foo:a\\n' | urilex urn --equiv --profile urn-draft-03 --query reorder
Each row: valid, nid, nss, r, q, f (null absent, \"\" empty), for the draft
directives, and for an invalid line error with kind, component, rule,
index, line and message. With --equiv each line is `a<TAB>b` and its row
`true` or `false` (`ERROR FILE:LINE: message` if either is not a URN).")]
pub struct Args {
    /// URN grammar: `rfc8141` (RFC 8141) or `urn-draft-03` (draft-ietf-urnbis-rfc2141bis-urn-03).
    #[arg(long, default_value = "rfc8141", value_parser = urn_profile_parser())]
    pub profile: Profile,
    /// Compare `a<TAB>b` pairs for lexical equivalence (RFC 8141 section
    /// 3, or draft-ietf-urnbis-rfc2141bis-urn-03 section 5).
    #[arg(long)]
    pub equiv: bool,
    /// What equivalence does with a query (draft-ietf-urnbis-rfc2141bis-urn-03 step 5a or 5b); under
    /// rfc8141 the r- and q-components are always ignored.
    #[arg(long, value_enum, default_value_t = QueryArg::Drop, requires = "equiv")]
    pub query: QueryArg,
    #[command(flatten)]
    pub threads: ThreadsArg,
    #[command(flatten)]
    pub inputs: InputsArg,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let profile = a.profile;
    let rule = match a.query {
        QueryArg::Drop => QueryRule::Drop,
        QueryArg::Reorder => QueryRule::Reorder,
    };
    let draft = profile.part("directive").is_some();
    super::run_lines(
        &a.inputs,
        a.threads.threads,
        || (),
        |_, rec, at, out| {
            let line = match rec {
                Ok(line) => line,
                Err(m) if a.equiv => return writeln!(out, "ERROR {at}: {m}"),
                Err(m) => return invalid_row(out, draft, &ErrorCell::format(m, None), at.line),
            };
            let Ok(text) = std::str::from_utf8(line) else {
                if a.equiv {
                    return writeln!(out, "ERROR {at}: not UTF-8");
                }
                // The grammar's error: where the first byte that is not ASCII is.
                let e = urilex::Parser::new()
                    .profile(profile)
                    .parse_bytes(line)
                    .unwrap_err();
                return invalid_row(out, draft, &ErrorCell::parse(e, line), at.line);
            };
            if a.equiv {
                let Some((x, y)) = text.split_once('\t') else {
                    return writeln!(out, "ERROR {at}: expected two URNs separated by a tab");
                };
                return match (Urn::parse_with(profile, x), Urn::parse_with(profile, y)) {
                    (Ok(x), Ok(y)) => writeln!(out, "{}", x.equivalent(&y, rule)),
                    (Err(e), _) | (_, Err(e)) => writeln!(out, "ERROR {at}: {e}"),
                };
            }
            match Urn::parse_with(profile, text) {
                Ok(u) => {
                    write!(out, "{{\"line\":{},\"valid\":true,\"nid\":", at.line)?;
                    json_str(out, Some(u.nid()))?;
                    out.write_all(b",\"nss\":")?;
                    json_str(out, Some(u.nss()))?;
                    out.write_all(b",\"r\":")?;
                    json_str(out, u.r_component())?;
                    out.write_all(b",\"q\":")?;
                    json_str(out, u.q_component())?;
                    out.write_all(b",\"f\":")?;
                    json_str(out, u.f_component())?;
                    if draft {
                        out.write_all(b",\"directives\":[")?;
                        for (i, (k, v)) in u.directives().enumerate() {
                            out.write_all(if i == 0 { b"[" } else { b",[" })?;
                            json_str(out, Some(k))?;
                            out.write_all(b",")?;
                            json_str(out, Some(v))?;
                            out.write_all(b"]")?;
                        }
                        out.write_all(b"]")?;
                    }
                    out.write_all(b",\"error\":null}\n")
                }
                Err(e) => {
                    // The URN module's message (the draft's NID rule says
                    // more than the grammar's).
                    let message = e.to_string();
                    let mut cell = ErrorCell::parse(e.error, line);
                    cell.message = urilex_io::schema::Message::Text(&message);
                    invalid_row(out, draft, &cell, at.line)
                }
            }
        },
    )
}

/// The row of a record that is not a URN: every part null, and the error.
fn invalid_row(
    out: &mut impl Write,
    draft: bool,
    e: &ErrorCell<'_>,
    line: u64,
) -> std::io::Result<()> {
    let valid = if e.kind == "format" { "null" } else { "false" };
    write!(
        out,
        "{{\"line\":{line},\"valid\":{valid},\"nid\":null,\"nss\":null,\"r\":null,\"q\":null,\"f\":null"
    )?;
    if draft {
        out.write_all(b",\"directives\":null")?;
    }
    error_field(out, e)?;
    out.write_all(b"}\n")
}
