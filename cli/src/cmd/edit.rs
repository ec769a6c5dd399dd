//! `urilex edit`: each reference changed as trurl's `--set`, `--append`,
//! `--qtrim`, `--replace`, `--replace-append`, `--sort-query` and
//! `--redirect` say (`urilex::edit`), one line per record.

use super::ops::Common;
use crate::failure::Failure;
use std::cell::RefCell;
use urilex::edit::{Editor, Edits};
use urilex::UriRef;
use urilex_io::ops::{Items, Operation};
use urilex_io::table::{Cell, Type};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex edit --set host=example.com urls.txt
  urilex edit --set 'port?=8080' --set 'path:=/a%20b' urls.txt     ?= only when absent; := already encoded
  urilex edit --qtrim 'utm_*' --qtrim fbclid --sort-query urls.txt
  urilex edit --append path=v2 --append 'query=lang=en' urls.txt
  urilex edit --replace-append 'page=1' urls.txt
  urilex edit --redirect ../other.html urls.txt                   RFC 3986 5.2 resolution
The edits run in this order: --redirect, --set, --append, --qtrim, --replace,
--replace-append, --sort-query. Data after `=` is percent-encoded for its
component, so each result is a valid reference (and is checked: a result that
is not, from `:=` data, is an error of its line). Nothing else is changed: no
normalization, no default port dropped, no `/` added to an empty path.
One line per record: an invalid reference, or an edit that cannot be made,
gives an empty line and a message on stderr (exit status 1).")]
pub struct Args {
    /// COMPONENT=DATA, COMPONENT:=DATA (already encoded), COMPONENT?=DATA
    /// (only when absent); empty DATA removes the component. Components:
    /// url scheme user password host port path query fragment.
    #[arg(long, short = 's', value_name = "COMPONENT=DATA")]
    pub set: Vec<String>,
    /// path=SEGMENT or query=KEY=VALUE.
    #[arg(long, short = 'a', value_name = "COMPONENT=DATA")]
    pub append: Vec<String>,
    /// Remove the query pairs named NAME, or starting with PREFIX for PREFIX*.
    #[arg(long, value_name = "NAME|PREFIX*")]
    pub qtrim: Vec<String>,
    /// KEY=VALUE: the first pair with KEY becomes this one (later ones go).
    #[arg(long, value_name = "KEY=VALUE")]
    pub replace: Vec<String>,
    /// As --replace, and the pair is appended when KEY is not there.
    #[arg(long, value_name = "KEY=VALUE")]
    pub replace_append: Vec<String>,
    /// Sort the query's pairs, ignoring case (as trurl).
    #[arg(long)]
    pub sort_query: bool,
    /// Resolve this reference against each input (RFC 3986 section 5.2).
    #[arg(long, value_name = "REF")]
    pub redirect: Option<String>,
    /// The byte between query pairs.
    #[arg(long, default_value = "&", value_parser = super::params::separator)]
    pub query_separator: u8,
    #[command(flatten)]
    pub common: Common,
}

struct Edit(Edits);

thread_local! {
    /// Each worker's editor (its buffers reused from line to line) and output.
    static EDITOR: RefCell<(Editor, String)> = RefCell::new((Editor::new(), String::new()));
}

impl Operation for Edit {
    fn columns(&self) -> Vec<(&'static str, Type, bool)> {
        vec![("value", Type::Text, true)]
    }
    fn one_per_record(&self) -> bool {
        true
    }
    fn text_as_is(&self) -> bool {
        // A valid reference has no CR or LF.
        true
    }
    fn items(&self, u: &UriRef<'_>, out: &mut Items<'_>) -> Result<(), String> {
        EDITOR.with(|e| {
            let (editor, text) = &mut *e.borrow_mut();
            editor.apply(&self.0, u, text).map_err(|e| e.to_string())?;
            out.item(&[Cell::Text(text.as_bytes())]);
            Ok(())
        })
    }
}

pub fn run(a: Args) -> Result<(), Failure> {
    refuse_uneditable(a.common.profile.profile, "edit")?;
    let bad = |e: urilex::edit::EditError| Failure::Message(e.to_string());
    let mut edits = Edits::new().query_separator(a.query_separator);
    if let Some(r) = &a.redirect {
        edits = edits.redirect(r).map_err(bad)?;
    }
    for s in &a.set {
        edits = edits.set(s).map_err(bad)?;
    }
    for s in &a.append {
        edits = edits.append(s).map_err(bad)?;
    }
    for q in &a.qtrim {
        edits = edits.qtrim(q);
    }
    for r in &a.replace {
        edits = edits.replace(r);
    }
    for r in &a.replace_append {
        edits = edits.replace_append(r);
    }
    edits = edits.sort_query(a.sort_query);
    super::ops::run(&a.common, &Edit(edits))
}

/// A grammar without RFC 3986's parts is refused before any work (exit 2,
/// one line on stderr): an edit would drop the parts the editor does not
/// know (`urilex::edit::editable`).
pub fn refuse_uneditable(profile: urilex::Profile, what: &str) -> Result<(), Failure> {
    if urilex::edit::editable(profile) {
        return Ok(());
    }
    let can: Vec<&str> = urilex::Profile::defined()
        .filter_map(|(name, _)| urilex::Profile::by_name(name).ok())
        .filter(|p| urilex::edit::editable(*p))
        .map(|p| p.name())
        .collect();
    Err(Failure::Message(format!(
        "{what} works on RFC 3986's parts, which profile `{}` does not have (these do: {})",
        profile.name(),
        can.join(", ")
    )))
}
