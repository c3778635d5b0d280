#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rocm_learn::fuzzing::record(data));
