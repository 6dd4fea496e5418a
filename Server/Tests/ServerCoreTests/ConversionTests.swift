import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// Real conversions with espeak-ng, through the HTTP API, compared byte for byte with the CLI's.
///
/// They need the two binaries `make -C Server test` builds (`epub2audio-server` for the section
/// workers, `epub2audio` for the comparison).
@Suite(.serialized) struct ConversionTests {
    static let book = Paths.sample("the-lighthouse-keepers-daughter.epub")

    struct Setup {
        let folder: TemporaryFolder
        let context: ServiceContext
        let server: String
        let cli: String
    }

    static func setup(slots: Int, lease: TimeInterval = 30, runsWorkers: Bool = true) throws -> Setup {
        guard let server = Paths.serverBinary, let cli = Paths.cliBinary else {
            Issue.record(
                "epub2audio-server and epub2audio must be built next to the tests (make -C Server test builds them)")
            throw CancellationError()
        }
        let folder = try TemporaryFolder()
        var worker = WorkerConfiguration(executable: server, arguments: ["section-worker"], slots: slots)
        worker.lease = lease
        worker.heartbeat = lease / 4
        let context = ServiceContext(
            store: try SQLiteJobStore(path: folder.path + "/jobs.sqlite"), blobs: try DiskBlobStore(root: folder.path),
            worker: worker, runsWorkers: runsWorkers)
        return Setup(folder: folder, context: context, server: server, cli: cli)
    }

    /// The CLI's conversion of the sample with `arguments`, in a folder of its own.
    static func cliConversion(_ setup: Setup, _ arguments: [String]) throws -> String {
        let output = setup.folder.path + "/cli"
        _ = try runProcess(setup.cli, [book, "-o", output, "--progress", "none"] + arguments)
        return output
    }

    static func waitForJob(_ client: any TestClientProtocol, id: String, seconds: Double = 600) async throws
        -> [String: Any]
    {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let job = try await client.execute(uri: "/v1/jobs/\(id)", method: .get) { try APITests.json($0.body) }
            if let state = job["state"] as? String, ["succeeded", "failed", "cancelled"].contains(state) { return job }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("job \(id) did not finish in \(seconds) s")
        throw CancellationError()
    }

    /// Expects the job to have succeeded; if not, the failure shows its stored events (which
    /// section failed, and why).
    static func expectSucceeded(
        _ job: [String: Any], store: any JobEventLog, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard job["state"] as? String != "succeeded" else { return }
        let id = job["id"] as? String ?? ""
        let events = (try? await store.events(jobID: id, after: 0, limit: 1000)) ?? []
        let history = events.map { "\($0.type) \($0.data)" }.joined(separator: "\n")
        Issue.record(
            "job \(id) ended \(job["state"] ?? "?"), not succeeded:\n\(history)", sourceLocation: sourceLocation)
    }

    static func upload(_ client: any TestClientProtocol) async throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: book))
        let sha = sha256Hex(data)
        _ = try await client.execute(
            uri: "/v1/books/\(sha)", method: .put, headers: [.contentType: "application/epub+zip"],
            body: ByteBuffer(data: data))
        return sha
    }

    /// Every output of the job, downloaded, equals the CLI's file of the same name; the audio files
    /// are all there.
    static func expectSameAudio(_ client: any TestClientProtocol, job: [String: Any], cliOutput: String) async throws {
        let outputs = try #require(job["outputs"] as? [[String: Any]])
        let id = try #require(job["id"] as? String)
        let cliFiles = try FileManager.default.contentsOfDirectory(atPath: cliOutput).filter {
            $0.hasSuffix(".wav") || $0.hasSuffix(".flac") || $0 == "playlist.m3u"
        }
        #expect(!cliFiles.isEmpty)
        #expect(Set(outputs.compactMap { $0["name"] as? String }).isSuperset(of: cliFiles))
        for name in cliFiles.sorted() {
            let expected = try Data(contentsOf: URL(fileURLWithPath: cliOutput + "/" + name))
            let escaped = name.addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/")))!
            let downloaded = try await client.execute(uri: "/v1/jobs/\(id)/outputs/\(escaped)", method: .get) {
                Data(buffer: $0.body)
            }
            #expect(downloaded == expected, "\(name) differs from the CLI's")
            let listed = outputs.first { $0["name"] as? String == name }
            #expect(listed?["sha256"] as? String == sha256Hex(expected))
            #expect(listed?["size"] as? Int == expected.count)
        }
    }

    @Test func aJobMakesTheCLIsAudioByteForByte() async throws {
        let setup = try Self.setup(slots: 2)
        defer { setup.folder.remove() }
        let cliOutput = try Self.cliConversion(setup, [])
        let app = try ServerApplication.build(
            context: setup.context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        try await app.test(.live) { client in
            let sha = try await Self.upload(client)
            try await client.execute(
                uri: "/v1/jobs/book-a", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"book":"\#(sha)"}"#)
            ) { #expect($0.status == .created) }
            let job = try await Self.waitForJob(client, id: "book-a")
            await Self.expectSucceeded(job, store: setup.context.store)
            let sections = try #require(job["sections"] as? [String: Int])
            #expect(sections["total"] == sections["done"])
            #expect((job["audioSeconds"] as? Double ?? 0) > 60)
            try await Self.expectSameAudio(client, job: job, cliOutput: cliOutput)
            // Every event was stored and a stream from the start replays them all, ending with success.
            let text = try await client.execute(uri: "/v1/jobs/book-a/events", method: .get) { String(buffer: $0.body) }
            #expect(text.components(separatedBy: "event: section\n").count - 1 == sections["total"])
            #expect(text.hasSuffix("data: {\"audioSeconds\":\(job["audioSeconds"]!),\"state\":\"succeeded\"}\n\n"))
        }
    }

    /// A job with a neural voice makes the CLI's audio with it, byte for byte, and `GET /v1/voices` lists the
    /// voice beside espeak-ng's. The voices folder and the runtime are found from the environment, as the
    /// server's and its workers' (set here, in this serialized suite, before the server starts).
    @Test(.enabled(if: NeuralCache.usable, NeuralCache.skipReason))
    func aJobWithANeuralVoiceMakesTheCLIsAudio() async throws {
        let setup = try Self.setup(slots: 1)
        defer { setup.folder.remove() }
        let voices = setup.folder.path + "/voices"
        _ = try runProcess(setup.cli, ["voices", "add", NeuralCache.voiceModel, "--voices-dir", voices])
        setenv("EPUB2AUDIO_VOICES_DIR", voices, 1)
        setenv("EPUB2AUDIO_SHERPA_ONNX", NeuralCache.runtimeFolder, 1)
        defer {
            unsetenv("EPUB2AUDIO_VOICES_DIR")
            unsetenv("EPUB2AUDIO_SHERPA_ONNX")
        }
        let cliOutput = try Self.cliConversion(setup, ["--voice", "en_US-joe-medium", "--chapters", "13"])
        let app = try ServerApplication.build(
            context: setup.context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        try await app.test(.live) { client in
            try await client.execute(uri: "/v1/voices", method: .get) { response async throws in
                let listed = try #require(try APITests.json(response.body)["voices"] as? [[String: Any]])
                let neural = try #require(listed.first { $0["engine"] as? String == "neural" })
                #expect(neural["identifier"] as? String == "piper:en_US-joe-medium")
                #expect(neural["languages"] as? [String] == ["en-US"])
                #expect(neural["sampleRate"] as? Int == 22050 && neural["quality"] as? String == "medium")
                #expect(listed.filter { $0["engine"] as? String == "espeak" }.count > 100)
            }
            let sha = try await Self.upload(client)
            try await client.execute(
                uri: "/v1/jobs/neural", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"book":"\#(sha)","options":{"voice":"en_US-joe-medium","chapters":[13]}}"#)
            ) { #expect($0.status == .created) }
            let job = try await Self.waitForJob(client, id: "neural")
            await Self.expectSucceeded(job, store: setup.context.store)
            try await Self.expectSameAudio(client, job: job, cliOutput: cliOutput)
            // --engine neural with voice auto takes the same voice.
            try await client.execute(
                uri: "/v1/jobs/neural-auto", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"book":"\#(sha)","options":{"engine":"neural","chapters":[13]}}"#)
            ) { #expect($0.status == .created) }
            let auto = try await Self.waitForJob(client, id: "neural-auto")
            await Self.expectSucceeded(auto, store: setup.context.store)
            #expect((auto["options"] as? [String: Any])?["engine"] as? String == "neural")
            try await Self.expectSameAudio(client, job: auto, cliOutput: cliOutput)
        }
    }

    /// A job with a bundle in another format than the CLI's default makes the CLI's bundle, byte for
    /// byte: the same sections, title, narrator, language and cover (one policy for both).
    @Test func aJobBundlesAsTheCLIBundles() async throws {
        try #require(ConversionAdapter.ffmpegInstalled, "ffmpeg is needed for bundles")
        let setup = try Self.setup(slots: 2)
        defer { setup.folder.remove() }
        let cliOutput = try Self.cliConversion(setup, ["--format", "flac", "--bundle", "mp3"])
        let bundle = try #require(
            try FileManager.default.contentsOfDirectory(atPath: cliOutput).first { $0.hasSuffix(".mp3") })
        let app = try ServerApplication.build(
            context: setup.context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        try await app.test(.live) { client in
            let sha = try await Self.upload(client)
            try await client.execute(
                uri: "/v1/jobs/bundled", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"book":"\#(sha)","options":{"format":"flac","bundle":"mp3"}}"#)
            ) { #expect($0.status == .created) }
            let job = try await Self.waitForJob(client, id: "bundled")
            await Self.expectSucceeded(job, store: setup.context.store)
            try await Self.expectSameAudio(client, job: job, cliOutput: cliOutput)
            let escaped = try #require(
                bundle.addingPercentEncoding(
                    withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/"))))
            let downloaded = try await client.execute(uri: "/v1/jobs/bundled/outputs/\(escaped)", method: .get) {
                Data(buffer: $0.body)
            }
            #expect(downloaded == (try Data(contentsOf: URL(fileURLWithPath: cliOutput + "/" + bundle))))
        }
    }

    /// A job with subtitles lists a WebVTT file per section (named as its audio) and one for the whole
    /// book beside the bundle, each the CLI's byte for byte: the timing files go with the sections into
    /// the output folder, and the same policy writes them.
    @Test func aJobWritesTheCLIsSubtitles() async throws {
        try #require(ConversionAdapter.ffmpegInstalled, "ffmpeg is needed for bundles")
        let setup = try Self.setup(slots: 2)
        defer { setup.folder.remove() }
        let cliOutput = try Self.cliConversion(
            setup, ["--chapters", "3,4", "--subtitles", "vtt", "--subtitles-words", "--bundle", "opus"])
        let subtitles = try FileManager.default.contentsOfDirectory(atPath: cliOutput).filter { $0.hasSuffix(".vtt") }
        // Two sections and the book: the sections' timing files are written by the conversion.
        #expect(subtitles.count == 3, "\(subtitles)")
        let app = try ServerApplication.build(
            context: setup.context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        try await app.test(.live) { client in
            let sha = try await Self.upload(client)
            try await client.execute(
                uri: "/v1/jobs/subtitled", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(
                    string:
                        #"{"book":"\#(sha)","options":{"chapters":[3,4],"subtitles":"vtt","subtitlesWords":true,"bundle":"opus"}}"#
                )
            ) { #expect($0.status == .created) }
            let job = try await Self.waitForJob(client, id: "subtitled")
            await Self.expectSucceeded(job, store: setup.context.store)
            #expect((job["options"] as? [String: Any])?["subtitlesWords"] as? Bool == true)
            let outputs = try #require(job["outputs"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(!outputs.contains { $0.hasPrefix(".") }, "a timing file is not an output: \(outputs)")
            for name in subtitles.sorted() {
                #expect(outputs.contains(name), "\(name) is not among \(outputs)")
                let escaped = try #require(
                    name.addingPercentEncoding(
                        withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/"))))
                let downloaded = try await client.execute(uri: "/v1/jobs/subtitled/outputs/\(escaped)", method: .get) {
                    Data(buffer: $0.body)
                }
                #expect(downloaded == (try Data(contentsOf: URL(fileURLWithPath: cliOutput + "/" + name))))
            }
        }
    }

    /// A job with `bundle: epub` (MP3 sections by default, as the CLI) lists the read-along book among
    /// its outputs, and that book is the CLI's for the same options: the same entries, each the same
    /// bytes (SMIL, content documents, audio), the package document's `dcterms:modified` aside.
    @Test func aJobMakesTheCLIsReadAlongBook() async throws {
        let setup = try Self.setup(slots: 2)
        defer { setup.folder.remove() }
        let cliOutput = try Self.cliConversion(setup, ["--chapters", "3,4", "--bundle", "epub"])
        let book = try #require(
            try FileManager.default.contentsOfDirectory(atPath: cliOutput).first { $0.hasSuffix("(read-along).epub") })
        let app = try ServerApplication.build(
            context: setup.context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        try await app.test(.live) { client in
            let sha = try await Self.upload(client)
            try await client.execute(
                uri: "/v1/jobs/read-along", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"book":"\#(sha)","options":{"chapters":[3,4],"bundle":"epub"}}"#)
            ) { #expect($0.status == .created) }
            let job = try await Self.waitForJob(client, id: "read-along")
            await Self.expectSucceeded(job, store: setup.context.store)
            #expect((job["options"] as? [String: Any])?["format"] as? String == "mp3")
            let outputs = try #require(job["outputs"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(outputs.contains(book), "\(book) is not among \(outputs)")
            let escaped = try #require(
                book.addingPercentEncoding(
                    withAllowedCharacters: .urlPathAllowed.subtracting(.init(charactersIn: "/"))))
            let downloaded = try await client.execute(uri: "/v1/jobs/read-along/outputs/\(escaped)", method: .get) {
                Data(buffer: $0.body)
            }
            let served = setup.folder.path + "/served.epub"
            try downloaded.write(to: URL(fileURLWithPath: served))
            let expected = try Self.entries(of: cliOutput + "/" + book)
            let made = try Self.entries(of: served)
            #expect(made.map(\.name) == expected.map(\.name))
            #expect(expected.contains { $0.name.hasSuffix(".smil") })
            for (mine, theirs) in zip(made, expected) where mine.name == theirs.name {
                #expect(mine.data == theirs.data, "\(mine.name) differs from the CLI's")
            }
        }
    }

    /// The entries of the EPUB at `path` in their order, each's bytes, with the package document's
    /// `dcterms:modified` (the time the book was made) masked.
    static func entries(of path: String) throws -> [(name: String, data: Data)] {
        let names = String(decoding: try runProcess("/usr/bin/unzip", ["-Z1", path]), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        return try names.map { name in
            var data = try runProcess("/usr/bin/unzip", ["-p", path, name])
            if name.hasSuffix(".opf") {
                let text = String(decoding: data, as: UTF8.self).replacing(
                    #/<meta property="dcterms:modified">[^<]*</meta>/#, with: "<meta property=\"dcterms:modified\"/>")
                data = Data(text.utf8)
            }
            return (name, data)
        }
    }

    @Test func aWorkerKilledMidSectionLosesNothing() async throws {
        // Workers with a short lease: a killed one's task is taken again two seconds later.
        let setup = try Self.setup(slots: 1, lease: 2, runsWorkers: false)
        defer { setup.folder.remove() }
        let options = ["--chapters", "3,4", "--format", "flac"]
        let cliOutput = try Self.cliConversion(setup, options)
        let app = try ServerApplication.build(
            context: setup.context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        try await app.test(.live) { client in
            let sha = try await Self.upload(client)
            try await client.execute(
                uri: "/v1/jobs/killed", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"book":"\#(sha)","options":{"chapters":[3,4],"format":"flac"}}"#)
            ) { #expect($0.status == .created) }
            // A worker process of its own on the same data folder, killed with SIGKILL mid-section.
            let worker = Process()
            worker.executableURL = URL(fileURLWithPath: setup.server)
            worker.arguments = ["worker", "--data", setup.folder.path, "--slots", "1", "--lease", "2"]
            worker.standardError = FileHandle.nullDevice
            try worker.run()
            let deadline = Date().addingTimeInterval(120)
            var sawRunning = false
            while Date() < deadline {
                let job = try await setup.context.store.job(id: "killed")
                if let job, job.sections.running > 0 {
                    sawRunning = true
                    break
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(sawRunning)
            kill(worker.processIdentifier, SIGKILL)
            worker.waitUntilExit()
            #expect(try await setup.context.store.job(id: "killed")?.state == .running)
            // Another worker takes over once the lease has expired.
            let runner = TaskRunner(
                store: setup.context.store, blobs: setup.context.blobs, configuration: setup.context.worker,
                logger: Logger(label: "test"))
            let running = Task { await runner.run() }
            defer { running.cancel() }
            let job = try await Self.waitForJob(client, id: "killed", seconds: 300)
            await Self.expectSucceeded(job, store: setup.context.store)
            let events = try await setup.context.store.events(jobID: "killed", after: 0, limit: 1000)
            #expect(events.contains { $0.type == "retry" })
            try await Self.expectSameAudio(client, job: job, cliOutput: cliOutput)
        }
    }

    @Test func aGracefulShutdownFinishesRunningSectionsAndARestartGoesOn() async throws {
        let setup = try Self.setup(slots: 2, runsWorkers: false)
        defer { setup.folder.remove() }
        let cliOutput = try Self.cliConversion(setup, ["--format", "flac"])
        let app = try ServerApplication.build(
            context: setup.context, host: "127.0.0.1", port: 0, limits: ServiceLimits(), logger: Logger(label: "test"))
        try await app.test(.live) { client in
            let sha = try await Self.upload(client)
            try await client.execute(
                uri: "/v1/jobs/restart", method: .put, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"book":"\#(sha)","options":{"format":"flac"}}"#)
            ) { #expect($0.status == .created) }
            let first = TaskRunner(
                store: setup.context.store, blobs: setup.context.blobs, configuration: setup.context.worker,
                logger: Logger(label: "test"))
            let running = Task { await first.run() }
            var sawRunning = false
            for _ in 0..<6000 {
                if let job = try await setup.context.store.job(id: "restart"), job.sections.running > 0 {
                    sawRunning = true
                    break
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(sawRunning)
            // Shutdown: the runner returns once the sections it was making are made and recorded.
            running.cancel()
            await running.value
            let stopped = try #require(try await setup.context.store.job(id: "restart"))
            #expect(stopped.sections.running == 0)
            #expect(stopped.sections.done > 0)
            #expect(stopped.state == .running)
            // A new process (a new store on the same database) finishes the job.
            let reopened = try SQLiteJobStore(path: setup.folder.path + "/jobs.sqlite")
            let second = TaskRunner(
                store: reopened, blobs: setup.context.blobs, configuration: setup.context.worker,
                logger: Logger(label: "test"))
            let again = Task { await second.run() }
            defer { again.cancel() }
            let job = try await Self.waitForJob(client, id: "restart", seconds: 300)
            await Self.expectSucceeded(job, store: reopened)
            let events = try await reopened.events(jobID: "restart", after: 0, limit: 1000)
            #expect(!events.contains { $0.type == "retry" })
            try await Self.expectSameAudio(client, job: job, cliOutput: cliOutput)
        }
    }
}
