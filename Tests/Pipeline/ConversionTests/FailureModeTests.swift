import Contracts
import Foundation
import Testing

@testable import Conversion

/// A sink that runs out of disk space after a few writes.
final class FullDiskSink: AudioSink {
    private var writes = 0
    func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        writes += 1
        if writes > 3 { throw POSIXError(.ENOSPC) }
    }
    func writeSilence(frames: Int) throws {}
    func close() throws {}
}

@Suite struct FailureModeTests {
    @Test func aFullDiskStopsTheRunWithDiskFull() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 4)
        let base = environment(source: source)
        let env = ConversionEnvironment(
            makeSource: base.makeSource, makeEngine: base.makeEngine,
            makeSink: { request in
                if request.tags.trackNumber == 4 {
                    _ = FileManager.default.createFile(atPath: request.path, contents: Data("x".utf8))
                    return FullDiskSink()
                }
                return try FakeFileSink(request)
            })
        let part = sandbox.output + "/004 - Chapter 4.wav.part"
        await #expect(throws: ConversionError.diskFull(path: part)) {
            try await Converter(environment: env).run(sandbox.request())
        }
        let manifest = try sandbox.manifest()
        #expect(!manifest.sections.contains { $0.status == .inProgress })
        #expect(!sandbox.files().contains { $0.hasSuffix(".part") })
    }

    @Test func theManifestIsRewrittenDuringALongSection() async throws {
        let sandbox = try Sandbox()
        let source = FakeSource.make(count: 2, words: 2000)
        var request = sandbox.request()
        request.manifestInterval = 0.05
        // About 3 s of synthesis; the test cancels as soon as it saw what it looks for.
        let env = environment(source: source, delayMicroseconds: 3000)
        let task = Task { try await Converter(environment: env).run(request) }
        var seen: SectionRecord?
        let deadline = Date().addingTimeInterval(10)
        while seen == nil && Date() < deadline {
            try await Task.sleep(for: .milliseconds(10))
            if let manifest = try? Manifest.load(fromDirectory: sandbox.output),
                let record = manifest.section(2), record.status == .inProgress, (record.wordsDone ?? 0) > 0
            {
                seen = record
            }
        }
        task.cancel()
        _ = try? await task.value
        let record = try #require(seen)
        #expect(record.wordsDone! < record.words + 10)
        #expect(record.started != nil)
    }
}
