import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// `/metrics`: requests counted and timed by method, route template and status; behind a token
/// with `--auth`.
@Suite struct HTTPMetricsTests {
    func withServer(
        requireTokens: Bool = false, tokens: [String: String] = [:],
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let context = ServiceContext(
            store: try SQLiteJobStore(path: folder.path + "/jobs.sqlite"), blobs: try DiskBlobStore(root: folder.path),
            worker: WorkerConfiguration(executable: "/nonexistent", arguments: [], slots: 1), runsWorkers: false)
        for (name, secret) in tokens {
            try await context.store.addToken(
                Token(name: name, maxRunning: 1, maxQueued: 1), secretSHA256: TokenSecret.sha256(secret), now: Date())
        }
        let router = try ServerApplication.router(
            context: context, limits: ServiceLimits(requireTokens: requireTokens), logger: Logger(label: "test"))
        try await Application(router: router).test(.live, body)
    }

    static func scrape(_ client: any TestClientProtocol, headers: HTTPFields = [:]) async throws -> String {
        try await client.execute(uri: "/metrics", method: .get, headers: headers) { response in
            #expect(response.status == .ok)
            return String(buffer: response.body)
        }
    }

    @Test func requestsAreCountedByRouteTemplateAndStatus() async throws {
        try await withServer { client in
            for id in ["first", "second", "third"] {
                try await client.execute(uri: "/v1/jobs/\(id)", method: .get) { #expect($0.status == .notFound) }
            }
            try await client.execute(uri: "/v1/jobs/bad%20id", method: .get) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/v1/jobs/first", method: .head) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/no/such/route", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/healthz", method: .post) { #expect($0.status == .methodNotAllowed) }
            let text = try await Self.scrape(client)
            let job = #"method="GET",route="/v1/jobs/{id}""#
            #expect(text.contains(#"epub2audio_http_requests_total{\#(job),code="404"} 3"#))
            #expect(text.contains(#"epub2audio_http_requests_total{\#(job),code="400"} 1"#))
            #expect(text.contains(#"epub2audio_http_requests_total{method="HEAD",route="/v1/jobs/{id}",code="404"} 1"#))
            #expect(text.contains(#"epub2audio_http_requests_total{method="GET",route="unmatched",code="404"} 1"#))
            #expect(text.contains(#"epub2audio_http_requests_total{method="POST",route="unmatched",code="405"} 1"#))
            // A duration histogram per series, every request in its count.
            #expect(text.contains(#"epub2audio_http_request_duration_seconds_count{\#(job),code="404"} 3"#))
            #expect(text.contains(#"epub2audio_http_request_duration_seconds_bucket{\#(job),code="404",le="10.0"} 3"#))
            // Never the path a client asked for.
            #expect(!text.contains("first") && !text.contains("no/such"))
        }
    }

    @Test func withAuthMetricsNeedAToken() async throws {
        let secret = TokenSecret.generate()
        try await withServer(requireTokens: true, tokens: ["prometheus": secret]) { client in
            try await client.execute(uri: "/metrics", method: .get) { response async throws in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
            }
            try await client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer nope"]) {
                #expect($0.status == .unauthorized)
            }
            let text = try await Self.scrape(client, headers: [.authorization: "Bearer " + secret])
            #expect(text.contains(#"route="/metrics",code="401"} 2"#))
            // Liveness and readiness stay open.
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/readyz", method: .get) { #expect($0.status == .ok) }
        }
    }
}
