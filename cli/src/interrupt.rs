//! Interrupts while rows go into a file. SIGINT, SIGTERM and SIGHUP are
//! taken by a thread of their own instead of ending the process wherever
//! it is: the writes under way finish (a write in a thread that blocks the
//! signal is never cut short by it), the caller's hook leaves the file a
//! prefix of whole rows, and the process then ends by the same signal, as
//! it would have (the shell sees the usual status, 130 for Ctrl-C).

/// What to do before the process ends by an interrupt.
pub type Hook = Box<dyn Fn() + Send>;

/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread, and so in every
/// thread it starts afterwards, and waits for them on a thread of its own,
/// which runs `hook`, then ends the process by the signal. A signal this
/// process was started ignoring (`nohup`'s SIGHUP, a background job's
/// SIGINT) stays ignored. Call it before any other thread is started: a
/// thread that does not block them would take the signal's default action
/// at once.
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn on_interrupt(hook: Hook) {
    // SAFETY: sigaction with a null new action only reads the signal's
    // current one into `old`, a zeroed (valid) plain C struct we own;
    // sigemptyset and sigaddset fill a sigset_t we own the same way;
    // pthread_sigmask changes only this thread's mask, with a set that
    // lives through the call and no old mask asked for (null is allowed).
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        let mut any = false;
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            let mut old: libc::sigaction = std::mem::zeroed();
            let ignored = libc::sigaction(sig, std::ptr::null(), &mut old) == 0
                && old.sa_sigaction == libc::SIG_IGN;
            if !ignored {
                libc::sigaddset(&mut set, sig);
                any = true;
            }
        }
        if !any || libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        set
    };
    std::thread::spawn(move || {
        let mut sig: libc::c_int = 0;
        // SAFETY: sigwait reads the set (ours, blocked in every thread) and
        // writes the signal's number into `sig`, a valid c_int.
        while unsafe { libc::sigwait(&set, &mut sig) } != 0 {}
        hook();
        // SAFETY: the default action again for this signal, then unblocked
        // in this thread only and raised at it: the process ends by the
        // signal. signal and raise take plain integers; the set is ours.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            let mut one: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut one);
            libc::sigaddset(&mut one, sig);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &one, std::ptr::null_mut());
            libc::raise(sig);
        }
        std::process::exit(128 + sig);
    });
}

#[cfg(not(unix))]
pub fn on_interrupt(_hook: Hook) {}

/// A writer whose every `write` writes the whole buffer while holding
/// `gate`: an interrupt hook that takes the gate waits for the chunk under
/// way, so that a stream of whole chunks into a file ends on a whole one.
/// A write that fails part way is cut off again through `file` (another
/// handle of the file written to): the file keeps the whole chunks before.
pub struct Gated<W> {
    pub inner: W,
    pub gate: std::sync::Arc<std::sync::Mutex<()>>,
    pub file: std::fs::File,
}

impl<W: std::io::Write> std::io::Write for Gated<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _held = self.gate.lock().unwrap_or_else(|p| p.into_inner());
        // Rows are written at the file's end: its length is where they start.
        let before = self.file.metadata().map(|m| m.len());
        if let Err(e) = self.inner.write_all(buf) {
            if let Ok(len) = before {
                let _ = self.file.set_len(len);
            }
            return Err(e);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        let _held = self.gate.lock().unwrap_or_else(|p| p.into_inner());
        self.inner.flush()
    }
}
