//! The tools' arguments: their JSON Schemas come from the typed structs below; the arguments
//! themselves are read by hand from the call's object, so that a wrong one is a tool error
//! naming the argument and what is wrong with it (which the model can correct), rather than
//! the protocol's bare `invalid params`.

use crate::jobs::JobError;
use schemars::JsonSchema;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// `bgrun`'s arguments.
#[derive(JsonSchema)]
#[allow(dead_code)] // read through `Args`; the struct is the schema
pub struct BgrunArgs {
    /// The shell command to run in the background (`sh -c`), e.g. `cargo test 2>&1`.
    pub command: String,
    /// The folder to run it in (default: the server's).
    pub cwd: Option<String>,
    /// Variables added to its environment.
    pub env: Option<BTreeMap<String, String>>,
}

/// `bgtail`'s arguments.
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct BgtailArgs {
    /// The job's id, as bgrun or bgattach gave it.
    pub id: String,
    /// How many of the newest lines to consider (default 40).
    pub lines: Option<f64>,
    /// The verbatim window: no condensing, and no bookmark update.
    pub raw: Option<bool>,
    /// How many bytes at the end of the log are searched (default 2 MiB).
    pub bytes: Option<f64>,
}

/// `bgstatus`'s arguments.
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct BgstatusArgs {
    /// One job's id; every job when absent.
    pub id: Option<String>,
}

/// `bgkill`'s arguments.
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct BgkillArgs {
    /// The job's id.
    pub id: String,
    /// TERM (default), INT, HUP or KILL.
    pub signal: Option<String>,
}

/// `bgattach`'s arguments.
#[derive(JsonSchema)]
#[allow(dead_code)]
pub struct BgattachArgs {
    /// The log file to follow.
    pub path: String,
    /// The pid of the process that writes it: the job runs while it lives (default: until
    /// the log ends in an exit marker).
    pub pid: Option<u32>,
}

/// A call's arguments, each taken once; [`Args::done`] refuses any left over.
pub struct Args {
    object: Map<String, Value>,
    known: &'static [&'static str],
}

impl Args {
    pub fn new(object: Map<String, Value>, known: &'static [&'static str]) -> Args {
        Args { object, known }
    }

    fn take(&mut self, name: &'static str) -> Option<Value> {
        self.object.remove(name).filter(|v| !v.is_null())
    }

    /// A string argument that must be given.
    pub fn string(&mut self, name: &'static str) -> Result<String, JobError> {
        self.optional_string(name)?
            .ok_or_else(|| JobError::Argument(name, "is required".into()))
    }

    pub fn optional_string(&mut self, name: &'static str) -> Result<Option<String>, JobError> {
        match self.take(name) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(wrong(name, "a string", &other)),
        }
    }

    /// A process id: a whole number from 1.
    pub fn pid(&mut self, name: &'static str) -> Result<Option<i32>, JobError> {
        match self.take(name) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_u64().and_then(|p| i32::try_from(p).ok()) {
                Some(p) if p > 0 => Ok(Some(p)),
                _ => Err(JobError::Argument(
                    name,
                    format!("must be a process id, got {n}"),
                )),
            },
            Some(other) => Err(wrong(name, "a process id", &other)),
        }
    }

    /// A number at least 0 (`lines`, `bytes`).
    pub fn number(&mut self, name: &'static str) -> Result<Option<f64>, JobError> {
        match self.take(name) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(x) if x >= 0.0 => Ok(Some(x)),
                _ => Err(JobError::Argument(
                    name,
                    format!("must be 0 or more, got {n}"),
                )),
            },
            Some(other) => Err(wrong(name, "a number", &other)),
        }
    }

    pub fn boolean(&mut self, name: &'static str) -> Result<bool, JobError> {
        match self.take(name) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(b),
            Some(other) => Err(wrong(name, "true or false", &other)),
        }
    }

    /// An object of strings (`env`).
    pub fn strings(&mut self, name: &'static str) -> Result<Vec<(String, String)>, JobError> {
        match self.take(name) {
            None => Ok(Vec::new()),
            Some(Value::Object(map)) => map
                .into_iter()
                .map(|(k, v)| match v {
                    Value::String(s) => Ok((k, s)),
                    other => Err(wrong(name, "an object of strings", &other)),
                })
                .collect(),
            Some(other) => Err(wrong(name, "an object of strings", &other)),
        }
    }

    /// Refuses an argument the tool does not have, naming the nearest it does.
    pub fn done(self) -> Result<(), JobError> {
        let Some(key) = self.object.keys().next() else {
            return Ok(());
        };
        let nearest = bgtail::protocol::nearest_key(key, self.known)
            .map(|k| format!("; did you mean `{k}`?"))
            .unwrap_or_default();
        Err(JobError::Argument(
            "arguments",
            format!(
                "`{key}` is not an argument of this tool (it takes {}){nearest}",
                self.known.join(", ")
            ),
        ))
    }
}

fn wrong(name: &'static str, expected: &str, got: &Value) -> JobError {
    JobError::Argument(name, format!("must be {expected}, got {got}"))
}
