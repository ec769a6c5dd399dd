//! The batch's record stores: streaming stores past the caches
//! ([`push_streaming`], x86_64 `movnti`), and the "part present" mask of a
//! record's spans ([`unset_mask`], SSE2), with their plain twins. SSE2 is
//! every x86_64 CPU's: nothing to detect.

/// Bit k set when `slots[k]` is `u32::MAX` (an unset span end): the batch
/// records' "component present" bits, sixteen compares at once with SSE2.
#[inline(always)]
pub(crate) fn unset_mask(slots: &[u32; 16]) -> u16 {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        // SAFETY: every x86_64 CPU supports SSE2.
        unsafe { super::x86_64::unset_mask_sse2(slots) }
    }
    #[cfg(not(all(target_arch = "x86_64", not(feature = "force-scalar"))))]
    {
        unset_mask_scalar(slots)
    }
}

/// Appends `words` to `v`, stored past the caches where the CPU has
/// streaming stores (x86_64: five 8-byte `movnti`, SSE2), else a plain
/// push. For a batch far larger than the caches: a plain store first reads
/// the line it writes, doubling the memory traffic of every record. Call
/// [`stream_fence`] before another thread reads them. Plain words: what
/// they hold is the caller's business (the batch's records).
#[cfg_attr(not(feature = "rayon"), allow(dead_code))]
#[inline(always)]
pub(crate) fn push_streaming(v: &mut Vec<[u64; 5]>, words: [u64; 5]) {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    {
        if v.len() == v.capacity() {
            v.reserve(1);
        }
        // SAFETY: `reserve` left room for one more element at `len`, which
        // is 8-aligned (a `[u64; 5]`): five aligned words, each written once
        // with SSE2 (every x86_64 CPU); `set_len` then covers the element,
        // fully written. Loads on this thread see the stores.
        unsafe {
            let at = v.as_mut_ptr().add(v.len()) as *mut i64;
            for (k, &w) in words.iter().enumerate() {
                core::arch::x86_64::_mm_stream_si64(at.add(k), w as i64);
            }
            v.set_len(v.len() + 1);
        }
    }
    #[cfg(not(all(target_arch = "x86_64", not(feature = "force-scalar"))))]
    v.push(words);
}

/// Orders the streamed stores of [`push_streaming`] before what follows
/// (x86_64: `sfence`; nothing elsewhere, where they are plain stores).
#[cfg_attr(not(feature = "rayon"), allow(dead_code))]
#[inline]
pub(crate) fn stream_fence() {
    #[cfg(all(target_arch = "x86_64", not(feature = "force-scalar")))]
    // SAFETY: `sfence` is SSE (every x86_64 CPU) and has no operands.
    unsafe {
        core::arch::x86_64::_mm_sfence()
    }
}

/// The twin of [`unset_mask`]: bit k set when `slots[k]` is `u32::MAX`,
/// one slot at a time.
#[cfg_attr(
    all(target_arch = "x86_64", not(feature = "force-scalar")),
    allow(dead_code)
)]
#[inline]
pub(crate) fn unset_mask_scalar(slots: &[u32; 16]) -> u16 {
    let mut m = 0u16;
    for (k, &s) in slots.iter().enumerate() {
        m |= u16::from(s == u32::MAX) << k;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words pushed with streaming stores read back as pushed with plain
    /// ones, through every growth of the vector from empty, every byte
    /// value in every position.
    #[test]
    fn push_streaming_equals_push() {
        let (mut plain, mut streamed) = (Vec::new(), Vec::<[u64; 5]>::new());
        let mut rng = crate::engine::gen::Rng(0x57_2EA4);
        for n in 0..5_000u32 {
            let mut words = [0u64; 5];
            for w in &mut words {
                *w = rng.next();
            }
            // Every byte value at some place of the record.
            words[(n % 5) as usize] ^= u64::from(n as u8) << (8 * ((n / 5) % 8));
            plain.push(words);
            push_streaming(&mut streamed, words);
        }
        stream_fence();
        assert_eq!(plain, streamed);
    }

    /// The SSE2 `unset_mask` against the scalar one: every pattern of set
    /// and unset slots, the set ones holding values near the unset one and
    /// the sign bit (the packs saturate), at four consecutive offsets (so
    /// every placement of the slots within a 16-byte line).
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn unset_mask_kernels_agree() {
        let values = [
            0,
            1,
            0x7fff_ffff,
            0x8000_0000,
            0xffff_fffe,
            0xffff,
            0x1_0000,
        ];
        let mut store = [0u32; 20];
        let cases = values
            .iter()
            .flat_map(|&v| (0..4).map(move |shift| (v, shift)));
        for pattern in 0..=u16::MAX as u32 {
            for (v, shift) in cases.clone() {
                let slots = &mut store[shift..shift + 16];
                for (k, s) in slots.iter_mut().enumerate() {
                    *s = if pattern >> k & 1 != 0 { u32::MAX } else { v };
                }
                let slots: &[u32; 16] = (&*slots).try_into().unwrap();
                let want = unset_mask_scalar(slots);
                assert_eq!(want as u32, pattern);
                // SAFETY: every x86_64 CPU supports SSE2.
                let got = unsafe { super::super::x86_64::unset_mask_sse2(slots) };
                assert_eq!(got, want, "{pattern:#x} {v:#x}");
            }
        }
    }
}
