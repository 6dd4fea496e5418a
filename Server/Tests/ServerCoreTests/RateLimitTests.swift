import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import ServerCore

/// `--rate-limit`: token buckets per token (or client address); 429 with Retry-After past the rate.
@Suite struct RateLimitTests {
    @Test func aBucketHoldsOneSecondsWorthAndRefillsAtTheRate() {
        let limiter = RateLimiter(rate: 2)
        #expect(limiter.take("a", at: 0) == nil)
        #expect(limiter.take("a", at: 0) == nil)
        #expect(limiter.take("a", at: 0) == 1)
        // Another key has a bucket of its own.
        #expect(limiter.take("b", at: 0) == nil)
        // Half a second later, one more.
        #expect(limiter.take("a", at: 0.5) == nil)
        #expect(limiter.take("a", at: 0.5) == 1)
        // Idle, it refills to its burst and no more.
        #expect(limiter.take("a", at: 100) == nil)
        #expect(limiter.take("a", at: 100) == nil)
        #expect(limiter.take("a", at: 100) == 1)
    }

    @Test func aSlowRateSaysHowLongToWait() {
        let limiter = RateLimiter(rate: 0.25)
        #expect(limiter.burst == 1)
        #expect(limiter.take("a", at: 0) == nil)
        #expect(limiter.take("a", at: 0) == 4)
        #expect(limiter.take("a", at: 3) == 1)
        #expect(limiter.take("a", at: 4) == nil)
    }

    @Test func theKeysKeptAreBounded() {
        let limiter = RateLimiter(rate: 1)
        for index in 0..<RateLimiter.maxKeys { _ = limiter.take("address \(index)", at: 0) }
        #expect(limiter.keys == RateLimiter.maxKeys)
        // Later, the idle keys are forgotten to make room.
        #expect(limiter.take("new", at: 10) == nil)
        #expect(limiter.keys == 1)
    }

    func withServer(
        limits: ServiceLimits, tokens: [String: String] = [:],
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
        let router = try ServerApplication.router(context: context, limits: limits, logger: Logger(label: "test"))
        try await Application(router: router).test(.live, body)
    }

    /// At 0.1 a second a token has one request, then waits up to 10 s: the test does not depend on
    /// how fast the machine is.
    @Test func aTokenOverItsRateGets429AndOthersDoNot() async throws {
        let (alice, bob) = (TokenSecret.generate(), TokenSecret.generate())
        try await withServer(
            limits: ServiceLimits(requireTokens: true, rateLimit: 0.1), tokens: ["alice": alice, "bob": bob]
        ) { client in
            let asAlice: HTTPFields = [.authorization: "Bearer " + alice]
            try await client.execute(uri: "/v1/jobs", method: .get, headers: asAlice) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/jobs/x", method: .get, headers: asAlice) { response async throws in
                #expect(response.status == .tooManyRequests)
                let wait = try #require(response.headers[.retryAfter].flatMap(Int.init))
                #expect((1...10).contains(wait))
                let error = try #require(
                    try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
                #expect(error["error"] as? String == "too-many-requests")
                #expect(error["requestId"] as? String == response.headers[RequestTrace.header])
            }
            try await client.execute(uri: "/v1/jobs", method: .get, headers: [.authorization: "Bearer " + bob]) {
                #expect($0.status == .ok)
            }
            // Outside /v1, no limit.
            for _ in 0..<3 {
                try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
            }
        }
    }

    @Test func withoutAuthTheClientAddressIsLimited() async throws {
        try await withServer(limits: ServiceLimits(rateLimit: 0.1)) { client in
            try await client.execute(uri: "/v1/jobs", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/v1/jobs", method: .get) { #expect($0.status == .tooManyRequests) }
        }
    }
}
