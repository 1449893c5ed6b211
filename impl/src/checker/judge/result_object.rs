//! mux's `bash_output` result object, the text its reader's replies are: read apart from the
//! other formats' headers and notes, since the lines are a field of a JSON object.

/// mux's `bash_output` result, as the reply's text carries it (the object the model sees, as
/// JSON): its `output`, which holds the lines, and its `status`.
#[derive(Debug)]
pub(crate) struct ResultObject {
    pub output: String,
    /// `status` is `"running"` (`None`: no status given).
    pub running: Option<bool>,
}

impl ResultObject {
    /// The object `text` spells, or why it is not a successful `bash_output` result.
    pub fn of(text: &str) -> Result<ResultObject, String> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
        if value.get("success") != Some(&serde_json::Value::Bool(true)) {
            return Err("not a result with `success: true`".into());
        }
        let output = value.get("output").and_then(|o| o.as_str());
        let output = output.ok_or("a result without a string `output`")?;
        Ok(ResultObject {
            output: output.to_owned(),
            running: value
                .get("status")
                .and_then(|s| s.as_str())
                .map(|s| s == "running"),
        })
    }
}
