import Foundation
import TestSupport
import Testing

/// The output's size, estimated before converting (`--list`, the free-space check), against the
/// bytes a conversion writes.
extension EndToEnd {
    @Suite("The output's size, estimated")
    struct OutputEstimates {
        static let books = [ListTests.treatise, ListTests.lighthouse]

        /// Bytes of the files with extension `ext` anywhere under `directory`.
        static func bytesWritten(_ directory: String, ext: String) -> Int {
            tree(directory).filter { $0.hasSuffix("." + ext) }.reduce(0) {
                $0 + (bytes(directory + "/" + $1)?.count ?? 0)
            }
        }

        @Test("within 15% of the bytes the sample books are converted to", arguments: ["wav", "flac", "mp3"])
        func estimateAgainstBytes(format: String) async throws {
            let listed = try await BinaryRunner.run(["--list", "--json", "--format", format] + Self.books)
            #expect(listed.status == 0, "\(listed.stderr)")
            let listings = try #require(
                try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let estimated = listings.compactMap { ($0["estimate"] as? [String: Any])?["sectionBytes"] as? Int }
            #expect(estimated.count == 2)
            #expect(listings.allSatisfy { ($0["estimate"] as? [String: Any])?["format"] as? String == format })

            let scratch = try Scratch("estimate-\(format)")
            let out = scratch.file("out").path
            let converted = try await BinaryRunner.run(
                Self.books + ["-o", out, "--format", format, "--progress", "none"], timeout: 120)
            #expect(converted.status == 0, "\(converted.stderr)")
            let written = Self.bytesWritten(out, ext: format)
            let total = estimated.reduce(0, +)
            let error = Double(total - written) / Double(written)
            #expect(abs(error) < 0.15, "estimated \(total) bytes, wrote \(written) (\(Int(error * 100))%)")
        }

        /// Books of one short page each, whose audio is mostly what the words alone miss: the spoken
        /// title, numbers spoken as words, the pauses after the title and between lines of verse.
        static let onePageBooks: [SmallEPUB] = [
            SmallEPUB(entries: [.init(title: "Loomings", body: "<h1>Loomings</h1><p>Call me Ishmael.</p>")]),
            SmallEPUB(entries: [
                .init(title: "Dates", body: "<h1>Dates</h1><p>From 1841 to 1863, and then 1907.</p>")
            ]),
            SmallEPUB(entries: [
                .init(
                    title: "Song",
                    body: "<h1>Song</h1><div class=\"poem\"><p>The sea is calm,<br/>the night is still,"
                        + "<br/>the lamp is lit<br/>upon the hill.</p></div>")
            ]),
        ]

        @Test("within 15% for books of one short page, mostly pauses", arguments: ["wav", "flac", "mp3"])
        func onePageEstimates(format: String) async throws {
            let scratch = try Scratch("estimate-page-\(format)")
            for (index, book) in Self.onePageBooks.enumerated() {
                let folder = scratch.file("book\(index)").path
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let path = try book.write(into: folder)
                let listed = try await BinaryRunner.run([path, "--list", "--json", "--format", format])
                let listing = try #require(
                    try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
                let estimated = try #require((listing["estimate"] as? [String: Any])?["sectionBytes"] as? Int)
                let out = folder + "/out"
                let converted = try await BinaryRunner.run([path, "-o", out, "--format", format, "--progress", "none"])
                #expect(converted.status == 0, "\(converted.stderr)")
                let written = Self.bytesWritten(out, ext: format)
                let error = Double(estimated - written) / Double(written)
                #expect(abs(error) < 0.15, "book \(index): estimated \(estimated) bytes, wrote \(written)")
            }
        }

        @Test("--list of several books ends with their words, audio and size, and the totals, numbers right-aligned")
        func batchTable() async throws {
            let result = try await BinaryRunner.run(["--list", "--format", "mp3"] + Self.books)
            #expect(result.status == 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            let header = try #require(lines.lastIndex { $0.contains("words") && $0.hasSuffix("book") })
            let rows = Array(lines[(header + 1)...])
            #expect(rows.count == 3)
            #expect(rows.last?.hasSuffix("total (2 books)") == true, "\(rows)")
            // Right-aligned: the size column ends at the same place on every line.
            let ends = ([lines[header]] + rows).map { $0.range(of: "B  ")?.lowerBound.utf16Offset(in: $0) }
            #expect(Set(ends.dropFirst()).count == 1, "\(lines[header...])")
            // Each book's listing says what it would write.
            #expect(lines.filter { $0.hasPrefix("writing about ") && $0.hasSuffix(" as mp3") }.count == 2)
        }
    }
}
