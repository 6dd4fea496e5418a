internal import CSherpaOnnx
import Foundation

/// The sherpa-onnx C library opened with `dlopen`, and the functions the engine calls, resolved with `dlsym`.
///
/// Owns the handle but never closes it: onnxruntime keeps thread-local and process-wide state (its logging
/// environment, thread pools) that does not survive being unloaded, so the library stays mapped for the
/// life of the process, and `NeuralRuntime` keeps one per path.
final class SherpaOnnxLibrary {
    /// The file opened (as the dynamic loader resolved it).
    let path: String
    /// `SherpaOnnxGetVersionStr()`.
    let version: String

    let createOfflineTts: SherpaOnnxCreateOfflineTtsFunction
    let destroyOfflineTts: SherpaOnnxDestroyOfflineTtsFunction
    let sampleRate: SherpaOnnxOfflineTtsSampleRateFunction
    let numSpeakers: SherpaOnnxOfflineTtsNumSpeakersFunction
    let generate: SherpaOnnxOfflineTtsGenerateWithConfigFunction
    let destroyGeneratedAudio: SherpaOnnxDestroyOfflineTtsGeneratedAudioFunction

    /// Opens `file` (a path, or a bare name for the loader's search) and resolves every function; checks the
    /// version before anything else is called.
    ///
    /// - Throws: `NeuralError.runtimeUnloadable` with `dlerror()`'s text, `.runtimeIncomplete` naming the
    ///   missing function, `.runtimeVersion` for any other version than `RuntimeSearch.requiredVersion`.
    init(opening file: String) throws(NeuralError) {
        // RTLD_LOCAL: the library's own symbols (it links espeak-ng statically, hidden) stay its own.
        guard let handle = dlopen(file, RTLD_NOW | RTLD_LOCAL) else {
            throw .runtimeUnloadable(path: file, reason: Self.lastError() ?? "dlopen failed")
        }
        func symbol<T>(_ name: String, as type: T.Type) throws(NeuralError) -> T {
            guard let pointer = dlsym(handle, name) else {
                throw .runtimeIncomplete(path: file, missingSymbol: name)
            }
            return unsafeBitCast(pointer, to: type)
        }
        let versionFunction = try symbol("SherpaOnnxGetVersionStr", as: SherpaOnnxGetVersionStrFunction.self)
        let path = Self.loadedPath(of: handle, symbol: "SherpaOnnxGetVersionStr") ?? file
        let version = versionFunction().map { String(cString: $0) } ?? "unknown"
        guard version == RuntimeSearch.requiredVersion else { throw .runtimeVersion(path: path, found: version) }
        self.path = path
        self.version = version
        createOfflineTts = try symbol("SherpaOnnxCreateOfflineTts", as: SherpaOnnxCreateOfflineTtsFunction.self)
        destroyOfflineTts = try symbol("SherpaOnnxDestroyOfflineTts", as: SherpaOnnxDestroyOfflineTtsFunction.self)
        sampleRate = try symbol("SherpaOnnxOfflineTtsSampleRate", as: SherpaOnnxOfflineTtsSampleRateFunction.self)
        numSpeakers = try symbol("SherpaOnnxOfflineTtsNumSpeakers", as: SherpaOnnxOfflineTtsNumSpeakersFunction.self)
        generate = try symbol(
            "SherpaOnnxOfflineTtsGenerateWithConfig", as: SherpaOnnxOfflineTtsGenerateWithConfigFunction.self)
        destroyGeneratedAudio = try symbol(
            "SherpaOnnxDestroyOfflineTtsGeneratedAudio", as: SherpaOnnxDestroyOfflineTtsGeneratedAudioFunction.self)
    }

    /// `dlerror()`'s message, if any.
    static func lastError() -> String? {
        dlerror().map { String(cString: $0) }
    }

    /// The file the loader mapped for `handle` (a bare name resolves to a full path), through `dladdr` on one of
    /// its functions.
    private static func loadedPath(of handle: UnsafeMutableRawPointer, symbol: String) -> String? {
        guard let address = dlsym(handle, symbol), let name = epub2audio_shared_object_path(address) else { return nil }
        return String(cString: name)
    }
}
