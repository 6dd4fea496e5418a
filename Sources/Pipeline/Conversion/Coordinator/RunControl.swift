import Synchronization

/// Whether a run goes on: cancelled by its caller, or stopped by a fatal error (a full disk, an
/// unwritable folder); either kills the workers of its slots at once.
final class RunControl: Sendable {
    private let cancelled = Atomic<Bool>(false)
    private let fatal = Mutex<ConversionError?>(nil)
    private let executors = Mutex<[any SectionExecutor]>([])

    /// Stops the run: synthesis stops at the next buffer, workers are killed.
    func cancel() {
        cancelled.store(true, ordering: .sequentiallyConsistent)
        for executor in executors.withLock({ $0 }) { executor.kill() }
    }

    /// The caller cancelled the run.
    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// The run is cancelled or failed: every slot stops taking work.
    var isStopping: Bool { isCancelled || fatal.withLock { $0 != nil } }

    /// Why the run stopped (the first fatal error, else the cancellation); nil while it goes on.
    var stoppedBy: ConversionError? { fatal.withLock { $0 } ?? (isCancelled ? .cancelled : nil) }

    /// Stops the run for `error`; only the first fatal error is kept (and kills the workers).
    func stopWithFatal(_ error: ConversionError) {
        let first = fatal.withLock { current -> Bool in
            if current == nil {
                current = error
                return true
            }
            return false
        }
        if first { for executor in executors.withLock({ $0 }) { executor.kill() } }
    }

    /// The slots' executors, killed by a later `cancel` or fatal error (and at once when the run is
    /// cancelled already).
    func adopt(_ made: [any SectionExecutor]) {
        executors.withLock { $0 = made }
        if isCancelled { for executor in made { executor.kill() } }
    }
}
