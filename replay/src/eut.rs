//! The harness side of the engine-under-test protocol (`bgtail-eut` v1): an engine in a child
//! process, started through the shell, spoken to in JSON Lines.
//!
//! Every way an engine can misbehave ends in a [`HarnessError`] that names the request it
//! happened at, never in a hang: each reply is awaited for at most [`ProcessEngine::timeout`];
//! an engine that exits, writes something that is not a reply, answers the wrong request, or
//! answers one request twice is reported as such. The engine's stderr is passed through, each
//! line prefixed with `[engine] `.

use bgtail::protocol::{
    Capabilities, DeclaredLimits, EngineInfo, FromEngine, ToEngine, PROTOCOL, VERSION,
};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// What went wrong between the harness and the engine, and at which request.
#[derive(Debug)]
pub enum HarnessError {
    /// The command could not be started.
    Spawn { command: String, why: String },
    /// The engine exited (or closed its stdout) before it answered.
    Exited { request: String, status: String },
    /// No reply within the timeout; the engine was killed.
    Timeout { request: String, after: Duration },
    /// A line from the engine that is not a reply of this protocol.
    Malformed {
        request: String,
        line: String,
        why: String,
    },
    /// A reply to another request than the one awaited.
    WrongReply { request: String, in_reply_to: u64 },
    /// A second line for a request that was already answered.
    SecondReply { request: String, line: String },
    /// The handshake failed: another protocol or version, or an error reply to `init`.
    Handshake { why: String },
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cut = |s: &str| -> String {
            if s.chars().count() > 200 {
                format!("{}…", s.chars().take(200).collect::<String>())
            } else {
                s.to_owned()
            }
        };
        match self {
            HarnessError::Spawn { command, why } => write!(f, "cannot start `{command}`: {why}"),
            HarnessError::Exited { request, status } => {
                write!(f, "the engine exited ({status}) before answering {request}")
            }
            HarnessError::Timeout { request, after } => {
                write!(
                    f,
                    "the engine did not answer {request} within {:.1} s (killed)",
                    after.as_secs_f64()
                )?;
                // The handshake is the first reply: an engine that never flushes its stdout
                // (Python's and C's stdio buffer a pipe) times out exactly there.
                if request.starts_with("init ") {
                    write!(
                        f,
                        "; an engine must flush its stdout after every reply (Python: \
                         `print(..., flush=True)` or `sys.stdout.flush()`), or its answers \
                         stay in its buffer"
                    )?;
                }
                Ok(())
            }
            HarnessError::Malformed { request, line, why } => write!(
                f,
                "the engine's answer to {request} is not a {PROTOCOL} reply ({why}): {:?}",
                cut(line)
            ),
            HarnessError::WrongReply {
                request,
                in_reply_to,
            } => write!(
                f,
                "the engine answered msg {in_reply_to} while {request} was awaited"
            ),
            HarnessError::SecondReply { request, line } => write!(
                f,
                "the engine wrote a second reply after answering {request}: {:?}",
                cut(line)
            ),
            HarnessError::Handshake { why } => write!(f, "handshake failed: {why}"),
        }
    }
}

impl std::error::Error for HarnessError {}

/// A `plain-1` reader's declaration, compiled; the error names the field that is wrong. A
/// declaration is only for that format, which needs none (every line printed as it is).
fn plain_of(
    format: bgtail::condense::TextFormat,
    declared: Option<bgtail::plain::PlainBody>,
) -> Result<Option<bgtail::plain::Plain>, String> {
    match (format, declared) {
        (bgtail::condense::TextFormat::Plain, d) => {
            bgtail::plain::Plain::new(d.unwrap_or_default()).map(Some)
        }
        (_, None) => Ok(None),
        (other, Some(_)) => Err(format!(
            "`plain` declares a plain reader's lines, but text_format is {:?}; declare \"text_format\":\"plain-1\" with it",
            other.name()
        )),
    }
}

/// An engine in a child process, past its handshake.
pub struct ProcessEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines of the engine's stdout, in order, from a reader thread; closed at its EOF.
    lines: Receiver<Result<String, String>>,
    next_id: u64,
    /// The request last answered, for naming a second reply, and its id.
    last: String,
    last_id: Option<u64>,
    /// How long a reply is awaited.
    pub timeout: Duration,
    pub info: EngineInfo,
    pub capabilities: Capabilities,
    pub limits: Option<DeclaredLimits>,
    /// The markers its text uses, from `init_ok`'s `text_format`.
    pub text_format: bgtail::condense::TextFormat,
    /// Whether `init_ok` named the format (else it is pi-bgrun's, the default).
    pub format_declared: bool,
    /// A `plain-1` reader's declaration, compiled (`None` for every other format).
    pub plain: Option<bgtail::plain::Plain>,
}

impl ProcessEngine {
    /// Starts `command` through `sh -c` from the current directory and shakes hands.
    pub fn spawn(command: &str, timeout: Duration) -> Result<Self, HarnessError> {
        let mut child = Command::new("sh")
            .args(["-c", command])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| HarnessError::Spawn {
                command: command.to_owned(),
                why: e.to_string(),
            })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("[engine] {line}");
            }
        });
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let sent = tx.send(line.map_err(|e| format!("unreadable line: {e}")));
                if sent.is_err() {
                    break;
                }
            }
        });
        let mut engine = ProcessEngine {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 0,
            last: "nothing".into(),
            last_id: None,
            timeout,
            info: EngineInfo {
                name: String::new(),
                version: String::new(),
            },
            capabilities: Capabilities::default(),
            limits: None,
            text_format: bgtail::condense::TextFormat::Upstream,
            format_declared: false,
            plain: None,
        };
        engine.handshake()?;
        Ok(engine)
    }

    fn handshake(&mut self) -> Result<(), HarnessError> {
        let msg_id = self.fresh_id();
        let reply = self.request(ToEngine::Init {
            msg_id,
            protocol: PROTOCOL.into(),
            versions: vec![VERSION],
        })?;
        match reply {
            FromEngine::InitOk {
                version,
                engine,
                capabilities,
                limits,
                text_format,
                plain,
                ..
            } if version == VERSION => {
                self.format_declared = text_format.is_some();
                let format = text_format.as_deref().unwrap_or("pi-bgrun-0.7");
                self.text_format =
                    bgtail::condense::TextFormat::from_name(format).ok_or_else(|| {
                        HarnessError::Handshake {
                            why: format!(
                                "text_format {format:?} is not one this harness can judge ({})",
                                bgtail::condense::TextFormat::ALL
                                    .map(|f| f.name())
                                    .join(", ")
                            ),
                        }
                    })?;
                self.plain = plain_of(self.text_format, plain)
                    .map_err(|why| HarnessError::Handshake { why })?;
                self.info = engine;
                self.capabilities = capabilities;
                self.limits = limits;
                Ok(())
            }
            FromEngine::InitOk { version, .. } => Err(HarnessError::Handshake {
                why: format!("the engine chose version {version}; this harness speaks {VERSION}"),
            }),
            FromEngine::Error { code, text, .. } => Err(HarnessError::Handshake {
                why: format!("init refused ({code:?}): {text}"),
            }),
            other => Err(HarnessError::Handshake {
                why: format!("init answered with {other:?}"),
            }),
        }
    }

    /// A request id not used before.
    pub fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id - 1
    }

    /// Sends one request and awaits its one reply.
    pub fn request(&mut self, request: ToEngine) -> Result<FromEngine, HarnessError> {
        let name = describe(&request);
        self.no_second_reply()?;
        let text = serde_json::to_string(&request).expect("requests serialise");
        let written = self
            .stdin
            .as_mut()
            .map(|s| writeln!(s, "{text}").and_then(|()| s.flush()));
        if !matches!(written, Some(Ok(()))) {
            return Err(self.exited(&name));
        }
        let line = match self.lines.recv_timeout(self.timeout) {
            Ok(Ok(line)) => line,
            Ok(Err(why)) => {
                return Err(HarnessError::Malformed {
                    request: name,
                    line: String::new(),
                    why,
                })
            }
            Err(RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                return Err(HarnessError::Timeout {
                    request: name,
                    after: self.timeout,
                });
            }
            Err(RecvTimeoutError::Disconnected) => return Err(self.exited(&name)),
        };
        let reply: FromEngine =
            serde_json::from_str(&line).map_err(|e| HarnessError::Malformed {
                request: name.clone(),
                line: line.clone(),
                why: bgtail::protocol::with_nearest_key(&e.to_string()),
            })?;
        if Some(reply.in_reply_to()) == self.last_id {
            return Err(HarnessError::SecondReply {
                request: self.last.clone(),
                line,
            });
        }
        if reply.in_reply_to() != request.msg_id() {
            return Err(HarnessError::WrongReply {
                request: name,
                in_reply_to: reply.in_reply_to(),
            });
        }
        self.last = name;
        self.last_id = Some(reply.in_reply_to());
        Ok(reply)
    }

    /// A line waiting before a new request is a second answer to the last one.
    fn no_second_reply(&mut self) -> Result<(), HarnessError> {
        match self.lines.try_recv() {
            Ok(line) => Err(HarnessError::SecondReply {
                request: self.last.clone(),
                line: line.unwrap_or_else(|why| why),
            }),
            Err(_) => Ok(()),
        }
    }

    fn exited(&mut self, request: &str) -> HarnessError {
        let status = match self.child.wait() {
            Ok(s) => s.to_string(),
            Err(e) => format!("unknown: {e}"),
        };
        HarnessError::Exited {
            request: request.to_owned(),
            status,
        }
    }

    /// Closes the engine's stdin and waits for it to exit; a line it writes after its last
    /// reply is a [`HarnessError::SecondReply`].
    pub fn finish(mut self) -> Result<(), HarnessError> {
        self.stdin = None;
        let deadline = std::time::Instant::now() + self.timeout;
        loop {
            match self.lines.recv_timeout(Duration::from_millis(20)) {
                Ok(line) => {
                    return Err(HarnessError::SecondReply {
                        request: self.last.clone(),
                        line: line.unwrap_or_else(|why| why),
                    })
                }
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) if std::time::Instant::now() > deadline => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        Ok(())
    }
}

impl Drop for ProcessEngine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a request is named in errors: `read (msg 7)`.
fn describe(request: &ToEngine) -> String {
    let kind = match request {
        ToEngine::Init { .. } => "init",
        ToEngine::Read(_) => "read",
        ToEngine::Reset { .. } => "reset",
        ToEngine::Snapshot { .. } => "snapshot",
        ToEngine::Restore { .. } => "restore",
        _ => "request",
    };
    format!("{kind} (msg {})", request.msg_id())
}
