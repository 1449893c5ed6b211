//! `bgtail-eut`, version 1: the engine-under-test protocol, through which any implementation
//! of a bgtail-like reader is replayed, compared and model-checked against this crate's.
//!
//! The engine is a child process speaking JSON Lines: the harness writes one request per line
//! on its stdin, the engine answers each with exactly one reply per line on its stdout, matched
//! by `in_reply_to` (Maelstrom's convention). Its stderr is the engine's own. The harness owns
//! the log (real files it writes) and the clock (`now_ms`). `docs/engine-protocol.md` is the
//! specification, with a JSON Schema for every message; these types are the code side of it,
//! and a test checks that the two agree.
//!
//! Pure: message types and their JSON; the process and its pipes live in the CLI.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The protocol's name, sent in `init` and echoed in `init_ok`.
pub const PROTOCOL: &str = "bgtail-eut";
/// The protocol version this code speaks.
pub const VERSION: u32 = 1;

/// A request from the harness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ToEngine {
    /// The first message: which protocol and versions the harness speaks.
    Init {
        /// The request's id, which its reply names in `in_reply_to`.
        msg_id: u64,
        /// The protocol's name: `bgtail-eut`.
        protocol: String,
        /// The protocol versions the harness speaks; the engine picks one.
        versions: Vec<u32>,
    },
    /// One bgtail call.
    Read(ReadRequest),
    /// Forget every bookmark: the engine is as freshly started. Needs `capabilities.reset`.
    Reset {
        /// The request's id, which its reply names in `in_reply_to`.
        msg_id: u64,
    },
    /// Hand out the engine's whole state as an opaque JSON value. Needs `capabilities.snapshot`.
    Snapshot {
        /// The request's id, which its reply names in `in_reply_to`.
        msg_id: u64,
    },
    /// Take back a state from `snapshot_ok`. Needs `capabilities.snapshot`.
    Restore {
        /// The request's id, which its reply names in `in_reply_to`.
        msg_id: u64,
        /// A state an earlier `snapshot_ok` handed out.
        state: Value,
    },
}

impl ToEngine {
    /// The request's id, which its reply names in `in_reply_to`.
    pub fn msg_id(&self) -> u64 {
        match self {
            ToEngine::Init { msg_id, .. }
            | ToEngine::Reset { msg_id }
            | ToEngine::Snapshot { msg_id }
            | ToEngine::Restore { msg_id, .. } => *msg_id,
            ToEngine::Read(r) => r.msg_id,
        }
    }
}

/// A bgtail call: the job, its log's path, the agent's parameters, and the job's state.
/// Fields this version does not know are ignored (see the page's "Versioning").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReadRequest {
    /// The request's id, which its reply names in `in_reply_to`.
    pub msg_id: u64,
    /// The job's id, as the agent names it.
    pub job_id: String,
    /// Where the log is: a real file the harness writes (absent when it was deleted).
    pub log_path: String,
    /// Upstream's `lines` as the agent's JSON gave it: absent, `null`, or a number.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::formats::trace::present_js_number"
    )]
    pub lines: Option<crate::formats::trace::JsNumber>,
    /// Skip condensing: the verbatim window.
    #[serde(default)]
    pub raw: bool,
    #[serde(
        default,
        skip_serializing_if = "not_sent",
        serialize_with = "crate::upstream::js::js_number"
    )]
    /// The view in bytes, as the agent's JSON gave it.
    pub bytes: Option<f64>,
    /// 0.8.0's `peek`: read a running job's log anyway.
    #[serde(default)]
    pub peek: bool,
    /// Whether the job is still running (the harness knows; no exit marker was written).
    #[serde(default)]
    pub running: bool,
    /// Milliseconds since the job started, on the harness's clock, when it keeps one (a
    /// running job's state line prints it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub now_ms: Option<u64>,
}

/// A reply from the engine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum FromEngine {
    /// The engine's name, what it can do, and its limits.
    InitOk {
        /// The `msg_id` of the request this answers.
        in_reply_to: u64,
        /// The protocol version the engine chose from the harness's `versions`.
        version: u32,
        /// Who the engine is.
        engine: EngineInfo,
        /// What it can do beyond plain condensed reads.
        capabilities: Capabilities,
        /// Its limits, when it declares them (the judge and the model checker use them).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limits: Option<DeclaredLimits>,
        /// The markers the engine's text uses ([`crate::upstream::condense::TextFormat::name`]); absent means
        /// pi-bgrun's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text_format: Option<String>,
        /// How a `plain-1` reader prints the log's lines and which of its lines are not the
        /// log's ([`crate::plain::PlainBody`]); only with that format.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plain: Option<crate::interface::plain::PlainBody>,
    },
    /// The tool result as the agent would see it.
    ReadOk(ReadReply),
    /// Every bookmark forgotten.
    ResetOk {
        /// The `msg_id` of the request this answers.
        in_reply_to: u64,
    },
    /// The engine's whole state, opaque to the harness.
    SnapshotOk {
        /// The `msg_id` of the request this answers.
        in_reply_to: u64,
        /// The state, to be handed back in `restore`.
        state: Value,
    },
    /// The state taken back.
    RestoreOk {
        /// The `msg_id` of the request this answers.
        in_reply_to: u64,
    },
    /// The request was not carried out; `code` says why.
    Error {
        /// The `msg_id` of the request this answers.
        in_reply_to: u64,
        /// Why it was not carried out.
        code: ErrorCode,
        /// The engine's words (for `rejected`, the message the agent sees).
        text: String,
    },
}

impl FromEngine {
    /// The id of the request this answers.
    pub fn in_reply_to(&self) -> u64 {
        match self {
            FromEngine::InitOk { in_reply_to, .. }
            | FromEngine::ResetOk { in_reply_to }
            | FromEngine::SnapshotOk { in_reply_to, .. }
            | FromEngine::RestoreOk { in_reply_to }
            | FromEngine::Error { in_reply_to, .. } => *in_reply_to,
            FromEngine::ReadOk(r) => r.in_reply_to,
        }
    }
}

/// A read's result: what pi would put in front of the agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadReply {
    /// The `msg_id` of the read this answers.
    pub in_reply_to: u64,
    /// The tool result's text, exactly as the agent sees it.
    pub text: String,
    /// The tool result's `details` object.
    #[serde(default)]
    pub details: Map<String, Value>,
    /// The tool result's `isError`.
    #[serde(default)]
    pub is_error: bool,
    /// The byte ranges of the log whose lines the text carries, when the engine reports them
    /// (`capabilities.shown`). Checked against the text, never trusted instead of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shown: Option<Vec<ShownRange>>,
}

/// One line the engine says it showed: bytes `offset..end` of the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShownRange {
    /// Where the line starts in the log.
    pub offset: u64,
    /// One past its last byte (past the `
    /// `).
    pub end: u64,
}

/// Why a request was not carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// An optional feature the engine does not have (a raw read, `bytes`, `peek`, `reset`,
    /// `snapshot`). The harness skips what needs it and says so.
    NotSupported,
    /// The tool refused the call, as upstream's `bgtail` throws for an invalid id: `text` is
    /// the message the agent sees.
    Rejected,
    /// The engine could not understand the request.
    Malformed,
    /// Anything else that went wrong inside the engine.
    Internal,
    /// A code of a later version, which this harness treats as [`ErrorCode::Internal`].
    #[serde(other)]
    Other,
}

/// Who the engine is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineInfo {
    /// The engine's name (`pi-bgrun`, `bgtail-exact`, …).
    pub name: String,
    /// Its version, as the engine states it.
    pub version: String,
}

/// What an engine can do beyond plain condensed reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Capabilities {
    /// `raw: true` reads.
    #[serde(default)]
    pub raw: bool,
    /// A `bytes` view other than the default.
    #[serde(default)]
    pub bytes: bool,
    /// 0.8.0's running-job gate and `peek`.
    #[serde(default)]
    pub peek: bool,
    /// Replies carry `shown`.
    #[serde(default)]
    pub shown: bool,
    /// `reset` is understood.
    #[serde(default)]
    pub reset: bool,
    /// `snapshot` and `restore` are understood.
    #[serde(default)]
    pub snapshot: bool,
    /// The reader has no window of lines: it returns everything new whatever `lines` says
    /// (mux's `bash_output`), so every complete line of its view is owed.
    #[serde(default, skip_serializing_if = "is_false")]
    pub no_window: bool,
    /// The reader learns that the job exited its own way, not from pi's exit marker: the
    /// harness writes no `__BGRUN_EXIT__` line, and the adapter, told by `running: false`,
    /// ends the job as the harness would (mux's wrapper writes an `exit_code` file).
    #[serde(default, skip_serializing_if = "is_false")]
    pub exit_by_running: bool,
    /// The reader drains: each read returns only what the log gained since the previous read
    /// of the job, so a line it did not deliver whole is out of reach once a read has passed
    /// it (Codex's `write_stdin` polls). The judge names such lines `OutOfReach`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub drain: bool,
    /// The reader is fed the job's output stream, not its log file: it cannot be shown a log
    /// cut, rewritten, replaced or deleted. Checkers and replays report those actions and the
    /// traces that take them as not supported for it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub appends_only: bool,
}

/// Whether a request's `bytes` is left out: absent, or a number JSON cannot carry (NaN,
/// ±Infinity, which a JavaScript caller may pass), which asks for the default view as an
/// absent one does (upstream's clamp and the contract read both so).
fn not_sent(bytes: &Option<f64>) -> bool {
    !bytes.is_some_and(f64::is_finite)
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Capabilities {
    /// The largest view a request to such an engine reads under `limits`: the largest a
    /// request may ask for when it takes `bytes`, else its default view.
    pub fn largest_view(&self, limits: &crate::Limits) -> u64 {
        if self.bytes {
            limits.view_max
        } else {
            limits.view_default
        }
    }

    /// Every capability.
    pub fn all() -> Self {
        Capabilities {
            raw: true,
            bytes: true,
            peek: true,
            shown: true,
            reset: true,
            snapshot: true,
            no_window: false,
            exit_by_running: false,
            drain: false,
            appends_only: false,
        }
    }
}

/// The limits an engine's text obeys, in UTF-16 code units and bytes, so that a checker can
/// make lines long enough to reach its cap and many enough to reach its budget. A limit left
/// out is one the reader does not have; the judge then holds it to upstream's where the
/// contract needs one (the budget), and the checker makes lines as long as upstream's cap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct DeclaredLimits {
    /// The condensed body's budget (upstream: 8,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_budget: Option<u64>,
    /// The per-line cap (upstream: 2,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_cap: Option<u64>,
    /// The default view in bytes (upstream: 2 MiB); absent: the reader reads the whole log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view_default: Option<u64>,
    /// The largest view a read's `bytes` may ask for, where it is not upstream's 67,112,960
    /// bytes ([`crate::Limits::view_max`]): a read asking for more gets this view. A checker
    /// asks for a view past the largest only where it knows the largest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view_max: Option<u64>,
    /// The window when a read gives no `lines` (upstream: 40; Gemini CLI: 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_default: Option<u64>,
    /// The places a read compares to see a rewrite in place, where they are not the exact
    /// engine's (4,096, 64 and 64 bytes: [`crate::Limits::head_probe_bytes`] and the two
    /// prints after it): the model rewrites a line in place only where one of them holds the
    /// byte it changes, which is the contract's promise (docs/contract.md, "Generation").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_probe_bytes: Option<u64>,
    /// See `head_probe_bytes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled_print_bytes: Option<u64>,
    /// See `head_probe_bytes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial_print_bytes: Option<u64>,
}

impl DeclaredLimits {
    /// `limits` with what the engine declares in place of upstream's: a view left out is
    /// the whole log.
    pub fn apply_to(&self, limits: &mut crate::Limits) {
        if let Some(b) = self.text_budget {
            limits.text_budget = usize::try_from(b).unwrap_or(usize::MAX);
        }
        if let Some(c) = self.line_cap {
            limits.line_cap = usize::try_from(c).unwrap_or(usize::MAX);
        }
        match self.view_default {
            Some(v) => limits.view_default = v,
            None => {
                limits.view_default = u64::MAX;
                limits.view_max = u64::MAX;
            }
        }
        if let Some(m) = self.view_max {
            limits.view_max = m;
        }
        if let Some(n) = self.lines_default {
            limits.default_lines = n;
        }
        let places = [
            (self.head_probe_bytes, &mut limits.head_probe_bytes),
            (self.settled_print_bytes, &mut limits.settled_print_bytes),
            (self.partial_print_bytes, &mut limits.partial_print_bytes),
        ];
        for (declared, limit) in places {
            if let Some(n) = declared {
                *limit = n;
            }
        }
    }
}

impl From<&crate::Limits> for DeclaredLimits {
    /// What a bgtail engine declares: its budget, cap and view (its default `lines` is
    /// upstream's, which a reader need not declare), and its largest view and the places it
    /// compares to see a rewrite where they are not the defaults.
    fn from(l: &crate::Limits) -> Self {
        let d = crate::Limits::default();
        let unless_default = |n: u64, default: u64| (n != default).then_some(n);
        DeclaredLimits {
            text_budget: Some(l.text_budget as u64),
            line_cap: Some(l.line_cap as u64),
            view_default: Some(l.view_default),
            view_max: unless_default(l.view_max, d.view_max),
            lines_default: None,
            head_probe_bytes: unless_default(l.head_probe_bytes, d.head_probe_bytes),
            settled_print_bytes: unless_default(l.settled_print_bytes, d.settled_print_bytes),
            partial_print_bytes: unless_default(l.partial_print_bytes, d.partial_print_bytes),
        }
    }
}

/// `why` (serde's message for a message that does not parse), with the known key nearest to an
/// unknown one when it names one: `unknown field `text_fromat`, expected one of …` gains
/// `; did you mean `text_format`?`, so that a misspelled optional key is told, not dropped.
pub fn with_nearest_key(why: &str) -> String {
    let Some(rest) = why.strip_prefix("unknown field `") else {
        return why.to_string();
    };
    let Some((unknown, expected)) = rest.split_once('`') else {
        return why.to_string();
    };
    let known: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
    match nearest_key(unknown, &known) {
        Some(k) => format!("{why}; did you mean `{k}`?"),
        None => why.to_string(),
    }
}

/// The key of `known` nearest to `unknown` by edit distance, when it is near enough to be a
/// misspelling of it (at most half the longer's length apart).
pub fn nearest_key<'a>(unknown: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (edit_distance(unknown, k), *k))
        .min()
        .filter(|&(d, k)| d <= k.len().max(unknown.len()) / 2)
        .map(|(_, k)| k)
}

/// Levenshtein distance between `a` and `b`, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn messages_have_the_documented_shape() {
        let init: ToEngine = serde_json::from_value(
            json!({"type":"init","msg_id":0,"protocol":"bgtail-eut","versions":[1]}),
        )
        .unwrap();
        assert_eq!(init.msg_id(), 0);
        let read: ToEngine = serde_json::from_value(json!({
            "type":"read","msg_id":3,"job_id":"j","log_path":"/l","lines":null,"raw":true,
            "now_ms":12
        }))
        .unwrap();
        let ToEngine::Read(r) = &read else { panic!() };
        assert_eq!(r.lines, Some(crate::formats::trace::JsNumber::Null));
        assert!(r.raw && !r.peek);
        let reply = FromEngine::Error {
            in_reply_to: 3,
            code: ErrorCode::NotSupported,
            text: "raw".into(),
        };
        assert_eq!(
            serde_json::to_value(&reply).unwrap(),
            json!({"type":"error","in_reply_to":3,"code":"not_supported","text":"raw"})
        );
        let bad = serde_json::from_value::<ToEngine>(json!({"type":"read","msg_id":1}));
        assert!(bad.unwrap_err().to_string().contains("missing field"));
    }

    /// A `bytes` JSON cannot carry asks for the default view, as an absent one does: it is
    /// left out of the request, never written as `null`, which the schema does not allow.
    #[test]
    fn a_bytes_json_cannot_carry_is_left_out() {
        let read = |bytes| {
            let request = ReadRequest {
                msg_id: 1,
                job_id: "j".into(),
                log_path: "/l".into(),
                lines: None,
                raw: false,
                bytes,
                peek: true,
                running: false,
                now_ms: None,
            };
            serde_json::to_value(ToEngine::Read(request)).unwrap()
        };
        for odd in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(read(Some(odd)).get("bytes"), None, "{odd}");
        }
        assert_eq!(read(None).get("bytes"), None);
        assert_eq!(read(Some(1.5))["bytes"], json!(1.5));
        assert_eq!(read(Some(12.0))["bytes"], json!(12));
    }

    #[test]
    fn an_unknown_key_in_init_ok_is_an_error_naming_the_nearest_known_one() {
        let line = r#"{"type":"init_ok","in_reply_to":1,"version":1,"engine":{"name":"e","version":"1"},"capabilities":{"no_windw":true},"text_fromat":"plain"}"#;
        let why = serde_json::from_str::<FromEngine>(line)
            .unwrap_err()
            .to_string();
        let told = with_nearest_key(&why);
        assert!(told.starts_with("unknown field `"), "{told}");
        // `capabilities` comes before `text_fromat`: its misspelt key is the one named.
        assert!(told.contains("did you mean `no_window`?"), "{told}");
        let why = serde_json::from_str::<Capabilities>(r#"{"no_windw":true}"#)
            .unwrap_err()
            .to_string();
        assert!(
            with_nearest_key(&why).contains("did you mean `no_window`?"),
            "{why}"
        );
        assert_eq!(with_nearest_key("EOF while parsing"), "EOF while parsing");
        assert_eq!(edit_distance("text_fromat", "text_format"), 2);
    }
}
