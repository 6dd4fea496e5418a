import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// Each request's context: Hummingbird's, and the client's address (what the request rate limit is
/// kept by when the server runs without `--auth`).
package struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's part.
    package var coreContext: CoreRequestContextStorage
    /// The connection's peer.
    package let remoteAddress: SocketAddress?

    /// The context of a request read from `source`'s connection.
    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Token buckets, one per key (a token's name, or a client's address): each holds up to `burst`
/// requests and refills at `rate` a second; a request finding its bucket empty is refused, told
/// how long until there is one.
///
/// Kept in this process: with several API processes behind a load balancer, each enforces the rate
/// on what it receives.
package final class RateLimiter: Sendable {
    /// Requests a second each key may make, on average.
    package let rate: Double
    /// Requests a key may make at once after being idle: one second's worth (at least one).
    package let burst: Double
    /// Keys kept at most: past it, the buckets that are full again (idle keys) are forgotten, then
    /// all of them if a flood of new addresses still fills it, so that memory stays bounded.
    package static let maxKeys = 10_000

    private struct Bucket {
        var level: Double
        var updated: Double
    }

    private let buckets = Mutex<[String: Bucket]>([:])
    private let origin = ContinuousClock.now

    /// A limiter of `rate` requests a second per key (more than 0).
    package init(rate: Double) {
        self.rate = rate
        burst = max(1, rate)
    }

    /// Takes one request from `key`'s bucket now: nil when it may go on, else the whole seconds to
    /// wait (at least 1) before the bucket holds one.
    package func take(_ key: String) -> Int? {
        let elapsed = ContinuousClock.now - origin
        return take(key, at: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// `take(_:)` at `now` seconds from any fixed origin (what tests drive).
    package func take(_ key: String, at now: Double) -> Int? {
        buckets.withLock { buckets in
            if buckets.count >= Self.maxKeys, buckets[key] == nil { forgetIdle(&buckets, now: now) }
            var bucket = buckets[key] ?? Bucket(level: burst, updated: now)
            bucket.level = min(burst, bucket.level + max(0, now - bucket.updated) * rate)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.level >= 1 else { return max(1, Int(((1 - bucket.level) / rate).rounded(.up))) }
            bucket.level -= 1
            return nil
        }
    }

    /// Keys with a bucket now.
    package var keys: Int { buckets.withLock { $0.count } }

    private func forgetIdle(_ buckets: inout [String: Bucket], now: Double) {
        buckets = buckets.filter { $0.value.level + max(0, now - $0.value.updated) * rate < burst }
        if buckets.count >= Self.maxKeys { buckets.removeAll() }
    }
}

/// `--rate-limit`: a `/v1` request over its token's rate (without `--auth`, its client address's) is
/// 429 with `Retry-After` and the JSON error body. Placed after the bearer check, which names the
/// token; a request without a valid token is a 401 before it counts.
struct RateLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.uri.path.hasPrefix("/v1/") else { return try await next(request, context) }
        guard let wait = limiter.take(Self.key(context)) else { return try await next(request, context) }
        var response = JSONErrorMiddleware<Context>.response(
            status: .tooManyRequests, code: "too-many-requests",
            message: "more than \(Self.rate(limiter.rate)) requests a second; try again in \(wait) s")
        response.headers[.retryAfter] = String(wait)
        return response
    }

    /// The token's name under `--auth`, else the client's address.
    static func key(_ context: Context) -> String {
        if let name = RequestTrace.current?.tokenName { return "token " + name }
        let address = (context as? any RemoteAddressRequestContext)?.remoteAddress
        return "address " + (address?.ipAddress ?? "unknown")
    }

    static func rate(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }
}
