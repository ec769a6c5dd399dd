//! `--unique` and `--count` as library pieces, for any
//! [`Pipeline::run`](crate::run::Pipeline::run): a value is a key made of
//! a row's cells;
//! each worker counts (or keeps once) what it reads in its own state, and
//! the states [`Pipeline::run`](crate::run::Pipeline::run) returns are
//! merged at the end. No global state; memory grows with the number of
//! distinct values only.
//!
//! ```
//! use urilex_io::model::Cell;
//! use urilex_io::tally::{key, Counts};
//!
//! // Two workers' counts, merged.
//! let mut workers = [Counts::default(), Counts::default()];
//! let mut k = Vec::new();
//! for (w, host) in [(0, "x.example"), (0, "y.example"), (1, "x.example")] {
//!     key(&mut k, &[Cell::Text(host.as_bytes())], &[0]);
//!     workers[w].add(&k);
//! }
//! let ranked = Counts::merge(workers).ranked(None);
//! assert_eq!(ranked[0].1, 2); // x.example, twice
//! ```

use crate::model::Cell;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A multiply-rotate hash of whole words (the keys are short byte strings,
/// hashed once per item: SipHash would cost more than the rest of the
/// item's work).
#[derive(Default, Clone, Copy)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut h = self.0;
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            let v = u64::from_le_bytes(w.try_into().expect("8 bytes"));
            h = (h.rotate_left(5) ^ v).wrapping_mul(K);
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(b)).wrapping_mul(K);
        }
        self.0 = h;
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.0 = (self.0.rotate_left(5) ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // Fold the high bits down: hashbrown takes its buckets from the
        // low ones.
        self.0 ^ (self.0 >> 29)
    }
}

type Fast = BuildHasherDefault<WordHasher>;
type KeySet = HashSet<Box<[u8]>, Fast>;
type KeyMap = HashMap<Box<[u8]>, u64, Fast>;

/// A value's key: each cell of `counted` as a tag (0 null, 1 text, 2
/// number) and its length-prefixed bytes, into `out`. Operations' values
/// are text and numbers; any other cell is keyed as null.
pub fn key(out: &mut Vec<u8>, cells: &[Cell<'_>], counted: &[usize]) {
    out.clear();
    for &k in counted {
        match cells.get(k) {
            Some(Cell::Text(t) | Cell::Plain(t)) => {
                out.push(1);
                out.extend_from_slice(&(t.len() as u64).to_le_bytes());
                out.extend_from_slice(t);
            }
            Some(Cell::U64(n)) => {
                out.push(2);
                out.extend_from_slice(&n.to_le_bytes());
            }
            _ => out.push(0),
        }
    }
}

/// The cells of a key [`key`] made.
pub fn cells_of(key: &[u8]) -> Vec<Cell<'_>> {
    let mut cells = Vec::new();
    let mut i = 0;
    let word = |i: usize| {
        key.get(i..i + 8)
            .map_or(0, |w| u64::from_le_bytes(w.try_into().expect("8 bytes")))
    };
    while i < key.len() {
        let tag = key[i];
        i += 1;
        match tag {
            0 => cells.push(Cell::Null),
            1 => {
                let n = word(i) as usize;
                i += 8;
                let end = (i + n).min(key.len());
                cells.push(Cell::Text(&key[i.min(end)..end]));
                i = end;
            }
            _ => {
                cells.push(Cell::U64(word(i)));
                i += 8;
            }
        }
    }
    cells
}

/// Values in order: by their cells, null before numbers before text,
/// numbers by value, text by bytes.
pub fn cmp_cells(a: &[Cell<'_>], b: &[Cell<'_>]) -> std::cmp::Ordering {
    let rank = |c: &Cell<'_>| match c {
        Cell::U64(_) => 1,
        Cell::Text(_) => 2,
        _ => 0,
    };
    for (x, y) in a.iter().zip(b) {
        let o = match (x, y) {
            (Cell::Text(p), Cell::Text(q)) => p.cmp(q),
            (Cell::U64(p), Cell::U64(q)) => p.cmp(q),
            _ => rank(x).cmp(&rank(y)),
        };
        if o.is_ne() {
            return o;
        }
    }
    a.len().cmp(&b.len())
}

/// How often each value was seen: one per worker, merged at the end.
#[derive(Default)]
pub struct Counts(KeyMap);

impl Counts {
    /// Counts `key` once.
    #[inline]
    pub fn add(&mut self, key: &[u8]) {
        match self.0.get_mut(key) {
            Some(n) => *n += 1,
            None => {
                self.0.insert(key.into(), 1);
            }
        }
    }

    /// The number of distinct values.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The sum of `parts` (the largest is added to).
    pub fn merge(parts: impl IntoIterator<Item = Counts>) -> Counts {
        let mut parts: Vec<Counts> = parts.into_iter().collect();
        parts.sort_by_key(Counts::len);
        let mut total = parts.pop().unwrap_or_default();
        for p in parts {
            for (k, n) in p.0 {
                *total.0.entry(k).or_insert(0) += n;
            }
        }
        total
    }

    /// The values with their counts, most frequent first, ties in value
    /// order ([`cmp_cells`]); the `top` first only, when given.
    pub fn ranked(self, top: Option<usize>) -> Vec<(Box<[u8]>, u64)> {
        let mut all: Vec<(Box<[u8]>, u64)> = self.0.into_iter().collect();
        all.sort_unstable_by(|a, b| {
            b.1.cmp(&a.1)
                .then_with(|| cmp_cells(&cells_of(&a.0), &cells_of(&b.0)))
        });
        if let Some(k) = top {
            all.truncate(k);
        }
        all
    }
}

/// Distinct values in the order first seen: a chunk's on its worker
/// ([`add`](Self::add), then [`take`](Self::take)), then all of them in
/// input order where the chunks' results arrive ([`seen`](Self::seen),
/// [`remember`](Self::remember)).
#[derive(Default)]
pub struct FirstSeen {
    seen: KeySet,
    order: Vec<Box<[u8]>>,
}

impl FirstSeen {
    /// Keeps `key` if it is new.
    #[inline]
    pub fn add(&mut self, key: &[u8]) {
        if !self.seen.contains(key) {
            let k: Box<[u8]> = key.into();
            self.seen.insert(k.clone());
            self.order.push(k);
        }
    }

    /// The values kept since the last take, in order; forgets them all
    /// (a worker's next chunk starts afresh).
    pub fn take(&mut self) -> Vec<Box<[u8]>> {
        self.seen.clear();
        std::mem::take(&mut self.order)
    }

    /// Whether `key` was remembered or added before.
    pub fn seen(&self, key: &[u8]) -> bool {
        self.seen.contains(key)
    }

    /// Remembers `key` (without keeping it in order).
    pub fn remember(&mut self, key: Box<[u8]>) {
        self.seen.insert(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip() {
        let cells = [
            Cell::Text(b"a\0b"),
            Cell::Null,
            Cell::U64(7),
            Cell::Text(b""),
        ];
        let mut k = Vec::new();
        key(&mut k, &cells, &[0, 1, 2, 3]);
        let back = cells_of(&k);
        assert_eq!(format!("{back:?}"), format!("{:?}", cells));
        key(&mut k, &cells, &[3, 0]);
        assert_eq!(
            format!("{:?}", cells_of(&k)),
            format!("{:?}", [cells[3].clone(), cells[0].clone()])
        );
    }

    #[test]
    fn counts_merge_and_rank() {
        let mut parts = vec![Counts::default(), Counts::default(), Counts::default()];
        let mut k = Vec::new();
        for (w, v) in [(0, "b"), (1, "a"), (2, "b"), (2, "c"), (1, "c"), (0, "c")] {
            key(&mut k, &[Cell::Text(v.as_bytes())], &[0]);
            parts[w].add(&k);
        }
        let ranked = Counts::merge(parts).ranked(None);
        let got: Vec<(Vec<Cell<'_>>, u64)> =
            ranked.iter().map(|(k, n)| (cells_of(k), *n)).collect();
        assert_eq!(
            format!("{got:?}"),
            format!(
                "{:?}",
                [
                    (vec![Cell::Text(b"c")], 3),
                    (vec![Cell::Text(b"b")], 2),
                    (vec![Cell::Text(b"a")], 1)
                ]
            )
        );
        let mut one = Counts::default();
        one.add(b"x");
        assert_eq!(Counts::merge([one]).ranked(Some(0)).len(), 0);
    }

    #[test]
    fn first_seen_keeps_order_across_chunks() {
        let mut chunk = FirstSeen::default();
        for v in [&b"b"[..], b"a", b"b"] {
            chunk.add(v);
        }
        let first = chunk.take();
        for v in [&b"a"[..], b"c"] {
            chunk.add(v);
        }
        let second = chunk.take();
        let mut all = FirstSeen::default();
        let mut kept = Vec::new();
        for k in first.into_iter().chain(second) {
            if !all.seen(&k) {
                kept.push(k.clone());
                all.remember(k);
            }
        }
        assert_eq!(kept, [&b"b"[..], b"a", b"c"].map(Box::from));
    }
}
