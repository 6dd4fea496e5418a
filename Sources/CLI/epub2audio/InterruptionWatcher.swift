import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns SIGINT and SIGTERM into a cancellation of the running conversion (which then cleans up and
/// exits 130); a second signal exits at once (the manifest is journaled, so a re-run still resumes).
///
/// One watcher for the whole process, installed once before the first book and never removed: on
/// Linux, libdispatch installs its own handler for a signal the first time a signal source is made
/// for it (a handler that moves the signal to its `signalfd`) and never again. The watcher made per
/// book used to set the signals back to their default action after each book, which removed that
/// handler for good: from the second book of a batch on, SIGINT and SIGTERM were ignored and the
/// batch ran to its end. Each book now only sets what the first signal does.
final class InterruptionWatcher: Sendable {
    private struct State {
        var fired = false
        var action: (@Sendable () -> Void)?
    }

    /// The process's watcher (signals are process-wide).
    static let shared = InterruptionWatcher()

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "epub2audio.signals")
    /// The signal sources, kept for the life of the process (see the type's comment).
    private let sources = Mutex<[any DispatchSourceSignal]>([])

    private init() {}

    /// Starts watching SIGINT and SIGTERM, once per process; later calls do nothing.
    func install() {
        sources.withLock { sources in
            guard sources.isEmpty else { return }
            for signalNumber in [SIGINT, SIGTERM] {
                // Until libdispatch's handler is in place a signal must not end the process.
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                source.setEventHandler { [self] in received() }
                source.resume()
                sources.append(source)
            }
        }
    }

    /// Whether a signal has come.
    var interrupted: Bool { state.withLock { $0.fired } }

    /// What the first signal does: the conversion of a book, then its bundle; nil between books.
    /// When a signal has come already, `action` runs at once.
    func onInterrupt(_ action: (@Sendable () -> Void)?) {
        let runNow = state.withLock { state -> Bool in
            state.action = action
            return state.fired
        }
        if runNow { action?() }
    }

    private func received() {
        let action = state.withLock { state -> (@Sendable () -> Void)?? in
            if state.fired { return .none }
            state.fired = true
            return .some(state.action)
        }
        guard let action else {
            // The report says what was done, as after a graceful stop.
            ReportRecorder.shared.update { book in
                // Only the book being converted (started, not ended) is interrupted.
                guard book.status == .failed && book.exitCode == nil else { return }
                book.status = .interrupted
                book.exitCode = Exit.interrupted.rawValue
                book.message = "interrupted"
            }
            ReportRecorder.shared.write(exitCode: Exit.interrupted.rawValue)
            exit(Exit.interrupted.rawValue)
        }
        action?()
    }
}
