//! Result columns built in one pass: substrings of the input as views of
//! its buffers, other text copied into one buffer.

use crate::refs::Refs;
use arrow_array::builder::StringViewBuilder;
use arrow_array::ArrayRef;
use arrow_buffer::Buffer;
use std::ops::Range;
use std::sync::Arc;

/// A `Utf8View` result whose values are mostly substrings of the input:
/// each such value is a view into the input's buffer (the buffer is
/// shared, not copied: the result keeps it alive), a value of 12 bytes or
/// less, or one made anew, is copied.
pub struct Views {
    b: StringViewBuilder,
    /// The input buffers added as blocks, by address, and their indices
    /// (a view column has a few data buffers; the others one).
    blocks: Vec<(usize, u32)>,
}

impl Views {
    /// A result of `rows` values.
    pub fn new(rows: usize) -> Views {
        Views {
            b: StringViewBuilder::with_capacity(rows),
            blocks: Vec::new(),
        }
    }

    /// Bytes `range` of value `i` of `refs` (ASCII: parts of valid
    /// references; a slice of any value is UTF-8 where it is cut at ASCII
    /// bytes).
    #[inline]
    pub fn part(&mut self, refs: &Refs<'_>, i: usize, range: Range<usize>) {
        let len = range.len();
        if len > 12 {
            if let Some((buffer, offset)) = refs.source(i, &range) {
                if let (Some(block), Ok(offset), Ok(len)) = (
                    self.block_of(buffer),
                    u32::try_from(offset),
                    u32::try_from(len),
                ) {
                    if self.b.try_append_view(block, offset, len).is_ok() {
                        return;
                    }
                }
            }
        }
        let v = &refs.value(i)[range];
        self.b
            .append_value(std::str::from_utf8(v).unwrap_or_default());
    }

    /// The block index of `buffer`, added when it is new (`None` for a
    /// buffer too large for a view's 32-bit offset).
    #[inline]
    fn block_of(&mut self, buffer: &Buffer) -> Option<u32> {
        let key = buffer.as_ptr() as usize;
        if let Some(&(_, b)) = self.blocks.iter().find(|(k, _)| *k == key) {
            return Some(b);
        }
        if buffer.len() >= u32::MAX as usize {
            return None;
        }
        let b = self.b.append_block(buffer.clone());
        self.blocks.push((key, b));
        Some(b)
    }

    /// A value made anew.
    #[inline]
    pub fn text(&mut self, s: &str) {
        self.b.append_value(s);
    }

    /// A null.
    #[inline]
    pub fn null(&mut self) {
        self.b.append_null();
    }

    /// The column.
    pub fn finish(mut self) -> ArrayRef {
        Arc::new(self.b.finish())
    }
}
