import Foundation

/// The sherpa-onnx runtime, loaded at run time: nothing of it is linked, so a build, `make demo` and every
/// espeak-ng conversion run without it.
///
/// `load(_:)` walks `RuntimeSearch`'s places in order, opens the first library found, checks its version, and
/// turns every failure into one `NeuralError` that says what is missing, where it was looked for and how to
/// install it. A loaded runtime is kept for the process (libraries are never unloaded) and shared by every
/// engine: `load` is cheap after the first call.
public final class NeuralRuntime: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable after `init`, and the library's functions are
    // only called with `NeuralProcess.lock` held (NeuralSpeechEngine).

    /// The library file loaded.
    public var libraryPath: String { library.path }
    /// Its version (always `RuntimeSearch.requiredVersion`).
    public var version: String { library.version }

    let library: SherpaOnnxLibrary

    private init(library: SherpaOnnxLibrary) {
        self.library = library
    }

    /// Runtimes already loaded, by the folder or name they were opened from.
    private static let loaded = Locked<[String: NeuralRuntime]>([:])

    /// Finds and loads the runtime.
    ///
    /// - Throws: `NeuralError.runtimeNotFound` listing every place tried when none has the library; the
    ///   error of the first place that has it but cannot load it (`runtimeUnloadable`, `runtimeIncomplete`,
    ///   `runtimeVersion`): a broken install is reported, not skipped.
    public static func load(_ search: RuntimeSearch = RuntimeSearch()) throws(NeuralError) -> NeuralRuntime {
        var searched: [String] = []
        for candidate in search.candidates() {
            switch candidate {
            case .folder(let folder, _):
                searched.append(candidate.description)
                if let runtime = try load(folder: folder) { return runtime }
            case .systemPath:
                searched.append(candidate.description)
                if let runtime = try loadFromSystemPath() { return runtime }
            case .askPython:
                let folders = RuntimeSearch.askPython()
                searched.append(
                    folders.isEmpty
                        ? candidate.description + ": none"
                        : candidate.description + ": " + folders.joined(separator: ", "))
                for folder in folders {
                    if let runtime = try load(folder: folder) { return runtime }
                }
            }
        }
        throw .runtimeNotFound(searched: searched)
    }

    /// The runtime in `folder`, nil when the folder has no library; throws when it has one that does not load.
    static func load(folder: String) throws(NeuralError) -> NeuralRuntime? {
        let file = (folder as NSString).appendingPathComponent(RuntimeSearch.libraryName)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        let companion = (folder as NSString).appendingPathComponent(RuntimeSearch.companionName)
        guard FileManager.default.fileExists(atPath: companion) else {
            throw .runtimeUnloadable(path: file, reason: "\(RuntimeSearch.companionName) is not beside it")
        }
        return try cached(file) { () throws(NeuralError) in try SherpaOnnxLibrary(opening: file) }
    }

    /// The runtime the dynamic loader finds by name, nil when it finds none.
    static func loadFromSystemPath() throws(NeuralError) -> NeuralRuntime? {
        do {
            return try cached(RuntimeSearch.libraryName) { () throws(NeuralError) in
                try SherpaOnnxLibrary(opening: RuntimeSearch.libraryName)
            }
        } catch .runtimeUnloadable(_, let reason) where reason.contains("cannot open shared object file") {
            return nil
        }
    }

    private static func cached(_ key: String, _ open: () throws(NeuralError) -> SherpaOnnxLibrary) throws(NeuralError)
        -> NeuralRuntime
    {
        try loaded.withLock { (runtimes: inout [String: NeuralRuntime]) throws(NeuralError) -> NeuralRuntime in
            if let runtime = runtimes[key] { return runtime }
            let runtime = NeuralRuntime(library: try open())
            runtimes[key] = runtime
            return runtime
        }
    }
}

/// A value behind a lock (Foundation's `NSLock`; the Synchronization module's `Mutex` needs newer platforms).
final class Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: `value` is only read or written with `lock` held.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
