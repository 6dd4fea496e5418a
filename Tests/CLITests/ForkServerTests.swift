import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Sections made by children of the fork server (the default) against fresh worker processes.
extension EndToEnd {
    @Suite("Fork server")
    struct ForkServer {
        @Test("a forked child's audio equals a fresh process's for the same texts, in any order")
        func forkedEqualsFresh() async throws {
            let scratch = try Scratch("fork")
            // Sections of different lengths, so that --jobs 2 (longest first, two servers) makes them in
            // another order and mix than --jobs 1 does.
            let book = try Conversions.book(in: scratch, chapters: 5, words: 90)
            let fresh = scratch.file("fresh").path
            let forkedOne = scratch.file("forked-1").path
            let forkedTwo = scratch.file("forked-2").path
            let runs = [
                (fresh, ["--jobs", "1", "--fresh-workers"]), (forkedOne, ["--jobs", "1"]),
                (forkedTwo, ["--jobs", "2"]),
            ]
            for (out, options) in runs {
                let result = try await BinaryRunner.run([book, "-o", out, "--progress", "none"] + options, timeout: 90)
                #expect(result.status == 0, "\(options): \(result.stderr)")
            }
            let reference = Conversions.audio(fresh)
            #expect(reference.count == 5)
            for out in [forkedOne, forkedTwo] {
                let audio = Conversions.audio(out)
                #expect(audio.keys.sorted() == reference.keys.sorted())
                for (name, data) in reference {
                    #expect(audio[name] == data, "\(name) differs between a fresh worker and a forked one")
                }
            }
        }

        @Test("a forked child that dies is retried as a dead worker is, and the run completes")
        func deadChildIsRetried() async throws {
            let scratch = try Scratch("fork-death")
            // Long enough sections (a few tenths of a second each) that the child is killed mid-section.
            let book = try Conversions.book(in: scratch, chapters: 2, words: 1500)
            let out = scratch.file("out").path
            let running = try BinaryRunner.start([book, "-o", out, "--jobs", "1", "--progress", "plain"])
            // The server (child of the CLI) forks a child per section: kill the first one seen.
            var victim: pid_t?
            _ = await running.waitUntil(timeout: 30) {
                for server in BinaryRunner.descendants(of: running.pid) {
                    if let child = BinaryRunner.descendants(of: server).first {
                        victim = child
                        return true
                    }
                }
                return false
            }
            let child = try #require(victim, "never saw a forked child")
            kill(child, SIGKILL)
            let result = await running.result(timeout: 90)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("trying again"), "\(result.stderr)")
            #expect(Conversions.audio(out).count == 2)
            #expect(Conversions.partFiles(out).isEmpty)
        }
    }
}
