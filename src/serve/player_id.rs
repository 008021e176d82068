//! Player ids that the server hands out (`POST /v1/players`) and checks: a random part and a
//! tag of it keyed by the server's secret, so that a client of the play page's token (which is
//! public) can act only as a player the server gave it, and read and write that player's games
//! alone. The secret is derived from the server's token (`--token-file`): every server of a
//! fleet started with one token takes the others' ids, and a new token makes new ids. A
//! server without a token checks nothing (every client may do anything there), and its ids are
//! names like any other.

use crate::rng::Rng;

/// What the key is derived for (blake3's key derivation: one context, one use).
const CONTEXT: &str = "pseudoku 2026-12-02 serve: the tags of player ids";

/// The first character of a player id the server made.
const MARK: char = 'p';

/// Hex digits of an id's random part (64 bits) and of its tag (96 bits).
const RANDOM: usize = 16;
const TAG: usize = 24;

/// The server's maker and checker of player ids.
pub struct PlayerIds {
    key: [u8; 32],
}

impl PlayerIds {
    /// The ids of a server with `token` (the key derived from it); without one, from `seed`
    /// (ids nobody checks).
    pub fn new(token: Option<&str>, seed: u64) -> PlayerIds {
        let key = match token {
            Some(token) => blake3::derive_key(CONTEXT, token.as_bytes()),
            None => blake3::derive_key(CONTEXT, &seed.to_le_bytes()),
        };
        PlayerIds { key }
    }

    /// A new player's id: `p`, 16 hex digits drawn from `rng`, `.`, and 24 hex digits of
    /// their tag (42 characters, a valid user id).
    pub fn issue(&self, rng: &mut Rng) -> String {
        let random = format!("{MARK}{:016x}", rng.next_u64());
        let tag = self.tag(&random);
        format!("{random}.{tag}")
    }

    /// Whether `user` is an id this server (or one with its token) made.
    pub fn verify(&self, user: &str) -> bool {
        let Some((random, tag)) = user.split_once('.') else {
            return false;
        };
        if random.len() != RANDOM + 1 || !random.starts_with(MARK) || tag.len() != TAG {
            return false;
        }
        // Compared without stopping at the first difference.
        let want = self.tag(random);
        want.bytes()
            .zip(tag.bytes())
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
    }

    /// The tag of an id's random part: its keyed blake3 hash, the first 24 hex digits.
    fn tag(&self, random: &str) -> String {
        let hash = blake3::keyed_hash(&self.key, random.as_bytes());
        hash.to_hex()[..TAG].to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_verifies_with_its_token_only() {
        let ids = PlayerIds::new(Some("secret"), 1);
        let mut rng = Rng::new(3);
        let id = ids.issue(&mut rng);
        assert_eq!(id.len(), 1 + RANDOM + 1 + TAG);
        assert!(crate::play::is_user_id(&id), "{id}");
        assert!(ids.verify(&id));
        assert!(PlayerIds::new(Some("secret"), 99).verify(&id));
        assert!(!PlayerIds::new(Some("other"), 1).verify(&id));
        // Any change to either part, or a name a client picks, fails.
        let mut forged = id.clone().into_bytes();
        let last = forged.len() - 1;
        forged[last] = if forged[last] == b'0' { b'1' } else { b'0' };
        assert!(!ids.verify(std::str::from_utf8(&forged).unwrap()));
        let mut other = id.clone().into_bytes();
        other[1] = if other[1] == b'0' { b'1' } else { b'0' };
        assert!(!ids.verify(std::str::from_utf8(&other).unwrap()));
        for bad in ["ann", "", "p.", &id[..id.len() - 1], &format!("{id}0")] {
            assert!(!ids.verify(bad), "{bad}");
        }
        assert_ne!(ids.issue(&mut rng), id);
    }
}
