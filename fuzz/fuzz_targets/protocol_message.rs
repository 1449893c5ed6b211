//! The engine-under-test protocol's messages: no panic on any bytes; a request or reply it
//! accepts writes back as JSON it reads as the same message.
#![no_main]
use bgtail::protocol::{Reply, Request};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(request) = serde_json::from_slice::<Request>(data) {
        let text = serde_json::to_string(&request).expect("a request serialises");
        let again: Request = serde_json::from_str(&text).expect("a written request parses");
        assert_eq!(again, request);
    }
    if let Ok(reply) = serde_json::from_slice::<Reply>(data) {
        let text = serde_json::to_string(&reply).expect("a reply serialises");
        let again: Reply = serde_json::from_str(&text).expect("a written reply parses");
        assert_eq!(again, reply);
    }
});
