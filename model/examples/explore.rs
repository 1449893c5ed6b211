//! stateright's Explorer over the model of the exact engine, in a browser: step through
//! appends, reads, widenings and resets, and see each reply and the judge's verdict flags.
//!
//! ```sh
//! cargo run --release -p bgtail-model --example explore    # then open http://127.0.0.1:3000
//! ```
//!
//! `bgtail explore --bound gap --engine shipped` does the same from the command line, for
//! either engine and every bound.

use bgtail_model::{ModelConfig, TailModel};
use stateright::Model;

fn main() {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3000".into());
    println!("the model of the exact engine (issue #28's gap world) on http://{address}");
    TailModel::exact(ModelConfig::issue_28_gap())
        .checker()
        .serve(address.as_str());
}
