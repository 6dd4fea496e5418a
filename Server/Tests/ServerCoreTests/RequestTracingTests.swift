import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import ServerCore

/// Lines a `JSONLogHandler` wrote, for tests to read.
final class CapturedLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }

    /// Each line as a JSON object.
    func objects() throws -> [[String: Any]] {
        try all.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// A logger writing JSON lines here, with the request's id from the task-local trace.
    func logger(label: String = "test") -> Logger {
        Logger(label: label) { label in
            var handler = JSONLogHandler(label: label, metadataProvider: RequestTrace.metadataProvider) {
                self.append($0)
            }
            handler.logLevel = .debug
            return handler
        }
    }
}

/// Request ids (`X-Request-Id` in and out, in every JSON error), the access log, JSON log lines.
@Suite struct RequestTracingTests {
    let folder: TemporaryFolder
    let context: ServiceContext

    init() throws {
        folder = try TemporaryFolder()
        context = ServiceContext(
            store: try SQLiteJobStore(path: folder.path + "/jobs.sqlite"), blobs: try DiskBlobStore(root: folder.path),
            worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
    }

    func withServer(
        limits: ServiceLimits = ServiceLimits(), logger: Logger,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let router = try ServerApplication.router(context: context, limits: limits, logger: logger)
        try await Application(router: router).test(.live, body)
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer: buffer)) as? [String: Any])
    }

    static func isUUID(_ text: String?) -> Bool {
        guard let text else { return false }
        return UUID(uuidString: text) != nil && text == text.lowercased()
    }

    @Test func everyResponseHasAnIdAndErrorsRepeatIt() async throws {
        defer { folder.remove() }
        let lines = CapturedLines()
        try await withServer(logger: lines.logger()) { client in
            // None sent: one is made.
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(Self.isUUID(response.headers[RequestTrace.header]))
            }
            // A sane one is kept, and the error body names it.
            try await client.execute(
                uri: "/v1/jobs/no-such-job", method: .get, headers: [RequestTrace.header: "trace-0af7651916cd43dd:1"]
            ) { response async throws in
                #expect(response.status == .notFound)
                #expect(response.headers[RequestTrace.header] == "trace-0af7651916cd43dd:1")
                let error = try Self.json(response.body)
                #expect(error["error"] as? String == "not-found")
                #expect(error["requestId"] as? String == "trace-0af7651916cd43dd:1")
            }
            // Errors made outside the handlers (no route) carry it too.
            try await client.execute(uri: "/no/such/route", method: .get) { response async throws in
                #expect(response.status == .notFound)
                let id = try #require(response.headers[RequestTrace.header])
                #expect(try Self.json(response.body)["requestId"] as? String == id)
            }
            // Too long, or with characters that could forge a log line: replaced.
            for bad in [String(repeating: "a", count: RequestTrace.maxIDLength + 1), "a b", "x\"y", "é"] {
                try await client.execute(uri: "/healthz", method: .get, headers: [RequestTrace.header: bad]) {
                    response in
                    #expect(Self.isUUID(response.headers[RequestTrace.header]), "\(bad)")
                }
            }
            try await client.execute(
                uri: "/healthz", method: .get,
                headers: [RequestTrace.header: String(repeating: "a", count: RequestTrace.maxIDLength)]
            ) { response in
                #expect(response.headers[RequestTrace.header]?.count == RequestTrace.maxIDLength)
            }
        }
    }

    @Test func oneAccessLogLinePerRequestWithoutQueryOrSecret() async throws {
        defer { folder.remove() }
        let secret = TokenSecret.generate()
        try await context.store.addToken(
            Token(name: "alice", maxRunning: 1, maxQueued: 1), secretSHA256: TokenSecret.sha256(secret), now: Date())
        let lines = CapturedLines()
        try await withServer(limits: ServiceLimits(requireTokens: true), logger: lines.logger()) { client in
            try await client.execute(
                uri: "/v1/jobs?limit=5&secret=hunter2", method: .get,
                headers: [.authorization: "Bearer " + secret, RequestTrace.header: "req-1"]
            ) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/jobs", method: .get, headers: [RequestTrace.header: "req-2"]) {
                #expect($0.status == .unauthorized)
            }
        }
        let records = try lines.objects()
        let access = records.filter { ($0["metadata"] as? [String: Any])?["path"] != nil }
        try #require(access.count == 2)
        let first = try #require(access[0]["metadata"] as? [String: Any])
        #expect(access[0]["level"] as? String == "info")
        #expect(access[0]["label"] as? String == "test")
        #expect(first["method"] as? String == "GET")
        #expect(first["path"] as? String == "/v1/jobs")
        #expect(first["status"] as? Int == 200)
        #expect((first["duration_ms"] as? Double).map { $0 >= 0 } == true)
        #expect(first["request_id"] as? String == "req-1")
        #expect(first["token"] as? String == "alice")
        let second = try #require(access[1]["metadata"] as? [String: Any])
        #expect(second["status"] as? Int == 401)
        #expect(second["request_id"] as? String == "req-2")
        #expect(second["token"] == nil)
        for line in lines.all {
            #expect(!line.contains(secret) && !line.contains("hunter2") && !line.contains("limit=5"))
        }
    }

    @Test func aJSONLineHoldsOneRecordWithItsMetadata() throws {
        let time = Date(timeIntervalSince1970: 1_795_000_000.25)
        let line = JSONLogHandler.line(
            time: time, level: .warning, label: "epub2audio-server", message: "two\nlines \"quoted\" \u{1}",
            [
                "status": .stringConvertible(503), "ratio": .stringConvertible(0.5), "tags": .array([.string("a")]),
                "nested": .dictionary(["ok": .stringConvertible(true)]),
            ])
        #expect(line.hasSuffix("}\n"))
        #expect(line.filter { $0 == "\n" }.count == 1)
        #expect(line.hasPrefix(#"{"time":"2026-11-18T11:06:40.25"#))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["label"] as? String == "epub2audio-server")
        #expect(object["message"] as? String == "two\nlines \"quoted\" \u{1}")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["status"] as? Int == 503)
        #expect(metadata["ratio"] as? Double == 0.5)
        #expect(metadata["tags"] as? [String] == ["a"])
        #expect((metadata["nested"] as? [String: Any])?["ok"] as? Bool == true)
        // Without metadata, no metadata key.
        let bare = JSONLogHandler.line(time: time, level: .info, label: "l", message: "m", [:])
        #expect(!bare.contains("metadata"))
    }

    @Test func theProviderAddsTheRequestToEveryLineWrittenDuringIt() async throws {
        let lines = CapturedLines()
        let logger = lines.logger()
        let trace = RequestTrace(id: "abc")
        trace.tokenName = "bob"
        RequestTrace.$current.withValue(trace) { logger.warning("inside") }
        logger.warning("outside")
        let records = try lines.objects()
        try #require(records.count == 2)
        #expect((records[0]["metadata"] as? [String: Any])?["request_id"] as? String == "abc")
        #expect((records[0]["metadata"] as? [String: Any])?["token"] as? String == "bob")
        #expect(records[1]["metadata"] == nil)
    }
}
