/// Errors of the neural engine: the sherpa-onnx runtime, the voices folder, a voice's files, synthesis.
///
/// Every case reads as one sentence naming the file, the folder or the voice, and for a missing runtime
/// how to install it. A front end maps them all to "a voice is not installed" (exit 6 for the CLI).
public enum NeuralError: Error, Equatable, CustomStringConvertible {
    /// `libsherpa-onnx-c-api.so` was found nowhere; `searched` says where it was looked for, in order.
    case runtimeNotFound(searched: [String])
    /// The library exists but could not be opened (`dlopen`'s message: often `libonnxruntime.so` missing
    /// beside it, or another architecture).
    case runtimeUnloadable(path: String, reason: String)
    /// The library lacks a function the engine calls.
    case runtimeIncomplete(path: String, missingSymbol: String)
    /// The library is another version than the one whose C structs the engine was built against.
    case runtimeVersion(path: String, found: String)
    /// No voice of that name in the voices folder.
    case voiceNotFound(name: String, folder: String, installed: [String])
    /// A voice's files cannot be used; `reason` says which and why.
    case invalidVoice(path: String, reason: String)
    /// Importing a voice failed (nothing was left in the voices folder).
    case importFailed(path: String, reason: String)
    /// A voice of that name is already installed.
    case voiceExists(name: String, folder: String)
    /// The espeak-ng data sherpa-onnx phonemises with was found nowhere, or lacks the voice's language.
    case espeakDataUnusable(voice: String, searched: [String], reason: String)
    /// sherpa-onnx keeps one espeak-ng data folder per process: a second voice asked for another one.
    case espeakDataConflict(loaded: String, requested: String)
    /// sherpa-onnx refused the model (its own message went to standard error).
    case modelLoadFailed(voice: String, path: String)
    /// An engine holds one voice: `configure` asked for another.
    case voiceMismatch(loaded: String, requested: String)
    /// A setting the neural voice cannot honour (pitch), or a value out of range.
    case unsupportedSetting(String)
    /// sherpa-onnx returned no audio for a sentence.
    case synthesisFailed(voice: String, sentence: String)

    /// How to get the runtime, said after every runtime error.
    public static let installHint =
        "Install it with `pip install sherpa-onnx-core==\(RuntimeSearch.requiredVersion)`, or set "
        + "\(RuntimeSearch.environmentVariable)=DIR to the folder that holds \(RuntimeSearch.libraryName)"

    /// One readable sentence.
    public var description: String {
        switch self {
        case .runtimeNotFound(let searched):
            return
                "the neural voice runtime (sherpa-onnx \(RuntimeSearch.requiredVersion), \(RuntimeSearch.libraryName)) "
                + "is not installed; looked in: \(searched.joined(separator: "; ")). \(Self.installHint)"
        case .runtimeUnloadable(let path, let reason):
            return "cannot load the neural voice runtime \(path): \(reason). \(Self.installHint)"
        case .runtimeIncomplete(let path, let symbol):
            return "the neural voice runtime \(path) has no function \(symbol). \(Self.installHint)"
        case .runtimeVersion(let path, let found):
            return "the neural voice runtime \(path) is sherpa-onnx \(found); epub2audio needs "
                + "\(RuntimeSearch.requiredVersion) exactly. \(Self.installHint)"
        case .voiceNotFound(let name, let folder, let installed):
            let list = installed.isEmpty ? "none is installed" : "installed: \(installed.joined(separator: ", "))"
            return "no neural voice '\(name)' in \(folder) (\(list))"
        case .invalidVoice(let path, let reason):
            return "the neural voice \(path) cannot be used: \(reason)"
        case .importFailed(let path, let reason):
            return "cannot import the voice \(path): \(reason)"
        case .voiceExists(let name, let folder):
            return "a voice named '\(name)' is already installed in \(folder)"
        case .espeakDataUnusable(let voice, let searched, let reason):
            return "no espeak-ng data for the neural voice's phonemes ('\(voice)'): \(reason); looked in: "
                + "\(searched.joined(separator: "; ")). Install Debian's espeak-ng-data, or give the folder"
        case .espeakDataConflict(let loaded, let requested):
            return "this process already phonemises with the espeak-ng data in \(loaded); a voice needing "
                + "\(requested) must run in another process"
        case .modelLoadFailed(let voice, let path):
            return "sherpa-onnx could not load the voice '\(voice)' from \(path) (its message is above)"
        case .voiceMismatch(let loaded, let requested):
            return "this engine speaks with '\(loaded)'; make another engine for '\(requested)'"
        case .unsupportedSetting(let what):
            return "\(what) with a neural voice"
        case .synthesisFailed(let voice, let sentence):
            return "the voice '\(voice)' produced no audio for: \(sentence.prefix(80))"
        }
    }
}
