import Contracts
import Testing

@Suite struct MemoryAudioSinkTests {
    @Test func keepsSamplesAndSilenceInOrder() throws {
        let sink = MemoryAudioSink(sampleRate: 1_000)
        try [Int16(1), 2, 3].withUnsafeBufferPointer { try sink.write($0) }
        try sink.writeSilence(frames: 2)
        try [Int16(4)].withUnsafeBufferPointer { try sink.write($0) }
        #expect(sink.samples == [1, 2, 3, 0, 0, 4])
        #expect(sink.writeCount == 2)
        #expect(sink.duration == 0.006)
        try sink.close()
        #expect(sink.isClosed)
        #expect(throws: MemoryAudioSink.Failure.closed) { try sink.writeSilence(frames: 1) }
    }

    @Test func refusesNegativeSilence() {
        let sink = MemoryAudioSink()
        #expect(throws: MemoryAudioSink.Failure.negativeSilence(frames: -3)) { try sink.writeSilence(frames: -3) }
    }
}
