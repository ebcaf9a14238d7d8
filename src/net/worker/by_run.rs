//! The runs in flight on either side of the worker, found by their number: a handful at most, so a
//! list searched in order (a hash map would bring its hashing and table code into the wasm for nothing).

/// Values keyed by a run's number, in the order they were added.
pub struct ByRun<T>(Vec<(u32, T)>);

impl<T> Default for ByRun<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T> ByRun<T> {
    /// Adds `value` for `run`, replacing the one it had.
    pub fn insert(&mut self, run: u32, value: T) {
        self.remove(run);
        self.0.push((run, value));
    }

    /// The value of `run`.
    pub fn get(&self, run: u32) -> Option<&T> {
        self.0.iter().find(|(r, _)| *r == run).map(|(_, v)| v)
    }

    /// Takes `run`'s value out.
    pub fn remove(&mut self, run: u32) -> Option<T> {
        let index = self.0.iter().position(|(r, _)| *r == run)?;
        Some(self.0.remove(index).1)
    }

    /// Every run and its value, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.0.iter().map(|(r, v)| (*r, v))
    }

    /// Takes every value out, oldest first.
    pub fn take_all(&mut self) -> Vec<T> {
        std::mem::take(&mut self.0).into_iter().map(|(_, v)| v).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::ByRun;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn insert_get_remove_and_take_all_by_run() {
        let mut runs = ByRun::default();
        runs.insert(1, "a");
        runs.insert(2, "b");
        runs.insert(1, "c");
        assert_eq!(runs.get(1), Some(&"c"));
        assert_eq!(runs.get(3), None);
        assert_eq!(runs.iter().collect::<Vec<_>>(), [(2, &"b"), (1, &"c")]);
        assert_eq!(runs.remove(2), Some("b"));
        assert_eq!(runs.remove(2), None);
        assert_eq!(runs.take_all(), ["c"]);
        assert_eq!(runs.iter().count(), 0);
    }
}
