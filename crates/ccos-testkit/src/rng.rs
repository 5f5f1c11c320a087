//! A small seeded generator for benchmarks' synthetic catalogs and
//! documents: every run generates the same ones.

/// xorshift64*: small, seeded, deterministic (not for anything secret).
pub struct Xorshift(pub u64);

impl Xorshift {
    /// The next value.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// One of `v`, chosen by the next value.
    pub fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[(self.next_u64() % v.len() as u64) as usize]
    }
}
