//! The node adapters' own tests (`node --test`): the protocol loop and the trace reader they
//! share in `adapters/common/`, run here so that README's test command runs them too.

mod common;

#[test]
fn the_shared_adapter_code_passes_its_node_tests() {
    let out = std::process::Command::new("node")
        .args(["--test", "adapters/common/test/"])
        .current_dir(common::repo())
        .output()
        .expect("node runs (node 20 or later is a prerequisite)");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "node --test adapters/common/test/ failed:\n{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A run that found no tests also succeeds: require the ones written.
    let passed = report
        .lines()
        .find_map(|l| l.strip_prefix("# pass "))
        .and_then(|n| n.trim().parse::<u32>().ok());
    assert!(passed.is_some_and(|n| n >= 10), "{report}");
}
