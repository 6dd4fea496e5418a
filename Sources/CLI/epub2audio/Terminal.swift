import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the terminal on a stream can show: colour only on a terminal, never with `NO_COLOR`.
struct TerminalStyle: Sendable {
    /// True when the stream is a terminal (progress bars redraw in place only there).
    var isTerminal: Bool
    /// True when ANSI colours and attributes may be used.
    var usesColor: Bool
    /// Columns available, 80 when unknown.
    var width: Int

    /// The style of standard output (fd 1) or standard error (fd 2) in this environment.
    static func detect(fileDescriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> TerminalStyle
    {
        let isTerminal = isatty(fileDescriptor) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        var width = 80
        if isTerminal {
            var size = winsize()
            if ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { width = Int(size.ws_col) }
        } else if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 20 {
            width = columns
        }
        return TerminalStyle(isTerminal: isTerminal, usesColor: isTerminal && !noColor && !dumb, width: width)
    }

    static let plain = TerminalStyle(isTerminal: false, usesColor: false, width: 80)

    func bold(_ text: String) -> String { wrap(text, "1") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func red(_ text: String) -> String { wrap(text, "31") }

    private func wrap(_ text: String, _ code: String) -> String {
        usesColor && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Writes to standard error without buffering surprises (progress and messages go there).
enum StandardError {
    static func write(_ text: String) {
        OutputStream.write(text, to: 2)
    }
}

/// Writes to standard output (the index, JSON, the summary).
enum StandardOutput {
    static func write(_ text: String) {
        OutputStream.write(text, to: 1)
    }
}

/// Writes with `write(2)` itself: `FileHandle.write` stops the process with a Swift fatal error when
/// the write fails, which it does with EPIPE as soon as the reader of a pipe has gone
/// (`epub2audio BOOK --progress json | head`). SIGPIPE is ignored (the coordinator must get EPIPE
/// from a dead worker, not die), so the broken pipe is seen here and handed to `BrokenPipe`.
private enum OutputStream {
    static func write(_ text: String, to descriptor: Int32) {
        guard !BrokenPipe.happened else { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                // Any other failure (a full disk under a redirection) cannot be reported either: the
                // text is lost, the conversion goes on.
                if errno == EPIPE { BrokenPipe.record() }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// The reader of our standard output or standard error has gone. A Unix tool then stops quietly:
/// the running conversion is cancelled (it leaves a consistent folder, as after Ctrl-C), nothing
/// more is written, and the process ends killed by SIGPIPE, as `yes | head` does (status 141 in a
/// shell), with no message.
enum BrokenPipe {
    private struct State {
        var happened = false
        var action: (@Sendable () -> Void)?
    }

    private static let state = Mutex(State())

    /// Ignores SIGPIPE for the whole run, so every broken pipe is seen as EPIPE by `OutputStream`.
    static func install() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// True once a write found the pipe broken.
    static var happened: Bool { state.withLock { $0.happened } }

    /// Runs `action` at the first broken pipe (at once when one was already seen); nil forgets it.
    static func onBrokenPipe(_ action: (@Sendable () -> Void)?) {
        let runNow = state.withLock { state -> Bool in
            state.action = action
            return state.happened
        }
        if runNow { action?() }
    }

    fileprivate static func record() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.happened else { return nil }
            state.happened = true
            return state.action
        }
        action?()
    }

    /// Ends the process as a Unix tool whose reader has gone: by SIGPIPE, silently.
    static func exit() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        Glibc.exit(128 + SIGPIPE)
    }
}
