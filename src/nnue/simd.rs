//! The inner loops of NNUE inference over `i16` accumulators of N values (N a multiple of
//! [`HIDDEN_STEP`]): adding and subtracting a W1 row, the fused "copy the parent's
//! accumulator and apply up to two removed and two added rows", and the clipped-ReLU dot
//! product with the output weights (`i16·i16` summed in `i32`).
//!
//! Each comes in two implementations that return bit-identical results: [`portable`], plain
//! safe Rust (fixed chunks of 16 lanes, a plain fold for the dot product) written so that
//! the compiler auto-vectorises it, and, on x86_64, [`avx2`], written with AVX2 intrinsics
//! and chosen at run time (the crate's only `unsafe` code; elsewhere, and on CPUs without
//! AVX2, [`kernel`] is the portable one). A [`Kernel`] names the implementation; [`kernel`]
//! is the best one for this CPU,
//! whose detection runs once (a `OnceLock`, the only global state). All accumulator
//! arithmetic wraps (as [`Network::refresh`] does), and the dot product's `i32` sum wraps
//! too, so the order of the additions cannot change a result.
//!
//! [`Network::refresh`]: super::Network::refresh

use super::{HIDDEN_STEP, QA};

/// Lanes per chunk: one 256-bit vector of `i16`.
pub const LANES: usize = HIDDEN_STEP;

/// Panics unless `len` is a whole number of chunks (every kernel's precondition).
#[inline]
fn check_len(len: usize) {
    assert!(
        len.is_multiple_of(LANES),
        "accumulator length {len} is not a multiple of {LANES}"
    );
}

/// The portable implementation.
pub mod portable {
    use super::{LANES, QA, check_len};

    /// `acc += row`, wrapping.
    pub fn add_row(acc: &mut [i16], row: &[i16]) {
        assert_eq!(acc.len(), row.len());
        check_len(acc.len());
        for (a, r) in acc
            .as_chunks_mut::<LANES>()
            .0
            .iter_mut()
            .zip(row.as_chunks::<LANES>().0)
        {
            for (a, &r) in a.iter_mut().zip(r) {
                *a = a.wrapping_add(r);
            }
        }
    }

    /// `acc -= row`, wrapping.
    pub fn sub_row(acc: &mut [i16], row: &[i16]) {
        assert_eq!(acc.len(), row.len());
        check_len(acc.len());
        for (a, r) in acc
            .as_chunks_mut::<LANES>()
            .0
            .iter_mut()
            .zip(row.as_chunks::<LANES>().0)
        {
            for (a, &r) in a.iter_mut().zip(r) {
                *a = a.wrapping_sub(r);
            }
        }
    }

    /// `dst = src − Σ subs + Σ adds`, wrapping, in one pass.
    pub fn copy_update<const S: usize, const A: usize>(
        dst: &mut [i16],
        src: &[i16],
        subs: [&[i16]; S],
        adds: [&[i16]; A],
    ) {
        let n = dst.len();
        assert_eq!(src.len(), n);
        assert!(subs.iter().chain(&adds).all(|r| r.len() == n));
        check_len(n);
        let subs = subs.map(|r| r.as_chunks::<LANES>().0);
        let adds = adds.map(|r| r.as_chunks::<LANES>().0);
        let dst = dst.as_chunks_mut::<LANES>().0;
        let src = src.as_chunks::<LANES>().0;
        for (c, (d, s)) in dst.iter_mut().zip(src).enumerate() {
            let mut v = *s;
            for r in &subs {
                for (x, &y) in v.iter_mut().zip(&r[c]) {
                    *x = x.wrapping_sub(y);
                }
            }
            for r in &adds {
                for (x, &y) in v.iter_mut().zip(&r[c]) {
                    *x = x.wrapping_add(y);
                }
            }
            *d = v;
        }
    }

    /// `Σ clamp(acc[i], 0, QA)·w[i]`, the sum wrapping in `i32`. (A plain fold: the loop
    /// vectoriser turns it into multiply-add instructions, which it does not for an array of
    /// 16 partial sums.)
    pub fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
        assert_eq!(acc.len(), w.len());
        check_len(acc.len());
        acc.iter().zip(w).fold(0i32, |t, (&a, &w)| {
            // |clamp·w| ≤ 255·32768: the product itself never overflows.
            t.wrapping_add(i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        })
    }
}

/// The AVX2 implementation: intrinsics in `#[target_feature(enable = "avx2")]` functions,
/// behind safe wrappers that check (once, cached) that the CPU has AVX2.
///
/// The one place in the crate allowed `unsafe` (`src/lib.rs` denies it elsewhere): calling
/// target-feature functions and unaligned vector loads and stores, each with its `SAFETY`
/// argument; every test runs it against the portable kernel. On other architectures a stub
/// with the same functions reports it unavailable.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub mod avx2 {
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi16,
        _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256,
        _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_set1_epi16,
        _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
    };

    use std::sync::OnceLock;

    use super::{LANES, QA, check_len};

    /// True when this CPU has AVX2 (detected on the first call).
    pub fn available() -> bool {
        static AVX2: OnceLock<bool> = OnceLock::new();
        *AVX2.get_or_init(|| std::arch::is_x86_feature_detected!("avx2"))
    }

    /// Panics unless this CPU has AVX2: what makes the safe wrappers below sound.
    #[inline]
    fn require() {
        assert!(available(), "the AVX2 kernel needs a CPU with AVX2");
    }

    /// `acc += row`, wrapping.
    #[inline]
    pub fn add_row(acc: &mut [i16], row: &[i16]) {
        require();
        // SAFETY: the CPU has AVX2 (`require` above), all the target feature needs.
        unsafe { add_row_avx2(acc, row) }
    }

    /// `acc -= row`, wrapping.
    #[inline]
    pub fn sub_row(acc: &mut [i16], row: &[i16]) {
        require();
        // SAFETY: the CPU has AVX2 (`require` above), all the target feature needs.
        unsafe { sub_row_avx2(acc, row) }
    }

    /// `dst = src − Σ subs + Σ adds`, wrapping, in one pass.
    #[inline]
    pub fn copy_update<const S: usize, const A: usize>(
        dst: &mut [i16],
        src: &[i16],
        subs: [&[i16]; S],
        adds: [&[i16]; A],
    ) {
        require();
        // SAFETY: the CPU has AVX2 (`require` above), all the target feature needs.
        unsafe { copy_update_avx2(dst, src, subs, adds) }
    }

    /// `Σ clamp(acc[i], 0, QA)·w[i]`, the sum wrapping in `i32`.
    #[inline]
    pub fn crelu_dot(acc: &[i16], w: &[i16]) -> i32 {
        require();
        // SAFETY: the CPU has AVX2 (`require` above), all the target feature needs.
        unsafe { crelu_dot_avx2(acc, w) }
    }

    /// Loads chunk `c` (16 lanes) of `s`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn load(s: &[i16], c: usize) -> __m256i {
        let chunk = &s[c * LANES..(c + 1) * LANES];
        // SAFETY: `chunk` is 16 `i16` = 32 readable bytes (bounds-checked slice above);
        // `loadu` has no alignment requirement.
        unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }
    }

    /// Stores `v` into chunk `c` (16 lanes) of `d`.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn store(d: &mut [i16], c: usize, v: __m256i) {
        let chunk = &mut d[c * LANES..(c + 1) * LANES];
        // SAFETY: `chunk` is 16 `i16` = 32 writable bytes (bounds-checked slice above);
        // `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), v) }
    }

    /// `acc += row`, wrapping.
    #[target_feature(enable = "avx2")]
    fn add_row_avx2(acc: &mut [i16], row: &[i16]) {
        assert_eq!(acc.len(), row.len());
        check_len(acc.len());
        for c in 0..acc.len() / LANES {
            let v = _mm256_add_epi16(load(acc, c), load(row, c));
            store(acc, c, v);
        }
    }

    /// `acc -= row`, wrapping.
    #[target_feature(enable = "avx2")]
    fn sub_row_avx2(acc: &mut [i16], row: &[i16]) {
        assert_eq!(acc.len(), row.len());
        check_len(acc.len());
        for c in 0..acc.len() / LANES {
            let v = _mm256_sub_epi16(load(acc, c), load(row, c));
            store(acc, c, v);
        }
    }

    /// `dst = src − Σ subs + Σ adds`, wrapping, in one pass.
    #[target_feature(enable = "avx2")]
    fn copy_update_avx2<const S: usize, const A: usize>(
        dst: &mut [i16],
        src: &[i16],
        subs: [&[i16]; S],
        adds: [&[i16]; A],
    ) {
        let n = dst.len();
        assert_eq!(src.len(), n);
        assert!(subs.iter().chain(&adds).all(|r| r.len() == n));
        check_len(n);
        for c in 0..n / LANES {
            let mut v = load(src, c);
            for r in subs {
                v = _mm256_sub_epi16(v, load(r, c));
            }
            for r in adds {
                v = _mm256_add_epi16(v, load(r, c));
            }
            store(dst, c, v);
        }
    }

    /// `Σ clamp(acc[i], 0, QA)·w[i]`, the sum wrapping in `i32`.
    #[target_feature(enable = "avx2")]
    fn crelu_dot_avx2(acc: &[i16], w: &[i16]) -> i32 {
        assert_eq!(acc.len(), w.len());
        check_len(acc.len());
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for c in 0..acc.len() / LANES {
            let a = _mm256_min_epi16(_mm256_max_epi16(load(acc, c), zero), qa);
            // Pairs of products summed in i32: |a·w + a'·w'| ≤ 2·255·32768, no overflow.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(a, load(w, c)));
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        _mm_cvtsi128_si32(s)
    }
}

/// Stand-in for the AVX2 kernel off x86_64: never available, so [`Kernel::avx2`] is `None`
/// and nothing here runs.
#[cfg(not(target_arch = "x86_64"))]
pub mod avx2 {
    /// Always false: the AVX2 kernel is not compiled in.
    pub fn available() -> bool {
        false
    }

    /// Never called (the kernel is unavailable).
    pub fn add_row(_: &mut [i16], _: &[i16]) {
        unreachable!("the AVX2 kernel is not compiled in")
    }

    /// Never called (the kernel is unavailable).
    pub fn sub_row(_: &mut [i16], _: &[i16]) {
        unreachable!("the AVX2 kernel is not compiled in")
    }

    /// Never called (the kernel is unavailable).
    pub fn copy_update<const S: usize, const A: usize>(
        _: &mut [i16],
        _: &[i16],
        _: [&[i16]; S],
        _: [&[i16]; A],
    ) {
        unreachable!("the AVX2 kernel is not compiled in")
    }

    /// Never called (the kernel is unavailable).
    pub fn crelu_dot(_: &[i16], _: &[i16]) -> i32 {
        unreachable!("the AVX2 kernel is not compiled in")
    }
}

/// Which implementation runs. [`Kernel::avx2`] only exists on a CPU with AVX2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Impl);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Impl {
    Portable,
    Avx2,
}

/// The best kernel for this CPU, detected on the first call.
#[inline]
pub fn kernel() -> Kernel {
    // `avx2::available` caches its detection.
    Kernel::avx2().unwrap_or(Kernel::portable())
}

impl Kernel {
    /// The portable kernel, available everywhere.
    pub const fn portable() -> Kernel {
        Kernel(Impl::Portable)
    }

    /// The AVX2 kernel, if this CPU has AVX2.
    pub fn avx2() -> Option<Kernel> {
        avx2::available().then_some(Kernel(Impl::Avx2))
    }

    /// The kernel's name, for reports.
    pub fn name(self) -> &'static str {
        match self.0 {
            Impl::Portable => "portable",
            Impl::Avx2 => "avx2",
        }
    }

    /// `acc += row`, wrapping. Panics unless both have the same length, a multiple of 16.
    #[inline]
    pub fn add_row(self, acc: &mut [i16], row: &[i16]) {
        match self.0 {
            Impl::Portable => portable::add_row(acc, row),
            Impl::Avx2 => avx2::add_row(acc, row),
        }
    }

    /// `acc -= row`, wrapping. Panics unless both have the same length, a multiple of 16.
    #[inline]
    pub fn sub_row(self, acc: &mut [i16], row: &[i16]) {
        match self.0 {
            Impl::Portable => portable::sub_row(acc, row),
            Impl::Avx2 => avx2::sub_row(acc, row),
        }
    }

    /// `dst = src − Σ subs + Σ adds` (wrapping) in one pass, for at most two rows of each.
    /// Panics with more rows, or unless every slice has `dst`'s length, a multiple of 16.
    #[inline]
    pub fn copy_update(self, dst: &mut [i16], src: &[i16], subs: &[&[i16]], adds: &[&[i16]]) {
        match (subs, adds) {
            (&[], &[]) => self.copy_update_n(dst, src, [], []),
            (&[s], &[]) => self.copy_update_n(dst, src, [s], []),
            (&[], &[a]) => self.copy_update_n(dst, src, [], [a]),
            (&[s], &[a]) => self.copy_update_n(dst, src, [s], [a]),
            (&[s, t], &[a]) => self.copy_update_n(dst, src, [s, t], [a]),
            (&[s], &[a, b]) => self.copy_update_n(dst, src, [s], [a, b]),
            (&[s, t], &[a, b]) => self.copy_update_n(dst, src, [s, t], [a, b]),
            (&[s, t], &[]) => self.copy_update_n(dst, src, [s, t], []),
            (&[], &[a, b]) => self.copy_update_n(dst, src, [], [a, b]),
            _ => panic!(
                "copy_update takes at most 2 + 2 rows, not {} + {}",
                subs.len(),
                adds.len()
            ),
        }
    }

    #[inline]
    fn copy_update_n<const S: usize, const A: usize>(
        self,
        dst: &mut [i16],
        src: &[i16],
        subs: [&[i16]; S],
        adds: [&[i16]; A],
    ) {
        match self.0 {
            Impl::Portable => portable::copy_update(dst, src, subs, adds),
            Impl::Avx2 => avx2::copy_update(dst, src, subs, adds),
        }
    }

    /// `Σ clamp(acc[i], 0, QA)·w[i]`, wrapping in `i32`. Panics unless both have the same
    /// length, a multiple of 16.
    #[inline]
    pub fn crelu_dot(self, acc: &[i16], w: &[i16]) -> i32 {
        match self.0 {
            Impl::Portable => portable::crelu_dot(acc, w),
            Impl::Avx2 => avx2::crelu_dot(acc, w),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::GameRng;

    fn random_vec(rng: &mut GameRng, n: usize) -> Vec<i16> {
        (0..n).map(|_| rng.next_u64() as i16).collect()
    }

    /// Values mostly near crelu's range, so that both clamps and the middle are exercised.
    fn near_range(rng: &mut GameRng, n: usize) -> Vec<i16> {
        (0..n)
            .map(|_| match rng.below(4) {
                0 => rng.next_u64() as i16,
                _ => rng.below(700) as i16 - 200,
            })
            .collect()
    }

    /// Straightforward scalar references, independent of both kernels.
    fn reference_dot(acc: &[i16], w: &[i16]) -> i32 {
        acc.iter().zip(w).fold(0i32, |t, (&a, &w)| {
            t.wrapping_add(i32::from(a).clamp(0, QA) * i32::from(w))
        })
    }

    fn check_kernel(k: Kernel, seed: u64) {
        let mut rng = GameRng::new(seed, 0);
        for &n in &[16usize, 32, 48, 256, 1024, 4096] {
            for _ in 0..20 {
                let acc = random_vec(&mut rng, n);
                let rows: Vec<Vec<i16>> = (0..4).map(|_| random_vec(&mut rng, n)).collect();
                // add/sub against a scalar reference.
                let mut a = acc.clone();
                k.add_row(&mut a, &rows[0]);
                let want: Vec<i16> = acc
                    .iter()
                    .zip(&rows[0])
                    .map(|(x, y)| x.wrapping_add(*y))
                    .collect();
                assert_eq!(a, want, "{} add_row n={n}", k.name());
                k.sub_row(&mut a, &rows[0]);
                assert_eq!(a, acc, "{} sub_row n={n}", k.name());
                // Every shape of copy_update.
                for ns in 0..=2 {
                    for na in 0..=2 {
                        let subs: Vec<&[i16]> = rows[..ns].iter().map(Vec::as_slice).collect();
                        let adds: Vec<&[i16]> = rows[2..2 + na].iter().map(Vec::as_slice).collect();
                        let mut want = acc.clone();
                        for s in &subs {
                            for (x, y) in want.iter_mut().zip(s.iter()) {
                                *x = x.wrapping_sub(*y);
                            }
                        }
                        for s in &adds {
                            for (x, y) in want.iter_mut().zip(s.iter()) {
                                *x = x.wrapping_add(*y);
                            }
                        }
                        let mut dst = vec![7i16; n];
                        k.copy_update(&mut dst, &acc, &subs, &adds);
                        assert_eq!(dst, want, "{} copy_update {ns}+{na} n={n}", k.name());
                    }
                }
                let x = near_range(&mut rng, n);
                assert_eq!(k.crelu_dot(&x, &rows[1]), reference_dot(&x, &rows[1]));
                assert_eq!(k.crelu_dot(&acc, &rows[1]), reference_dot(&acc, &rows[1]));
            }
        }
    }

    #[test]
    fn portable_kernel_matches_scalar_reference() {
        check_kernel(Kernel::portable(), 1);
    }

    #[test]
    fn avx2_kernel_matches_portable_on_random_data() {
        let Some(k) = Kernel::avx2() else {
            eprintln!("no AVX2 on this CPU: test skipped");
            return;
        };
        check_kernel(k, 2);
        // And directly against the portable functions, including wrapping extremes.
        let mut rng = GameRng::new(3, 0);
        let p = Kernel::portable();
        for &n in &[16usize, 64, 256, 4096] {
            for _ in 0..50 {
                let acc = random_vec(&mut rng, n);
                let w = random_vec(&mut rng, n);
                let r = random_vec(&mut rng, n);
                let extremes = vec![i16::MAX; n];
                assert_eq!(k.crelu_dot(&acc, &w), p.crelu_dot(&acc, &w));
                assert_eq!(k.crelu_dot(&extremes, &w), p.crelu_dot(&extremes, &w));
                let (mut d1, mut d2) = (vec![0i16; n], vec![0i16; n]);
                k.copy_update(&mut d1, &acc, &[&w, &r], &[&extremes, &w]);
                p.copy_update(&mut d2, &acc, &[&w, &r], &[&extremes, &w]);
                assert_eq!(d1, d2);
            }
        }
        assert_eq!(
            kernel(),
            k,
            "the detected kernel should be AVX2 on this CPU"
        );
    }

    #[test]
    #[should_panic(expected = "not a multiple of 16")]
    fn lengths_must_be_whole_chunks() {
        let mut a = vec![0i16; 20];
        kernel().add_row(&mut a, &[0i16; 20]);
    }
}
