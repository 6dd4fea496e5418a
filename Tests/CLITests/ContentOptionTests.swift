import Foundation
import Testing

/// `--tables`, `--code`, `--images` and `--math`: what is heard of content that does not read well aloud.
@Suite("Tables, code, images and equations: notice, read or skip")
struct ContentOptionTests {
    static let treatise = BinaryRunner.sample("a-treatise-on-small-machines.epub")

    /// The spoken text of the whole treatise with `options`.
    static func spoken(_ options: [String]) async throws -> String {
        let scratch = try Scratch("content-options")
        let out = scratch.file("text").path
        let result = try await BinaryRunner.run([treatise, "--text", "-o", out] + options)
        #expect(result.status == 0, "\(result.stderr)")
        return try FileManager.default.contentsOfDirectory(atPath: out).sorted().filter { $0.hasSuffix(".txt") }
            .map { String(decoding: try #require(bytes(out + "/" + $0)), as: UTF8.self) }.joined(separator: "\n")
    }

    @Test("by default a table and a listing are announced and an image is described")
    func defaults() async throws {
        let text = try await Self.spoken([])
        #expect(text.contains("Table omitted.") && text.contains("Code example omitted."))
        #expect(text.contains("Image: Figure"))
    }

    @Test("read: the table row by row and the listing line by line; skip: nothing, not even a notice")
    func readAndSkip() async throws {
        let read = try await Self.spoken(["--tables", "read", "--code", "read", "--images", "skip"])
        #expect(read.contains("Wheel, Teeth, Ratio to drive, Counts shown"))
        #expect(read.contains("def advance(wheels"))
        #expect(!read.contains("Table omitted.") && !read.contains("Code example omitted."))
        #expect(!read.contains("Image:"))
        let skipped = try await Self.spoken(["--tables", "skip", "--code", "skip"])
        #expect(!skipped.contains("Table omitted.") && !skipped.contains("Wheel, Teeth"))
        #expect(!skipped.contains("Code example omitted.") && !skipped.contains("def advance"))
    }

    @Test("an unknown value is a usage error")
    func unknownValue() async throws {
        let result = try await BinaryRunner.run([Self.treatise, "--list", "--images", "describe"])
        #expect(result.status == 64, "exit \(result.status): \(result.stderr)")
    }
}
