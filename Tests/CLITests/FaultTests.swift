import Foundation
import Testing

/// Faults from outside: a file-size limit that fills "the disk" mid-run, an input that disappears.
@Suite("Faults", .serialized)
struct FaultTests {
    static let sample = BinaryRunner.packageRoot.appendingPathComponent("samples/the-lighthouse-keepers-daughter.epub")

    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("e2a-fault-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs `command` through /bin/sh (for `ulimit`), returning the exit status and standard error.
    static func shell(_ command: String) throws -> (Int32, String) {
        try runShell(command)
    }

    static func manifest(in folder: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a file-size limit mid-run: exit 5, one clear line, a consistent manifest, no partial files")
    func fileSizeLimit() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        // 1.5 MB: the first (longest) chapters need more, so the limit strikes while writing audio.
        let (status, errors) = try Self.shell(
            "ulimit -f 3000; exec '\(BinaryRunner.binary)' '\(Self.sample.path)' -o '\(out.path)' -q --jobs 1")
        #expect(status == 5, "\(errors)")
        let errorLines = errors.split(separator: "\n").filter { $0.hasPrefix("error:") }
        #expect(errorLines.count == 1)
        #expect(errors.contains("size limit") || errors.contains("disk is full"), "\(errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(!names.contains { $0.hasSuffix(".part") }, "\(names)")
        let sections = try #require(try Self.manifest(in: out)["sections"] as? [[String: Any]])
        #expect(!sections.contains { ($0["status"] as? String) == "in-progress" })
        // Whatever is recorded as done is complete on disk.
        for section in sections where (section["status"] as? String) == "done" {
            let file = try #require(section["file"] as? String)
            let size = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(file).path)[.size]
            #expect((size as? NSNumber)?.int64Value == (section["bytes"] as? NSNumber)?.int64Value)
        }
        // Without the limit the same command finishes the job.
        let (again, againErrors) = try Self.shell(
            "exec '\(BinaryRunner.binary)' '\(Self.sample.path)' -o '\(out.path)' -q --chapters 8,11")
        #expect(again == 0, "\(againErrors)")
    }

    @Test("the book disappearing mid-run ends cleanly: converted from the open file, or one clear error")
    func inputDisappears() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("book.epub")
        try FileManager.default.copyItem(at: Self.sample, to: book)
        let out = folder.appendingPathComponent("out")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BinaryRunner.binary)
        process.arguments = [book.path, "-o", out.path, "-q", "--jobs", "1"]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.json").path),
            Date() < deadline, process.isRunning
        {
            usleep(10_000)
        }
        try FileManager.default.removeItem(at: book)
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationStatus
        #expect(status == 0 || status == 3, "\(String(decoding: data, as: UTF8.self))")
        let sections = try #require(try Self.manifest(in: out)["sections"] as? [[String: Any]])
        #expect(!sections.contains { ($0["status"] as? String) == "in-progress" })
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path)
        #expect(!names.contains { $0.hasSuffix(".part") })
    }
}
