import Foundation

/// The voices folder: neural voices imported once, ready for sherpa-onnx, listed with their language, rate,
/// quality and size.
///
/// Each voice is a folder named after it holding `model.onnx` (the model with the metadata sherpa-onnx reads
/// appended), `tokens.txt` (from the phoneme map), `voice.json` (what the list shows, versioned) and, when the
/// voice brought one, `espeak-ng-data`. An import prepares everything in a hidden folder beside the others and
/// renames it into place, so a failed or interrupted import leaves no half voice.
public struct VoiceLibrary: Sendable {
    /// The prepared model's file name in a voice folder.
    public static let modelFileName = "model.onnx"
    /// The token table's.
    public static let tokensFileName = "tokens.txt"
    /// The voice description's.
    public static let descriptionFileName = "voice.json"
    /// The longest voice name (a folder name; Piper's are about 20 characters).
    public static let maximumNameLength = 100
    /// The largest model imported (Piper's high-quality voices are about 110 MB).
    public static let maximumModelBytes: Int64 = 2 << 30

    /// The folder.
    public let folder: String

    /// A library in `folder` (created by the first import).
    public init(folder: String) {
        self.folder = folder
    }

    /// `$XDG_DATA_HOME/epub2audio/voices`, else `~/.local/share/epub2audio/voices`.
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/epub2audio/voices" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/epub2audio/voices"
    }

    /// The installed voices, by name, and a warning for each folder that is not a readable voice (the list
    /// goes on without it).
    public func voices() -> (voices: [NeuralVoice], warnings: [String]) {
        var voices: [NeuralVoice] = []
        var warnings: [String] = []
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(entry)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                continue
            }
            do {
                voices.append(try Self.readVoice(in: path))
            } catch {
                warnings.append("\(error)")
            }
        }
        return (voices, warnings)
    }

    /// The voice named `name` (or `piper:NAME`), letter case aside.
    ///
    /// - Throws: `NeuralError.voiceNotFound` listing the installed voices; `.invalidVoice` when its
    ///   `voice.json` cannot be read.
    public func voice(named name: String) throws(NeuralError) -> NeuralVoice {
        let bare =
            name.hasPrefix(NeuralVoice.identifierPrefix)
            ? String(name.dropFirst(NeuralVoice.identifierPrefix.count)) : name
        if Self.isValidName(bare) {
            let path = (folder as NSString).appendingPathComponent(bare)
            if FileManager.default.fileExists(
                atPath: (path as NSString).appendingPathComponent(Self.descriptionFileName))
            {
                return try Self.readVoice(in: path)
            }
        }
        let installed = voices().voices
        if let match = installed.first(where: { $0.isNamed(name) }) { return match }
        throw .voiceNotFound(name: name, folder: folder, installed: installed.map(\.name))
    }

    /// Total bytes of a voice's files (what the list shows as its size).
    public static func size(of voice: NeuralVoice) -> Int64 {
        guard let walker = FileManager.default.enumerator(atPath: voice.folder) else { return 0 }
        var total: Int64 = 0
        while let entry = walker.nextObject() as? String {
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: (voice.folder as NSString).appendingPathComponent(entry))
            if attributes?[.type] as? FileAttributeType == .typeRegular {
                total += (attributes?[.size] as? NSNumber)?.int64Value ?? 0
            }
        }
        return total
    }

    /// Whether `name` can be a voice's folder name: letters, digits, `.`, `_`, `-`, not starting with a dot.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maximumNameLength && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
    }

    static func readVoice(in path: String) throws(NeuralError) -> NeuralVoice {
        let file = (path as NSString).appendingPathComponent(descriptionFileName)
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: file))
            guard data.count <= 1 << 20 else { throw NeuralError.invalidVoice(path: file, reason: "it is over 1 MiB") }
            var voice = try JSONDecoder().decode(NeuralVoice.self, from: data)
            voice.folder = path
            return voice
        } catch let error as NeuralError {
            throw error
        } catch {
            throw .invalidVoice(path: file, reason: "it cannot be read (\(error))")
        }
    }
}
