//! `urilex hierarchy`: each reference's levels, as ClickHouse's
//! `URLHierarchy` (`--path-only`: `URLPathHierarchy`).

use super::ops::Common;
use crate::failure::Failure;
use urilex::hierarchy::hierarchy;
use urilex::UriRef;
use urilex_io::ops::{Items, Operation};
use urilex_io::table::{Cell, Type};

#[derive(clap::Args)]
#[command(after_help = "Examples:
  echo https://example.com/a/b?c=1 | urilex hierarchy
      https://example.com/  https://example.com/a/  https://example.com/a/b?  https://example.com/a/b?c=1
  urilex hierarchy --path-only --count --top 50 urls.txt    the busiest sections of a site
The reference is cut after each run of `/`, `?` and `#` after its authority.
A reference without `scheme://` is its own one level (none with --path-only).")]
pub struct Args {
    /// From the path on, without the scheme and authority (URLPathHierarchy).
    #[arg(long)]
    pub path_only: bool,
    #[command(flatten)]
    pub common: Common,
}

struct Levels(bool);

impl Operation for Levels {
    fn columns(&self) -> Vec<(&'static str, Type, bool)> {
        vec![("value", Type::Text, false)]
    }
    fn text_as_is(&self) -> bool {
        true
    }
    fn items(&self, u: &UriRef<'_>, out: &mut Items<'_>) -> Result<(), String> {
        for level in hierarchy(u, self.0) {
            out.item(&[Cell::Text(level.as_bytes())]);
        }
        Ok(())
    }
}

pub fn run(a: Args) -> Result<(), Failure> {
    super::ops::run(&a.common, &Levels(a.path_only))
}
