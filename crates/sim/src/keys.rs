//! The AMD repository signing key as the simulator serves it, and OpenPGP ASCII armor.
//!
//! There is no network in a lab, so `wget https://repo.radeon.com/rocm/rocm.gpg.key` is answered
//! with a stand-in key: a real armored block (base64 + CRC-24 checksum) around deterministic
//! bytes shaped like a public-key packet. `gpg --dearmor` turns it into the binary keyring that
//! apt's `signed-by=` must point at; apt accepts exactly those bytes (or the armored text in a
//! file ending in `.asc`), which is what a learner has to get right.

/// Long key id apt names in `NO_PUBKEY` for repo.radeon.com (real value, from public reports).
pub const AMD_KEY_ID: &str = "9386B48A1A693C5C";

/// The key's binary form (what `gpg --dearmor` writes).
pub fn amd_key_binary() -> Vec<u8> {
    // An old-format public-key packet (tag 6, two-byte length) with a v4 RSA body, followed by a
    // user-id packet. The modulus is pseudo-random but fixed.
    let mut body = vec![4u8, 0x5a, 0x1b, 0x6e, 0x80, 1, 0x08, 0x00];
    let mut x: u32 = 0x9386_b48a;
    for _ in 0..256 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        body.push((x >> 24) as u8);
    }
    body.extend_from_slice(&[0, 17, 1, 0, 1]);
    let mut out = vec![0x99, (body.len() >> 8) as u8, body.len() as u8];
    out.extend_from_slice(&body);
    let uid = b"ROCm repository signing key (simulated by rocm-learn)";
    out.push(0xb4);
    out.push(uid.len() as u8);
    out.extend_from_slice(uid);
    out
}

/// The armored key as served at the key URL.
pub fn amd_key_armored() -> String {
    armor(&amd_key_binary())
}

/// `data` as an ASCII-armored OpenPGP public key block, as gpg prints it.
pub fn armor(data: &[u8]) -> String {
    let mut s = String::from("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n");
    let b64 = base64_encode(data);
    for chunk in b64.as_bytes().chunks(64) {
        s.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        s.push('\n');
    }
    let crc = crc24(data);
    s.push('=');
    s.push_str(&base64_encode(&[
        (crc >> 16) as u8,
        (crc >> 8) as u8,
        crc as u8,
    ]));
    s.push_str("\n-----END PGP PUBLIC KEY BLOCK-----\n");
    s
}

/// Decodes the first armored block in `text`; `None` if there is none or it is damaged.
pub fn dearmor(text: &[u8]) -> Option<Vec<u8>> {
    let text = String::from_utf8_lossy(text);
    let start = text.find("-----BEGIN PGP ")?;
    let rest = &text[start..];
    let mut lines = rest.lines().skip(1);
    // Armor headers end at the first blank line.
    for l in lines.by_ref() {
        if l.trim().is_empty() {
            break;
        }
    }
    let mut b64 = String::new();
    let mut checksum = None;
    for l in lines {
        let l = l.trim();
        if l.starts_with("-----END PGP ") {
            let data = base64_decode(&b64)?;
            if let Some(c) = checksum {
                let c: Vec<u8> = base64_decode(c)?;
                let crc = crc24(&data);
                if c != [(crc >> 16) as u8, (crc >> 8) as u8, crc as u8] {
                    return None;
                }
            }
            return if data.is_empty() { None } else { Some(data) };
        }
        if let Some(c) = l.strip_prefix('=') {
            checksum = Some(c);
        } else {
            b64.push_str(l);
        }
    }
    None
}

/// Is this file content a usable keyring for the AMD repositories? `armored_ok` is true for
/// `.asc` files, which apt reads as armored text.
pub fn is_amd_keyring(bytes: &[u8], armored_ok: bool) -> bool {
    keyring_has(bytes, &amd_key_binary(), armored_ok)
}

/// The OpenPGP packets of `bytes`, each with its header; None when they do not parse.
fn packets(bytes: &[u8]) -> Option<Vec<&[u8]>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let tag = bytes[at];
        if tag & 0x80 == 0 {
            return None;
        }
        let (head, len) = if tag & 0x40 != 0 {
            // New format: one, two or five length octets (partial lengths are not keys).
            let b = |i: usize| bytes.get(at + i).map(|x| usize::from(*x));
            match b(1)? {
                n @ 0..=191 => (2, n),
                n @ 192..=223 => (3, ((n - 192) << 8) + b(2)? + 192),
                255 => (6, (b(2)? << 24) | (b(3)? << 16) | (b(4)? << 8) | b(5)?),
                _ => return None,
            }
        } else {
            let b = |i: usize| bytes.get(at + i).map(|x| usize::from(*x));
            match tag & 3 {
                0 => (2, b(1)?),
                1 => (3, (b(1)? << 8) | b(2)?),
                2 => (5, (b(1)? << 24) | (b(2)? << 16) | (b(3)? << 8) | b(4)?),
                _ => return None,
            }
        };
        let end = at.checked_add(head)?.checked_add(len)?;
        out.push(bytes.get(at..end)?);
        at = end;
    }
    Some(out)
}

/// Whether a keyring's content holds `key` (a binary key whose first packet is its public
/// key) among any others: binary keyrings of one or more keys, and, when `armored_ok` (a
/// `.asc` file, or a key written into a `.sources` file), armored blocks of them.
pub fn keyring_has(bytes: &[u8], key: &[u8], armored_ok: bool) -> bool {
    let Some(&want) = packets(key).as_ref().and_then(|p| p.first()) else {
        return false;
    };
    let holds = |b: &[u8]| packets(b).is_some_and(|p| p.contains(&want));
    if holds(bytes) {
        return true;
    }
    if !armored_ok {
        return false;
    }
    // Each armored block in turn (a file may hold several, one key each).
    let text = String::from_utf8_lossy(bytes);
    text.match_indices("-----BEGIN PGP ")
        .filter_map(|(i, _)| dearmor(&text.as_bytes()[i..]))
        .any(|b| holds(&b))
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub fn base64_encode(data: &[u8]) -> String {
    let mut s = String::new();
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                s.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// Standard base64, `None` when it is not.
pub fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in s.bytes() {
        if c == b'=' {
            break;
        }
        let v = B64.iter().position(|&b| b == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// CRC-24 as RFC 4880 defines it for armor checksums.
fn crc24(data: &[u8]) -> u32 {
    let mut crc: u32 = 0xB704CE;
    for &b in data {
        crc ^= u32::from(b) << 16;
        for _ in 0..8 {
            crc <<= 1;
            if crc & 0x1000000 != 0 {
                crc ^= 0x1864CFB;
            }
        }
    }
    crc & 0xFFFFFF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armor_round_trips() {
        let bin = amd_key_binary();
        assert_eq!(dearmor(amd_key_armored().as_bytes()), Some(bin.clone()));
        assert!(is_amd_keyring(&bin, false));
        assert!(!is_amd_keyring(amd_key_armored().as_bytes(), false));
        assert!(is_amd_keyring(amd_key_armored().as_bytes(), true));
        assert_eq!(base64_decode(&base64_encode(b"ab")), Some(b"ab".to_vec()));
    }

    #[test]
    fn a_keyring_of_several_keys_holds_each() {
        let other = {
            let mut k = amd_key_binary();
            k[10] ^= 0xff;
            k
        };
        let both = [other.clone(), amd_key_binary()].concat();
        assert!(is_amd_keyring(&both, false));
        assert!(!is_amd_keyring(&other, false));
        // Garbage after a key is no keyring apt reads.
        assert!(!is_amd_keyring(
            &[amd_key_binary(), b"junk".to_vec()].concat(),
            false
        ));
        let two_blocks = format!("{}{}", armor(&other), amd_key_armored());
        assert!(is_amd_keyring(two_blocks.as_bytes(), true));
        assert!(!is_amd_keyring(two_blocks.as_bytes(), false));
    }

    #[test]
    fn damaged_armor_is_rejected() {
        let mut a = amd_key_armored();
        a = a.replacen("A", "B", 1);
        assert!(dearmor(a.as_bytes()).is_none() || dearmor(a.as_bytes()) != Some(amd_key_binary()));
        assert_eq!(dearmor(b"hello"), None);
    }
}
