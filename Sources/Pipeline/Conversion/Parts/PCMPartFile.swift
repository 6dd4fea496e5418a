import Contracts
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// File-scope wrappers: inside the types below `read` and `close` would mean their methods.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func posixClose(_ fd: Int32) { _ = close(fd) }

/// Writes one part of a long section as raw PCM (16-bit little-endian mono, no header): the part
/// is joined into the section's file later by one writer pass, so nothing is encoded twice.
///
/// Buffered. Not fsynced, like a section's file: a part whose file lost data in a power cut has
/// another size than the manifest records, and is made again.
final class PCMPartSink: AudioSink {
    private let path: String
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var closed = false
    /// Bytes gathered before a write: a few tens of writes per minute of speech.
    private static let bufferBytes = 1 << 18

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PosixFailure.error(errno, path: path) }
        buffer.reserveCapacity(Self.bufferBytes)
    }

    deinit {
        if !closed { posixClose(descriptor) }
    }

    func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        #if _endian(little)
            buffer.append(contentsOf: UnsafeRawBufferPointer(samples))
        #else
            for sample in samples {
                let value = UInt16(bitPattern: sample)
                buffer.append(UInt8(truncatingIfNeeded: value))
                buffer.append(UInt8(truncatingIfNeeded: value >> 8))
            }
        #endif
        if buffer.count >= Self.bufferBytes { try flush() }
    }

    func writeSilence(frames: Int) throws {
        guard frames > 0 else { return }
        buffer.append(contentsOf: repeatElement(0, count: frames * 2))
        if buffer.count >= Self.bufferBytes { try flush() }
    }

    func close() throws {
        guard !closed else { return }
        closed = true
        defer { posixClose(descriptor) }
        try flush()
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try AtomicFile.writeAll(Data(buffer), to: descriptor, path: path)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Reads the parts of a section in order and writes their PCM into one sink: the join.
enum PCMPartJoiner {
    /// Samples read at a time.
    private static let bufferSamples = 1 << 17

    /// Copies every file of `paths`, in order, into `sink` (not closed here); returns the frames copied.
    /// Stops early (returning what was copied) once `shouldStop` says so.
    /// - Throws: a `ConversionError` naming the file that cannot be read, or the sink's error.
    static func copy(_ paths: [String], into sink: any AudioSink, shouldStop: () -> Bool = { false }) throws -> Int {
        var frames = 0
        var samples = [Int16](repeating: 0, count: bufferSamples)
        for path in paths {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw PosixFailure.error(errno, path: path) }
            defer { posixClose(fd) }
            // Bytes in `samples` not yet written: an odd byte left by a short read waits for its pair.
            var filled = 0
            while !shouldStop() {
                let count = samples.withUnsafeMutableBytes {
                    posixRead(fd, $0.baseAddress! + filled, $0.count - filled)
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw PosixFailure.error(errno, path: path)
                }
                if count == 0 { break }
                filled += count
                let whole = filled / 2
                guard whole > 0 else { continue }
                try samples.withUnsafeMutableBufferPointer { buffer in
                    #if _endian(big)
                        for index in 0..<whole { buffer[index] = Int16(littleEndian: buffer[index]) }
                    #endif
                    try sink.write(UnsafeBufferPointer(rebasing: buffer[0..<whole]))
                }
                frames += whole
                let odd = filled - whole * 2
                if odd > 0 {
                    samples.withUnsafeMutableBytes { $0[0] = $0[filled - 1] }
                }
                filled = odd
            }
            if filled != 0 && !shouldStop() {
                throw ConversionError.outputUnwritable(path: path, reason: "a part file ends in half a sample")
            }
        }
        return frames
    }
}
