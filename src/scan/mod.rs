//! The kernels: byte classification at SIMD width, each family in a file
//! of its own with its scalar twin, and the one place that asks the CPU
//! what it has ([`cpu`]). All of urilex's `unsafe` code is here (and in the
//! architecture folders `x86_64/` and `aarch64/`), each block with a
//! `// SAFETY:` comment; `tests/scan.rs` checks every kernel against its
//! twin on every byte value, lane, alignment and tail length.
//!
//! The families, by who uses them:
//! - [`skip`](mod@skip): a DFA state's self-loop run ("skip while the byte
//!   is in this set"), for the engine's DFAs: SSE2, SSSE3, AVX2, NEON.
//! - [`rows`]: the fast path's classification of 64-byte blocks against up
//!   to nine sets at once, for the batch window, single inputs and
//!   extraction's tokens: AVX-512 VBMI, AVX-512 BW, AVX2, SSSE3, NEON.
//! - [`colon`]: extraction's candidate colons, a kilobyte at a time:
//!   AVX-512 BW, AVX2 (memchr elsewhere).
//! - [`find`]: the finders normalization and resolution use ("%" or an
//!   upper-case letter; a "/." segment): SSE2, with SWAR twins.
//! - [`stream`]: the batch's record stores (streaming stores past the
//!   caches; the "part present" mask): SSE2.
//!
//! The sets are the self-loop sets of DFA states, emitted by the generator
//! as two 16-byte nibble tables (`lo`, `hi`) from the same byte classes as
//! the scalar tables: byte `b` is in the set when
//! `lo[b & 15] & hi[b >> 4] != 0`. With `hi[h] = 1 << h` for `h < 8` and 0
//! above, this is exact for any set of ASCII bytes, and no byte of 0x80 or
//! more is ever in it. SSE2 has no byte shuffle, so the generator also
//! emits each set as byte ranges (`Ranges`), derived from the nibble
//! tables by [`ranges_of`], which the generator and the library share.
//!
//! Dispatch is one style for every family: what the CPU has is detected
//! once, on first use, and kept ([`cpu`]); each family picks its kernel
//! from that once and keeps it (`Chosen`, a function pointer in an atomic,
//! as memchr's `unsafe_ifunc!` keeps one), so no call asks the CPU again. SSE2, which
//! every x86_64 CPU has, is used without asking (`find`, `stream`). The
//! `force-scalar` feature makes [`cpu`] report nothing, so every family
//! runs its twin. The environment variable `URILEX_KERNEL` caps the
//! families for a run ([`kernel_family`]), to time a lower family on a
//! machine that has a higher one.
#![allow(unsafe_code)]

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

pub mod colon;
pub mod find;
pub mod rows;
pub mod skip;
pub mod stream;

pub(crate) use colon::{colon_chunk, colon_kernel, ColonChunk};
pub use colon::{colon_chunk_with, colon_marks_with, ChunkSrc, Marks, CHUNK};
pub(crate) use find::{find_dot_segment, find_pct_or_upper};
pub(crate) use rows::{
    ascii_str, classifier, row_classifier, rows_in_place, token_run, Classify, ClassifyRows, Row,
};
pub use rows::{classify_rows_with, classify_with, RowSets, MAX_CLASSES};
pub use skip::{nibbles_of, ranges_of, skip_with};
pub(crate) use skip::{skip, Nibbles, Ranges};
#[cfg_attr(not(feature = "rayon"), allow(unused_imports))]
pub(crate) use stream::stream_fence;
pub(crate) use stream::{push_streaming, unset_mask};

use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::OnceLock;

/// Which kernel the DFA skip loop uses on this machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// One byte at a time.
    Scalar,
    /// x86_64 SSE2, 16 bytes at a time, one compare per range of the set.
    Sse2,
    /// x86_64 SSSE3, 16 bytes at a time.
    Ssse3,
    /// x86_64 AVX2, 32 bytes at a time.
    Avx2,
    /// x86_64 AVX-512 (F and BW), 64 bytes at a time: only the fast
    /// path's line classifier (`Classify`) and extraction's colon marks
    /// have a kernel for it; the skip kernels use AVX2 there.
    Avx512,
    /// aarch64 NEON, 16 bytes at a time.
    Neon,
    /// x86_64 AVX-512 with VBMI and GFNI: only the batch's rows kernel
    /// (`ClassifyRows`): one 128-entry table lookup gives every set's bit
    /// of a byte, and a bit transpose turns them into the sets' words.
    Avx512Vbmi,
}

/// What this CPU can run, as the kernels need it: asked once, on first
/// use, and kept. The one place urilex asks the CPU (and where a kernel
/// could be forced for a run).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cpu {
    /// x86_64's baseline (false only where a run asks for `scalar`).
    pub sse2: bool,
    pub ssse3: bool,
    pub avx2: bool,
    /// AVX-512 F and BW.
    pub avx512: bool,
    /// AVX-512 F, BW and VBMI, and GFNI (the VBMI rows kernel).
    pub vbmi: bool,
    pub neon: bool,
}

/// The [`Cpu`] the kernels run with: this machine's ([`hardware`]), cut
/// down to the family `URILEX_KERNEL` names when it is set (read once), or
/// with `force-scalar` none of it.
///
/// A value that names no family, or one this machine lacks, is ignored
/// (the machine's best family runs) with one warning on standard error at
/// the first use: an environment variable never stops a program that uses
/// the library (the CLI asks [`kernel_family`] first and refuses it).
#[inline]
pub(crate) fn cpu() -> Cpu {
    if cfg!(feature = "force-scalar") {
        return Cpu::default();
    }
    let c = chosen();
    if let Some(e) = &c.refused {
        static WARNED: std::sync::Once = std::sync::Once::new();
        WARNED.call_once(|| {
            // Not eprintln!, which panics where standard error is closed.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "urilex: warning: {e}; using {}",
                c.family
            );
        });
    }
    c.cpu
}

/// The kernel families, best first, as `URILEX_KERNEL` names them (and
/// [`kernel_family`] reports them).
pub const KERNEL_FAMILIES: [&str; 7] = [
    "avx512-vbmi",
    "avx512bw",
    "avx2",
    "ssse3",
    "sse2",
    "neon",
    "scalar",
];

/// The family in use and the [`Cpu`] it leaves the kernels.
struct Choice {
    family: &'static str,
    cpu: Cpu,
    /// Why `URILEX_KERNEL`'s value was not taken (then `family` is the
    /// machine's best).
    refused: Option<String>,
}

/// The family `URILEX_KERNEL` chose (or the machine's best); read once
/// and kept.
fn chosen() -> &'static Choice {
    static CHOSEN: OnceLock<Choice> = OnceLock::new();
    CHOSEN.get_or_init(|| {
        let hw = hardware();
        let asked = std::env::var("URILEX_KERNEL")
            .ok()
            .filter(|n| !n.is_empty());
        match asked.map(|name| limit(hw, &name)) {
            Some(Ok(c)) => Choice {
                family: best(c),
                cpu: c,
                refused: None,
            },
            Some(Err(e)) => Choice {
                family: best(hw),
                cpu: hw,
                refused: Some(e),
            },
            None => Choice {
                family: best(hw),
                cpu: hw,
                refused: None,
            },
        }
    })
}

/// `hw` cut down to family `name`: the kernels of that family and of the
/// families below it, none above; an error when `hw` lacks it.
fn limit(hw: Cpu, name: &str) -> Result<Cpu, String> {
    let family = KERNEL_FAMILIES
        .iter()
        .copied()
        .find(|f| f.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            format!(
                "URILEX_KERNEL={name}: no such kernel family (one of {})",
                KERNEL_FAMILIES.join(", ")
            )
        })?;
    let c = match family {
        "avx512-vbmi" => hw,
        "avx512bw" => Cpu { vbmi: false, ..hw },
        "avx2" => Cpu {
            vbmi: false,
            avx512: false,
            ..hw
        },
        "ssse3" => Cpu {
            vbmi: false,
            avx512: false,
            avx2: false,
            ..hw
        },
        "sse2" => Cpu {
            sse2: hw.sse2,
            ..Cpu::default()
        },
        "neon" => Cpu {
            neon: hw.neon,
            ..Cpu::default()
        },
        _ => Cpu::default(),
    };
    if best(c) != family {
        return Err(format!(
            "URILEX_KERNEL={name}: this CPU cannot run {family} (its best is {})",
            best(hw)
        ));
    }
    Ok(c)
}

/// The best family `c` runs.
fn best(c: Cpu) -> &'static str {
    if c.vbmi {
        "avx512-vbmi"
    } else if c.avx512 {
        "avx512bw"
    } else if c.avx2 {
        "avx2"
    } else if c.ssse3 {
        "ssse3"
    } else if c.sse2 {
        "sse2"
    } else if c.neon {
        "neon"
    } else {
        "scalar"
    }
}

/// The kernel family in use: the best this machine has, or the one the
/// environment variable `URILEX_KERNEL` names (`avx512-vbmi`, `avx512bw`,
/// `avx2`, `ssse3`, `sse2`, `neon`, `scalar`), read once. A testing and
/// measuring aid: it times the AVX2 kernels on a machine with AVX-512, and
/// the kernels below a family are its (AVX-512 BW's rows kernel with AVX2's
/// skip loop, say). An unknown family, or one this CPU lacks, is an error
/// here (the CLI refuses it); the kernels then run the machine's best
/// family, with one warning on standard error. The `find` and `stream`
/// families use SSE2 on every x86_64 CPU whatever is chosen; the
/// `force-scalar` feature gives `scalar` always.
pub fn kernel_family() -> Result<&'static str, String> {
    if cfg!(feature = "force-scalar") {
        return Ok("scalar");
    }
    let c = chosen();
    match &c.refused {
        Some(e) => Err(e.clone()),
        None => Ok(c.family),
    }
}

/// What this machine has, asked once and kept (the `*_with` entry points
/// for the kernel tests run any kernel the machine has, `force-scalar` or
/// not).
#[inline]
pub(crate) fn hardware() -> Cpu {
    static CPU: OnceLock<Cpu> = OnceLock::new();
    *CPU.get_or_init(detect)
}

fn detect() -> Cpu {
    #[allow(unused_mut)]
    let mut c = Cpu::default();
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        c.sse2 = true;
        c.ssse3 = has!("ssse3");
        c.avx2 = has!("avx2");
        c.avx512 = has!("avx512f") && has!("avx512bw");
        c.vbmi = c.avx512 && has!("avx512vbmi") && has!("gfni");
    }
    #[cfg(target_arch = "aarch64")]
    {
        c.neon = std::arch::is_aarch64_feature_detected!("neon");
    }
    c
}

/// A kernel (a function pointer, `F`) chosen from [`cpu`] on first use
/// and kept, as memchr's `unsafe_ifunc!` keeps one: the pointer lives in an
/// atomic, so that every later [`get`](Chosen::get) is one relaxed load and
/// a test. Two threads may both choose at first; they choose the same.
pub(crate) struct Chosen<F> {
    ptr: AtomicPtr<()>,
    pick: fn(Cpu) -> F,
}

impl<F: Copy> Chosen<F> {
    /// `F` is a function pointer: pointer-sized (checked at compile time
    /// where `get` is used).
    const POINTER: () = assert!(core::mem::size_of::<F>() == core::mem::size_of::<*mut ()>());

    pub(crate) const fn new(pick: fn(Cpu) -> F) -> Chosen<F> {
        Chosen {
            ptr: AtomicPtr::new(core::ptr::null_mut()),
            pick,
        }
    }

    /// The kernel.
    #[inline(always)]
    pub(crate) fn get(&self) -> F {
        #[allow(clippy::let_unit_value)]
        let () = Self::POINTER;
        let p = self.ptr.load(Ordering::Relaxed);
        if p.is_null() {
            return self.choose();
        }
        // SAFETY: a non-null `p` was stored by `choose` from an `F`, a
        // function pointer of the size of `*mut ()` (`POINTER`), and is
        // read back as the same type, bit for bit.
        unsafe { core::mem::transmute_copy::<*mut (), F>(&p) }
    }

    #[cold]
    #[inline(never)]
    fn choose(&self) -> F {
        let f = (self.pick)(cpu());
        // SAFETY: `F` is pointer-sized (`POINTER`); its bits are kept as a
        // pointer and only ever read back as an `F` (`get`).
        let p = unsafe { core::mem::transmute_copy::<F, *mut ()>(&f) };
        self.ptr.store(p, Ordering::Relaxed);
        f
    }
}

/// The kernel the DFA skip loop uses on this machine.
pub fn kernel() -> Kernel {
    let c = cpu();
    if c.avx2 {
        Kernel::Avx2
    } else if c.ssse3 {
        Kernel::Ssse3
    } else if c.neon {
        Kernel::Neon
    } else if c.sse2 {
        Kernel::Sse2
    } else {
        Kernel::Scalar
    }
}

/// Whether this machine can run `k` (for the `*_with` test entry points).
pub(crate) fn runs(k: Kernel) -> bool {
    let c = hardware();
    match k {
        Kernel::Scalar => true,
        Kernel::Sse2 => c.sse2,
        Kernel::Ssse3 => c.ssse3,
        Kernel::Avx2 => c.avx2,
        Kernel::Avx512 => c.avx512,
        Kernel::Avx512Vbmi => c.vbmi,
        Kernel::Neon => c.neon,
    }
}
