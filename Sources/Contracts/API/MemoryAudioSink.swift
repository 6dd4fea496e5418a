/// An audio sink that keeps every sample in memory: for tests and fake pipelines.
///
/// Not `Sendable`: like every sink it has one owner.
public final class MemoryAudioSink: AudioSink {
    /// Errors of the in-memory sink.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// `write` or `writeSilence` after `close()`.
        case closed
        /// A negative silence length.
        case negativeSilence(frames: Int)

        /// A readable sentence saying what was refused.
        public var description: String {
            switch self {
            case .closed: "the in-memory audio sink is already closed"
            case .negativeSilence(let frames): "cannot write \(frames) frames of silence"
            }
        }
    }

    /// Sample rate the samples are meant to be played at (informational).
    public let sampleRate: Int
    /// Every sample written so far, silence included.
    public private(set) var samples: [Int16] = []
    /// Whether `close()` was called.
    public private(set) var isClosed = false
    /// Number of `write` calls (silence not counted).
    public private(set) var writeCount = 0

    /// An empty sink that records PCM at `sampleRate`.
    public init(sampleRate: Int = 22_050) {
        self.sampleRate = sampleRate
    }

    /// Appends `samples`; throws once the sink is closed.
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard !isClosed else { throw Failure.closed }
        self.samples.append(contentsOf: samples)
        writeCount += 1
    }

    /// Appends `frames` zero samples; throws once the sink is closed.
    public func writeSilence(frames: Int) throws {
        guard !isClosed else { throw Failure.closed }
        guard frames >= 0 else { throw Failure.negativeSilence(frames: frames) }
        samples.append(contentsOf: repeatElement(0, count: frames))
    }

    /// Closes the sink; later writes throw.
    public func close() throws {
        isClosed = true
    }

    /// Duration of what was written, in seconds.
    public var duration: Double { Double(samples.count) / Double(sampleRate) }
}
