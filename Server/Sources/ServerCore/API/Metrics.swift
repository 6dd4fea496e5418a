import Foundation
import Hummingbird
import Prometheus

/// The process's Prometheus registry, and the HTTP metrics every request updates.
package final class ServiceMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()

    /// Upper bounds of the request duration histogram's buckets.
    static let durationBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500),
        .seconds(2), .seconds(10),
    ]

    /// The methods a metric names; any other is `OTHER`, so that a client cannot make new series.
    static let methods: Set<String> = ["GET", "HEAD", "PUT", "POST", "DELETE", "PATCH", "OPTIONS"]

    /// The route label of a request no route took (404, 405).
    static let unmatchedRoute = "unmatched"

    package init() {}

    /// Counts and times one request under its method, its route's template (`/v1/jobs/{id}`, never
    /// the path it was asked with: the series stay as few as the routes) and its status.
    func request(method: String, route: String?, code: Int, duration elapsed: Duration) {
        let labels = [
            ("method", Self.methods.contains(method) ? method : "OTHER"),
            ("route", route ?? Self.unmatchedRoute), ("code", String(code)),
        ]
        registry.makeCounter(
            descriptor: Self.name("http_requests", unit: "total", help: "Requests by method, route and status."),
            labels: labels
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.name(
                "http_request_duration", unit: "seconds",
                help: "Time to the response head, by method, route and status."),
            labels: labels, buckets: Self.durationBuckets
        ).recordNanoseconds(
            elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
    }

    /// A route as the router knows it (`/v1/jobs/{id}`), or nil when no route took the request.
    static func route(endpointPath: String?) -> String? {
        guard let endpointPath, endpointPath.hasPrefix("/") else { return nil }
        return endpointPath
    }

    /// `epub2audio_<name>_<unit>`.
    static func name(_ name: String, unit: String = "", help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "epub2audio", metricName: name, unitName: unit, helpText: help)
    }

    /// The exposition text, with the store's counts as gauges (every state present, zero when empty).
    func exposition(store: any JobStoreStatus) async throws -> String {
        let (jobs, tasks) = try await store.counts()
        for state in JobState.allCases {
            registry.makeGauge(
                descriptor: Self.name("jobs", help: "Jobs by state."), labels: [("state", state.rawValue)]
            )
            .set(Int64(jobs[state.rawValue] ?? 0))
        }
        for kind in ["plan", "section", "finalize"] {
            for state in ["queued", "running", "done", "failed", "cancelled"] {
                registry.makeGauge(
                    descriptor: Self.name("tasks", help: "Tasks by kind and state."),
                    labels: [("kind", kind), ("state", state)]
                ).set(Int64(tasks[kind + "/" + state] ?? 0))
            }
        }
        return registry.emitToString()
    }
}

/// Counts and times every request by route (the status the client gets, errors included).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await next(request, context)
        metrics.request(
            method: request.method.rawValue, route: ServiceMetrics.route(endpointPath: context.endpointPath),
            code: response.status.code, duration: clock.now - start)
        return response
    }
}
