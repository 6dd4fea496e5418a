import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EndToEnd {
    /// A section longer than `SectionParts.defaultWords` (2,000) is made in parts by fresh workers
    /// and joined: the bytes do not depend on `--jobs` or on an interruption.
    @Suite("Long sections in parts")
    struct LongSections {
        /// One chapter of about 4,600 words: three parts.
        static func book(_ scratch: Scratch) throws -> String {
            try Conversions.book(in: scratch, title: "One Long Night", chapters: 1, words: 4_600)
        }

        /// The `parts` of the section records of `directory` (manifest and journal), by section.
        static func recordedParts(_ directory: String) -> [Int: [[String: Any]]] {
            (Conversions.recordedSections(directory) ?? [:]).compactMapValues { $0["parts"] as? [[String: Any]] }
        }

        @Test("--jobs 1, --jobs 2 and kill -9 then a re-run give the same WAV bytes", .timeLimit(.minutes(5)))
        func wavAcrossJobsAndKill() async throws {
            let scratch = try Scratch("parts-wav")
            let book = try Self.book(scratch)
            let one = scratch.file("one").path
            let two = scratch.file("two").path
            let first = try await BinaryRunner.run(
                [book, "-o", one, "--jobs", "1", "--progress", "json"], timeout: 120)
            #expect(first.status == 0, "\(first.stderr)")
            let events = Conversions.events(first.stdout)
            #expect(events.filter { $0["event"] as? String == "section-started" }.count == 1)
            #expect(Conversions.sectionDone(events).count == 1)
            let progress = events.filter { $0["event"] as? String == "progress" }.compactMap { $0["wordsDone"] as? Int }
            #expect(progress == progress.sorted() && progress.count > 1, "progress rises as parts complete")
            let reference = Conversions.audio(one)
            #expect(reference.count == 1)
            let wav = try readWAV(try #require(reference.values.first))
            #expect(wav.sampleRate == 22_050)
            // About 4,600 words at 175 words a minute, pauses included.
            #expect(wav.seconds > 4_600.0 / 175 * 60 * 0.6 && wav.seconds < 4_600.0 / 175 * 60 * 1.6)

            #expect(try await BinaryRunner.run([book, "-o", two, "--jobs", "2"], timeout: 120).status == 0)
            #expect(Conversions.audio(two) == reference, "--jobs 2 differs from --jobs 1")
            #expect(!listing(two).contains { $0.hasPrefix(".epub2audio") }, "part files left: \(listing(two))")

            // Killed once a part is recorded and before the section is done; the re-run keeps that part.
            let killed = scratch.file("killed").path
            let running = try BinaryRunner.start([book, "-o", killed, "--jobs", "1", "--progress", "none"])
            let midSection = await running.waitUntil(timeout: 60) {
                !(Self.recordedParts(killed).values.first ?? []).isEmpty
            }
            try #require(midSection, "never saw a recorded part")
            let workers = BinaryRunner.descendants(of: running.pid)
            running.send(SIGKILL, toGroup: true)
            #expect(await running.result(timeout: 5).signalled)
            defer { for worker in workers { kill(worker, SIGKILL) } }
            let resumed = try await BinaryRunner.run(
                [book, "-o", killed, "--jobs", "2", "--progress", "json"], timeout: 120)
            #expect(resumed.status == 0, "\(resumed.stderr)")
            let again = Conversions.events(resumed.stdout).filter { $0["event"] as? String == "progress" }
            let firstDone = try #require(again.first?["wordsDone"] as? Int)
            #expect(firstDone > 0, "the recorded part is not made again")
            #expect(Conversions.audio(killed) == reference, "the resumed file differs from an uninterrupted run's")
            #expect(!listing(killed).contains { $0.hasPrefix(".epub2audio") })
            let record = try #require(try Conversions.manifestSections(killed).values.first)
            #expect(record["status"] as? String == "done" && record["parts"] == nil)
        }

        @Test("FLAC: --jobs 1 and --jobs 2 give the same bytes", .timeLimit(.minutes(5)))
        func flacAcrossJobs() async throws {
            let scratch = try Scratch("parts-flac")
            let book = try Self.book(scratch)
            let one = scratch.file("one").path
            let two = scratch.file("two").path
            #expect(try await BinaryRunner.run([book, "-o", one, "--jobs", "1", "--format", "flac"]).status == 0)
            #expect(try await BinaryRunner.run([book, "-o", two, "--jobs", "2", "--format", "flac"]).status == 0)
            let a = Conversions.audio(one, ext: "flac")
            #expect(a.count == 1)
            #expect(a == Conversions.audio(two, ext: "flac"))
        }
    }
}
