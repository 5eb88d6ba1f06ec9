//! Process-wide state shared by every connection: the world and the test controls.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;

use crate::faults::Faults;
use crate::timefmt::{now_ms, Millis};
use crate::world::{Seed, World};

/// Request counters for `GET /_sim/requests`.
#[derive(Debug, Default, Serialize)]
pub struct Counters {
    pub total: u64,
    pub by_route: BTreeMap<String, u64>,
    pub by_path: BTreeMap<String, u64>,
}

impl Counters {
    pub fn record(&mut self, method: &str, route: &str, path: &str) {
        self.total += 1;
        *self
            .by_route
            .entry(format!("{method} {route}"))
            .or_default() += 1;
        *self.by_path.entry(format!("{method} {path}")).or_default() += 1;
    }
}

/// Settings fixed at start-up; `reset` returns the world to them.
#[derive(Debug, Clone)]
pub struct Settings {
    pub api_keys: Vec<String>,
    pub allow_origins: Vec<String>,
    pub dist: Option<PathBuf>,
    pub seed: Seed,
    pub time_scale: f64,
    pub autoscaler: bool,
}

pub struct Shared {
    pub settings: Settings,
    world: Mutex<World>,
    pub faults: Mutex<Faults>,
    pub counters: Mutex<Counters>,
    /// How far a test has moved the simulator's clock ahead of the wall clock
    /// (`POST /_sim/clock`); a reset sets it back to zero.
    clock_offset_ms: AtomicI64,
}

pub type AppState = Arc<Shared>;

/// A panic elsewhere must not wedge every later request behind a poisoned lock; the world is
/// plain data, so carrying on with it is safe.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

pub fn fresh_world(seed: Seed, time_scale: f64, autoscaler: bool) -> World {
    let mut w = crate::seed::build(seed);
    w.time_scale = time_scale;
    w.autoscaler.set(autoscaler);
    w
}

impl Shared {
    pub fn new(settings: Settings) -> AppState {
        let world = fresh_world(settings.seed, settings.time_scale, settings.autoscaler);
        Arc::new(Shared {
            settings,
            world: Mutex::new(world),
            faults: Mutex::new(Faults::default()),
            counters: Mutex::new(Counters::default()),
            clock_offset_ms: AtomicI64::new(0),
        })
    }

    /// The simulator's present: the wall clock plus what tests have moved it forward.
    /// Every timestamp, transition and autoscaler turn is measured on it.
    pub fn now(&self) -> Millis {
        now_ms() + self.clock_offset_ms.load(Ordering::Relaxed)
    }

    /// Moves the clock forward by `ms` and returns the new offset from the wall clock.
    pub fn advance_clock(&self, ms: Millis) -> Millis {
        self.clock_offset_ms.fetch_add(ms, Ordering::Relaxed) + ms
    }

    pub fn clock_offset(&self) -> Millis {
        self.clock_offset_ms.load(Ordering::Relaxed)
    }

    /// The world brought up to the present: every request starts here.
    pub fn world(&self) -> MutexGuard<'_, World> {
        let mut w = lock(&self.world);
        w.advance(self.now());
        w
    }

    /// A fresh world, on the wall clock again.
    pub fn replace_world(&self, world: World) {
        let mut w = lock(&self.world);
        self.clock_offset_ms.store(0, Ordering::Relaxed);
        *w = world;
    }

    pub fn key_allowed(&self, key: &str) -> bool {
        self.settings.api_keys.iter().any(|k| k == key)
    }
}
