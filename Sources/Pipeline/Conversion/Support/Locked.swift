import Synchronization

/// A `Mutex` in a class, so closures and threads can share it (a `Mutex` itself cannot be copied).
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: Value) { mutex = Mutex(value) }

    package func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        try mutex.withLock(body)
    }

    package var value: Value { mutex.withLock { $0 } }
}

/// A Boolean flag shared between threads.
final class Flag: Sendable {
    private let atomic = Atomic<Bool>(false)

    var isSet: Bool { atomic.load(ordering: .sequentiallyConsistent) }

    func set() { atomic.store(true, ordering: .sequentiallyConsistent) }
}
