//! What the agent's requests carry beyond the model's plain reads: the `bytes` it asks a view
//! by, the `lines` it asks a window by, the ids it may name the job by, the elapsed time it
//! passes to a read the running-job gate holds back. Each names the values a JSON caller (or
//! a JavaScript one) may send that upstream reads otherwise than plainly.

/// The `bytes` the agent passes, as a JSON request (or a JavaScript caller) may carry it: a
/// whole number of bytes, or a number the contract reads otherwise — a fraction is floored,
/// a number that is not positive and finite asks for the default view, one past the largest
/// view for the largest. `Debug` writes the number itself (`12`, `1.5`, `-1`, `NaN`, `inf`),
/// so that a path reads as the requests it makes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Bytes {
    /// This many bytes (0 is not positive: the default view).
    Whole(u16),
    /// This many bytes and a half: floored.
    AndAHalf(u16),
    /// -1: not positive.
    Negative,
    /// NaN, which JSON cannot carry and a JavaScript caller can: not a number.
    NotANumber,
    /// +Infinity: not finite.
    Infinite,
}

impl Bytes {
    /// The number the request carries.
    pub fn value(self) -> f64 {
        match self {
            Bytes::Whole(n) => f64::from(n),
            Bytes::AndAHalf(n) => f64::from(n) + 0.5,
            Bytes::Negative => -1.0,
            Bytes::NotANumber => f64::NAN,
            Bytes::Infinite => f64::INFINITY,
        }
    }

    /// Whether the request names a view narrower than `width` bytes by this number itself
    /// (a whole number or a fraction below it), not by the default.
    pub fn narrower_than(self, width: u16) -> bool {
        match self {
            Bytes::Whole(n) => n > 0 && n < width,
            Bytes::AndAHalf(n) => n < width,
            _ => false,
        }
    }
}

impl From<u16> for Bytes {
    fn from(n: u16) -> Self {
        Bytes::Whole(n)
    }
}

impl std::fmt::Debug for Bytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bytes::Whole(n) => write!(f, "{n}"),
            Bytes::AndAHalf(n) => write!(f, "{n}.5"),
            Bytes::Negative => write!(f, "-1"),
            Bytes::NotANumber => write!(f, "NaN"),
            Bytes::Infinite => write!(f, "inf"),
        }
    }
}

/// A `lines` a condensed read passes that is not a whole number of at least 1, as a JSON
/// request (or a JavaScript caller) may carry it: the contract floors a fraction, raises a
/// number below 1 to 1 line, reads NaN as no `lines` (the default window) and +Infinity as
/// every line. `Debug` writes the number itself, as [`Bytes`]' does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Lines {
    /// 1.5: floored to 1.
    OneAndAHalf,
    /// 0: raised to 1.
    Zero,
    /// -1: raised to 1.
    Negative,
    /// NaN, which JSON cannot carry and a JavaScript caller can: the default window.
    NotANumber,
    /// +Infinity: every line of the view.
    Infinite,
}

impl Lines {
    /// Every `lines` of the kind, in order.
    pub const ALL: [Lines; 5] = [
        Lines::OneAndAHalf,
        Lines::Zero,
        Lines::Negative,
        Lines::NotANumber,
        Lines::Infinite,
    ];

    /// The number the request carries.
    pub fn value(self) -> f64 {
        match self {
            Lines::OneAndAHalf => 1.5,
            Lines::Zero => 0.0,
            Lines::Negative => -1.0,
            Lines::NotANumber => f64::NAN,
            Lines::Infinite => f64::INFINITY,
        }
    }
}

impl std::fmt::Debug for Lines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lines::NotANumber => write!(f, "NaN"),
            Lines::Infinite => write!(f, "inf"),
            other => write!(f, "{}", other.value()),
        }
    }
}

/// Which of the judge's ways of reading `bytes` other than plainly `views` reach under a
/// largest view of `view_max`: a number not positive and finite, a positive fraction below the
/// largest view, a number past it.
pub fn asks_views_oddly(views: &[Bytes], view_max: u64) -> [bool; 3] {
    let asks = |odd: fn(Bytes, u64) -> bool| views.iter().any(|&b| odd(b, view_max));
    [
        asks(|b, _| !(b.value().is_finite() && b.value() > 0.0)),
        asks(|b, max| matches!(b, Bytes::AndAHalf(n) if u64::from(n) < max)),
        asks(|b, max| matches!(b, Bytes::Whole(n) if u64::from(n) > max)),
    ]
}

/// Which of the judge's ways of reading `lines` other than plainly `odd_lines` reach: NaN, a
/// fraction above 1, a number below 1, +Infinity.
pub fn asks_windows_oddly(odd_lines: &[Lines]) -> [bool; 4] {
    let asks = |odd: fn(f64) -> bool| odd_lines.iter().any(|l| odd(l.value()));
    [
        asks(f64::is_nan),
        asks(|n| n > 1.0 && n.fract() != 0.0),
        asks(|n| n < 1.0),
        asks(|n| n == f64::INFINITY),
    ]
}

/// An id a read may name its job by, other than the model's own: one upstream refuses for each
/// of its reasons, alone, and the longest it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum OtherId {
    /// The empty id: missing.
    Empty,
    /// 201 UTF-16 units: one past the longest.
    PastTheLongest,
    /// `a/b`: a path's separator.
    Slash,
    /// `a\b`: Windows' separator.
    Backslash,
    /// `a..b`: a parent directory's name inside it.
    Dots,
    /// `a` BEL `b`: a control character.
    Control,
    /// 200 UTF-16 units (`a` and 99 smileys, each two units, and `b`): read.
    Longest,
}

impl OtherId {
    /// Every id of the kind, in order.
    pub const ALL: [OtherId; 7] = [
        OtherId::Empty,
        OtherId::PastTheLongest,
        OtherId::Slash,
        OtherId::Backslash,
        OtherId::Dots,
        OtherId::Control,
        OtherId::Longest,
    ];

    /// The id's text.
    pub fn text(self) -> String {
        match self {
            OtherId::Empty => String::new(),
            OtherId::PastTheLongest => format!("a{}bc", "😀".repeat(99)),
            OtherId::Slash => "a/b".into(),
            OtherId::Backslash => "a\\b".into(),
            OtherId::Dots => "a..b".into(),
            OtherId::Control => "a\u{7}b".into(),
            OtherId::Longest => format!("a{}b", "😀".repeat(99)),
        }
    }
}

/// The elapsed time a gated read passes (`elapsed_secs`): a plain one, and each the state
/// line says as 0.0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Elapsed {
    /// None given.
    Absent,
    /// 12.04 seconds: said as 12.0.
    Seconds,
    /// -3 seconds: below 0.
    Negative,
    /// +Infinity: not finite.
    Infinite,
    /// NaN: not a number.
    NotANumber,
}

impl Elapsed {
    /// Every elapsed time of the kind, in order.
    pub const ALL: [Elapsed; 5] = [
        Elapsed::Absent,
        Elapsed::Seconds,
        Elapsed::Negative,
        Elapsed::Infinite,
        Elapsed::NotANumber,
    ];

    /// The `elapsed_secs` a request carries.
    pub fn value(self) -> Option<f64> {
        match self {
            Elapsed::Absent => None,
            Elapsed::Seconds => Some(12.04),
            Elapsed::Negative => Some(-3.0),
            Elapsed::Infinite => Some(f64::INFINITY),
            Elapsed::NotANumber => Some(f64::NAN),
        }
    }
}
