/// Errors of the espeak-ng speech engine.
public enum SpeechError: Error, Equatable, CustomStringConvertible {
    /// Another `ESpeakSpeechEngine` is alive in this process (espeak-ng is process-global).
    case engineInUse
    /// The requested voice is neither an installed voice name nor a language tag with a voice.
    case unknownVoice(requested: String, suggestions: [String])
    /// Rate outside `allowed` words per minute.
    case invalidRate(Int, allowed: ClosedRange<Int>)
    /// Pitch outside `allowed`.
    case invalidPitch(Int, allowed: ClosedRange<Int>)
    /// Volume outside `allowed`.
    case invalidVolume(Int, allowed: ClosedRange<Int>)
    /// espeak-ng reported a failure; `message` is its own text (`espeak_ng_GetStatusCodeMessage`).
    case espeak(operation: String, status: UInt32, message: String)

    /// A readable sentence naming the voice or espeak-ng's message.
    public var description: String {
        switch self {
        case .engineInUse:
            return "an espeak-ng engine is already running in this process (espeak-ng allows only one)"
        case .unknownVoice(let requested, let suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: ", "))?"
            return "unknown voice '\(requested)'\(hint)"
        case .invalidRate(let rate, let allowed):
            let range = "\(allowed.lowerBound) to \(allowed.upperBound)"
            return "speech rate \(rate) is out of range: use \(range) words per minute"
        case .invalidPitch(let pitch, let allowed):
            return "pitch \(pitch) is out of range: use \(allowed.lowerBound) to \(allowed.upperBound) (50 is normal)"
        case .invalidVolume(let volume, let allowed):
            return
                "volume \(volume) is out of range: use \(allowed.lowerBound) to \(allowed.upperBound) (100 is normal)"
        case .espeak(let operation, let status, let message):
            let hex = "0x" + String(status, radix: 16, uppercase: true)
            return "espeak-ng failed in \(operation): \(message) (status \(hex))"
        }
    }
}
