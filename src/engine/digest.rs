//! A short hexadecimal digest of any serializable value, used to compare tables and scenarios.
//!
//! The digest is SHA-256 of the value's compact RON text (`ron::to_string`), which saves,
//! `simulate` lines and tests have always compared. `simulate` takes two a game, and ron's writer
//! (which checks every field name as it writes it, and formats each number through `fmt`) was a
//! fifth of a whole Battle of the Nations game: `RonText` writes the very same bytes into a buffer
//! kept between calls. Tests hold it to ron's text: below for every kind of value, and in
//! `tests/saves.rs` for every state of a game of each game.

use serde::ser::{self, Serialize};
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::fmt;

/// SHA-256 of the value's RON text, as 16 hex digits (64 bits: enough to tell tables apart).
pub fn digest_of<T: Serialize>(value: &T) -> String {
    thread_local! {
        static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }
    BUFFER.with(|buffer| {
        // Taken out and put back, so that a value whose serialization digests another value
        // (none does today) gets a buffer of its own instead of a second borrow.
        let mut out = std::mem::take(&mut *buffer.borrow_mut());
        out.clear();
        write_text(value, &mut out);
        let digest = digest_bytes(&out);
        *buffer.borrow_mut() = out;
        digest
    })
}

/// The compact RON text `ron::to_string` writes for `value`, by `RonText`.
pub fn ron_text<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    write_text(value, &mut out);
    String::from_utf8(out).expect("RON text is UTF-8")
}

fn write_text<T: Serialize>(value: &T, out: &mut Vec<u8>) {
    value.serialize(&mut RonText { out, names: [(0, 0, false); NAMES] }).expect("the value serializes");
}

pub fn digest_bytes(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    hash[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// A serializer writing what `ron::to_string` writes with its default options: no struct names,
/// no extensions, strings escaped as `char::escape_debug` does, floats with a `.0` when whole.
struct RonText<'a> {
    out: &'a mut Vec<u8>,
    /// The names already judged in this text, by where they lie (`name`'s address and length):
    /// a state writes the same few dozen field and variant names hundreds of times, and judging
    /// each byte of each was a tenth of a digest. Slot by address; a name that shares its slot
    /// is judged again.
    names: [(usize, usize, bool); NAMES],
}

/// How many names `RonText` remembers.
const NAMES: usize = 64;

/// ron's own error: a value's `Serialize` may fail with a message of its own.
type Result<T = ()> = std::result::Result<T, ron::Error>;

impl RonText<'_> {
    /// A number in decimal, in 64 bits (a 128-bit division by ten costs ten times as much, and
    /// every number of a state but the generator's fits in 64).
    fn unsigned(&mut self, mut v: u64) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        self.out.extend_from_slice(&digits[i..]);
    }

    fn signed(&mut self, v: i64) {
        if v < 0 {
            self.out.push(b'-');
        }
        self.unsigned(v.unsigned_abs());
    }

    /// A name as ron writes it: `r#` before one that is not a plain identifier or is one of
    /// RON's words. Rust's names are ASCII; another is written by ron itself.
    fn identifier(&mut self, name: &'static str) {
        let slot = (name.as_ptr() as usize >> 2) % NAMES;
        if let (at, len, true) = self.names[slot]
            && at == name.as_ptr() as usize
            && len == name.len()
        {
            // A plain identifier that is not one of RON's words, judged before.
            self.out.extend_from_slice(name.as_bytes());
            return;
        }
        let plain = name.bytes().next().is_some_and(|c| c == b'_' || c.is_ascii_alphabetic())
            && name.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric());
        let word = matches!(
            name,
            "true" | "false" | "Some" | "None" | "inf" | "inff32" | "inff64" | "NaN" | "NaNf32" | "NaNf64"
        );
        self.names[slot] = (name.as_ptr() as usize, name.len(), plain && !word);
        if !plain {
            if !name.is_ascii() {
                // Unicode's identifier classes decide: ron writes such a name itself.
                struct Named(&'static str);
                impl Serialize for Named {
                    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                        s.serialize_unit_variant("Named", 0, self.0)
                    }
                }
                let text = ron::to_string(&Named(name)).expect("a name ron writes");
                self.out.extend_from_slice(text.as_bytes());
                return;
            }
            self.out.extend_from_slice(b"r#");
        } else if word {
            self.out.extend_from_slice(b"r#");
        }
        self.out.extend_from_slice(name.as_bytes());
    }

    /// A float as ron writes it: `-` before a negative NaN, then Rust's own digits, and `.0`
    /// after a whole number (`whole`: `v % 1 == 0`, false for the infinities and NaN).
    fn float(&mut self, v: impl fmt::Display, negative_nan: bool, whole: bool) {
        if negative_nan {
            self.out.push(b'-');
        }
        self.display(v);
        if whole {
            self.out.extend_from_slice(b".0");
        }
    }

    fn display(&mut self, v: impl fmt::Display) {
        use std::io::Write;
        write!(self.out, "{v}").expect("a Vec takes every write");
    }
}

/// A sequence, tuple, map or struct being written: whether a comma comes before the next part.
struct Parts<'r, 'a> {
    text: &'r mut RonText<'a>,
    first: bool,
    close: u8,
}

impl Parts<'_, '_> {
    fn comma(&mut self) {
        if !std::mem::take(&mut self.first) {
            self.text.out.push(b',');
        }
    }

    /// The next element of a sequence, tuple or tuple variant.
    fn part<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.comma();
        value.serialize(&mut *self.text)
    }

    fn end(self) -> Result {
        self.text.out.push(self.close);
        Ok(())
    }
}

impl<'r, 'a> ser::Serializer for &'r mut RonText<'a> {
    type Ok = ();
    type Error = ron::Error;
    type SerializeSeq = Parts<'r, 'a>;
    type SerializeTuple = Parts<'r, 'a>;
    type SerializeTupleStruct = Parts<'r, 'a>;
    type SerializeTupleVariant = Parts<'r, 'a>;
    type SerializeMap = Parts<'r, 'a>;
    type SerializeStruct = Parts<'r, 'a>;
    type SerializeStructVariant = Parts<'r, 'a>;

    fn serialize_bool(self, v: bool) -> Result {
        self.out.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result {
        self.signed(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result {
        self.display(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.unsigned(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.unsigned(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.unsigned(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result {
        self.unsigned(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result {
        self.display(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result {
        self.float(v, v.is_nan() && v.is_sign_negative(), v % 1. == 0.0);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result {
        self.float(v, v.is_nan() && v.is_sign_negative(), v % 1. == 0.0);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result {
        self.out.push(b'\'');
        if v == '\\' || v == '\'' {
            self.out.push(b'\\');
        }
        self.out.extend_from_slice(v.encode_utf8(&mut [0; 4]).as_bytes());
        self.out.push(b'\'');
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result {
        self.out.push(b'"');
        if v.bytes().all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\' && b != b'\'' || b == b' ') {
            self.out.extend_from_slice(v.as_bytes());
        } else {
            for c in v.chars().flat_map(char::escape_debug) {
                self.out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
            }
        }
        self.out.push(b'"');
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result {
        // Byte strings appear in no state; ron writes them itself.
        let text = ron::to_string(&serde_bytes_of(v))?;
        self.out.extend_from_slice(text.as_bytes());
        Ok(())
    }
    fn serialize_none(self) -> Result {
        self.out.extend_from_slice(b"None");
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        self.out.extend_from_slice(b"Some(");
        value.serialize(&mut *self)?;
        self.out.push(b')');
        Ok(())
    }
    fn serialize_unit(self) -> Result {
        self.out.extend_from_slice(b"()");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result {
        self.identifier(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _name: &'static str, value: &T) -> Result {
        self.out.push(b'(');
        value.serialize(&mut *self)?;
        self.out.push(b')');
        Ok(())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.identifier(variant);
        self.out.push(b'(');
        value.serialize(&mut *self)?;
        self.out.push(b')');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Parts<'r, 'a>> {
        self.out.push(b'[');
        Ok(Parts { text: self, first: true, close: b']' })
    }
    fn serialize_tuple(self, _len: usize) -> Result<Parts<'r, 'a>> {
        self.out.push(b'(');
        Ok(Parts { text: self, first: true, close: b')' })
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Parts<'r, 'a>> {
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Parts<'r, 'a>> {
        self.identifier(variant);
        self.out.push(b'(');
        Ok(Parts { text: self, first: true, close: b')' })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Parts<'r, 'a>> {
        self.out.push(b'{');
        Ok(Parts { text: self, first: true, close: b'}' })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Parts<'r, 'a>> {
        self.serialize_tuple(len)
    }
    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Parts<'r, 'a>> {
        self.serialize_tuple_variant(name, index, variant, len)
    }
}

impl ser::SerializeSeq for Parts<'_, '_> {
    type Ok = ();
    type Error = ron::Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.part(value)
    }
    fn end(self) -> Result {
        Parts::end(self)
    }
}

impl ser::SerializeTuple for Parts<'_, '_> {
    type Ok = ();
    type Error = ron::Error;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.part(value)
    }
    fn end(self) -> Result {
        Parts::end(self)
    }
}

impl ser::SerializeTupleStruct for Parts<'_, '_> {
    type Ok = ();
    type Error = ron::Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.part(value)
    }
    fn end(self) -> Result {
        Parts::end(self)
    }
}

impl ser::SerializeTupleVariant for Parts<'_, '_> {
    type Ok = ();
    type Error = ron::Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.part(value)
    }
    fn end(self) -> Result {
        Parts::end(self)
    }
}

impl ser::SerializeMap for Parts<'_, '_> {
    type Ok = ();
    type Error = ron::Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result {
        self.comma();
        key.serialize(&mut *self.text)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.text.out.push(b':');
        value.serialize(&mut *self.text)
    }
    fn end(self) -> Result {
        Parts::end(self)
    }
}

impl ser::SerializeStruct for Parts<'_, '_> {
    type Ok = ();
    type Error = ron::Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        self.comma();
        self.text.identifier(key);
        self.text.out.push(b':');
        value.serialize(&mut *self.text)
    }
    fn end(self) -> Result {
        Parts::end(self)
    }
}

impl ser::SerializeStructVariant for Parts<'_, '_> {
    type Ok = ();
    type Error = ron::Error;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result {
        Parts::end(self)
    }
}

/// A byte string handed to ron as one.
fn serde_bytes_of(v: &[u8]) -> impl Serialize + '_ {
    struct Bytes<'a>(&'a [u8]);
    impl Serialize for Bytes<'_> {
        fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
            s.serialize_bytes(self.0)
        }
    }
    Bytes(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;
    use std::collections::BTreeMap;

    #[derive(Serialize)]
    struct Unit;
    #[derive(Serialize)]
    struct Wrapped(u8);
    #[derive(Serialize)]
    struct Pair(i8, Option<bool>);
    #[derive(Serialize)]
    #[allow(non_camel_case_types)]
    enum Kind {
        Plain,
        One(f32),
        Two(u16, char),
        Named {
            r#type: String,
            inf: Option<Option<u8>>,
        },
        #[serde(rename = "None")]
        NotNone,
        #[serde(rename = "9lives")]
        Digit,
        #[serde(rename = "Aé")]
        Accented,
        #[serde(rename = "a-b")]
        Dashed,
    }
    #[derive(Serialize)]
    struct Everything {
        unit: (),
        unit_struct: Unit,
        wrapped: Wrapped,
        pair: Pair,
        kinds: Vec<Kind>,
        map: BTreeMap<String, (i128, u128)>,
        floats: Vec<f64>,
        chars: Vec<char>,
        text: Vec<String>,
        empty: (Vec<u8>, BTreeMap<u8, u8>),
        #[serde(skip)]
        _skipped: u8,
    }

    /// The digest's writer writes what `ron::to_string` writes, byte for byte, for every kind of
    /// value serde has (the digest of every save and `simulate` line depends on it).
    #[test]
    fn the_digest_writer_writes_the_text_ron_writes() {
        let value = Everything {
            unit: (),
            unit_struct: Unit,
            wrapped: Wrapped(7),
            pair: Pair(-128, Some(false)),
            kinds: vec![
                Kind::Plain,
                Kind::One(-0.5),
                Kind::One(3.0),
                Kind::Two(65535, '\''),
                Kind::Two(0, '\\'),
                Kind::Two(1, 'é'),
                Kind::Two(2, '\n'),
                Kind::Named { r#type: "say \"hi\"\t\\ 'x' é\u{7f}\u{301}".into(), inf: Some(None) },
                Kind::Named { r#type: String::new(), inf: Some(Some(255)) },
                Kind::NotNone,
                Kind::Digit,
                Kind::Accented,
                Kind::Dashed,
            ],
            map: BTreeMap::from([("a".into(), (i128::MIN, u128::MAX)), ("b:c".into(), (0, 1))]),
            floats: vec![
                0.0,
                -0.0,
                1.0,
                0.1,
                1e21,
                1e-7,
                -2.5e300,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NAN,
                -f64::NAN,
            ],
            chars: vec!['a', '"', ' ', '\u{0}'],
            text: vec!["plain words, 12".into(), "Möckern".into(), "\r\n".into()],
            empty: (Vec::new(), BTreeMap::new()),
            _skipped: 9,
        };
        assert_eq!(ron_text(&value), ron::to_string(&value).unwrap());
        assert_eq!(digest_of(&value), digest_bytes(ron::to_string(&value).unwrap().as_bytes()));
        for v in [i64::MIN, -1, 0, 9, 10, i64::MAX] {
            assert_eq!(ron_text(&v), ron::to_string(&v).unwrap());
        }
    }
}
