//! A first proof while its key file downloads ([`zkbench_groth16::streamed`]):
//! the prover runs on the thread pool and reads the bytes the page hands
//! over chunk by chunk as they arrive ([`Streamed::push`]);
//! [`Streamed::finish`] waits for the proof and the keys decoded on the way.
//!
//! In a build without threads the prover cannot run beside the download:
//! it runs in [`Streamed::finish`], on the whole file (the same proof,
//! without the overlap).

use std::sync::Arc;

use zkbench_groth16::streamed::KeyStream;

use crate::WasmError;

/// What the prover job returns: the keys, the proof, and when it reached
/// its milestones (named parts, seconds from its start).
type Outcome<K, P> = Result<(K, P, zkbench_core::PhaseParts), WasmError>;

/// The prover job of a streamed proof.
type Job<K, P> = Box<dyn FnOnce(&KeyStream) -> Outcome<K, P> + Send>;

/// A proof in progress whose key file is still arriving.
pub struct Streamed<K, P> {
    stream: Arc<KeyStream>,
    job: Run<K, P>,
}

/// Where the prover job runs.
enum Run<K, P> {
    /// On the thread pool; its outcome comes back here.
    #[cfg(feature = "parallel")]
    Spawned(Arc<Done<Outcome<K, P>>>),
    /// In [`Streamed::finish`] (no threads; `None` once taken).
    #[cfg(not(feature = "parallel"))]
    Deferred(Option<Job<K, P>>),
}

/// A result one thread sets and another waits for.
#[cfg(feature = "parallel")]
struct Done<T> {
    slot: std::sync::Mutex<Option<T>>,
    set: std::sync::Condvar,
}

#[cfg(feature = "parallel")]
impl<T> Done<T> {
    fn put(&self, value: T) {
        *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(value);
        self.set.notify_all();
    }

    fn take(&self) -> T {
        let mut s = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(v) = s.take() {
                return v;
            }
            s = self.set.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl<K: Send + 'static, P: Send + 'static> Streamed<K, P> {
    /// Starts `job` on the thread pool (with the `parallel` feature; else
    /// it waits for [`Streamed::finish`]).
    pub fn start(job: Job<K, P>) -> Self {
        let stream = Arc::new(KeyStream::new());
        #[cfg(feature = "parallel")]
        let job = {
            let done = Arc::new(Done {
                slot: std::sync::Mutex::new(None),
                set: std::sync::Condvar::new(),
            });
            let (s, d) = (stream.clone(), done.clone());
            rayon::spawn(move || d.put(job(&s)));
            Run::Spawned(done)
        };
        #[cfg(not(feature = "parallel"))]
        let job = Run::Deferred(Some(job));
        Streamed { stream, job }
    }

    /// The next bytes of the key file.
    pub fn push(&self, chunk: &[u8]) {
        self.stream.push(chunk);
    }

    /// The end of the key file: waits for the prover, then its keys and
    /// proof (or why there is none).
    pub fn finish(mut self) -> Outcome<K, P> {
        self.stream.close();
        match &mut self.job {
            #[cfg(feature = "parallel")]
            Run::Spawned(done) => done.take(),
            #[cfg(not(feature = "parallel"))]
            Run::Deferred(job) => match job.take() {
                Some(job) => job(&self.stream),
                None => Err(WasmError::State("the streamed proof has ended")),
            },
        }
    }
}

impl<K, P> Drop for Streamed<K, P> {
    /// An abandoned download (the page gave up) closes the stream, so the
    /// prover job stops with an error rather than wait for bytes.
    fn drop(&mut self) {
        self.stream.close();
    }
}
