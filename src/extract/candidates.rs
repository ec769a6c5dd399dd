//! Where a URI may start: the trigger bytes and the candidate colons,
//! found a block or a chunk at a time, and the scheme read backwards.

#[allow(unused_imports)]
use super::*;

impl<'a> FindIter<'a> {
    #[inline(always)]
    pub(super) fn uri_byte(&self, b: u8) -> bool {
        self.class[b as usize] & URI != 0
    }

    #[inline(always)]
    pub(super) fn scheme_byte(&self, b: u8) -> bool {
        self.class[b as usize] & SCHEME != 0
    }

    #[inline(always)]
    pub(super) fn scheme_start(&self, b: u8) -> bool {
        self.class[b as usize] & SCHEME_START != 0
    }

    /// Whether `t[at..]` begins with a scheme and its `:` (within 32
    /// bytes): a quick test before looking for a closing delimiter.
    pub(super) fn starts_with_scheme(&self, at: usize) -> bool {
        let t = self.text;
        if !t.get(at).is_some_and(|&b| self.scheme_start(b)) {
            return false;
        }
        let end = t.len().min(at + MAX_SCHEME + 1);
        let mut i = at + 1;
        while i < end && self.scheme_byte(t[i]) {
            i += 1;
        }
        i < end && t[i] == b':'
    }

    /// The next trigger byte at or after `pos`, from the classified
    /// blocks.
    #[inline(always)]
    pub(super) fn next_trigger(&mut self) -> Option<usize> {
        let len = self.text.len();
        if self.pos >= len {
            return None;
        }
        if self.colons_only() {
            return self.next_colon();
        }
        let mut block = self.pos & !63;
        let mut bits = if block == self.block {
            self.bits
        } else {
            self.classify(block)
        };
        bits &= !0u64 << (self.pos & 63);
        let mut empty = 0;
        while bits == 0 {
            block += 64;
            if block >= len {
                return None;
            }
            // Past blocks without a trigger, memchr finds the next colon
            // (prose has few: it runs there at memory speed); the options'
            // triggers before it are found when their blocks are
            // classified.
            if empty == JUMP {
                match memchr::memchr(b':', &self.text[block..]) {
                    Some(k) => block = (block + k) & !63,
                    None => return None,
                }
            }
            bits = self.classify(block);
            empty += 1;
        }
        Some(block + bits.trailing_zeros() as usize)
    }

    /// The next candidate colon at or after `pos`. A chunk's marks are
    /// taken in order, a word at a time from the words that have one (no
    /// loop over empty blocks, whose exit would be mispredicted); a colon
    /// before `pos` (inside the last hit) is passed over.
    #[inline(always)]
    pub(super) fn next_colon(&mut self) -> Option<usize> {
        loop {
            while self.word != 0 {
                let p = self.word_at + self.word.trailing_zeros() as usize;
                self.word &= self.word - 1;
                if p >= self.pos {
                    return Some(p);
                }
            }
            if self.pending != 0 {
                let w = self.pending.trailing_zeros() as usize;
                self.pending &= self.pending - 1;
                self.word = self.marks[w];
                self.word_at = self.chunk + 64 * w;
                continue;
            }
            const SPAN: usize = 64 * crate::scan::CHUNK;
            let at = match self.chunk {
                usize::MAX => self.pos,
                c => self.pos.max(c + SPAN),
            };
            if at >= self.text.len() {
                return None;
            }
            self.chunk = at;
            self.pending = crate::scan::colon_chunk(self.colon, self.text, at, &mut self.marks);
        }
    }

    /// Marks the trigger bytes of the block at `block`.
    pub(super) fn classify(&mut self, block: usize) -> u64 {
        let t = self.text;
        let bits = match t.get(block..block + 64) {
            Some(b) => self.mark(b.try_into().expect("64 bytes")),
            None => {
                // Past the end: NUL, which is no trigger.
                let mut pad = [0u8; 64];
                let rest = &t[block..];
                pad[..rest.len()].copy_from_slice(rest);
                self.mark(&pad)
            }
        };
        self.block = block;
        self.bits = bits;
        bits
    }

    /// The trigger bytes of 64 bytes, by the classifier: the colons and the
    /// options' bytes.
    #[inline(always)]
    pub(super) fn mark(&self, b: &[u8; 64]) -> u64 {
        let mut out = [0u64; 1];
        (self.kern)(b, &self.trigger, &mut out, 1);
        !out[0]
    }

    /// Whether the colons are the only triggers (no option asks for more).
    #[inline(always)]
    pub(super) fn colons_only(&self) -> bool {
        !(self.options.abbreviated || self.options.refang)
    }

    /// Whether `/` or whitespace follows the colon at `p`: where `//` may
    /// begin (in brackets it may be broken by whitespace).
    #[inline(always)]
    pub(super) fn slash_or_space_after(&self, p: usize) -> bool {
        let t = self.text;
        t.get(p + 1) == Some(&b'/') || (p + 1 < t.len() && space_at(t, p + 1) > 0)
    }

    /// The start of the scheme that ends at the colon `p`: scheme bytes
    /// back to the last hit's end, from the first that may begin one (`p`
    /// when there is none).
    #[inline(always)]
    pub(super) fn scheme_start_before(&self, p: usize) -> usize {
        let t = self.text;
        // Iterators over the bytes, without a bounds check per byte.
        let back = t[self.floor.min(p)..p]
            .iter()
            .rev()
            .take_while(|&&b| self.scheme_byte(b))
            .count();
        let s = p - back;
        s + t[s..p]
            .iter()
            .take_while(|&&b| !self.scheme_start(b))
            .count()
    }
}
