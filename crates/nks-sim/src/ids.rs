//! Deterministic identifiers: the same seed and the same sequence of requests give the same
//! ids, so test failures and screenshots reproduce. UUID-shaped because every example of the
//! real API is a UUID and clients may validate the shape.

/// SplitMix64: tiny, well-mixed, and good enough for ids and the simulator's dice.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[derive(Debug, Clone)]
pub struct IdGen {
    salt: u64,
    counter: u64,
}

impl IdGen {
    pub fn new(salt: u64) -> Self {
        Self { salt, counter: 0 }
    }

    fn next_word(&mut self) -> u64 {
        self.counter += 1;
        splitmix64(self.salt.wrapping_mul(0x1000_0000_01b3) ^ self.counter)
    }

    /// A version-4-shaped UUID string.
    pub fn uuid(&mut self) -> String {
        let a = self.next_word();
        let b = self.next_word();
        format!(
            "{:08x}-{:04x}-4{:03x}-{:x}{:03x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            8 + ((b >> 62) & 0x3),
            (b >> 48) & 0xfff,
            b & 0xffff_ffff_ffff
        )
    }

    /// Five lowercase alphanumerics, the suffix of a node name (`baseline-x7k2p`).
    pub fn node_suffix(&mut self) -> String {
        const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        let mut w = self.next_word();
        (0..5)
            .map(|_| {
                let c = ALPHABET[(w % 36) as usize] as char;
                w /= 36;
                c
            })
            .collect()
    }

    /// A die roll in `0..n` (n > 0) drawn from the same deterministic stream.
    pub fn roll(&mut self, n: u64) -> u64 {
        self.next_word() % n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_uuid_shaped_and_reproducible() {
        let mut a = IdGen::new(7);
        let mut b = IdGen::new(7);
        let id = a.uuid();
        assert_eq!(id, b.uuid());
        assert_eq!(id.len(), 36);
        assert_eq!(&id[14..15], "4");
        assert!(a
            .node_suffix()
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
    }
}
