import Foundation
import Hummingbird
import HummingbirdAuth
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle

/// What the API and the workers share: the job store, the blob store, how sections are made.
package struct ServiceContext: Sendable {
    package var store: any JobStore
    package var blobs: any BlobStore
    package var worker: WorkerConfiguration
    /// False: this process serves the API only (`--slots 0`); workers elsewhere run the tasks.
    package var runsWorkers: Bool
    /// What `/metrics` shows.
    package var metrics = ServiceMetrics()
    /// Set when the process begins to shut down: event streams end.
    package let shutdown = ManagedFlag()
    /// How job callbacks are signed and sent (processes that run workers send them).
    package var callbacks = CallbackConfiguration()

    package init(store: any JobStore, blobs: any BlobStore, worker: WorkerConfiguration, runsWorkers: Bool) {
        self.store = store
        self.blobs = blobs
        self.worker = worker
        self.runsWorkers = runsWorkers
    }
}

/// Limits on what a request may ask.
package struct ServiceLimits: Sendable {
    /// Largest book accepted, checked on Content-Length and while the body streams in.
    package var maxUploadBytes: Int64
    /// Every `/v1` request needs a bearer token the store knows (`--auth`).
    package var requireTokens: Bool
    /// What a 429 tells the client to wait, in seconds.
    package var retryAfterSeconds: Int = 30
    /// What a 503 (the job store or the blob store cannot be reached) tells the client to wait, in
    /// seconds: outages are expected to be short, and the answer is fast.
    package static let unavailableRetryAfterSeconds = 2
    /// Largest body of a request other than a book upload (a job's JSON): 1 MiB holds the largest
    /// valid job (10,000 chapter numbers) many times over; a larger one is 413 before it is held.
    package static let maxJSONBodyBytes = 1 << 20

    /// Requests a second each token (without `--auth`, each client address) may make to `/v1`
    /// (`--rate-limit`); nil: no limit.
    package var rateLimit: Double?

    package init(maxUploadBytes: Int64 = 200 << 20, requireTokens: Bool = false, rateLimit: Double? = nil) {
        self.maxUploadBytes = maxUploadBytes
        self.requireTokens = requireTokens
        self.rateLimit = rateLimit
    }
}

/// Runs a `TaskRunner` as a service: on graceful shutdown it claims nothing more at once; the
/// sections it is making get `grace` to finish and be recorded, then are stopped and given back to
/// the queue, before it returns.
struct TaskRunnerService: Service {
    let runner: TaskRunner
    let grace: Duration

    /// The grace of a runner whose leases last `lease` seconds: half of it, so that the process is
    /// gone within `lease` (what an orchestrator waits after SIGTERM is set to match it).
    init(runner: TaskRunner, lease: TimeInterval) {
        self.runner = runner
        grace = .milliseconds(Int64(max(0.5, lease / 2) * 1000))
    }

    func run() async throws {
        await withGracefulShutdownHandler {
            await cancelWhenGracefulShutdown {
                await runner.run()
            }
        } onGracefulShutdown: {
            runner.drain(within: grace)
        }
    }
}

/// Sends job callbacks (`CallbackSender`) until graceful shutdown; an attempt under way is cut
/// short, and sent again after its lease by this or another process.
struct CallbackService: Service {
    let sender: CallbackSender

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await sender.run()
        }
        try await sender.shutdown()
    }
}

/// Sets a flag when graceful shutdown begins (last in its group, it is told first): event streams
/// end, so that open connections do not hold the server up.
struct ShutdownNotice: Service {
    let flag: ManagedFlag

    func run() async throws {
        try? await gracefulShutdown()
        flag.set()
    }
}

/// Builds the HTTP application: the generated OpenAPI routes plus the JSON error middleware.
package enum ServerApplication {
    /// The router with every route of openapi.yaml.
    package static func router(context: ServiceContext, limits: ServiceLimits, logger: Logger) throws -> Router<
        ServiceRequestContext
    > {
        // HEAD on every GET route: the GET's status and headers (a download's Content-Length), no body.
        let router = Router(context: ServiceRequestContext.self, options: .autoGenerateHeadEndpoints)
        // Outermost: the request's id and its access-log line; then the metrics, which see the
        // status the client gets, the JSON errors' too.
        router.middlewares.add(RequestTracingMiddleware(logger: logger))
        router.middlewares.add(MetricsMiddleware(metrics: context.metrics))
        router.middlewares.add(JSONErrorMiddleware(logger: logger))
        if limits.requireTokens { router.middlewares.add(BearerTokenMiddleware(store: context.store)) }
        if let rate = limits.rateLimit { router.middlewares.add(RateLimitMiddleware(limiter: RateLimiter(rate: rate))) }
        router.middlewares.add(RequestBodyLimitMiddleware(limit: ServiceLimits.maxJSONBodyBytes))
        let api = ServiceAPI(context: context, limits: limits, logger: logger)
        try api.registerHandlers(on: router)
        // Added after the routes, it wraps only what answers requests no route takes (Hummingbird
        // builds each route's middlewares as it is added): there, a known path is a 405.
        router.middlewares.add(MethodNotAllowedMiddleware(routes: router.routes))
        return router
    }

    /// The application: the API on `host:port`, and the workers when the context runs them.
    package static func build(
        context: ServiceContext, host: String, port: Int, limits: ServiceLimits, logger: Logger,
        includingWorkers: Bool = true
    ) throws -> some ApplicationProtocol {
        var services: [any Service] = []
        if context.runsWorkers && includingWorkers {
            services.append(
                TaskRunnerService(
                    runner: TaskRunner(
                        store: context.store, blobs: context.blobs, configuration: context.worker, logger: logger),
                    lease: context.worker.lease))
            services.append(CallbackService(sender: callbackSender(context: context, logger: logger)))
        }
        return Application(
            router: try router(context: context, limits: limits, logger: logger),
            // HTTP/1.1, with a request the parser refuses answered in JSON.
            server: .http1(configuration: .init(additionalChannelHandlers: [ParserErrorResponder()])),
            configuration: .init(address: .hostname(host, port: port), serverName: "epub2audio-server"),
            services: services, logger: logger)
    }

    /// The API on `host:port` and the workers, until SIGINT or SIGTERM. Then, at once, nothing more
    /// is claimed and event streams end; sections being made get half the lease to finish, then are
    /// given back to the queue; the process is gone within the lease (docs/service.md).
    package static func run(
        context: ServiceContext, host: String, port: Int, limits: ServiceLimits, logger: Logger
    ) async throws {
        let app = try build(
            context: context, host: host, port: port, limits: limits, logger: logger, includingWorkers: false)
        // Told in reverse order: the notice first, then the workers, then the HTTP server.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: app)]
        if context.runsWorkers {
            let runner = TaskRunner(
                store: context.store, blobs: context.blobs, configuration: context.worker, logger: logger)
            services.append(.init(service: TaskRunnerService(runner: runner, lease: context.worker.lease)))
            services.append(.init(service: CallbackService(sender: callbackSender(context: context, logger: logger))))
        }
        services.append(.init(service: ShutdownNotice(flag: context.shutdown)))
        let group = ServiceGroup(
            configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }

    /// The callbacks' sender: where workers run, callbacks are sent.
    static func callbackSender(context: ServiceContext, logger: Logger) -> CallbackSender {
        CallbackSender(store: context.store, blobs: context.blobs, configuration: context.callbacks, logger: logger)
    }

    /// Only the workers, until SIGINT or SIGTERM (then as `run`: nothing more claimed, running
    /// sections finish within half the lease or are given back).
    package static func runWorkers(context: ServiceContext, logger: Logger) async throws {
        let runner = TaskRunner(
            store: context.store, blobs: context.blobs, configuration: context.worker, logger: logger)
        let group = ServiceGroup(
            configuration: .init(
                services: [
                    .init(service: TaskRunnerService(runner: runner, lease: context.worker.lease)),
                    .init(service: CallbackService(sender: callbackSender(context: context, logger: logger))),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}

/// Turns every error a handler throws into a JSON `Error` body with a fitting status; a request
/// never gets a bare 500 for its own mistakes.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            var response = try await next(request, context)
            // The OpenAPI runtime percent-encodes header values it serialises; Content-Range
            // (`bytes 0-9/100`) must reach the client as written.
            if let range = response.headers[.contentRange], range.contains("%") {
                response.headers[.contentRange] = range.removingPercentEncoding ?? range
            }
            // A redirect's Location too (a presigned URL, whose own escapes must reach the client as
            // signed): the runtime encoded it once, so decoding it once gives it back.
            if response.status == .found, let location = response.headers[.location] {
                response.headers[.location] = location.removingPercentEncoding ?? location
            }
            // Every 503 (/readyz's too) says when to try again.
            if response.status == .serviceUnavailable, response.headers[.retryAfter] == nil {
                response.headers[.retryAfter] = String(ServiceLimits.unavailableRetryAfterSeconds)
            }
            return response
        } catch let error as JobStoreError {
            // Thrown outside the API's handlers (the bearer token's lookup).
            guard case .unavailable(let message) = error else { throw error }
            logger.warning("\(request.method) \(request.uri.path): \(message)")
            return Self.unavailable(message)
        } catch let error as HTTPError {
            return Self.response(
                status: error.status, code: Self.code(error.status), message: error.body ?? "\(error.status)")
        } catch let error as any HTTPResponseError {
            return Self.response(status: error.status, code: Self.code(error.status), message: "\(error)")
        } catch let error as ServerError where error.httpStatus == .badRequest && error.underlyingError is DecodingError
        {
            // Said in plain words, naming the field: Swift's own text names types and coding keys.
            return Self.response(
                status: .badRequest, code: "bad-request",
                message: Self.plainWords(error.underlyingError as! DecodingError))
        } catch let error as ServerError {
            // The generated code's errors carry their status: 400 for a request it could not decode,
            // 415 for a wrong content type, 503 for a blob store that cannot be reached (its message
            // says why), 500 for a handler that threw.
            if error.httpStatus == .serviceUnavailable {
                logger.warning("\(request.method) \(request.uri.path): \(error.underlyingError)")
                return Self.unavailable(Self.firstLine("\(error.underlyingError)"))
            }
            if error.httpStatus.code >= 500 {
                logger.error("\(request.method) \(request.uri.path): \(error.underlyingError)")
                return Self.response(status: error.httpStatus, code: "internal", message: "internal error")
            }
            return Self.response(
                status: error.httpStatus, code: Self.code(error.httpStatus),
                message: Self.firstLine(error.causeDescription))
        } catch {
            logger.error("\(request.method) \(request.uri.path): \(error)")
            return Self.response(status: .internalServerError, code: "internal", message: "internal error")
        }
    }

    static func code(_ status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: return "bad-request"
        case 404: return "not-found"
        case 405: return "method-not-allowed"
        case 401: return "unauthorized"
        case 409: return "conflict"
        case 413: return "too-large"
        case 415: return "unsupported-media-type"
        default: return "error"
        }
    }

    /// What is wrong with a JSON body, naming the field as a client writes it (`options.chapters[1]`).
    static func plainWords(_ error: DecodingError) -> String {
        let field = { (path: [any CodingKey]) -> String in
            path.reduce("") { name, key in
                if let index = key.intValue { return name + "[\(index)]" }
                return name.isEmpty ? key.stringValue : name + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "the body lacks \(field(context.codingPath + [key])), which is required"
        case .valueNotFound(_, let context):
            return "\(field(context.codingPath)) must not be null"
        case .typeMismatch(let type, let context):
            let kind: String
            switch type {
            case is String.Type: kind = "a string"
            case is Int.Type, is Int64.Type, is Int32.Type: kind = "a whole number"
            case is Double.Type, is Float.Type: kind = "a number"
            case is Bool.Type: kind = "true or false"
            default: kind = "of another type"
            }
            guard !context.codingPath.isEmpty else { return "the body must be a JSON object" }
            return "\(field(context.codingPath)) must be \(kind)"
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return "the body is not valid JSON" }
            return "\(field(context.codingPath)) has a value it does not take (see the API reference)"
        @unknown default:
            return "the body is not the JSON this request takes"
        }
    }

    static func firstLine(_ text: String) -> String {
        String(text.prefix { $0 != "\n" }.prefix(500))
    }

    /// 503: a store cannot be reached; `Retry-After` says when to try again.
    static func unavailable(_ message: String) -> Response {
        var response = response(status: .serviceUnavailable, code: "unavailable", message: message)
        response.headers[.retryAfter] = String(ServiceLimits.unavailableRetryAfterSeconds)
        return response
    }

    /// A JSON `Error` body, with the request's id (`requestId`) when it is being traced.
    static func response(status: HTTPResponse.Status, code: String, message: String) -> Response {
        var fields = ["error": code, "message": message]
        fields["requestId"] = RequestTrace.current?.id
        let body = try? JSONSerialization.data(
            withJSONObject: fields, options: [.sortedKeys, .withoutEscapingSlashes])
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(
            status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: Array(body ?? Data()))))
    }
}

/// The token a request came with, for the handlers (nil when the server runs without `--auth`).
enum RequestIdentity {
    @TaskLocal static var token: Token?
}

/// With `--auth`: a `/v1` request, and a `/metrics` scrape (its figures are the service's, not one
/// token's: any token may read them), needs `Authorization: Bearer <secret>` naming a stored token
/// (the store keeps the secret's SHA-256 only); else 401.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let store: any TokenStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        guard path.hasPrefix("/v1/") || path == "/metrics" else { return try await next(request, context) }
        guard let bearer = request.headers.bearer,
            let token = try await store.token(secretSHA256: TokenSecret.sha256(bearer.token))
        else {
            var response = JSONErrorMiddleware<Context>.response(
                status: .unauthorized, code: "unauthorized",
                message: "this server needs Authorization: Bearer <token> (epub2audio-server token create)")
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        }
        RequestTrace.current?.tokenName = token.name
        return try await RequestIdentity.$token.withValue(token) { try await next(request, context) }
    }
}

/// Bounds the body of every request but a book upload (which streams to its store under
/// `ServiceLimits.maxUploadBytes`): a larger one is 413, refused from its Content-Length or as soon
/// as it passes the limit, before it is held in memory.
struct RequestBodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    let limit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.method == .put, request.uri.path.hasPrefix("/v1/books/") { return try await next(request, context) }
        let tooLarge = HTTPError(.contentTooLarge, message: "a request body is at most \(limit) bytes")
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw tooLarge }
        var request = request
        do {
            _ = try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw tooLarge
        }
        return try await next(request, context)
    }
}

/// A request for a path the API has, with a method it does not take: 405 with `Allow` (HEAD with
/// GET), instead of the router's 404. Only wraps the router's not-found answer.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Each route's path, split in segments (`nil`: a parameter, any segment), and its methods.
    let routes: [(segments: [String?], methods: Set<String>)]

    init(routes: [Router<Context>.RouteDescription]) {
        var methods: [String: Set<String>] = [:]
        var segments: [String: [String?]] = [:]
        for route in routes {
            let key = route.path.description
            methods[key, default: []].insert(route.method.rawValue)
            if route.method == .get { methods[key, default: []].insert(HTTPRequest.Method.head.rawValue) }
            segments[key] = route.path.components.map { element in
                let text = element.description
                return text.contains("{") || text.contains("*") || text.hasPrefix(":") ? nil : text
            }
        }
        self.routes = methods.keys.sorted().map { (segments[$0] ?? [], methods[$0] ?? []) }
    }

    /// The methods the path takes; empty when no route has it.
    func allowed(_ path: String) -> [String] {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var found: Set<String> = []
        for route in routes where route.segments.count == parts.count {
            if zip(route.segments, parts).allSatisfy({ $0.0 == nil || $0.0 == $0.1 }) { found.formUnion(route.methods) }
        }
        return found.sorted()
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = allowed(request.uri.path)
            guard !allowed.isEmpty else { throw error }
            let list = allowed.joined(separator: ", ")
            var response = JSONErrorMiddleware<Context>.response(
                status: .methodNotAllowed, code: "method-not-allowed",
                message: "\(request.method) is not a method of \(request.uri.path); it takes \(list)")
            response.headers[.allow] = list
            return response
        }
    }
}

/// A store that cannot be reached is a 503 (`JSONErrorMiddleware`); its other errors are answered by
/// the handlers.
extension JobStoreError: HTTPResponseConvertible {
    package var httpStatus: HTTPResponse.Status {
        if case .unavailable = self { return .serviceUnavailable }
        return .internalServerError
    }
}
