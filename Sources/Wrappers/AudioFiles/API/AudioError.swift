import Contracts

/// Errors of audio file writing and reading.
public enum AudioError: Error, Equatable, CustomStringConvertible {
    /// This libsndfile cannot write the format (see `AudioFileWriter.availableFormats()`).
    case formatUnavailable(AudioFormat, path: String)
    /// An encoder option the format does not have, or a value out of range.
    case invalidOption(String, format: AudioFormat)
    /// `sf_open` failed; `message` is libsndfile's (`sf_strerror`).
    case openFailed(path: String, message: String)
    /// Writing samples, tags or settings failed.
    case writeFailed(path: String, message: String)
    /// `sf_close` reported an error: the file may be incomplete.
    case closeFailed(path: String, message: String)
    /// Reading a file back failed.
    case readFailed(path: String, message: String)
    /// The writer was already closed.
    case closed(path: String)
    /// The libsoxr resampler failed.
    case resampler(path: String, message: String)
    /// A negative amount of silence was requested.
    case invalidSilence(frames: Int, path: String)

    /// A readable sentence naming the file, the format and libsndfile's message.
    public var description: String {
        switch self {
        case .formatUnavailable(let format, let path):
            return "cannot write \(format.rawValue) (\(path)): this libsndfile has no \(format.rawValue) encoder"
        case .invalidOption(let option, let format):
            return "invalid \(format.rawValue) encoder option: \(option)"
        case .openFailed(let path, let message):
            return "cannot create audio file \(path): \(message)"
        case .writeFailed(let path, let message):
            return "cannot write audio file \(path): \(message)"
        case .closeFailed(let path, let message):
            return "cannot finish audio file \(path) (it may be incomplete): \(message)"
        case .readFailed(let path, let message):
            return "cannot read audio file \(path): \(message)"
        case .closed(let path):
            return "audio file \(path) is already closed"
        case .resampler(let path, let message):
            return "cannot resample audio for \(path): \(message)"
        case .invalidSilence(let frames, let path):
            return "cannot write \(frames) frames of silence to \(path)"
        }
    }
}
