import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads newline-terminated lines from a file descriptor, blocking, with a bound on line length.
final class LineReader {
    /// Longest line accepted; a worker message or job is a few hundred bytes (a bound against runaway output).
    static let maxLineBytes = 4 << 20

    private let fd: Int32
    private var buffer: [UInt8] = []
    private var atEOF = false

    init(fileDescriptor: Int32) {
        self.fd = fileDescriptor
    }

    /// The next line without its newline; nil at end of file (a final unterminated line is returned first).
    ///
    /// `abandon` is asked whenever nothing arrived for `pollMilliseconds`; returning true ends reading
    /// as at end of file (a dead worker whose pipe is still held open by a stray child).
    func readLine(pollMilliseconds: Int32 = 100, abandon: () -> Bool = { false }) -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if atEOF || buffer.count > Self.maxLineBytes {
                guard !buffer.isEmpty else { return nil }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                atEOF = true
                return line
            }
            var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, pollMilliseconds)
            if ready == 0 {
                if abandon() { atEOF = true }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                atEOF = true
                continue
            }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
