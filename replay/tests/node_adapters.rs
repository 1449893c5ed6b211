//! The node adapters' own tests (`node --test`), run here so that README's test command runs
//! them too: the protocol loop and the trace reader they share in `adapters/common/`, and each
//! other harness's adapter against its checkout in the shared folder (`docs/inputs.md`).

/// Runs `node --test <folder>` from the repository's root and requires at least `least` tests
/// to pass (a run that found no tests also succeeds).
fn node_tests_pass(folder: &str, least: u32) {
    node_tests_pass_with(folder, least, &[]);
}

/// [`node_tests_pass`], with `env` set for the tests.
fn node_tests_pass_with(folder: &str, least: u32, env: &[(&str, &str)]) {
    let out = std::process::Command::new("node")
        .args(["--test", "--test-timeout=60000", folder])
        .envs(env.iter().copied())
        .current_dir(crate::common::repo())
        .output()
        .expect("node runs (node 20 or later is a prerequisite)");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "node --test {folder} failed:\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let passed = report
        .lines()
        .find_map(|l| l.strip_prefix("# pass "))
        .and_then(|n| n.trim().parse::<u32>().ok());
    assert!(passed.is_some_and(|n| n >= least), "{report}");
}

#[test]
fn the_shared_adapter_code_passes_its_node_tests() {
    node_tests_pass("adapters/common/test/", 10);
}

#[test]
fn the_gemini_cli_adapter_passes_its_node_tests() {
    bgtail_tests::inputs::require(&bgtail_tests::inputs::GEMINI_CLI);
    node_tests_pass("adapters/gemini-cli/test/", 4);
}

/// Its snapshot and restore with `--exact`, and their refusal without.
#[test]
fn the_pi_bgrun_adapter_passes_its_node_tests() {
    bgtail_tests::inputs::require(&bgtail_tests::inputs::PI_BGRUN);
    crate::common::bgtail_exact_ts_engine();
    node_tests_pass("adapters/pi-bgrun/test/", 3);
}

#[test]
fn the_mux_adapter_passes_its_node_tests() {
    bgtail_tests::inputs::require(&bgtail_tests::inputs::MUX);
    node_tests_pass("adapters/mux/test/", 4);
}

/// `bgtail mcp` through the official TypeScript SDK's client (`adapters/mcp/test/`).
#[test]
fn bgtail_mcp_passes_the_typescript_sdk_clients_tests() {
    let bin = env!("CARGO_BIN_EXE_bgtail");
    node_tests_pass_with("adapters/mcp/test/", 2, &[("BGTAIL_BIN", bin)]);
}

#[test]
fn the_typescript_exact_engine_passes_its_node_tests() {
    crate::common::bgtail_exact_ts_engine();
    node_tests_pass("packages/bgtail-exact/test/", 10);
}
