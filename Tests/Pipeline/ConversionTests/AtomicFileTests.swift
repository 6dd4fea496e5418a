import Foundation
import Testing

@testable import Conversion

@Suite struct AtomicFileTests {
    @Test func aBatchShowsNoFileUntilItIsCommittedThenEveryOne() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.output, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: sandbox.output + "/b.txt"))
        var batch = AtomicFile.Batch(directory: sandbox.output)
        try batch.add(Data("one".utf8), named: "a.txt")
        try batch.add(Data("two".utf8), named: "b.txt")
        #expect(batch.count == 2)
        // Before the commit: the old contents, and temp files only.
        #expect(sandbox.contents("b.txt") == Data("old".utf8))
        #expect(!sandbox.files().contains("a.txt"))
        #expect(sandbox.files().filter { $0.hasPrefix(AtomicFile.tempPrefix) }.count == 2)
        try batch.commit()
        #expect(batch.count == 0)
        #expect(sandbox.files() == ["a.txt", "b.txt"])
        #expect(sandbox.contents("a.txt") == Data("one".utf8))
        #expect(sandbox.contents("b.txt") == Data("two".utf8))
        // Committing nothing does nothing.
        try batch.commit()
        #expect(sandbox.files() == ["a.txt", "b.txt"])
    }

    @Test func aFailedCommitLeavesNoTempFile() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(atPath: sandbox.output, withIntermediateDirectories: true)
        // A folder that is not empty cannot be replaced by a file: the second rename fails.
        try FileManager.default.createDirectory(
            atPath: sandbox.output + "/b.txt/inside", withIntermediateDirectories: true)
        var batch = AtomicFile.Batch(directory: sandbox.output)
        try batch.add(Data("one".utf8), named: "a.txt")
        try batch.add(Data("two".utf8), named: "b.txt")
        try batch.add(Data("three".utf8), named: "c.txt")
        #expect(throws: ConversionError.self) { try batch.commit() }
        #expect(sandbox.files() == ["a.txt", "b.txt"])
        #expect(sandbox.contents("a.txt") == Data("one".utf8))
    }
}
