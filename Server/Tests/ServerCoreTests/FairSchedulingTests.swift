import Foundation
import Logging
import Testing

@testable import ServerCore

/// Fair scheduling with real conversions: a one-section job submitted while a long job runs is made
/// in turn with the long job's sections, not after them.
@Suite(.serialized) struct FairSchedulingTests {
    /// Writes an EPUB 3 of `count` short chapters (two sentences each) to `path`.
    static func writeBook(chapters count: Int, to path: String) throws {
        _ = try runProcess("/usr/bin/env", ["python3", "-c", bookScript, path, String(count)])
    }

    static let bookScript = """
        import sys, zipfile
        out, count = sys.argv[1], int(sys.argv[2])
        ns = 'xmlns="http://www.w3.org/1999/xhtml"'
        with zipfile.ZipFile(out, "w") as z:
            z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
            z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" '
                'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile '
                'full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
            chapters = range(1, count + 1)
            items = "".join(f'<item id="c{i}" href="c{i}.xhtml" media-type="application/xhtml+xml"/>' for i in chapters)
            spine = "".join(f'<itemref idref="c{i}"/>' for i in chapters)
            z.writestr("OEBPS/content.opf", '<?xml version="1.0" encoding="UTF-8"?><package '
                'xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata '
                'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:test:short-chapters'
                '</dc:identifier><dc:title>Short Chapters</dc:title><dc:language>en</dc:language><meta '
                'property="dcterms:modified">2024-01-01T00:00:00Z</meta></metadata><manifest><item id="nav" '
                f'href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>{items}</manifest>'
                f'<spine>{spine}</spine></package>')
            links = "".join(f'<li><a href="c{i}.xhtml">Chapter {i}</a></li>' for i in chapters)
            z.writestr("OEBPS/nav.xhtml", f'<?xml version="1.0" encoding="UTF-8"?><html {ns} '
                'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body>'
                f'<nav epub:type="toc"><ol>{links}</ol></nav></body></html>')
            for i in chapters:
                z.writestr(f"OEBPS/c{i}.xhtml", f'<?xml version="1.0" encoding="UTF-8"?><html {ns}><head>'
                    f'<title>Chapter {i}</title></head><body><h1>Chapter {i}</h1><p>The keeper climbed the '
                    f'stairs at dusk and lit the lamp for the ships that passed.</p><p>The sea was calm, and '
                    'the night was long.</p></body></html>')
        """

    @Test func aOneSectionJobIsNotMadeToWaitForALongJob() async throws {
        let server = try #require(Paths.serverBinary, "make -C Server test builds epub2audio-server")
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path + "/short-chapters.epub"
        try Self.writeBook(chapters: 24, to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let sha = sha256Hex(bytes)
        let blobs = try DiskBlobStore(root: folder.path)
        _ = try await blobs.putBook(
            sha256: sha,
            body: AsyncStream {
                $0.yield(Array(bytes)); $0.finish()
            }, limit: 1 << 30)
        let store = try SQLiteJobStore(path: folder.path + "/jobs.sqlite")
        _ = try await store.addBook(sha256: sha, size: Int64(bytes.count))
        let runner = TaskRunner(
            store: store, blobs: blobs,
            configuration: WorkerConfiguration(executable: server, arguments: ["section-worker"], slots: 2),
            logger: Logger(label: "test"))
        let (short, long, sectionSeconds) = try await RetryTests.running(runner) {
            () async throws -> (JobRecord, JobRecord, Double) in
            _ = try await store.createJob(
                NewJob(id: "long", book: sha, options: JobOptions(chapters: Array(1...24))), now: Date())
            // The long job is under way: both slots busy with its sections.
            let started = ContinuousClock.now
            let running = try await RetryTests.wait(store, id: "long", seconds: 60) { $0.sections.done >= 2 }
            let sectionSeconds = started.duration(to: .now) / .seconds(1) / Double(running.sections.done)
            _ = try await store.createJob(
                NewJob(id: "short", book: sha, options: JobOptions(chapters: [5])), now: Date())
            let short = try await RetryTests.wait(store, id: "short", seconds: 60) { $0.state.isTerminal }
            let long = try #require(try await store.job(id: "long"))
            return (short, long, sectionSeconds)
        }
        #expect(short.state == .succeeded)
        // With one queue for all, the short job's plan and section would wait for every one of the
        // long job's sections; in turns, it is done while most of them still wait.
        #expect(
            long.state == .running && long.sections.queued >= 10,
            "long job: \(long.sections), \(sectionSeconds) s a section")
        let latency = short.updated.timeIntervalSince(short.created)
        print(
            "FairSchedulingTests: one-section job done in \(latency) s under a 24-section job (\(sectionSeconds) s a section)"
        )
    }
}
