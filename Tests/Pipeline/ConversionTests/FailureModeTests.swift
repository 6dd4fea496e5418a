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
                if request.tags.trackNumber == "3/3" {  // section 4: the third of the three planned
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
        let source = FakeSource.make(count: 2, words: 600)
        var request = sandbox.request()
        request.manifestInterval = 0.05
        // 1 ms per buffer: the section takes a few hundred milliseconds, several manifest intervals.
        let env = environment(source: source, delayMicroseconds: 1000)
        let output = sandbox.output
        let seen = Locked<SectionRecord?>(nil)
        // Read the manifest from the event callback (the coordinator's threads), so the check does not
        // depend on the test's own scheduling on a loaded machine.
        _ = try await Converter(environment: env).run(request) { event in
            guard case .progress(2, _, _, _) = event, seen.value == nil else { return }
            if let record = (try? Manifest.load(fromDirectory: output))?.section(2), record.status == .inProgress,
                (record.wordsDone ?? 0) > 0
            {
                seen.withLock { $0 = record }
            }
        }
        let record = try #require(seen.value)
        #expect(record.wordsDone! <= record.words)
        #expect(record.started != nil)
        #expect(try sandbox.manifest().section(2)?.status == .done)
    }
}
