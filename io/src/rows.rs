//! A chunk's rows, parsed: the batch engine run over each buffer of values
//! a chunk's records gave ([`crate::format`]), and each row's reference
//! read back from the batch's records without parsing it again.

use crate::format::{Context, Extracted, Extractor, FormatError, Slot, TargetForm};
use crate::source::Chunk;
use urilex::{Batch, Entry, ParseError, Parser, Profile, Syntax, UriRef};

/// What every worker shares: how records are read and parsed.
#[derive(Clone, Debug)]
pub struct Engine {
    /// How values come out of records.
    pub extractor: Extractor,
    /// The grammar profile.
    pub profile: Profile,
}

/// A chunk to parse, and what its format needs from the chunks before it
/// (a header's column, a W3C `#Fields:` line).
pub struct Job {
    /// The chunk.
    pub chunk: Chunk,
    /// Its context.
    pub context: Context,
}

impl Engine {
    /// One reference per line under `profile`, a line longer than
    /// `max_record_bytes` an error (for callers that read lines and no
    /// log format: `urilex extract`'s free text).
    pub fn lines(profile: Profile, max_record_bytes: usize) -> Engine {
        Engine {
            extractor: Extractor {
                format: crate::format::InputFormat::lines(),
                syntax: Syntax::Reference,
                field: crate::format::LogField::Target,
                carry: Vec::new(),
                max_record_bytes,
            },
            profile,
        }
    }

    /// The parser of one syntax.
    pub fn parser(&self, syntax: Syntax) -> Parser {
        Parser::new().profile(self.profile).syntax(syntax)
    }

    /// Checks that the profile has the entries the format needs.
    pub fn check(&self) -> Result<(), String> {
        let p = self.profile;
        if self.extractor.format.is_log() {
            for s in [
                Syntax::OriginForm,
                Syntax::AuthorityForm,
                Syntax::AbsoluteUri,
            ] {
                if p.entry_rule(s).is_none() {
                    return Err(format!(
                        "--input {} reads request targets, which profile {} has no rule for ({}); use rfc3986 or rfc6874",
                        self.extractor.format,
                        p.name(),
                        s.as_str()
                    ));
                }
            }
        }
        if p.entry_rule(self.extractor.syntax).is_none() {
            return Err(format!(
                "profile {} has no entry {}",
                p.name(),
                self.extractor.syntax.as_str()
            ));
        }
        Ok(())
    }
}

/// A worker's storage, kept from chunk to chunk (no allocation per row,
/// and after the first chunks none per chunk).
#[derive(Default)]
pub struct Worker {
    /// The rows taken out of the chunk.
    pub extracted: Extracted,
    /// Per URI column, per group, its batch.
    batches: Vec<Vec<Batch>>,
}

impl Worker {
    /// Takes the rows out of `job`'s chunk and parses their references.
    pub fn parse<'w>(&'w mut self, engine: &'w Engine, job: &'w Job) -> ChunkRows<'w> {
        let ex = &mut self.extracted;
        engine.extractor.extract(&job.chunk, &job.context, ex);
        self.batches.resize_with(ex.uris.len(), Vec::new);
        let chunk: &[u8] = &job.chunk.data;
        for (u, col) in ex.uris.iter().enumerate() {
            let batches = &mut self.batches[u];
            let groups = if ex.in_place { 1 } else { col.groups.len() };
            batches.resize_with(groups.max(batches.len()), Batch::new);
            if ex.in_place {
                let parser = engine.parser(engine.extractor.syntax);
                batches[0].parse_lines(&parser, chunk);
            } else {
                for (g, (syntax, buf, _)) in col.groups.iter().enumerate() {
                    batches[g].parse_lines(&engine.parser(*syntax), buf);
                }
            }
        }
        if ex.in_place {
            ex.rows = self.batches[0][0].len();
        }
        ChunkRows {
            ex: &self.extracted,
            texts: Default::default(),
            batches: &self.batches,
            chunk,
            name: &job.chunk.name,
            input: job.chunk.input,
            starts_input: job.chunk.starts_input,
            engine,
        }
    }
}

/// The rows of one chunk, parsed.
pub struct ChunkRows<'a> {
    /// The rows as taken out of the records.
    pub ex: &'a Extracted,
    /// Per URI column and group, its buffer as text when it is UTF-8
    /// (checked once, when a reference is first asked for).
    texts: std::cell::RefCell<Vec<Vec<Option<Option<&'a str>>>>>,
    batches: &'a [Vec<Batch>],
    chunk: &'a [u8],
    /// The input's name.
    pub name: &'a str,
    /// The input's index among those read.
    pub input: usize,
    /// Whether the chunk is its input's first.
    pub starts_input: bool,
    /// How it was read.
    pub engine: &'a Engine,
}

/// One row's reference, parsed ([`ChunkRows::uri`]).
pub enum Uri<'a> {
    /// None (a referer of `-`, a missing JSON field).
    Absent,
    /// The asterisk-form request target `*` (not a URI reference).
    Asterisk,
    /// The record did not fit its format.
    Format(&'a FormatError),
    /// The reference, or why it is not one.
    Parsed(Result<UriRef<'a>, ParseError>),
}

/// One row's reference.
pub enum Value<'a> {
    /// None (a referer of `-`, a missing JSON field).
    Absent,
    /// The asterisk-form request target `*`.
    Asterisk,
    /// The record did not fit its format.
    Format(&'a FormatError),
    /// A reference the batch engine parsed: its entry, the batch and the
    /// buffer it was parsed from, and its index there.
    Entry {
        /// Its record.
        entry: Entry<'a>,
        /// The batch.
        batch: &'a Batch,
        /// The buffer the batch parsed.
        buf: &'a [u8],
        /// Its index in the batch.
        index: usize,
    },
    /// A reference parsed on its own (it held CR or LF): the result and
    /// its bytes.
    Single(Result<UriRef<'a>, ParseError>, &'a [u8]),
}

/// Row's reference as [`ChunkRows::record`] gives it.
pub(crate) enum Record<'a> {
    /// Parsed by the batch engine: its record, and the buffer parsed.
    Entry(Entry<'a>, &'a [u8]),
    /// None.
    Absent,
    /// Any other ([`Value`] tells which).
    Other,
}

impl<'a> ChunkRows<'a> {
    /// The number of rows.
    pub fn len(&self) -> usize {
        self.ex.rows
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ex.rows == 0
    }
    /// Row `r`'s line number in its input.
    #[inline]
    pub fn line(&self, r: usize) -> u64 {
        self.ex.line(r)
    }
    /// Row `r`'s target form (access logs' target column).
    pub fn form(&self, r: usize) -> Option<TargetForm> {
        self.ex.forms.get(r).copied().flatten()
    }
    /// Carried field `k` (of those asked for) of row `r`.
    pub fn carried(&self, r: usize, k: usize) -> Option<&'a [u8]> {
        let n = self.engine.extractor.carry.len();
        self.ex
            .carried
            .get(r * n + k)
            .copied()
            .flatten()
            .map(|(a, b)| &self.ex.arena[a as usize..b as usize])
    }

    /// Row `r`'s reference in URI column `u` as a [`UriRef`] borrowing
    /// the chunk, made from the batch's spans (not parsed again); each
    /// buffer is checked for UTF-8 once, not each line.
    #[inline(always)]
    pub fn uri(&self, u: usize, r: usize) -> Uri<'a> {
        let col = &self.ex.uris[u];
        match col.slot(r) {
            Slot::Value { group, index } => {
                let g = group as usize;
                let batch = &self.batches[u][g];
                let buf: &'a [u8] = if self.ex.in_place {
                    self.chunk
                } else {
                    &col.groups[g].1
                };
                let text = {
                    let mut texts = self.texts.borrow_mut();
                    if texts.len() <= u {
                        texts.resize_with(u + 1, Vec::new);
                    }
                    let t = &mut texts[u];
                    if t.len() <= g {
                        t.resize(g + 1, None);
                    }
                    *t[g].get_or_insert_with(|| std::str::from_utf8(buf).ok())
                };
                Uri::Parsed(match text {
                    Some(t) => batch.get_str(index as usize, t),
                    None => batch.get(index as usize, buf),
                })
            }
            Slot::Absent => Uri::Absent,
            Slot::Asterisk => Uri::Asterisk,
            Slot::Format(e) => Uri::Format(&self.ex.errors[e as usize]),
            Slot::Single { index, syntax } => {
                let bytes = &col.singles[index as usize];
                let syntax = col.groups[syntax as usize].0;
                Uri::Parsed(self.engine.parser(syntax).parse_bytes(bytes))
            }
        }
    }

    /// Where row `r`'s reference in URI column `u` is, when a batch
    /// parsed it: the batch, the buffer, its index (nothing decoded).
    #[inline(always)]
    pub fn in_batch(&self, u: usize, r: usize) -> Option<(&'a Batch, &'a [u8], usize)> {
        let col = &self.ex.uris[u];
        match col.slot(r) {
            Slot::Value { group, index } => {
                let g = group as usize;
                let buf: &'a [u8] = if self.ex.in_place {
                    self.chunk
                } else {
                    &col.groups[g].1
                };
                Some((&self.batches[u][g], buf, index as usize))
            }
            _ => None,
        }
    }

    /// The batch of URI column `u`'s group `group`, and the buffer it
    /// parsed.
    #[inline(always)]
    fn group(&self, u: usize, group: u8) -> (&'a Batch, &'a [u8]) {
        let batch = &self.batches[u][group as usize];
        let buf = if self.ex.in_place {
            self.chunk
        } else {
            &self.ex.uris[u].groups[group as usize].1
        };
        (batch, buf)
    }

    /// Row `r`'s reference in URI column `u`.
    #[inline]
    pub fn value(&self, u: usize, r: usize) -> Value<'a> {
        let col = &self.ex.uris[u];
        match col.slot(r) {
            Slot::Value { group, index } => {
                let (batch, buf) = self.group(u, group);
                Value::Entry {
                    entry: batch.entry(index as usize),
                    batch,
                    buf,
                    index: index as usize,
                }
            }
            Slot::Absent => Value::Absent,
            Slot::Asterisk => Value::Asterisk,
            Slot::Format(e) => Value::Format(&self.ex.errors[e as usize]),
            Slot::Single { index, syntax } => {
                let bytes = &col.singles[index as usize];
                let syntax = col.groups[syntax as usize].0;
                Value::Single(self.engine.parser(syntax).parse_bytes(bytes), bytes)
            }
        }
    }

    /// Row `r`'s reference in URI column `u` where the batch engine
    /// parsed it, as the text writers' straight line reads it: no more
    /// than the record and its buffer (a [`Value`], whose largest variant
    /// holds a whole parse, was returned through memory, about 60
    /// instructions a row).
    #[inline(always)]
    pub(crate) fn record(&self, u: usize, r: usize) -> Record<'a> {
        match self.ex.uris[u].slot(r) {
            Slot::Value { group, index } => {
                let (batch, buf) = self.group(u, group);
                Record::Entry(batch.entry(index as usize), buf)
            }
            Slot::Absent => Record::Absent,
            _ => Record::Other,
        }
    }

    /// The text of row `r`'s reference in column `u` as it was taken out
    /// of its record (`None` when there is none).
    pub fn text(&self, u: usize, r: usize) -> Option<&'a [u8]> {
        match self.value(u, r) {
            Value::Entry {
                batch, buf, index, ..
            } => Some(batch.line(index, buf)),
            Value::Single(_, b) => Some(b),
            Value::Asterisk => Some(b"*"),
            Value::Absent | Value::Format(_) => None,
        }
    }
}
