//! `bgtail explore` in a real browser: Debian's headless Chromium loads stateright's Explorer
//! page, renders it with its own JavaScript, steps into a state, and shows a counterexample's
//! path — issue #28's repeated line in the shipped engine's gap world.
//!
//! Chromium is driven from the command line: `--dump-dom` prints the page after its scripts
//! ran (`--virtual-time-budget` waits for their fetches), `--screenshot` writes a PNG. The
//! Explorer's step links are `#/steps/…` hashes, so loading one is what clicking it does; its
//! "Run to completion" button posts `/.runtocompletion`, which the test posts the same way.
//!
//! The browser is `$BGTAIL_CHROMIUM` or `/usr/bin/chromium` (`.ci/run` installs Debian's
//! `chromium`). Without one the test fails under `CI` and says it did not run elsewhere.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("BGTAIL_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"));
    path.exists().then_some(path)
}

/// The explorer, killed when the test ends however it ends.
struct Explorer(crate::common::Explorer);

impl Explorer {
    fn start(engine: &str, bound: &str) -> Explorer {
        let explorer = Explorer(crate::common::Explorer::start(&[
            "--engine", engine, "--bound", bound,
        ]));
        let deadline = Instant::now() + Duration::from_secs(20);
        while explorer.try_http("GET", "/.status").is_none() {
            assert!(Instant::now() < deadline, "the explorer did not answer");
            std::thread::sleep(Duration::from_millis(100));
        }
        explorer
    }

    /// One HTTP/1.0 request; the body of a 200 reply, or `None` when nothing answered.
    fn try_http(&self, method: &str, path: &str) -> Option<String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.0.port)).ok()?;
        let request =
            format!("{method} {path} HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n");
        s.write_all(request.as_bytes()).ok()?;
        let mut reply = String::new();
        s.read_to_string(&mut reply).ok()?;
        assert!(
            reply.starts_with("HTTP/1.1 200") || reply.starts_with("HTTP/1.0 200"),
            "{method} {path}: {reply}"
        );
        Some(reply[reply.find("\r\n\r\n")? + 4..].to_owned())
    }

    fn status(&self) -> serde_json::Value {
        serde_json::from_str(&self.try_http("GET", "/.status").unwrap()).unwrap()
    }

    fn url(&self, hash: &str) -> String {
        format!("http://127.0.0.1:{}/{hash}", self.0.port)
    }
}

/// Runs headless Chromium on `url` with `what` (`--dump-dom`, `--screenshot=…`), its own
/// empty profile, and the flags that keep it off this machine's closed network.
fn browse(browser: &PathBuf, url: &str, what: &str) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
        ])
        .args(["--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args([
            "--virtual-time-budget=10000",
            "--window-size=1280,1600",
            what,
            url,
        ])
        .stderr(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "chromium {what} {url}: {:?}",
        out.status
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The page's text as a person reads it: no tags, no comments, white space folded.
fn visible_text(dom: &str) -> String {
    let mut text = String::new();
    let mut rest = dom;
    while let Some(i) = rest.find('<') {
        text.push_str(&rest[..i]);
        text.push(' ');
        let close = if rest[i..].starts_with("<!--") {
            "-->"
        } else {
            ">"
        };
        rest = rest[i..]
            .find(close)
            .map_or("", |j| &rest[i + j + close.len()..]);
    }
    text.push_str(rest);
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_explorer_page_loads_steps_into_a_state_and_shows_a_counterexample_path() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "no chromium: .ci/run installs Debian's chromium"
        );
        eprintln!(
            "explore_browser: NOT RUN — no chromium at $BGTAIL_CHROMIUM or /usr/bin/chromium"
        );
        return;
    };
    let explorer = Explorer::start("shipped", "gap");

    // The page loads and its scripts render the model and the initial step.
    let page = visible_text(&browse(&browser, &explorer.url("#/steps"), "--dump-dom"));
    assert!(page.contains("Model: TailModel<ShippedEngine>"), "{page}");
    assert!(page.contains("Always repeats bounded"), "{page}");

    // Stepping into the initial state, then into the state after one append.
    let init = visible_text(&browse(&browser, &explorer.url("#/steps/0"), "--dump-dom"));
    assert!(init.contains("Path of Actions Pre-init Init 0"), "{init}");
    assert!(
        init.contains("TailState { lines: [], partial: false"),
        "{init}"
    );
    let appended = visible_text(&browse(
        &browser,
        &explorer.url("#/steps/0/0"),
        "--dump-dom",
    ));
    assert!(appended.contains("Init 0 Append(Short)"), "{appended}");
    assert!(appended.contains("lines: [ Short, ]"), "{appended}");

    // Run to completion, as the page's button does; the counterexample is then linked.
    explorer.try_http("POST", "/.runtocompletion").unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        let status = explorer.status();
        if status["done"] == true {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "the check did not finish: {status}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let path = status["properties"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p[1] == "repeats bounded")
        .and_then(|p| p[2].as_str())
        .expect("the shipped engine repeats a line at the gap bound")
        .to_owned();
    let hash = format!("#/steps/{path}");
    let dom = browse(&browser, &explorer.url(&hash), "--dump-dom");
    assert!(
        dom.contains(&format!("href=\"{hash}\"")),
        "the property links its path"
    );
    let shown = visible_text(&dom);
    assert!(
        shown.contains("Counterexample found: Always repeats bounded"),
        "{shown}"
    );
    // The widening of #28: one line read, then three; the last reply repeats a line.
    assert!(shown.contains("Read(1) Read(3)"), "{shown}");
    assert!(shown.contains("repeated: true"), "{shown}");

    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("explore-counterexample.png");
    let _ = std::fs::remove_file(&shot);
    browse(
        &browser,
        &explorer.url(&hash),
        &format!("--screenshot={}", shot.display()),
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000,
        "{}",
        shot.display()
    );
    eprintln!("explore_browser: screenshot at {}", shot.display());
}
