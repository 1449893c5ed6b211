//! The contract's rule for the id a read names its job by: an id upstream refuses is refused,
//! with upstream's message, and the read changes no bookmark.
//!
//! The judge's own reading of the rule (docs/pi-bgrun-0.7.1.md §2.2), not the engines'
//! (`upstream::tool::check_id`, held equal to it by a proptest below), so that an engine that
//! accepts a path-like id, or refuses a valid one, shows as a [`AnomalyKind::WrongRefusal`].

use super::verdict::{Anomaly, AnomalyKind};

/// The longest id upstream accepts, in UTF-16 code units.
const ID_UNITS_MAX: usize = 200;

/// Upstream's message refusing a read that names its job by `id`, or `None` where upstream
/// reads it: an empty id is missing; one longer than 200 UTF-16 units, or holding `/`, `\`,
/// `..` or a control character (U+0000–U+001F, U+007F–U+009F) is invalid, named in JSON.
pub fn refusal(id: &str) -> Option<String> {
    if id.is_empty() {
        return Some("bgtail: id is required".to_owned());
    }
    let too_long = id.encode_utf16().nth(ID_UNITS_MAX).is_some();
    let path_like = id.contains(['/', '\\']) || id.contains("..");
    let control = id.chars().any(|c| c.is_control());
    (too_long || path_like || control).then(|| {
        let quoted = serde_json::to_string(id).expect("a string always serialises");
        format!("bgtail: invalid job id {quoted}")
    })
}

/// Holds an engine's answer to a read naming its job by `id` to the rule: `refused` is the
/// message it refused the read with, `None` where it answered; `changed` says whether a
/// refused read changed the engine's bookmarks (a harness that cannot see them passes
/// `false`). An anomaly when it refused an id upstream reads, answered one upstream refuses,
/// refused with another message, or refused and changed a bookmark.
pub fn judge_id(id: &str, refused: Option<&str>, changed: bool) -> Option<Anomaly> {
    let expected = refusal(id);
    let say = |r: Option<&str>| r.map_or_else(|| "a reply".to_owned(), |m| format!("{m:?}"));
    if expected.as_deref() == refused {
        return (refused.is_some() && changed).then(|| {
            Anomaly::new(
                AnomalyKind::WrongRefusal,
                None,
                format!("{} changing no bookmark", say(refused)),
                "a refusal that changed the engine's bookmarks",
            )
        });
    }
    Some(Anomaly::new(
        AnomalyKind::WrongRefusal,
        None,
        format!("{} to a read of id {id:?}", say(expected.as_deref())),
        say(refused),
    ))
}

#[cfg(test)]
mod tests {
    use super::{judge_id, refusal};
    use crate::upstream::tool::check_id;
    use proptest::prelude::*;

    #[test]
    fn ids_are_refused_as_upstream_refuses_them() {
        assert_eq!(refusal("").as_deref(), Some("bgtail: id is required"));
        assert_eq!(
            refusal("x\u{7}y").as_deref(),
            Some("bgtail: invalid job id \"x\\u0007y\"")
        );
        for bad in [
            "a/b",
            "a\\b",
            "..",
            "a..b",
            "\u{85}",
            &"a".repeat(201),
            &"😀".repeat(101),
        ] {
            assert!(refusal(bad).is_some(), "{bad:?}");
        }
        for good in [
            "job-1790602752-11625",
            ".",
            "a.b",
            &"a".repeat(200),
            &"😀".repeat(100),
        ] {
            assert_eq!(refusal(good), None, "{good:?}");
        }
    }

    #[test]
    fn a_refusal_is_judged_by_the_id_the_message_and_the_bookmarks() {
        let path_like = Some("bgtail: invalid job id \"a/b\"");
        assert_eq!(judge_id("job-1", None, false), None);
        assert_eq!(judge_id("job-1", None, true), None);
        assert_eq!(judge_id("a/b", path_like, false), None);
        let changed = judge_id("a/b", path_like, true).expect("a refusal that changed bookmarks");
        assert_eq!(
            changed.said,
            "a refusal that changed the engine's bookmarks"
        );
        let accepted = judge_id("a/b", None, false).expect("a path-like id answered");
        assert_eq!(accepted.said, "a reply");
        let refused = judge_id("job-1", Some("bgtail: invalid job id \"job-1\""), false);
        assert_eq!(
            refused.expect("a valid id refused").expected,
            "a reply to a read of id \"job-1\""
        );
        assert!(judge_id("", Some("bgtail: invalid job id \"\""), false).is_some());
    }

    proptest! {
        /// The judge's rule and upstream's check agree on every id made of the characters
        /// the rule looks at and others, up to past the longest: two readings of one rule,
        /// written apart.
        #[test]
        fn the_judge_refuses_the_ids_upstreams_check_refuses(
            parts in proptest::collection::vec(
                prop_oneof![
                    Just("/".to_owned()),
                    Just("\\".to_owned()),
                    Just(".".to_owned()),
                    Just("😀".to_owned()),
                    "[a-z0-9-]{1,60}",
                    "[\\x00-\\x1f\\x7f-\\x9f]",
                    "\\PC",
                ],
                0..12,
            )
        ) {
            let id = parts.concat();
            prop_assert_eq!(refusal(&id), check_id(&id).err());
        }
    }
}
