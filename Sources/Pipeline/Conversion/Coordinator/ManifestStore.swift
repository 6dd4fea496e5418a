import Foundation
import Synchronization

/// The manifest in memory plus its file, shared by the job slots; every change is written at once,
/// progress at most every `interval` seconds.
final class ManifestStore: Sendable {
    private struct State {
        var manifest: Manifest
        var lastWrite: Date
    }

    let directory: String
    private let interval: TimeInterval
    private let state: Mutex<State>

    init(manifest: Manifest, directory: String, interval: TimeInterval) {
        self.directory = directory
        self.interval = interval
        state = Mutex(State(manifest: manifest, lastWrite: .distantPast))
    }

    var manifest: Manifest { state.withLock { $0.manifest } }

    /// Changes section `number` (when present) and writes the manifest.
    func update(section number: Int, _ change: (inout SectionRecord) -> Void) throws {
        try state.withLock { state in
            if let index = state.manifest.sections.firstIndex(where: { $0.number == number }) {
                change(&state.manifest.sections[index])
            }
            try write(&state)
        }
    }

    /// Changes the whole manifest and writes it.
    func updateAll(_ change: (inout Manifest) -> Void) throws {
        try state.withLock { state in
            change(&state.manifest)
            try write(&state)
        }
    }

    /// Records progress; writes only when the last write is older than the interval.
    func progress(section number: Int, wordsDone: Int) throws {
        try state.withLock { state in
            if let index = state.manifest.sections.firstIndex(where: { $0.number == number }) {
                state.manifest.sections[index].wordsDone = wordsDone
            }
            if Date().timeIntervalSince(state.lastWrite) >= interval { try write(&state) }
        }
    }

    private func write(_ state: inout State) throws {
        state.manifest.updated = Timestamp.now()
        state.manifest.toolVersion = Converter.toolVersion
        try state.manifest.write(toDirectory: directory)
        state.lastWrite = Date()
    }
}
