import Contracts

/// What one run will do, decided before any audio is made: which sections are already done, which
/// are to make, what the manifest says about each, what to warn about and which old files to remove.
struct ConversionPlan {
    /// A section this run makes.
    struct SectionToMake {
        var section: PlannedSection
        /// Its file name inside the output folder.
        var file: String
        /// The file it had before, when its name changed (removed once the new one is made).
        var previousFile: String?
        /// Its spoken text when planning already read it (to see whether a done file is still
        /// current); nil: the job slot reads it, so each section's text is extracted once.
        var blocks: [SpokenBlock]?
        /// Parts of the section a previous run finished (`SectionParts`) whose files are still there
        /// with their recorded sizes and settings; the job slot uses those that still fit the text.
        var recordedParts: [PartRecord] = []
    }

    /// Every section of the book in order, as the manifest will record it before any audio.
    var records: [SectionRecord] = []
    /// Sections to make, in book order.
    var toMake: [SectionToMake] = []
    /// Selected sections whose file is complete and current: left as they are.
    var resumed: [SectionRecord] = []
    /// Selected sections whose text cannot be read (already `failed` in `records`).
    var unreadable: [(section: Int, message: String)] = []
    /// Files at our names that epub2audio did not make, replaced with `allowNonEmptyOutput`.
    var warnings: [String] = []
    /// Files the folder's manifest listed that no section refers to any more: ours, to remove.
    var unlistedFiles: Set<String> = []
    /// Part files (`SectionParts.filePrefix`) in the folder that no kept part record names: to remove.
    var staleParts: Set<String> = []
    /// Timing files (`SectionTimingFile`) of sections that are not done (to make, failed, gone): to remove.
    var staleTimings: Set<String> = []
}

/// Decides a run's plan: a pure function of the book's sections, the manifest found in the output
/// folder and the files there, so it is tested without threads, files or an engine.
enum ConversionPlanner {
    /// What the planner knows about the output folder and the request.
    struct Inputs {
        /// Every section of the book, in order.
        var sections: [PlannedSection]
        /// The numbers the request selects.
        var selected: Set<Int>
        /// The file name of each section (same order as `sections`).
        var fileNames: [String]
        /// The manifest in the folder when it describes this book (nil: start afresh).
        var previous: Manifest?
        /// Files any manifest in the folder lists: made by us, whatever book they came from.
        var ownedFiles: Set<String>
        /// Name → size of the files in the output folder.
        var filesOnDisk: [String: Int64]
        /// `AudioSettings.fingerprint` of this run.
        var settingsFingerprint: String
        /// Redo every selected section.
        var force: Bool
        /// Allow replacing files at our names that we did not make.
        var allowNonEmptyOutput: Bool
        /// The output folder, only to name paths in errors and warnings.
        var directory: String
        /// Sections keep their timing (`ConversionRequest.keepsTiming`): a done one without it is made again.
        var keepsTiming = false
    }

    /// The plan for `inputs`; `text` gives a section's spoken text (called only for a section whose
    /// file looks done, to compare its text's hash with the manifest's).
    /// - Throws: `ConversionError.outputNotEmpty` for a file at one of our names that is not ours,
    ///   unless `allowNonEmptyOutput`.
    static func plan(_ inputs: Inputs, text: (Int) throws -> [SpokenBlock]) throws -> ConversionPlan {
        var plan = ConversionPlan()
        // By number, once: looking each section up in the manifest's array made planning O(n²).
        var previousRecords: [Int: SectionRecord] = [:]
        for record in inputs.previous?.sections ?? [] where previousRecords[record.number] == nil {
            previousRecords[record.number] = record
        }
        for (section, name) in zip(inputs.sections, inputs.fileNames) {
            let old = previousRecords[section.number]
            var record = old ?? SectionRecord(number: section.number, title: section.title, words: section.words)
            record.title = section.title
            record.words = section.words
            guard inputs.selected.contains(section.number) else {
                // Not selected: a finished file stays finished; anything else is just skipped.
                if record.status != .done { record.status = .skipped }
                plan.records.append(record)
                continue
            }
            var blocks: [SpokenBlock]?
            if let old, looksDone(old, name: name, inputs) {
                // The hash of its text decides; a changed text is kept for the job.
                do {
                    blocks = try text(section.number)
                } catch {
                    record.status = .failed
                    record.error = unreadableText(error)
                    plan.unreadable.append((section.number, unreadableText(error)))
                    plan.records.append(record)
                    continue
                }
                if old.textSHA256 == SpokenTextFingerprint.sha256(blocks ?? []) {
                    plan.records.append(record)
                    plan.resumed.append(record)
                    continue
                }
            }
            if inputs.filesOnDisk[name] != nil, !inputs.ownedFiles.contains(name) {
                // A file at our name that the manifest does not give to us: never replace it silently.
                let path = OutputPaths.join(inputs.directory, name)
                guard inputs.allowNonEmptyOutput else { throw ConversionError.outputNotEmpty(path: path) }
                plan.warnings.append("replacing \(path), which epub2audio did not make")
            }
            record.status = .pending
            record.wordsDone = nil
            record.error = nil
            let recordedParts = usableParts(old, section: section.number, inputs)
            record.parts = recordedParts.isEmpty ? nil : recordedParts
            let previousFile = old?.file != name ? old?.file : nil
            record.file = name
            plan.records.append(record)
            plan.toMake.append(
                ConversionPlan.SectionToMake(
                    section: section, file: name, previousFile: previousFile, blocks: blocks,
                    recordedParts: recordedParts))
        }
        let keptPartFiles = plan.records.flatMap { $0.parts ?? [] }.map(\.file)
        let keptParts = Set(keptPartFiles + keptPartFiles.map(SectionParts.timingFileName(ofPart:)))
        plan.staleParts = Set(
            inputs.filesOnDisk.keys.filter { $0.hasPrefix(SectionParts.filePrefix) && !keptParts.contains($0) })
        let done = Set(plan.records.lazy.filter { $0.status == .done }.map(\.number))
        plan.staleTimings = Set(
            inputs.filesOnDisk.keys.filter { name in
                SectionTimingFile.section(ofFileName: name).map { !done.contains($0) } ?? false
            })
        // Files the manifest here listed that no section of this run refers to any more (another book's,
        // after --force; sections renumbered by a new --toc-depth) would linger unlisted beside the new
        // ones. A renamed section's old file goes once its new one is made.
        let referenced = Set(plan.records.compactMap(\.file)).union(plan.toMake.compactMap(\.previousFile))
        plan.unlistedFiles = inputs.ownedFiles.subtracting(referenced)
        return plan
    }

    /// Whether the manifest says the section's file is complete, made with these settings, and the
    /// file on disk has the size it recorded.
    private static func looksDone(_ old: SectionRecord, name: String, _ inputs: Inputs) -> Bool {
        !inputs.force && old.status == .done && old.file == name && old.settingsSHA256 == inputs.settingsFingerprint
            && old.bytes != nil && inputs.filesOnDisk[name] == old.bytes
            && (!inputs.keepsTiming || inputs.filesOnDisk[SectionTiming.fileName(section: old.number)] != nil)
    }

    /// The parts of a section a previous run recorded that may be used again: not `force`, made with
    /// these settings, at the name a part of that section and index gets, with the file on disk at its
    /// recorded size. (Whether they fit the text now is decided with the text, by the job slot.)
    private static func usableParts(_ old: SectionRecord?, section: Int, _ inputs: Inputs) -> [PartRecord] {
        guard !inputs.force, let parts = old?.parts else { return [] }
        var seen: Set<Int> = []
        return parts.filter { part in
            part.settingsSHA256 == inputs.settingsFingerprint
                && part.file == SectionParts.fileName(section: section, index: part.index)
                && inputs.filesOnDisk[part.file] == part.bytes && seen.insert(part.index).inserted
        }
    }

    /// The message for a section whose text cannot be read.
    static func unreadableText(_ error: any Error) -> String {
        "cannot read the section's text: \(error)"
    }
}
