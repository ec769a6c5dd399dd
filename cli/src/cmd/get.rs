//! `urilex get TEMPLATE`: one line per record, written with trurl's
//! `--get` template language (unfurl's `%` directives with `--percent`).

use super::ops::Common;
use crate::failure::Failure;
use urilex::template::Template;
use urilex::UriRef;
use urilex_io::ops::{Items, Operation};
use urilex_io::table::{Cell, Type};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex get '{host}' samples/requests.txt
  urilex get '{scheme}://{host}{+:port}{path}' urls.txt    the port's `:` only with a port
  urilex get '{query:utm_source}' urls.txt                 a query value, decoded
  urilex get '{query-all:tag}' urls.txt                    every value of a key, space-separated
  urilex get '{host:registrable}' --count --top 20 urls.txt
  urilex get --input combined --field referer '{host}' access.log
  urilex get --percent '%d%p' urls.txt                     unfurl's `format`
Fields: url scheme user password options host port path query fragment zoneid;
userinfo authority query:KEY query-all:KEY path:N path:-N path:ext host:registrable
host:suffix host:sub host:root host:nowww (extensions). Prefixes: url: or : (as
written, not decoded), strict:, must:, default: (the port), puny:, idn:. A
conditional separator: `{+:port}`, `{+?query}`, `{userinfo+@}` (one of ? # : @ / ; &).
One line per record: an invalid reference (or a `must:`/`strict:` field that
fails) gives an empty line and a message `urilex: FILE:LINE: ...` on stderr,
and the exit status is 1. Values are the reference's text (decoded unless url:),
never guessed: no scheme is added, an empty path stays empty, default ports are
not dropped.")]
pub struct Args {
    /// The template: trurl's `--get` language, or unfurl's with --percent.
    pub template: String,
    /// Read the template as unfurl's `%` directives (%s %u %d %S %r %t %P %p %e %q %f %@ %: %? %# %a %%).
    #[arg(long)]
    pub percent: bool,
    /// Write every field URL-encoded, as the reference has it, as the `:`
    /// prefix does for one (trurl's `--urlencode`).
    #[arg(long)]
    pub urlencode: bool,
    /// Which Public Suffix List rules the host: fields use: all (the
    /// private domains' too, as browsers) or icann.
    #[arg(long, value_enum, default_value_t = Psl::All)]
    pub psl: Psl,
    #[command(flatten)]
    pub common: Common,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Psl {
    All,
    Icann,
}

impl Psl {
    pub fn section(self) -> urilex::domain::Section {
        match self {
            Psl::All => urilex::domain::Section::All,
            Psl::Icann => urilex::domain::Section::Icann,
        }
    }
}

struct Get(Template);

impl Operation for Get {
    fn columns(&self) -> Vec<(&'static str, Type, bool)> {
        vec![("value", Type::Bytes, true)]
    }
    fn one_per_record(&self) -> bool {
        true
    }
    fn text_as_is(&self) -> bool {
        true
    }
    fn has_entry_items(&self) -> bool {
        self.0.entry_ready()
    }
    fn batch_items(
        &self,
        batch: &urilex::Batch,
        i: usize,
        buf: &[u8],
        out: &mut Items<'_>,
    ) -> Option<Result<(), String>> {
        Some(emit(out, |v| self.0.render_batch(batch, i, buf, v)))
    }
    fn items(&self, u: &UriRef<'_>, out: &mut Items<'_>) -> Result<(), String> {
        emit(out, |v| self.0.render(u, v))
    }
}

/// A rendered value: straight onto the text output when items go there
/// as they are, otherwise made in the worker's scratch and handed on as an
/// item. Nothing is written for a value that fails.
fn emit(
    out: &mut Items<'_>,
    render: impl FnOnce(&mut Vec<u8>) -> Result<(), urilex::template::RenderError>,
) -> Result<(), String> {
    if let Some(text) = out.text_line() {
        let mark = text.len();
        let r = render(text);
        match r {
            Ok(()) => text.push(b'\n'),
            Err(_) => text.truncate(mark),
        }
        return r.map_err(|e| e.to_string());
    }
    let mut s = std::mem::take(out.scratch);
    s.clear();
    let r = render(&mut s).map_err(|e| e.to_string());
    if r.is_ok() {
        out.item(&[Cell::Text(&s)]);
    }
    *out.scratch = s;
    r
}

pub fn run(a: Args) -> Result<(), Failure> {
    let t = if a.percent {
        Template::parse_percent(&a.template)
    } else {
        Template::parse(&a.template)
    }
    .map_err(|e| Failure::Message(e.to_string()))?
    .url_encoded(a.urlencode)
    .section(a.psl.section())
    // On text lines, a value's own CR or LF would end the line early.
    .one_line(a.common.format == super::ops::OpFormat::Text);
    super::ops::run(&a.common, &Get(t))
}
