//! Searches for a literal word in the short lines of a reply's header and notes.
//!
//! `str::find` and its kin set up a two-way searcher for every `&str` pattern they are given
//! (the critical factorisation of the needle) before looking at the haystack; the judge
//! searches each reply's header and notes for a dozen words, and in the model, which judges
//! every reply it generates, that set-up alone was 7–9% of all instructions (callgrind,
//! `bgtail check --bound ci --max-lines 2`). Headers and notes are a line each, so finding the
//! word's first byte with `memchr` and comparing the rest is as fast to run and costs nothing
//! to set up. Each function means exactly what its `str` namesake means for a `&str` pattern.

/// `s.find(word)`. A match of a whole UTF-8 word starts and ends on character boundaries, so
/// the offset can slice `s`.
pub(super) fn find(s: &str, word: &str) -> Option<usize> {
    let (hay, needle) = (s.as_bytes(), word.as_bytes());
    if needle.is_empty() {
        return Some(0);
    }
    // Most words start with a space, which a reply's lines are full of: look for the first
    // byte that is not one, `k` bytes into the word.
    let k = needle.iter().position(|&b| b != b' ').unwrap_or(0);
    let mut from = k;
    while from <= hay.len() {
        let at = from + memchr::memchr(needle[k], &hay[from..])? - k;
        if hay[at..].starts_with(needle) {
            return Some(at);
        }
        from = at + k + 1;
    }
    None
}

/// `s.rfind(word)`.
pub(super) fn rfind(s: &str, word: &str) -> Option<usize> {
    let (hay, needle) = (s.as_bytes(), word.as_bytes());
    let Some(&first) = needle.first() else {
        return Some(s.len());
    };
    let mut to = hay.len();
    while let Some(at) = memchr::memrchr(first, &hay[..to]) {
        if hay[at..].starts_with(needle) {
            return Some(at);
        }
        to = at;
    }
    None
}

/// `s.contains(word)`.
pub(super) fn contains(s: &str, word: &str) -> bool {
    find(s, word).is_some()
}

/// `s.split_once(word)`.
pub(super) fn split_once<'a>(s: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    find(s, word).map(|at| (&s[..at], &s[at + word.len()..]))
}

/// `s.rsplit_once(word)`.
pub(super) fn rsplit_once<'a>(s: &'a str, word: &str) -> Option<(&'a str, &'a str)> {
    rfind(s, word).map(|at| (&s[..at], &s[at + word.len()..]))
}

/// `s.split(sep)` for a non-empty `sep`: the pieces between its matches, left to right.
pub(super) fn split<'a>(s: &'a str, sep: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    debug_assert!(
        !sep.is_empty(),
        "an empty separator splits between characters"
    );
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        Some(match split_once(r, sep) {
            Some((head, tail)) => {
                rest = Some(tail);
                head
            }
            None => {
                rest = None;
                r
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Few letters, one of them multi-byte, so that words often occur, overlap and repeat.
    const TEXT: &str = "[ab—; ]{0,24}";
    const WORD: &str = "[ab—; ]{1,4}";

    proptest! {
        #![proptest_config(bgtail_tests::seeds::config(256))]
        #[test]
        fn each_search_means_what_its_str_namesake_means(s in TEXT, word in WORD) {
            prop_assert_eq!(find(&s, &word), s.find(word.as_str()));
            prop_assert_eq!(rfind(&s, &word), s.rfind(word.as_str()));
            prop_assert_eq!(contains(&s, &word), s.contains(word.as_str()));
            prop_assert_eq!(split_once(&s, &word), s.split_once(word.as_str()));
            prop_assert_eq!(rsplit_once(&s, &word), s.rsplit_once(word.as_str()));
            prop_assert_eq!(
                split(&s, &word).collect::<Vec<_>>(),
                s.split(word.as_str()).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn an_empty_word_is_found_where_str_finds_it() {
        assert_eq!((find("ab", ""), rfind("ab", "")), (Some(0), Some(2)));
    }
}
