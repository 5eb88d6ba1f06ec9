//! Mounts the console; everything else lives in the library so tests can reach it.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(nks_console::app::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("nks-console is a browser app: build it with `trunk build` (see README.md).");
}
