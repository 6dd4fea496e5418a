import Foundation

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
        FileHandle.standardError.write(Data(text.utf8))
    }
}

/// Writes to standard output (the index, JSON, the summary).
enum StandardOutput {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
