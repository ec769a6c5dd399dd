#!/usr/bin/env bash
# Builds urilex for aarch64 and runs tests under qemu user emulation, so the
# NEON kernel is compiled and tested on an x86_64 machine whose rustup
# toolchain has no aarch64 standard library. Debian's rustc-web (1.96) has
# one, as a multiarch package. Needs root for apt; the packages stay.
#
#   scripts/aarch64.sh                  # tests/scan.rs: NEON against scalar (8 sets)
#   scripts/aarch64.sh --test corpora   # any other cargo test arguments
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -d /usr/lib/rustlib/aarch64-unknown-linux-gnu ]] || ! command -v qemu-aarch64 > /dev/null; then
    dpkg --add-architecture arm64
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rustc-web \
        libstd-rust-web-dev:arm64 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
fi
export RUSTC=/usr/bin/rustc
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/aarch64-cross}
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu"
if [[ $# -eq 0 ]]; then
    # Emulated SIMD is slow: the kernel test over 8 of its byte sets.
    export URILEX_SCAN_SETS=${URILEX_SCAN_SETS:-8}
    set -- --features internals --test scan
fi
cargo test --release --target aarch64-unknown-linux-gnu "$@" -- --nocapture
