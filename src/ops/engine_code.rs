//! The engine's code: in the split build it is fetched the first time the tracker
//! has something to do, and the commands asked for meanwhile wait for it, in order.

use std::time::Duration;

use leptos::prelude::*;

use super::engine::{self, Cmd};
use super::Ops;

/// The engine, once its code is here, and the commands that wait for it.
#[derive(Default)]
pub(super) struct EngineSlot {
    run: Option<Engine>,
    /// Commands asked for before the engine arrived, oldest first.
    queue: Vec<Cmd>,
    /// Something asked for the engine: from then on every wake goes to it.
    pub(super) wanted: bool,
    loading: bool,
}

type Engine = fn(Ops, Cmd);

/// The split point: in the split build, calling this fetches the engine's module.
#[cfg_attr(nks_split, wasm_split_helpers::wasm_split(ops_engine, fallible))]
fn load_engine() -> Result<Engine, crate::SplitLoadError> {
    Ok(engine::run)
}

/// How long to wait before asking again for engine code that did not arrive.
const ENGINE_RETRY_MS: u64 = 5_000;

impl Ops {
    /// Hands `cmd` to the engine: at once when its code is here, otherwise after
    /// fetching it (once), in the order asked. If the fetch fails, the header says
    /// so and the fetch is retried, the commands kept.
    pub(super) fn engine(&self, cmd: Cmd) {
        let ready = self.local.try_update_value(|l| {
            l.engine.wanted = true;
            match l.engine.run {
                Some(run) => Some((run, cmd)),
                None => {
                    l.engine.queue.push(cmd);
                    None
                }
            }
        });
        match ready {
            Some(Some((run, cmd))) => run(*self, cmd),
            Some(None) => self.fetch_engine(),
            None => {} // the tracker is gone
        }
    }

    fn fetch_engine(&self) {
        let started = self.local.try_update_value(|l| {
            let start = !l.engine.loading && l.engine.run.is_none();
            l.engine.loading |= start;
            start
        });
        if started != Some(true) {
            return;
        }
        let ops = *self;
        self.spawn(async move {
            let Ok(run) = split_call!(load_engine()) else {
                let _ = ops.local.try_update_value(|l| l.engine.loading = false);
                ops.engine_missing.set(true);
                set_timeout(
                    move || {
                        if !ops.stopped() {
                            ops.fetch_engine();
                        }
                    },
                    Duration::from_millis(ENGINE_RETRY_MS),
                );
                return;
            };
            let Some(queued) = ops.local.try_update_value(|l| {
                l.engine.run = Some(run);
                l.engine.loading = false;
                std::mem::take(&mut l.engine.queue)
            }) else {
                return;
            };
            ops.engine_missing.set(false);
            for cmd in queued {
                run(ops, cmd);
            }
        });
    }
}
