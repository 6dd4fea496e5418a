import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Synchronization

/// What one request is known by while it is served: its id (the client's `X-Request-Id` when it is
/// sane, else one made here) and, once the bearer token is checked, the token's name. Log lines
/// written while the request is served carry both (`RequestTrace.metadataProvider`); every JSON error
/// body carries the id (`requestId`).
package final class RequestTrace: Sendable {
    /// The request's id, returned in `X-Request-Id`.
    package let id: String
    private let token = Mutex<String?>(nil)

    /// The request being served by the calling task, if any.
    @TaskLocal package static var current: RequestTrace?

    /// The header a request id comes in and goes out by.
    package static let header = HTTPField.Name("X-Request-Id")!

    /// Longest request id taken from a client: enough for a UUID, a W3C trace id or a ULID with a
    /// prefix; a longer one is replaced rather than carried into every log line.
    package static let maxIDLength = 128

    init(id: String) { self.id = id }

    /// The name of the token the request came with (nil before it is checked, or without `--auth`).
    package var tokenName: String? {
        get { token.withLock { $0 } }
        set { token.withLock { $0 = newValue } }
    }

    /// The client's id when it is 1 to `maxIDLength` letters, digits, `-`, `_`, `.` or `:` (what
    /// UUIDs, trace ids and most gateways' ids are made of; nothing that could forge a log line or a
    /// header), else a new UUID.
    package static func id(from header: String?) -> String {
        if let header, isSane(header) { return header }
        return UUID().uuidString.lowercased()
    }

    static func isSane(_ id: String) -> Bool {
        (1...maxIDLength).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                    UInt8(ascii: ":"):
                    return true
                default:
                    return false
                }
            }
    }

    /// Adds `request_id` (and `token` once known) to every log line written while a request is
    /// served, whoever writes it: bootstrap the logging system with it (`LogFormat.bootstrap`).
    package static let metadataProvider = Logger.MetadataProvider {
        guard let trace = RequestTrace.current else { return [:] }
        var metadata: Logger.Metadata = ["request_id": .string(trace.id)]
        if let name = trace.tokenName { metadata["token"] = .string(name) }
        return metadata
    }
}

/// The outermost middleware: gives the request its id (`RequestTrace`), returns it in `X-Request-Id`,
/// and writes one access-log line per request: method, path (never the query string, which could
/// carry a secret), status, milliseconds to the response head, request id and token name. Never the
/// token itself.
struct RequestTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let trace = RequestTrace(id: RequestTrace.id(from: request.headers[RequestTrace.header]))
        let clock = ContinuousClock()
        let start = clock.now
        return try await RequestTrace.$current.withValue(trace) {
            do {
                var response = try await next(request, context)
                response.headers[RequestTrace.header] = trace.id
                log(request, status: response.status.code, trace: trace, elapsed: clock.now - start)
                return response
            } catch {
                // Past the JSON error middleware only what it leaves to Hummingbird (a 500 or the
                // error's own status).
                let status = (error as? any HTTPResponseError)?.status.code ?? 500
                log(request, status: status, trace: trace, elapsed: clock.now - start)
                throw error
            }
        }
    }

    private func log(_ request: Request, status: Int, trace: RequestTrace, elapsed: Duration) {
        let milliseconds =
            Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        var metadata: Logger.Metadata = [
            "method": .string(request.method.rawValue), "path": .string(request.uri.path),
            "status": .stringConvertible(status),
            "duration_ms": .stringConvertible((milliseconds * 10).rounded() / 10),
        ]
        // The provider adds them when the logging system was bootstrapped with it; a logger made
        // without it (tests, a library's caller) still gets them on this line.
        metadata["request_id"] = .string(trace.id)
        if let name = trace.tokenName { metadata["token"] = .string(name) }
        logger.info("\(request.method) \(request.uri.path) \(status)", metadata: metadata)
    }
}
