//! `bgtail explore`: stateright's Explorer over the model of an engine, in a browser.

use crate::checks::bound::Bound;
use crate::engine_arg::EngineArg;
use bgtail::Engine;
use bgtail_model::{TailModel, TailState};
use stateright::Model;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Which engine's model to serve (`both` serves the exact one).
    #[arg(long, value_enum, default_value = "exact")]
    pub engine: EngineArg,
    /// The bound and action families, as for `check`.
    #[arg(long, value_enum, default_value = "gap")]
    pub bound: Bound,
    /// Port on 127.0.0.1; 0 (the default) lets the OS pick a free one. The first line
    /// printed names the address served.
    #[arg(long, default_value_t = 0)]
    pub port: u16,
}

fn serve<E>(model: TailModel<E>, port: u16) -> !
where
    E: Engine + Send + Sync + 'static,
    E::State: Send + Sync,
    TailState<E::State>: std::fmt::Debug,
{
    // stateright's `serve` binds the address, then answers requests until the process ends,
    // and does not say which port the OS picked for 0: it runs on its own thread, and the
    // port this process listens on is read back from the kernel's socket table.
    let server = std::thread::spawn(move || {
        model.checker().serve(("127.0.0.1", port));
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let bound = loop {
        match own_listening_port() {
            Some(Some(p)) => break p,
            // No socket table to read (not Linux): a port given is the port served.
            None if port != 0 => break port,
            _ => {}
        }
        if server.is_finished() || std::time::Instant::now() > deadline {
            eprintln!("bgtail explore: could not listen on 127.0.0.1:{port}");
            std::process::exit(2);
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    println!("Explorer: http://127.0.0.1:{bound}/ (status at /.status); Ctrl-C to stop");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let _ = server.join();
    std::process::exit(2)
}

/// The port of the one TCP socket this process listens on (Linux: the socket inodes among
/// `/proc/self/fd` matched against `/proc/self/net/tcp`): `Some(None)` while there is none
/// yet, `None` where the table cannot be read.
fn own_listening_port() -> Option<Option<u16>> {
    let inodes: Vec<String> = std::fs::read_dir("/proc/self/fd")
        .ok()?
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .filter_map(|link| {
            let link = link.to_string_lossy().into_owned();
            Some(link.strip_prefix("socket:[")?.strip_suffix(']')?.to_owned())
        })
        .collect();
    let table = std::fs::read_to_string("/proc/self/net/tcp").ok()?;
    // Columns: sl, local_address (hex ip:port), rem_address, st (0A is LISTEN), …, inode.
    Some(table.lines().skip(1).find_map(|row| {
        let cols: Vec<&str> = row.split_whitespace().collect();
        let (local, state, inode) = (cols.get(1)?, cols.get(3)?, cols.get(9)?);
        if *state != "0A" || !inodes.iter().any(|i| i == inode) {
            return None;
        }
        u16::from_str_radix(local.rsplit_once(':')?.1, 16).ok()
    }))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let config = args.bound.config();
    match args.engine {
        EngineArg::Shipped => serve(TailModel::shipped(config), args.port),
        _ => serve(TailModel::exact(config), args.port),
    }
}
