//! `urilex params`, `keys`, `values`: the key=value pairs of each
//! reference's query (`urilex::query`): every pair, in order, repeated
//! keys all kept.

use super::ops::Common;
use crate::failure::Failure;
use urilex::query::{decode_into, params_with, Decode};
use urilex::UriRef;
use urilex_io::ops::{Items, Operation};
use urilex_io::table::{Cell, Type};

/// The flags of `params`, `keys` and `values`.
#[derive(clap::Args)]
#[command(after_help = "Examples:
  urilex params urls.txt                        line, key, value, decoded key, decoded value
  urilex params --format parquet -o pairs.parquet urls.txt
  urilex keys --count urls.txt                  which parameters, how often
  urilex values --unique urls.txt
  urilex params --decode form --query-separator ';' urls.txt
A pair without `=` has a null value (`\\N` in text and TSV), `a=` an empty one;
`=v` has an empty key; empty pieces (`a&&b`) are no pairs. `keys` writes every
key, `values` every value (pairs without `=` have none). Keys and values are
decoded as --decode says (percent by default; `form` also reads `+` as a space).")]
pub struct Args {
    /// How keys and values are decoded: none (as written), percent, or
    /// form (percent, and `+` as a space).
    #[arg(long, value_enum, default_value_t = DecodeArg::Percent)]
    pub decode: DecodeArg,
    /// The byte between pairs (trurl's --query-separator).
    #[arg(long, default_value = "&", value_parser = separator)]
    pub query_separator: u8,
    #[command(flatten)]
    pub common: Common,
}

pub fn separator(s: &str) -> Result<u8, String> {
    match s.as_bytes() {
        [b] if b.is_ascii() && *b != b'=' => Ok(*b),
        _ => Err("one ASCII character, not `=`".into()),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DecodeArg {
    None,
    Percent,
    Form,
}

impl DecodeArg {
    fn decode(self) -> Decode {
        match self {
            DecodeArg::None => Decode::None,
            DecodeArg::Percent => Decode::Percent,
            DecodeArg::Form => Decode::Form,
        }
    }
}

/// Which of the three.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum What {
    Params,
    Keys,
    Values,
}

struct Pairs {
    what: What,
    how: Decode,
    separator: u8,
}

impl Operation for Pairs {
    fn columns(&self) -> Vec<(&'static str, Type, bool)> {
        match self.what {
            What::Params => vec![
                ("key", Type::Text, false),
                ("value", Type::Text, true),
                ("key_decoded", Type::Bytes, false),
                ("value_decoded", Type::Bytes, true),
            ],
            What::Keys => vec![("key", Type::Bytes, false)],
            What::Values => vec![("value", Type::Bytes, false)],
        }
    }
    fn text_line_number(&self) -> bool {
        self.what == What::Params
    }
    fn counted(&self) -> Vec<usize> {
        match self.what {
            // A pair is counted by its decoded key and value.
            What::Params => vec![2, 3],
            _ => vec![0],
        }
    }
    fn has_entry_items(&self) -> bool {
        true
    }
    fn batch_items(
        &self,
        batch: &urilex::Batch,
        i: usize,
        buf: &[u8],
        out: &mut Items<'_>,
    ) -> Option<Result<(), String>> {
        let e = batch.entry(i);
        if !e.is_valid() {
            return batch.parse_error(i).map(|p| Err(p.to_string()));
        }
        let Some(r) = e.span(urilex::Component::Query) else {
            return Some(Ok(()));
        };
        let at = e.line_start();
        // A valid query is ASCII.
        let q = std::str::from_utf8(buf.get(at + r.start..at + r.end)?).ok()?;
        self.pairs(q, out);
        Some(Ok(()))
    }
    fn items(&self, u: &UriRef<'_>, out: &mut Items<'_>) -> Result<(), String> {
        if let Some(q) = u.query() {
            self.pairs(q, out);
        }
        Ok(())
    }
}

impl Pairs {
    fn pairs(&self, q: &str, out: &mut Items<'_>) {
        let mut s = std::mem::take(out.scratch);
        for p in params_with(q, self.separator) {
            s.clear();
            match self.what {
                What::Params => {
                    decode_into(p.key, self.how, &mut s);
                    let k = s.len();
                    if let Some(v) = p.value {
                        decode_into(v, self.how, &mut s);
                    }
                    let v = p.value.map_or(Cell::Null, |v| Cell::Text(v.as_bytes()));
                    let vd = if p.value.is_some() {
                        Cell::Text(&s[k..])
                    } else {
                        Cell::Null
                    };
                    out.item(&[Cell::Text(p.key.as_bytes()), v, Cell::Text(&s[..k]), vd]);
                }
                What::Keys => {
                    decode_into(p.key, self.how, &mut s);
                    out.item(&[Cell::Text(&s)]);
                }
                What::Values => {
                    if let Some(v) = p.value {
                        decode_into(v, self.how, &mut s);
                        out.item(&[Cell::Text(&s)]);
                    }
                }
            }
        }
        *out.scratch = s;
    }
}

pub fn run(a: Args, what: What) -> Result<(), Failure> {
    let op = Pairs {
        what,
        how: a.decode.decode(),
        separator: a.query_separator,
    };
    super::ops::run(&a.common, &op)
}
