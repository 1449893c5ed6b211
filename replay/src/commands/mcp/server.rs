//! The MCP server: five tools over a jobs folder (`crate::jobs`), each a thin step from the
//! call's arguments to a job operation and back to a tool result — text for the model, and
//! `structuredContent` for a program. A wrong argument or a failed operation is a tool error
//! (`isError`) naming what was wrong; nothing a call sends ends the server or loses a bookmark.

use super::args::{Args, BgattachArgs, BgkillArgs, BgrunArgs, BgstatusArgs, BgtailArgs};
use super::describe;
use crate::jobs::{JobError, JobRecord, Jobs, Status};
use rmcp::handler::server::common::schema_for_type;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, Implementation, JsonObject, ServerCapabilities, ServerConfig,
};
use rmcp::{tool, tool_handler, tool_router, ServerHandler};
use serde_json::{json, Value};
use std::time::Duration;

/// How long `bgkill` waits for the process group to be gone before it reports.
const KILL_WAIT: Duration = Duration::from_secs(3);

/// The server: the jobs folder, and the tools' router.
#[derive(Clone)]
pub struct Server {
    jobs: Jobs,
    tool_router: ToolRouter<Server>,
}

/// A tool result: the text, and the same facts as JSON.
fn done(text: String, structured: Value) -> CallToolResult {
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(structured);
    result
}

/// A tool error: its text names what was wrong.
fn failed(e: &JobError) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(e.to_string())])
}

/// The result of `f`, or the tool error it failed with.
fn answer(f: impl FnOnce() -> Result<CallToolResult, JobError>) -> CallToolResult {
    f().unwrap_or_else(|e| failed(&e))
}

/// The byte ranges a reply carries, as spans of adjacent lines: `{offset, end, lines,
/// partial}`. A fold of thousands of equal lines is one span, not thousands of ranges (a
/// widening over a long log would otherwise send megabytes of them); the partial line is a
/// span of its own.
fn spans(shown: &[bgtail::ShownLine]) -> Vec<Value> {
    let mut out: Vec<(u64, u64, u64, bool)> = Vec::new();
    for s in shown {
        match out.last_mut() {
            Some(last) if !last.3 && !s.partial && last.1 == s.offset => {
                last.1 = s.end;
                last.2 += 1;
            }
            _ => out.push((s.offset, s.end, 1, s.partial)),
        }
    }
    out.into_iter()
        .map(|(offset, end, lines, partial)| {
            json!({"offset": offset, "end": end, "lines": lines, "partial": partial})
        })
        .collect()
}

/// A job's facts as `bgstatus` and `bgkill` give them.
fn facts(record: &JobRecord, status: &Status) -> Value {
    json!({
        "id": record.id,
        "command": record.command,
        "log": record.log,
        "pid": record.pid,
        "state": status.state,
        "exit_code": status.exit_code,
        "signalled": record.signalled,
        "log_bytes": status.log_bytes,
        "read_to": status.read_to,
    })
}

#[tool_router]
impl Server {
    pub fn new(jobs: Jobs) -> Server {
        Server {
            jobs,
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = describe::BGRUN,
        input_schema = schema_for_type::<BgrunArgs>(),
        annotations(destructive_hint = false, open_world_hint = true)
    )]
    fn bgrun(&self, Parameters(object): Parameters<JsonObject>) -> CallToolResult {
        answer(|| {
            let mut args = Args::new(object, &["command", "cwd", "env"]);
            let command = args.string("command")?;
            let cwd = args.optional_string("cwd")?;
            let env = args.strings("env")?;
            args.done()?;
            let r = self.jobs.start(&command, cwd.as_deref(), &env)?;
            let text = format!(
                "started {} (pid {}): {command}\nread its log with bgtail {{\"id\": \"{}\"}}",
                r.id,
                r.pid.unwrap_or_default(),
                r.id
            );
            Ok(done(text, json!({"id": r.id, "log": r.log, "pid": r.pid})))
        })
    }

    #[tool(
        description = describe::BGTAIL,
        input_schema = schema_for_type::<BgtailArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn bgtail(&self, Parameters(object): Parameters<JsonObject>) -> CallToolResult {
        answer(|| {
            let mut args = Args::new(object, &["id", "lines", "raw", "bytes"]);
            let id = args.string("id")?;
            let lines = args.number("lines")?;
            let raw = args.boolean("raw")?;
            let bytes = args.number("bytes")?;
            args.done()?;
            let out = self.jobs.read(&id, lines, raw, bytes)?;
            let reply = out.reply;
            if reply.is_error {
                return Ok(CallToolResult::error(vec![ContentBlock::text(reply.text)]));
            }
            let shown = spans(&reply.shown);
            let structured = json!({
                "id": id,
                "log": out.log,
                "counts": reply.counts,
                "reset": reply.reset,
                "shown": shown,
                "state": out.status.state,
                "exit_code": out.status.exit_code,
                "log_bytes": out.status.log_bytes,
            });
            Ok(done(reply.text, structured))
        })
    }

    #[tool(
        description = describe::BGSTATUS,
        input_schema = schema_for_type::<BgstatusArgs>(),
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    fn bgstatus(&self, Parameters(object): Parameters<JsonObject>) -> CallToolResult {
        answer(|| {
            let mut args = Args::new(object, &["id"]);
            let id = args.optional_string("id")?;
            args.done()?;
            let crate::jobs::Listing { jobs, unreadable } = self.jobs.status(id.as_deref())?;
            let mut text: Vec<String> = jobs.iter().map(|(r, s)| describe::status(r, s)).collect();
            if text.is_empty() {
                text.push("no jobs".into());
            }
            text.extend(unreadable.iter().map(|u| format!("unreadable: {u}")));
            let list: Vec<Value> = jobs.iter().map(|(r, s)| facts(r, s)).collect();
            Ok(done(
                text.join("\n"),
                json!({"jobs": list, "unreadable": unreadable}),
            ))
        })
    }

    #[tool(
        description = describe::BGKILL,
        input_schema = schema_for_type::<BgkillArgs>(),
        annotations(destructive_hint = true, idempotent_hint = true, open_world_hint = false)
    )]
    fn bgkill(&self, Parameters(object): Parameters<JsonObject>) -> CallToolResult {
        answer(|| {
            let mut args = Args::new(object, &["id", "signal"]);
            let id = args.string("id")?;
            let signal = args.optional_string("signal")?;
            args.done()?;
            let (r, s) = self
                .jobs
                .kill(&id, signal.as_deref().unwrap_or("TERM"), KILL_WAIT)?;
            Ok(done(describe::status(&r, &s), facts(&r, &s)))
        })
    }

    #[tool(
        description = describe::BGATTACH,
        input_schema = schema_for_type::<BgattachArgs>(),
        annotations(destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    fn bgattach(&self, Parameters(object): Parameters<JsonObject>) -> CallToolResult {
        answer(|| {
            let mut args = Args::new(object, &["path", "pid"]);
            let path = args.string("path")?;
            let pid = args.pid("pid")?;
            args.done()?;
            let r = self.jobs.attach(&path, pid)?;
            let text = format!(
                "following {} as {}; read it with bgtail {{\"id\": \"{}\"}}",
                r.log.display(),
                r.id,
                r.id
            );
            Ok(done(text, json!({"id": r.id, "log": r.log})))
        })
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("bgtail", env!("CARGO_PKG_VERSION")))
            .with_instructions(describe::INSTRUCTIONS)
    }
}
