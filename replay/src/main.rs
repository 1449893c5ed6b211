//! `bgtail`: verify the engines, model-check them, replay job traces, record new ones, import
//! captured pi sessions, and read a real log with a persistent bookmark.

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod broken;
mod checks;
mod commands;
mod corpus;
mod engine_arg;
mod eut;
mod jobs;
mod outside;
mod profile;
mod progress;
mod replay_eut;
mod sessions;
mod wild;

use commands::{
    audit, check, compare, explore, generate, import, mcp, read, readers, record, replay, serve,
    verify,
};

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "bgtail", version, about = "Tail a background job's log without losing or repeating lines — and prove it", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The main job: the model checks at the CI bounds, every sequence of any length over
    /// logs of up to 3 lines (by reachability and by induction), then every trace under
    /// traces/ through both engines, ending with one comparison table.
    /// Exit 0 only when the exact engine keeps its contract and the shipped engine reproduces
    /// every recorded reply.
    Verify(verify::Args),
    /// Model-check the engines with stateright.
    Check(check::Args),
    /// Serve stateright's Explorer on 127.0.0.1 to step through the model in a browser.
    Explore(explore::Args),
    /// Replay traces through the engines, printing each reply and a table per trace.
    Replay(replay::Args),
    /// Run a command the way bgrun does and record its log and a polling agent's reads.
    Record(record::Args),
    /// Turn captured agent sessions (pi, Codex, Claude Code) into traces.
    #[command(alias = "import-pi")]
    Import(import::Args),
    /// What each background job of captured sessions cost the agent, judged in its harness's
    /// dialect, beside what the exact engine sends on the same reads.
    Audit(audit::Args),
    /// Read a real log with a persistent bookmark (how a harness uses the exact engine from a shell).
    Read(read::Args),
    /// Serve an in-crate engine over the engine-under-test protocol (docs/engine-protocol.md).
    Serve(serve::Args),
    /// A Model Context Protocol server on stdio: start background jobs and read their logs
    /// through the exact engine, from any agent that loads MCP tools (docs/mcp.md).
    Mcp(mcp::Args),
    /// Write random traces from seeds, for differential testing against another implementation.
    Generate(generate::Args),
    /// The differential harness: every read of generated (and given) traces through an engine in
    /// another process and the in-crate exact engine, over the same log, replies compared.
    Compare(compare::Args),
    /// Every reader measured — the exact engine, pi-bgrun's, Gemini CLI's and mux's own code —
    /// model-checked and replayed over the corpus, as the tables of docs/readers.md.
    Readers(readers::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Verify(a) => verify::run(a),
        Command::Check(a) => check::run(a),
        Command::Explore(a) => explore::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Record(a) => record::run(a),
        Command::Import(a) => import::run(a),
        Command::Audit(a) => audit::run(a),
        Command::Read(a) => read::run(a),
        Command::Generate(a) => generate::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Mcp(a) => mcp::run(a),
        Command::Readers(a) => readers::run(a),
        Command::Compare(a) => compare::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // The whole chain: what failed, then each input and place it failed at.
            eprintln!("bgtail: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// `bgtail SUB --help` explains every flag: a flag without a help line is a defect.
    #[test]
    fn every_flag_of_every_subcommand_has_a_help_line() {
        let cli = Cli::command();
        let mut missing = Vec::new();
        for sub in cli.get_subcommands() {
            assert!(sub.get_about().is_some(), "{} has no about", sub.get_name());
            for arg in sub.get_arguments() {
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{} --{}", sub.get_name(), arg.get_id()));
                }
            }
        }
        assert!(missing.is_empty(), "flags without help: {missing:?}");
    }
}
