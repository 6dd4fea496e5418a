import Foundation
import Testing

/// `epub2audio ... | head`: when the reader of our output goes away, stop quietly as a Unix tool does.
extension EndToEnd {
    @Suite("A reader that goes away (| head)")
    struct BrokenPipe {
        /// Runs `pipeline` with bash; epub2audio's exit status (PIPESTATUS[0]) and everything on stderr.
        static func pipeline(_ pipeline: String) throws -> (status: Int32, stderr: String) {
            try runShell(pipeline + "; exit ${PIPESTATUS[0]}", shell: "/bin/bash")
        }

        static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

        @Test("--progress json | head: killed by SIGPIPE without a word, a consistent folder, a re-run completes")
        func progressIntoHead() async throws {
            let scratch = try Scratch("pipe")
            // Enough sections that events keep coming long after head has read its two lines.
            let book = try Conversions.book(in: scratch, chapters: 30, words: 30)
            let out = scratch.file("out").path
            let command = [BinaryRunner.binary, book, "-o", out, "--jobs", "2", "--progress", "json"]
                .map(Self.quoted).joined(separator: " ")
            let (status, stderr) = try Self.pipeline(command + " | head -n 2")
            #expect(status == 128 + SIGPIPE, "exit \(status): \(stderr)")
            #expect(stderr.isEmpty, "\(stderr)")
            // Stopped as after Ctrl-C: no .part files, no journal left, nothing in progress.
            #expect(Conversions.partFiles(out).isEmpty, "\(listing(out))")
            #expect(!listing(out).contains("manifest.journal"), "\(listing(out))")
            let statuses = try #require(Conversions.statuses(out))
            #expect(!statuses.values.contains("in-progress"))
            #expect(statuses.values.contains("pending"), "the run should have stopped early: \(statuses)")

            let rerun = try await BinaryRunner.run([book, "-o", out, "--jobs", "2", "--progress", "none"], timeout: 90)
            #expect(rerun.status == 0, "\(rerun.stderr)")
            #expect(Conversions.audio(out).count == 30)
        }

        @Test("--list | head: the same quiet end")
        func listIntoHead() throws {
            let scratch = try Scratch("pipe-list")
            let book = try Conversions.book(in: scratch, chapters: 300, words: 5)
            let (status, stderr) = try Self.pipeline(
                [BinaryRunner.binary, "--list", book].map(Self.quoted).joined(separator: " ") + " | head -n 1")
            // head may exit before or after the index is written whole: quiet either way.
            #expect(status == 0 || status == 128 + SIGPIPE, "exit \(status): \(stderr)")
            #expect(stderr.isEmpty, "\(stderr)")
        }
    }
}
