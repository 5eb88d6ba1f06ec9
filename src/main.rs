//! Mounts the console; everything else lives in the library so tests can reach it.

/// Talc instead of Rust's default dlmalloc: smaller on the first page and faster
/// (the console is single-threaded, which is what this configuration assumes).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    nks_console::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("nks-console is a browser app: build it with `trunk build` (see README.md).");
}
