import Foundation
import Testing

@testable import NeuralEngine

/// A file system of folders, each with its entries.
private func lister(_ tree: [String: [String]]) -> (String) -> [String] {
    { tree[$0] ?? [] }
}

private func folders(_ candidates: [RuntimeSearch.Candidate]) -> [String] {
    candidates.compactMap {
        if case .folder(let path, _) = $0 { return path }
        return nil
    }
}

@Suite struct RuntimeSearchTests {
    @Test func theVariableIsTheOnlyPlaceWhenSet() {
        let search = RuntimeSearch(environment: ["EPUB2AUDIO_SHERPA_ONNX": "/opt/sherpa", "HOME": "/home/u"])
        #expect(
            search.candidates(listDirectory: lister([:])) == [
                .folder("/opt/sherpa", origin: "EPUB2AUDIO_SHERPA_ONNX"),
                .folder("/opt/sherpa/lib", origin: "EPUB2AUDIO_SHERPA_ONNX"),
            ])
    }

    @Test func systemPathFirstThenPythonPackagesThenPythonItself() {
        let tree: [String: [String]] = [
            "/venv/lib": ["python3.11"], "/venv/lib/python3.11/site-packages": ["pip"],
            "/home/u/.local/lib": ["python3.11"], "/home/u/.local/lib/python3.11/site-packages": ["x"],
            "/home/u/.pyenv/versions": ["3.9.18", "3.13.0"],
            "/home/u/.pyenv/versions/3.9.18/lib": ["python3.9"],
            "/home/u/.pyenv/versions/3.9.18/lib/python3.9/site-packages": ["x"],
            "/home/u/.pyenv/versions/3.13.0/lib": ["python3.13"],
            "/home/u/.pyenv/versions/3.13.0/lib/python3.13/site-packages": ["x"],
            "/usr/local/lib": ["python3.11", "python3.9"],
            "/usr/local/lib/python3.11/dist-packages": ["x"], "/usr/local/lib/python3.9/dist-packages": ["x"],
            "/usr/lib": ["python3"], "/usr/lib/python3/dist-packages": ["x"],
        ]
        let search = RuntimeSearch(
            environment: ["HOME": "/home/u", "VIRTUAL_ENV": "/venv", "PYTHONPATH": "/pp:/qq"])
        let candidates = search.candidates(listDirectory: lister(tree))
        #expect(candidates.first == .systemPath)
        #expect(candidates.last == .askPython)
        #expect(
            folders(candidates) == [
                "/pp/sherpa_onnx/lib", "/qq/sherpa_onnx/lib",
                "/venv/lib/python3.11/site-packages/sherpa_onnx/lib",
                "/home/u/.local/lib/python3.11/site-packages/sherpa_onnx/lib",
                "/home/u/.pyenv/versions/3.13.0/lib/python3.13/site-packages/sherpa_onnx/lib",
                "/home/u/.pyenv/versions/3.9.18/lib/python3.9/site-packages/sherpa_onnx/lib",
                "/usr/local/lib/python3.11/dist-packages/sherpa_onnx/lib",
                "/usr/local/lib/python3.9/dist-packages/sherpa_onnx/lib",
                "/usr/lib/python3/dist-packages/sherpa_onnx/lib",
            ])
    }

    @Test func pythonIsNotAskedWhenNotAllowed() {
        let search = RuntimeSearch(environment: [:], allowsPython: false)
        #expect(search.candidates(listDirectory: lister([:])) == [.systemPath])
    }

    @Test func anEmptyVariableIsUnset() {
        let search = RuntimeSearch(environment: ["EPUB2AUDIO_SHERPA_ONNX": ""], allowsPython: false)
        #expect(search.candidates(listDirectory: lister([:])) == [.systemPath])
    }
}

/// Failures to load the runtime, without the runtime: each is an error naming what and where, never a crash.
@Suite struct RuntimeLoadingErrorTests {
    private func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "neural-runtime-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aMissingRuntimeSaysWhereItLookedAndHowToInstallIt() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let search = RuntimeSearch(environment: ["EPUB2AUDIO_SHERPA_ONNX": folder], allowsPython: false)
        do {
            _ = try NeuralRuntime.load(search)
            Issue.record("an empty folder loaded a runtime")
        } catch {
            guard case .runtimeNotFound(let searched) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(searched.first?.hasPrefix(folder) == true)
            #expect(error.description.contains("pip install sherpa-onnx-core==1.13.8"))
            #expect(error.description.contains("EPUB2AUDIO_SHERPA_ONNX=DIR"))
        }
    }

    @Test func aLibraryWithoutOnnxruntimeBesideItIsNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(
            FileManager.default.createFile(atPath: folder + "/libsherpa-onnx-c-api.so", contents: Data("x".utf8)))
        let search = RuntimeSearch(environment: ["EPUB2AUDIO_SHERPA_ONNX": folder], allowsPython: false)
        #expect(
            throws: NeuralError.runtimeUnloadable(
                path: folder + "/libsherpa-onnx-c-api.so", reason: "libonnxruntime.so is not beside it")
        ) {
            try NeuralRuntime.load(search)
        }
    }

    @Test func aFileThatIsNotALibraryGivesTheLoadersMessage() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try #require(
            FileManager.default.createFile(atPath: folder + "/libsherpa-onnx-c-api.so", contents: Data("not ELF".utf8)))
        try #require(
            FileManager.default.createFile(atPath: folder + "/libonnxruntime.so", contents: Data("not ELF".utf8)))
        let search = RuntimeSearch(environment: ["EPUB2AUDIO_SHERPA_ONNX": folder], allowsPython: false)
        do {
            _ = try NeuralRuntime.load(search)
            Issue.record("a text file loaded as a library")
        } catch {
            guard case .runtimeUnloadable(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path.hasSuffix("libsherpa-onnx-c-api.so"))
            #expect(!reason.isEmpty)
        }
    }
}
