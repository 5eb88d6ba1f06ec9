//! Mounts the console; everything else lives in the library so tests can reach it.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    nks_console::app::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("nks-console is a browser app: build it with `trunk build` (see README.md).");
}
