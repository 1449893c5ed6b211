//! A harness polling a background job to completion through the library, as an agent would
//! through a tool: every read shows only what is new, nothing is lost, and the bookmark lives
//! in a file between polls (here the same process; in a harness, one call per tool use).
//!
//! ```sh
//! cargo run -p bgtail --example poll_job
//! ```

use bgtail::state_file::StateFile;
use bgtail::{source::open_log, Engine, ExactEngine, Job, Request};
use std::io::Write;
use std::time::Duration;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let log_path = dir.path().join("build-1-1.log");
    let bookmark = dir.path().join("build-1-1.bookmark");
    std::fs::write(&log_path, "")?;

    // The job: 60 lines of a test run in bursts, then the wrapper's exit marker.
    let job_log = log_path.clone();
    let job = std::thread::spawn(move || -> std::io::Result<()> {
        let mut log = std::fs::OpenOptions::new().append(true).open(job_log)?;
        for i in 1..=60 {
            writeln!(log, "test case_{i:02} ... ok")?;
            if i % 15 == 0 {
                std::thread::sleep(Duration::from_millis(120));
            }
        }
        write!(log, "{}", bgtail::trace::exit_marker(0))
    });

    let engine = ExactEngine::default();
    let path = log_path.to_string_lossy().into_owned();
    let request = Request::lines(20);
    loop {
        let file = StateFile::lock(&bookmark)?;
        let (mut state, warning) = file.load(&engine);
        if let Some(w) = warning {
            eprintln!("warning: {w}");
        }
        let job_id = Job {
            id: "build-1-1",
            path: &path,
        };
        let log = open_log(&log_path);
        let reply = engine.read(&mut state, job_id, log.as_ref(), &request)?;
        println!("── poll ──\n{}\n", reply.text);
        file.store(&engine, &state)?;
        let finished = std::fs::read_to_string(&log_path)?.contains(bgtail::view::EXIT_MARKER);
        if finished && reply.kind == bgtail::ReadKind::NothingNew {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    job.join().expect("the job thread")?;
    Ok(())
}
