import Foundation

/// What the run records about its sections, in the manifest and as events: in progress, progress,
/// finished, failed, and, after a stop, settled back to pending. A write that fails stops the run
/// (`RunControl`): a manifest that cannot be written cannot be resumed.
final class SectionRecorder: Sendable {
    private let store: ManifestStore
    private let control: RunControl
    /// Where the run's events go.
    let emit: @Sendable (ConversionEvent) -> Void

    init(store: ManifestStore, control: RunControl, emit: @escaping @Sendable (ConversionEvent) -> Void) {
        self.store = store
        self.control = control
        self.emit = emit
    }

    /// The manifest as the run has it now.
    var manifest: Manifest { store.manifest }

    /// Records that the section is being made; false (the run stops) when it cannot.
    /// `parts`: the finished parts it keeps (nil: none).
    func markInProgress(_ number: Int, parts: [PartRecord]?) -> Bool {
        update(number) {
            $0.status = .inProgress
            $0.started = Timestamp.now()
            $0.finished = nil
            $0.error = nil
            $0.parts = parts
            $0.wordsDone = 0
        }
    }

    /// The words the section has spoken so far (written with the next manifest write).
    func progress(_ number: Int, wordsDone: Int) {
        try? store.progress(section: number, wordsDone: wordsDone)
    }

    /// Records a finished part list and the words spoken; throws when the manifest cannot be written.
    func recordParts(_ number: Int, parts: [PartRecord], wordsDone: Int) throws {
        try store.update(section: number) {
            $0.parts = parts
            $0.wordsDone = wordsDone
        }
    }

    /// Records the section done in `file` (`bytes` long, made as `result` says with the settings
    /// `settingsSHA256`, tagged as track `track`); throws when the manifest cannot be written.
    func recordDone(
        _ number: Int, file: String, result: WorkerResult, bytes: Int64, settingsSHA256: String, track: String?
    ) throws {
        try store.update(section: number) {
            $0.status = .done
            $0.file = file
            $0.durationSeconds = result.durationSeconds
            $0.frames = result.frames
            $0.sampleRate = result.sampleRate
            $0.bytes = bytes
            $0.textSHA256 = result.textSHA256
            $0.settingsSHA256 = settingsSHA256
            $0.finished = Timestamp.now()
            $0.wordsDone = nil
            $0.error = nil
            $0.parts = nil
            $0.track = track
        }
    }

    /// Records the section failed with `message`, and says so.
    func fail(_ number: Int, message: String) {
        _ = update(number) {
            $0.status = .failed
            $0.error = message
            $0.finished = Timestamp.now()
            $0.wordsDone = nil
        }
        emit(.error(section: number, message: message))
    }

    /// After a stop: nothing is left in progress (those sections are pending again, for a resume).
    func settleAfterStop() {
        try? store.updateAll { manifest in
            for index in manifest.sections.indices where manifest.sections[index].status == .inProgress {
                manifest.sections[index].status = .pending
                manifest.sections[index].wordsDone = nil
            }
        }
    }

    /// Writes the manifest a last time and stops its writer.
    func close() throws { try store.close() }

    private func update(_ number: Int, _ change: (inout SectionRecord) -> Void) -> Bool {
        do {
            try store.update(section: number, change)
            return true
        } catch let error as ConversionError {
            control.stopWithFatal(error)
        } catch {
            control.stopWithFatal(.outputUnwritable(path: store.directory, reason: "\(error)"))
        }
        return false
    }
}
