import Foundation

/// The espeak-ng data folder sherpa-onnx phonemises with.
///
/// sherpa-onnx 1.13.8 links its own espeak-ng (a fork of 1.52's development version, hidden inside the
/// library) and reads the data from a folder it is given. Debian 12's `espeak-ng-data` (1.51) works with it
/// (same phoneme-data format, checked with en_US-joe-medium), so a Piper voice needs nothing new on a system
/// where espeak-ng is installed. Missing files are checked here because sherpa-onnx ends the process when
/// espeak-ng cannot start, and aborts when the voice's language is missing.
enum ESpeakData {
    /// Files espeak-ng reads at initialisation.
    static let requiredFiles = ["phontab", "phonindex", "phondata", "intonations"]

    /// Where Debian and upstream installs put the data, after `ESPEAK_DATA_PATH` (espeak-ng's own variable,
    /// naming the folder that holds `espeak-ng-data`).
    static func systemFolders(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var folders: [String] = []
        if let path = environment["ESPEAK_DATA_PATH"], !path.isEmpty { folders.append(path + "/espeak-ng-data") }
        #if arch(arm64)
            folders.append("/usr/lib/aarch64-linux-gnu/espeak-ng-data")
        #else
            folders.append("/usr/lib/x86_64-linux-gnu/espeak-ng-data")
        #endif
        folders += ["/usr/lib/espeak-ng-data", "/usr/share/espeak-ng-data", "/usr/local/share/espeak-ng-data"]
        return folders
    }

    /// The first usable folder of `candidates` for `voice`.
    ///
    /// - Throws: `NeuralError.espeakDataUnusable` with the reason the last existing folder failed.
    static func locate(for voice: String, in candidates: [String]) throws(NeuralError) -> String {
        var reason = "none of these folders exists"
        for folder in candidates where FileManager.default.fileExists(atPath: folder) {
            if let problem = problem(in: folder, voice: voice) {
                reason = "\(folder): \(problem)"
            } else {
                return folder
            }
        }
        throw .espeakDataUnusable(voice: voice, searched: candidates, reason: reason)
    }

    /// What keeps `folder` from phonemising with `voice` (`en-us`), nil when nothing does: the data files, the
    /// language's dictionary (`en_dict`), and a voice file of that name under `lang/` or `voices/`.
    static func problem(in folder: String, voice: String) -> String? {
        let files = FileManager.default
        for file in requiredFiles where !files.fileExists(atPath: folder + "/" + file) {
            return "it has no \(file)"
        }
        let language = NeuralVoice.primary(voice)
        guard !language.isEmpty, files.fileExists(atPath: "\(folder)/\(language)_dict") else {
            return "it has no \(language)_dict for the voice '\(voice)'"
        }
        guard hasVoiceFile(voice.lowercased(), under: [folder + "/lang", folder + "/voices"]) else {
            return "it has no voice file '\(voice)' under lang/ or voices/"
        }
        return nil
    }

    /// The most files looked at for a voice file (espeak-ng 1.51's `lang` has about 250).
    static let maximumVoiceFiles = 5_000

    private static func hasVoiceFile(_ name: String, under roots: [String]) -> Bool {
        var visited = 0
        for root in roots {
            // The enumerator does not enter a folder given as a link: a data folder whose lang/ is one is usable.
            let root = (root as NSString).resolvingSymlinksInPath
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            while let entry = walker.nextObject() as? String, visited < maximumVoiceFiles {
                visited += 1
                if (entry as NSString).lastPathComponent.lowercased() == name { return true }
            }
        }
        return false
    }
}
