//! Lines an import cannot know: a harness dropped them before the agent saw them, so their
//! text is nowhere in the session. Each stands in the rebuilt log as a placeholder of its own
//! number, so that the judge counts it not shown without the trace pretending to know it.

/// What every placeholder line opens with.
pub const PREFIX: &str = "[bgtail import: line ";

/// The placeholder of the log's line `n` (1-based).
pub fn placeholder(n: usize) -> String {
    format!("{PREFIX}{n} was never shown to the agent; its text is unknown]")
}

/// The placeholder of line `n`, padded with dots before its closing bracket to `len` bytes
/// when it is shorter: an import that knows how many bytes a harness dropped (Codex's token
/// count) keeps the rebuilt log that long.
pub fn placeholder_of_len(n: usize, len: usize) -> String {
    let mut text = placeholder(n);
    if len > text.len() {
        text.pop();
        text.push_str(&".".repeat(len - text.len() - 1));
        text.push(']');
    }
    text
}

/// Whether `line` (without its newline) holds a placeholder: a line wholly unknown, or one
/// whose known start or end a harness showed around it.
pub fn is_placeholder(line: &str) -> bool {
    line.find(PREFIX)
        .is_some_and(|at| line[at..].contains("; its text is unknown"))
}

/// How many lines of `text` are placeholders.
pub fn count(text: &str) -> usize {
    text.lines().filter(|l| is_placeholder(l)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_is_known_for_one() {
        assert!(is_placeholder(&placeholder(12)));
        assert!(!is_placeholder("[bgtail import: line 12"));
        assert!(is_placeholder(&format!("known start {}", placeholder(3))));
        let padded = placeholder_of_len(7, 100);
        assert_eq!((padded.len(), is_placeholder(&padded)), (100, true));
        assert!(padded.ends_with("..]"));
        assert_eq!(placeholder_of_len(7, 3), placeholder(7));
        assert_eq!(
            count(&format!("a\n{}\nb\n{}\n", placeholder(2), placeholder(4))),
            2
        );
    }
}
