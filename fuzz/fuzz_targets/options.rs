//! `setoption` / xboard `option`: `NAME=VALUE` (or a bare name, a button) is applied or
//! refused, and a refused value leaves the options as they were.
#![no_main]

use libfuzzer_sys::fuzz_target;
use nosce::options::Options;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let mut o = Options::default();
    for line in s.lines().take(16) {
        let (name, value) = match line.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (line, None),
        };
        let before = format!("{o:?}");
        if o.set(name, value).is_err() {
            assert_eq!(
                format!("{o:?}"),
                before,
                "a refused option changed the options"
            );
        }
    }
});
