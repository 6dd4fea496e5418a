import Foundation
import Hummingbird
import Prometheus

/// The process's Prometheus registry, and the HTTP metrics every request updates.
package final class ServiceMetrics: Sendable {
    package let registry = PrometheusCollectorRegistry()
    private let duration: DurationHistogram

    package init() {
        duration = registry.makeDurationHistogram(
            descriptor: Self.name("http_request_duration", unit: "seconds", help: "Time to the response head."),
            buckets: [
                .milliseconds(1), .milliseconds(5), .milliseconds(25), .milliseconds(100), .milliseconds(500),
                .seconds(2), .seconds(10),
            ])
    }

    func request(code: Int, duration elapsed: Duration) {
        registry.makeCounter(
            descriptor: Self.name("http_requests", unit: "total", help: "Requests by status."),
            labels: [("code", String(code))]
        ).increment()
        duration.recordNanoseconds(
            elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
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

/// Counts and times every request (the status the client gets, errors included).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await next(request, context)
        metrics.request(code: response.status.code, duration: clock.now - start)
        return response
    }
}
