#!/bin/sh
# cargo build with colour forced on, on a small crate with warnings and one error.
dir=$(mktemp -d)
cargo new --quiet --name colourful "$dir/colourful"
cat > "$dir/colourful/src/main.rs" <<'RS'
fn unused_helper(x: i32) -> i32 { let y = 3; x + 1 }
fn main() {
    let mut counter = 0;
    let name: &str = 42;
    println!("{}", unused_helper(counter));
}
RS
cd "$dir/colourful" && cargo build --color always
status=$?
rm -rf "$dir"
exit $status
